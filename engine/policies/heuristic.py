"""A rule-of-thumb CPU player that sees only its own :class:`~engine.views.View`.

Trump: name a suit holding its jack, or its nine and ace, with at least three cards of it;
else pass, or name the strongest legal suit when passing is not allowed.  Roem is always
taken.  Play: the playing side pulls trumps, then both sides cash sure winners and
otherwise lead low from a short suit; a follower smears points on a trick its partner
surely wins, wins an opponent's trick as cheaply as it can, and else discards its least
valuable card without completing roem for the opponents.  Everything it knows about the
other hands comes from the cards played: unseen cards and the voids the seats showed.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from ..actions import PASS, TAKE, Action, Kind
from ..cards import FULL_MASK, SUIT_MASK
from ..deal import Phase
from ..tables import ABOVE, LAST_TRICK, PLAIN_ORDER, POINTS, RUN_ROEM, STUK, TRUMP_ORDER
from ..trick import card_points, roem, winning_index
from ..views import View

NINE, JACK, ACE = 2, 4, 7  # ranks
TOP_COST = 12  # what keeping the highest card left in a plain suit is worth
TRUMP_COST = 4  # what keeping a trump is worth, on top of its points and two per step of order


def order(card: int, trump: int) -> int:
    """The strength of ``card`` within its own suit (0 lowest, 7 highest)."""
    return TRUMP_ORDER[card & 7] if card >> 3 == trump else PLAIN_ORDER[card & 7]


def higher(card: int, trump: int) -> int:
    """Mask of the cards of ``card``'s own suit that beat it."""
    if card >> 3 == trump:
        return ABOVE[trump][card]
    mine, base = PLAIN_ORDER[card & 7], card & ~7
    return sum(1 << (base + r) for r in range(8) if PLAIN_ORDER[r] > mine)


def partial_roem(cards: Sequence[int], trump: int) -> int:
    """Roem already formed by the cards of an unfinished trick (a run, and stuk)."""
    mask = sum(1 << c for c in cards)
    runs = max(RUN_ROEM[mask >> (8 * s) & 255] for s in range(4))
    return runs + (20 if mask & STUK[trump] == STUK[trump] else 0)


def shown_voids(view: View, trump: int) -> list[int]:
    """Per seat, a bit per suit that seat has shown it no longer holds."""
    voids = [0, 0, 0, 0]
    amsterdam = view.rules.amsterdam
    tricks = [(t.leader, t.cards) for t in view.tricks] + [(view.leader, view.trick)]
    for leader, cards in tricks:
        for i in range(1, len(cards)):
            led, suit, seat = cards[0] >> 3, cards[i] >> 3, (leader + i) & 3
            if suit == led:
                continue
            voids[seat] |= 1 << led
            if suit != trump:  # a plain discard: no trumps, unless amsterdam allowed it
                winner = (leader + winning_index(cards[:i], trump)) & 3
                trumped = any(c >> 3 == trump for c in cards[:i])
                if not amsterdam or ((winner ^ seat) & 1 and not trumped):
                    voids[seat] |= 1 << trump
    return voids


