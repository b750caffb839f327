"""The exact open-card solver in pure Python: the specification of ``engine/_solver.c``.

It lives in the package (not under ``tests/``) because it is the readable statement of
what the compiled solver computes: the tests compare the two on thousands of random
positions, and the bench and the search can call it on a machine where the compiled
module was not built.  It is deliberately plain: no card merging, no quick tricks, both
take and leave tried at every claim decision, so that an error in the compiled
reductions shows up as a difference.  Production code imports :mod:`engine.solver`.

The value of a position is the final deal total of the playing team minus the other
team's, ``g = m`` when ``m > 0`` and ``-(162 + r)`` otherwise (nat, ties nat), where ``m``
is the playing team's card points plus roem (and pit bonus) minus the other team's and
``r`` all roem plus any pit bonus.  Both ``m`` and ``r`` add up trick by trick, ``g``
does not.  So the search runs in two phases:

1. an alpha-beta on the additive margin (each side always takes its roem, which can only
   help its margin), with a transposition table of bounds on the *future* margin keyed on
   the remaining cards, the leader and who may still take every trick.  If the playing
   team can force ``m >= 1`` its value is exactly that maximin margin ``M``: it holds
   ``m >= M`` with its margin strategy, and the opponents hold ``m <= M`` (and nat only
   lowers ``g``).
2. otherwise the opponents can force nat, and the value is the minimax of ``g`` itself,
   searched with the accumulated ``m`` and ``r`` in the state (and the table's key): the
   playing team hopes to escape nat or to keep the roem low, even its own (it may leave
   its roem in claim mode), the opponents keep ``m <= 0`` and the roem high.
"""

from __future__ import annotations

from .actions import LEAVE, TAKE, Action
from .cards import cards_of
from .deal import Deal, Phase
from .legal import legal_mask
from .rules import PitBonus, RoemMode
from .scoring import PIT_BONUS
from .tables import DEAL_POINTS, LAST_TRICK, POINTS
from .trick import roem as trick_roem
from .trick import winning_index

INF = 1 << 20


class Position:
    """A position after a root action: the state both phases search from."""

    __slots__ = ("done", "flags", "hands", "leader", "m", "pending", "r", "trick")

    def __init__(self, hands, leader, trick, flags, done, m, r, pending=0):
        self.hands = hands  # tuple of four masks
        self.leader = leader
        self.trick = trick  # tuple of the cards of the current trick, in play order
        self.flags = flags  # bit t: team t has won a trick
        self.done = done  # tricks finished
        self.m = m  # playing team's points + roem minus the other's, so far
        self.r = r  # all roem so far
        self.pending = pending  # roem the leader (last winner) may take or leave


