"""Inference from play: how likely a world's hands make the cards the other seats played.

Every card another seat played was chosen from that seat's own view: its hand then and
what was public.  :class:`PlayModel` models that choice by the heuristic's rules
(:func:`engine.policies.heuristic.choose_card`): a card the heuristic would have played
from that hand has likelihood 1, any other ``eps`` (never zero: players err, and a human
is no heuristic).  A seat's plays depend on its own hand alone, so the likelihood of a
world is a product over the seats of a factor of that seat's dealt hand, and each factor
is memoised.  The public part of every past decision (the trick so far, the voids shown,
the cards gone) is worked out once per view.  Pure: no randomness, no clock.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from ..cards import FULL_MASK, SUIT_MASK, cards_of
from ..legal import legal_mask
from ..trick import winning_index
from ..views import View
from .heuristic import Knowledge, choose_card, shown_voids

MAX_MISSES = 2  # plays off the model after which a hand's likelihood is not lowered further


@dataclasses.dataclass(frozen=True, slots=True)
class Decision:
    """The public part of one past card play: everything but the player's hand."""

    seat: int
    card: int
    before: int  # the seat's own cards played before this one
    gone: int  # every card played before this one (the trick's included)
    leader: int
    trick: tuple[int, ...]
    high_trump: int
    partner_winning: bool
    hidden: tuple[int, ...]  # per seat, the cards of the suits it showed void in before
    last: bool


def decisions(view: View) -> list[Decision]:
    """Every card played so far with its public context, in order of play."""
    trump = view.trump
    if trump is None:
        return []
    tricks = [(t.leader, t.cards) for t in view.tricks] + [(view.leader, view.trick)]
    found: list[Decision] = []
    gone = 0
    own = [0, 0, 0, 0]
    done: list = []
    for number, (leader, cards) in enumerate(tricks):
        for i, card in enumerate(cards):
            seat = (leader + i) & 3
            trick = tuple(cards[:i])
            high, partner = -1, False
            if trick:
                best = winning_index(trick, trump)
                high = trick[best] if trick[best] >> 3 == trump else -1
                partner = not ((leader + best) ^ seat) & 1
            past = dataclasses.replace(view, tricks=tuple(done), leader=leader, trick=trick)
            voids = shown_voids(past, trump)
            hidden = tuple(
                sum(SUIT_MASK[s] for s in range(4) if voids[k] >> s & 1) for k in range(4)
            )
            found.append(
                Decision(
                    seat, card, own[seat], gone, leader, trick, high, partner, hidden, number == 7
                )
            )
            gone |= 1 << card
            own[seat] |= 1 << card
        if number < len(view.tricks):
            done.append(view.tricks[number])
    return found


class PlayModel:
    """The likelihood of the other seats' plays given their dealt hands (see the module
    docstring).  ``eps`` maps a seat to its per-play error rate; a seat missing from it (or
    with 1.0) is not modelled."""

    def __init__(self, view: View, eps: dict[int, float]) -> None:
        assert view.trump is not None and view.chooser is not None
        self.trump = view.trump
        self.chooser = view.chooser
        self.amsterdam = view.rules.amsterdam
        self.eps = {s: e for s, e in eps.items() if e < 1.0 and s != view.seat}
        self.by_seat: dict[int, list[Decision]] = {s: [] for s in self.eps}
        for d in decisions(view):
            if d.seat in self.by_seat:
                self.by_seat[d.seat].append(d)
        # (seat, dealt) -> [the factor of the plays checked, the next play to check, misses]
        self._memo: dict[tuple[int, int], list] = {}
        self.checks = 0  # plays checked against the model so far (what inference costs)

    def matches(self, d: Decision, dealt: int) -> bool:
        """Whether the heuristic holding ``dealt`` would have played ``d.card`` at ``d``."""
        hand = dealt & ~d.before
        legal = legal_mask(
            hand, list(d.trick), d.high_trump, d.partner_winning, self.trump, self.amsterdam
        )
        if not legal & (legal - 1):  # one legal card: the play says nothing
            return True
        unseen = FULL_MASK & ~hand & ~d.gone
        possible = tuple(unseen & ~hidden for hidden in d.hidden)
        knowledge = Knowledge(
            seat=d.seat,
            trump=self.trump,
            playing=not (self.chooser ^ d.seat) & 1,
            leader=d.leader,
            trick=d.trick,
            legal=tuple(cards_of(legal)),
            unseen=unseen,
            possible=possible,
            last=d.last,
        )
        return choose_card(knowledge) == d.card

    def seat_factor(self, seat: int, dealt: int, floor: float = 0.0) -> float:
        """The likelihood of ``seat``'s plays so far when it was dealt ``dealt``, or, once
        it is known to be at most ``floor``, a value at most ``floor`` (the plays are checked
        lazily: a world whose first play off the model rejects it costs one check)."""
        state = self._memo.setdefault((seat, dealt), [1.0, 0, 0])
        found, index, misses = state
        plays = self.by_seat[seat]
        while found > floor and index < len(plays) and misses < MAX_MISSES:
            self.checks += 1
            if not self.matches(plays[index], dealt):
                found *= self.eps[seat]
                misses += 1
            index += 1
        state[:] = found, index, misses
        return found

    def __call__(self, start: Sequence[int], floor: float = 0.0) -> float:
        """The likelihood of every modelled seat's plays for a world's dealt hands (or a
        value at most ``floor``, as :meth:`seat_factor`)."""
        weight = 1.0
        for seat in self.eps:
            weight *= self.seat_factor(seat, start[seat], floor / weight)
            if weight <= floor:
                break
        return weight


__all__ = ["Decision", "PlayModel", "decisions"]