@dataclass(frozen=True, slots=True)
class Knowledge:
    """What the acting seat knows in the play phase."""

    seat: int
    trump: int
    playing: bool  # the seat's team chose trump
    leader: int
    trick: tuple[int, ...]
    legal: tuple[int, ...]
    unseen: int  # cards in the other three hands
    possible: tuple[int, ...]  # per seat, the unseen cards it may still hold
    last: bool  # the eighth trick

    @classmethod
    def of(cls, view: View) -> Knowledge:
        assert view.seat is not None and view.trump is not None and view.chooser is not None
        trump, hand = view.trump, sum(1 << c for c in view.hand)
        unseen = FULL_MASK & ~hand & ~view.played
        voids = shown_voids(view, trump)
        possible = tuple(
            unseen & ~sum(SUIT_MASK[s] for s in range(4) if voids[seat] >> s & 1)
            for seat in range(4)
        )
        return cls(
            seat=view.seat,
            trump=trump,
            playing=not (view.chooser ^ view.seat) & 1,
            leader=view.leader,
            trick=view.trick,
            legal=tuple(a.value for a in view.legal),
            unseen=unseen,
            possible=possible,
            last=len(view.tricks) == 7,
        )

    def ours(self, seat: int) -> bool:
        return not (seat ^ self.seat) & 1

    def winner(self, cards: Sequence[int]) -> int:
        return (self.leader + winning_index(cards, self.trump)) & 3

    def points(self, card: int) -> int:
        return POINTS[self.trump][card]

    def is_trump(self, card: int) -> bool:
        return card >> 3 == self.trump

    def is_top(self, card: int) -> bool:
        """No unseen card of its suit beats ``card``."""
        return not self.unseen & higher(card, self.trump)

    def cost(self, card: int) -> int:
        """What keeping ``card`` for a later trick is worth."""
        if self.is_trump(card):
            return self.points(card) + TRUMP_COST + 2 * TRUMP_ORDER[card & 7]
        return TOP_COST if self.is_top(card) else 0

    @property
    def opponents(self) -> tuple[int, int]:
        return (self.seat + 1) & 3, (self.seat + 3) & 3

    def opponents_may_trump(self) -> bool:
        return any(self.possible[o] & SUIT_MASK[self.trump] for o in self.opponents)

    def holds(self, cards: Sequence[int], strict: bool) -> bool:
        """Whether our team wins a trick begun with ``cards`` whatever the opponents still to
        play hold; unless ``strict``, an opponent trumps only after showing a void."""
        index = winning_index(cards, self.trump)
        if not self.ours(self.leader + index):
            return False
        best, led, trump = cards[index], cards[0] >> 3, self.trump
        for i in range(len(cards), 4):
            o = (self.leader + i) & 3
            if self.ours(o):
                continue
            held = self.possible[o]
            if best >> 3 == led and held & higher(best, trump):
                return False
            if led == trump:
                continue
            if strict or not held & SUIT_MASK[led]:
                over = ABOVE[trump][best] if self.is_trump(best) else SUIT_MASK[trump]
                if held & over:
                    return False
        return True


class HeuristicPolicy:
    """Plays by the rules of thumb in the module docstring; deterministic (``rng`` unused)."""

    name = "heuristic"

    def act(self, view: View, rng: random.Random) -> Action:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        if view.phase is Phase.CLAIM:
            return TAKE  # claimed roem is always worth taking (leave is the other choice)
        if view.phase is Phase.TRUMP:
            return choose_trump(view.hand, legal)
        return Action.play(choose_card(Knowledge.of(view)))


# -- choosing trump -------------------------------------------------------------------------


def accepts(hand: Sequence[int], suit: int) -> bool:
    """Three or more cards of ``suit`` with its jack, or with its nine and ace."""
    ranks = {c & 7 for c in hand if c >> 3 == suit}
    return len(ranks) >= 3 and (JACK in ranks or {NINE, ACE} <= ranks)


def suit_score(hand: Sequence[int], suit: int) -> int:
    """Hand strength with ``suit`` as trump: trump points, trump length and side aces."""
    trumps = [c for c in hand if c >> 3 == suit]
    side_aces = sum(1 for c in hand if c & 7 == ACE and c >> 3 != suit)
    return sum(POINTS[suit][c] for c in trumps) + 10 * len(trumps) + 11 * side_aces


def choose_trump(hand: Sequence[int], legal: Sequence[Action]) -> Action:
    names = [a for a in legal if a.kind is Kind.TRUMP]
    if PASS in legal:
        names = [a for a in names if accepts(hand, a.value)]
        if not names:
            return PASS
    return max(names, key=lambda a: (suit_score(hand, a.value), -a.value))


# -- playing a card -------------------------------------------------------------------------