class ReferenceSolver:
    """One solve of one deal: the deal's constants, two transposition tables, a node count."""

    def __init__(self, deal: Deal) -> None:
        if deal.phase not in (Phase.PLAY, Phase.CLAIM):
            raise ValueError(f"nothing to solve in phase {deal.phase}")
        self.deal = deal
        self.trump = deal.trump
        self.points = POINTS[deal.trump]
        self.amsterdam = deal.rules.amsterdam
        self.claim = deal.rules.roem is RoemMode.CLAIM
        self.playing = deal.chooser & 1
        self.pit_any = deal.rules.pit_bonus is PitBonus.ANY
        self.tt1: dict[tuple, tuple[int, int]] = {}
        self.tt2: dict[tuple, tuple[int, int]] = {}
        self.nodes = 0

    # -- the root ------------------------------------------------------------------------

    def children(self) -> list[tuple[Action, Position]]:
        """Each legal action of the seat to move with the position it leads to."""
        deal, p = self.deal, self.playing
        points = list(deal.points)
        flags = (deal.won[0] > 0) | (deal.won[1] > 0) << 1
        done = len(deal.tricks)
        if deal.phase is Phase.CLAIM:
            last = deal.tricks[-1]
            if done == 8:  # the last trick's 10 is added when the deal is scored
                points[last.winner & 1] += LAST_TRICK
            m = points[p] + deal.roem[p] - points[1 - p] - deal.roem[1 - p]
            r = deal.roem[0] + deal.roem[1]
            sign = 1 if last.winner & 1 == p else -1
            hands = tuple(deal.hands)
            return [
                (TAKE, Position(hands, last.winner, (), flags, done, m + sign * last.roem,
                                r + last.roem)),
                (LEAVE, Position(hands, last.winner, (), flags, done, m, r)),
            ]  # fmt: skip
        m = points[p] + deal.roem[p] - points[1 - p] - deal.roem[1 - p]
        r = deal.roem[0] + deal.roem[1]
        out = []
        for card in cards_of(deal.legal_mask()):
            hands = list(deal.hands)
            hands[deal.turn] ^= 1 << card
            out.append(
                (
                    Action.play(card),
                    self._after(tuple(hands), deal.leader, (*deal.trick, card), flags, done, m, r),
                )
            )
        return out

    def _after(self, hands, leader, trick, flags, done, m, r) -> Position:
        if len(trick) < 4:
            return Position(hands, leader, trick, flags, done, m, r)
        winner, gain, roem = self._close(leader, trick, done)
        sign = 1 if winner & 1 == self.playing else -1
        m += sign * gain
        flags |= 1 << (winner & 1)
        if roem and self.claim:
            return Position(hands, winner, (), flags, done + 1, m, r, roem)
        return Position(hands, winner, (), flags, done + 1, m + sign * roem, r + roem)

    def value(self, pos: Position) -> int:
        """The exact final value ``g`` of a position for the playing team."""
        p = self.playing
        d = self.margin(pos.hands, pos.leader, pos.trick, pos.flags, pos.done, -INF, INF)
        margin = pos.m + (d if p == 0 else -d)
        if pos.pending:  # in the margin game every side takes its roem
            margin += pos.pending if pos.leader & 1 == p else -pos.pending
        if margin >= 1:
            return margin
        if pos.pending:
            return self.decide(pos.hands, pos.leader, pos.flags, pos.done, pos.m, pos.r,
                               pos.pending, -INF, INF)  # fmt: skip
        return self.final(pos.hands, pos.leader, pos.trick, pos.flags, pos.done, pos.m, pos.r,
                          -INF, INF)  # fmt: skip

    def solve(self) -> dict[Action, int]:
        mover = self.deal.turn & 1
        sign = 1 if mover == self.playing else -1
        return {action: sign * self.value(pos) for action, pos in self.children()}

    # -- shared --------------------------------------------------------------------------

    def _close(self, leader: int, trick: tuple[int, ...], done: int) -> tuple[int, int, int]:
        """The winner of a full trick, its card points (with the last 10) and its roem."""
        pts = self.points
        winner = (leader + winning_index(trick, self.trump)) & 3
        gain = pts[trick[0]] + pts[trick[1]] + pts[trick[2]] + pts[trick[3]]
        if done == 7:
            gain += LAST_TRICK
        return winner, gain, trick_roem(trick, self.trump)

    def _legal(self, hands, leader, trick) -> int:
        turn = (leader + len(trick)) & 3
        if not trick:
            return hands[turn]
        w = winning_index(trick, self.trump)
        high = trick[w] if trick[w] >> 3 == self.trump else -1
        partner = not ((leader + w) ^ turn) & 1
        return legal_mask(hands[turn], list(trick), high, partner, self.trump, self.amsterdam)

    def _pit(self, flags: int) -> tuple[int, int]:
        """The pit bonus at the end: (its team, 100) or (-1, 0)."""
        team = 0 if flags == 1 else 1 if flags == 2 else -1
        if team >= 0 and (self.pit_any or team == self.playing):
            return team, PIT_BONUS
        return -1, 0

    # -- phase 1: the additive margin, team 0 minus team 1 ------------------------------

    def margin(self, hands, leader, trick, flags, done, alpha, beta) -> int:
        """Future (team 0 - team 1) margin: points, last trick, roem (always taken), pit."""
        self.nodes += 1
        key = None
        if not trick:
            if done == 8:
                team, bonus = self._pit(flags)
                return 0 if team < 0 else bonus if team == 0 else -bonus
            key = (hands[0] | hands[1] | hands[2] | hands[3], leader, flags)
            low, high = self.tt1.get(key, (-INF, INF))
            if low >= beta or low == high:
                return low
            if high <= alpha:
                return high
            alpha, beta = max(alpha, low), min(beta, high)
        a0, b0 = alpha, beta
        turn = (leader + len(trick)) & 3
        maxing = turn & 1 == 0
        best = -INF if maxing else INF
        for card in cards_of(self._legal(hands, leader, trick)):
            h = list(hands)
            h[turn] ^= 1 << card
            h = tuple(h)
            t = (*trick, card)
            if len(t) == 4:
                winner, gain, roem = self._close(leader, t, done)
                gain += roem
                if winner & 1:
                    gain = -gain
                v = gain + self.margin(h, winner, (), flags | 1 << (winner & 1), done + 1,
                                       alpha - gain, beta - gain)  # fmt: skip
            else:
                v = self.margin(h, leader, t, flags, done, alpha, beta)
            if maxing:
                best = max(best, v)
                alpha = max(alpha, v)
            else:
                best = min(best, v)
                beta = min(beta, v)
            if alpha >= beta:
                break
        if key is not None:
            _record(self.tt1, key, a0, b0, best)
        return best

    # -- phase 2: the final value g for the playing team ---------------------------------

    def _end(self, flags: int, m: int, r: int) -> int:
        team, bonus = self._pit(flags)
        if bonus:
            m += bonus if team == self.playing else -bonus
            r += bonus
        return m if m > 0 else -(DEAL_POINTS + r)

    def decide(self, hands, winner, flags, done, m, r, roem, alpha, beta) -> int:
        """The last trick's winner takes or leaves ``roem``, then play goes on."""
        ours = winner & 1 == self.playing
        best = -INF if ours else INF
        sign = 1 if ours else -1
        for mm, rr in ((m + sign * roem, r + roem), (m, r)):
            v = self.final(hands, winner, (), flags, done, mm, rr, alpha, beta)
            if ours:
                best = max(best, v)
                alpha = max(alpha, v)
            else:
                best = min(best, v)
                beta = min(beta, v)
            if alpha >= beta:
                break
        return best

    def final(self, hands, leader, trick, flags, done, m, r, alpha, beta) -> int:
        self.nodes += 1
        key = None
        if not trick:
            if done == 8:
                return self._end(flags, m, r)
            key = (hands[0] | hands[1] | hands[2] | hands[3], leader, flags, m, r)
            low, high = self.tt2.get(key, (-INF, INF))
            if low >= beta or low == high:
                return low
            if high <= alpha:
                return high
            alpha, beta = max(alpha, low), min(beta, high)
        a0, b0 = alpha, beta
        turn = (leader + len(trick)) & 3
        maxing = turn & 1 == self.playing
        best = -INF if maxing else INF
        for card in cards_of(self._legal(hands, leader, trick)):
            h = list(hands)
            h[turn] ^= 1 << card
            h = tuple(h)
            t = (*trick, card)
            if len(t) == 4:
                winner, gain, roem = self._close(leader, t, done)
                sign = 1 if winner & 1 == self.playing else -1
                f = flags | 1 << (winner & 1)
                mm = m + sign * gain
                if roem and self.claim:
                    v = self.decide(h, winner, f, done + 1, mm, r, roem, alpha, beta)
                else:
                    v = self.final(h, winner, (), f, done + 1, mm + sign * roem, r + roem,
                                   alpha, beta)  # fmt: skip
            else:
                v = self.final(h, leader, t, flags, done, m, r, alpha, beta)
            if maxing:
                best = max(best, v)
                alpha = max(alpha, v)
            else:
                best = min(best, v)
                beta = min(beta, v)
            if alpha >= beta:
                break
        if key is not None:
            _record(self.tt2, key, a0, b0, best)
        return best


def _record(table: dict[tuple, tuple[int, int]], key: tuple, a0: int, b0: int, best: int) -> None:
    """What a search of the window [a0, b0] found: an upper bound, a lower bound or exact."""
    low, high = table.get(key, (-INF, INF))
    if best <= a0:
        high = min(high, best)
    elif best >= b0:
        low = max(low, best)
    else:
        low = high = best
    table[key] = (low, high)


def solve(deal: Deal) -> dict[Action, int]:
    """Every legal action's exact value for the mover's team (see :mod:`engine.solver`)."""
    return ReferenceSolver(deal).solve()


def best(deal: Deal) -> tuple[Action, int]:
    """The best action (the first of the legal order on a tie) and its value."""
    values = solve(deal)
    action = max(values, key=values.__getitem__)
    return action, values[action]


def solve_value(deal: Deal) -> int:
    return max(solve(deal).values())