def choose_card(t: Knowledge) -> int:
    if not t.trick:
        return lead(t)
    if len(t.trick) == 3:
        return play_last(t)
    return follow(t)


def lead(t: Knowledge) -> int:
    """Pull trumps (playing side), cash sure winners, else lead low from a short suit."""
    trumps = [c for c in t.legal if t.is_trump(c)]
    plain = [c for c in t.legal if not t.is_trump(c)]
    if t.playing and trumps and t.opponents_may_trump():
        tops = [c for c in trumps if t.is_top(c)]
        if tops:
            return max(tops, key=lambda c: order(c, t.trump))
        if len(trumps) >= 2:
            return min(trumps, key=lambda c: order(c, t.trump))
    winners = [c for c in plain if t.is_top(c) and t.holds((c,), strict=False)]
    if t.playing:
        winners += [c for c in trumps if t.is_top(c)]
    if winners:
        return max(winners, key=lambda c: (c & 7 == ACE, not t.is_trump(c), t.points(c), c))
    if plain:
        return low_lead(t, plain)
    return min(trumps, key=lambda c: (order(c, t.trump), c))


def low_lead(t: Knowledge, plain: list[int]) -> int:
    """The lowest card of a suit no opponent is known to ruff, preferring short suits."""

    def key(c: int) -> tuple[int, ...]:
        suit = c >> 3
        ruffed = any(
            not t.possible[o] & SUIT_MASK[suit] and t.possible[o] & SUIT_MASK[t.trump]
            for o in t.opponents
        )
        length = sum(1 for x in plain if x >> 3 == suit)
        return (ruffed, t.points(c), length, order(c, t.trump), c)

    return min(plain, key=key)


def follow(t: Knowledge) -> int:
    """Second or third to play: smear, win cheaply, or discard."""
    trick = t.trick
    partner_wins = t.ours(t.winner(trick))
    if partner_wins and t.holds(trick, strict=True):
        return smear(t)
    safe = [c for c in t.legal if t.holds((*trick, c), strict=False)]
    if safe:
        best = min(safe, key=lambda c: (t.cost(c), order(c, t.trump), c))
        precious = t.is_trump(best) and best & 7 in (JACK, NINE)
        if not precious or card_points(trick, t.trump) >= 10 or len(safe) == len(t.legal):
            return best
    if not partner_wins and len(trick) == 2:
        chances = [c for c in t.legal if t.ours(t.winner((*trick, c))) and t.points(c) < 10]
        if chances:
            return min(chances, key=lambda c: (t.cost(c), order(c, t.trump), c))
    return discard(t)


def smear(t: Knowledge) -> int:
    """Partner surely wins: add the most points we can spare, keeping the trick safe."""

    def value(c: int) -> tuple[int, ...]:
        after = (*t.trick, c)
        gain = t.points(c) - t.cost(c) + partial_roem(after, t.trump)
        return (t.holds(after, strict=True), gain, -order(c, t.trump), -c)

    return max(t.legal, key=value)


def discard(t: Knowledge) -> int:
    """The least valuable legal card, not one that forms roem for the opponents."""
    before = partial_roem(t.trick, t.trump)

    def key(c: int) -> tuple[int, ...]:
        after = (*t.trick, c)
        gives = not t.ours(t.winner(after)) and partial_roem(after, t.trump) > before
        return (gives, t.points(c), t.cost(c), order(c, t.trump), c)

    return min(t.legal, key=key)


def play_last(t: Knowledge) -> int:
    """Last to play, the outcome is known: take the best of points, roem and kept cards."""
    base = card_points(t.trick, t.trump) + (LAST_TRICK if t.last else 0)

    def value(c: int) -> tuple[int, ...]:
        after = (*t.trick, c)
        gain = base + t.points(c) + roem(after, t.trump)
        sign = 1 if t.ours(t.winner(after)) else -1
        return (sign * gain - t.cost(c), -order(c, t.trump), -c)

    return max(t.legal, key=value)
