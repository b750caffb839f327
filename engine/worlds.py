"""Worlds: deals of the unseen cards that fit everything one seat has seen.

A seat knows its own hand, every card played and by whom, the hand sizes, the trump
choice and, in ``turned`` mode, the turned card (the dealer's last card).  Every card a
seat played was legal for the hand it held then, and :func:`forbidden` turns that into
the cards that hand cannot have held (a void shown by not following, no trump shown by
discarding, no higher trump shown by undertrumping, exactly as :func:`engine.legal.legal_mask`
decides).  So each other seat may hold any unseen card outside its forbidden set, and the
worlds are the ways to deal the unseen cards under those per-card constraints with the
right hand sizes.

:class:`Worlds` counts them exactly (cards with the same set of possible holders are
interchangeable, so a small table over the holders' remaining room does it) and draws
them uniformly without rejection: class by class, a split of the class between its
possible holders is drawn in proportion to the number of worlds that complete it.
Everything random comes from the :class:`random.Random` passed in.

Soft information (what a pass or a named trump suggests about a hand) is a likelihood the
caller passes to :meth:`Worlds.sample`; a world is kept with that probability.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterator
from functools import lru_cache
from math import comb

from .actions import Kind
from .cards import DECK, FULL_MASK, cards_of
from .deal import Deal, Phase
from .legal import legal_mask
from .trick import winning_index
from .views import View

# (start hands by seat, floor) -> their weight in [0, 1], or any value at most the floor
# once the weight is known to be at most the floor (a draw is kept when above it)
Likelihood = Callable[[list[int], float], float]
SOFT_TRIES = 40  # draws per world before the soft information is ignored


class NoWorld(ValueError):
    """No deal of the unseen cards fits the view (it cannot come from a real game)."""


@lru_cache(maxsize=65536)
def forbidden(
    card: int,
    trick: tuple[int, ...],
    high_trump: int,
    partner_winning: bool,
    trump: int,
    amsterdam: bool,
) -> int:
    """The cards a hand cannot have held when ``card`` was played into ``trick``.

    Asked of :func:`legal_mask` card by card: ``card`` is legal in a hand exactly when the
    hand holds none of these (every rule of play has that form; the tests check it).
    """
    found, cards, ams = 0, list(trick), amsterdam
    for other in DECK:
        if other != card and other not in trick:
            pair = 1 << card | 1 << other
            if not legal_mask(pair, cards, high_trump, partner_winning, trump, ams) >> card & 1:
                found |= 1 << other
    return found


def _high_trump(cards: tuple[int, ...], trump: int) -> tuple[int, int]:
    """Index of the card winning ``cards`` so far and the trick's highest trump (-1)."""
    best = winning_index(cards, trump)
    return best, cards[best] if cards[best] >> 3 == trump else -1


class Worlds:
    """The worlds consistent with one seat's view, counted and sampled exactly."""

    def __init__(self, view: View) -> None:
        if view.seat is None:
            raise ValueError("a spectator has no hidden hands to sample")
        if view.phase is Phase.DONE:
            raise ValueError("the deal is over")
        self.view = view
        seat = self.seat = view.seat
        hand = sum(1 << c for c in view.hand)
        played = [0, 0, 0, 0]
        banned = [0, 0, 0, 0]
        trump, amsterdam = view.trump, view.rules.amsterdam
        tricks = [(t.leader, t.cards) for t in view.tricks] + [(view.leader, view.trick)]
        for leader, cards in tricks:
            for i, card in enumerate(cards):
                who = (leader + i) & 3
                played[who] |= 1 << card
                if i and trump is not None:
                    best, high = _high_trump(cards[:i], trump)
                    partner = not ((leader + best) ^ who) & 1
                    banned[who] |= forbidden(card, cards[:i], high, partner, trump, amsterdam)
        self.played = tuple(played)
        unseen = FULL_MASK & ~hand & ~sum(played)
        fixed = [0, 0, 0, 0]
        fixed[seat] = hand
        turned = view.turned
        if turned is not None and unseen >> turned & 1:
            fixed[view.dealer] |= 1 << turned  # the dealer picked it up
            unseen &= ~(1 << turned)
        self.fixed = tuple(fixed)
        self.others = tuple(s for s in range(4) if s != seat)
        self.room = tuple(view.hand_sizes[s] - fixed[s].bit_count() for s in self.others)
        possible = [unseen & ~banned[s] for s in self.others]
        # Cards with the same set of possible holders are interchangeable: one class each.
        classes: dict[int, list[int]] = {}
        for card in cards_of(unseen):
            holders = sum(1 << k for k in range(3) if possible[k] >> card & 1)
            if not holders:
                raise NoWorld("an unseen card fits no hand")
            classes.setdefault(holders, []).append(card)
        self.classes = sorted(classes.items())
        self._left = [sum(len(c) for _, c in self.classes[i:]) for i in range(len(classes) + 1)]
        if sum(self.room) != unseen.bit_count() or min(self.room) < 0:
            raise NoWorld("the hand sizes do not add up")
        self._counts: dict[tuple[int, int, int], int] = {}
        if not self._count(0, self.room[0], self.room[1]):
            raise NoWorld("no deal of the unseen cards fits the view")

    # -- counting ------------------------------------------------------------------------

    def _splits(self, index: int, a: int, b: int):
        """Each split (x0, x1, x2) of class ``index`` that fits rooms a, b and the rest,
        with its number of ways."""
        holders, cards = self.classes[index]
        m = len(cards)
        c = self._left[index] - a - b
        for x0 in range(min(m, a) + 1) if holders & 1 else (0,):
            for x1 in range(min(m - x0, b) + 1) if holders & 2 else (0,):
                x2 = m - x0 - x1
                if (x2 and not holders & 4) or x2 > c:
                    continue
                yield x0, x1, x2, comb(m, x0) * comb(m - x0, x1)

    def _count(self, index: int, a: int, b: int) -> int:
        """Worlds dealing classes ``index``.. into rooms a, b and the rest."""
        if index == len(self.classes):
            return 1 if a == b == 0 else 0
        key = (index, a, b)
        found = self._counts.get(key)
        if found is None:
            found = sum(
                ways * self._count(index + 1, a - x0, b - x1)
                for x0, x1, _, ways in self._splits(index, a, b)
            )
            self._counts[key] = found
        return found

    def count(self) -> int:
        """The number of worlds (deals of the unseen cards) consistent with the view."""
        return self._count(0, self.room[0], self.room[1])

    # -- sampling ------------------------------------------------------------------------

    def hands(self, rng: random.Random) -> list[int]:
        """The current hands of one world drawn uniformly from all consistent worlds."""
        hands = list(self.fixed)
        a, b = self.room[0], self.room[1]
        for index, (_, cards) in enumerate(self.classes):
            r = rng.randrange(self._count(index, a, b))
            for x0, x1, _, ways in self._splits(index, a, b):
                r -= ways * self._count(index + 1, a - x0, b - x1)
                if r < 0:
                    break
            drawn = list(cards)
            rng.shuffle(drawn)
            parts = (drawn[:x0], drawn[x0 : x0 + x1], drawn[x0 + x1 :])
            for k, part in enumerate(parts):
                for card in part:
                    hands[self.others[k]] |= 1 << card
            a, b = a - x0, b - x1
        return hands

    def start_hands(self, hands: list[int]) -> list[int]:
        """The hands as dealt, for a world's current hands."""
        return [h | p for h, p in zip(hands, self.played, strict=True)]

    def sample(
        self, rng: random.Random, count: int, likelihood: Likelihood | None = None
    ) -> list[list[int]]:
        """The first ``count`` worlds of :meth:`draws`."""
        return list(itertools.islice(self.draws(rng, likelihood), count))

    def draws(
        self, rng: random.Random, likelihood: Likelihood | None = None
    ) -> Iterator[list[int]]:
        """Worlds' current hands, without end; with ``likelihood``, each draw is kept with
        that probability (given its dealt hands), up to :data:`SOFT_TRIES` draws a world.
        When none of them is kept (a narrow posterior), a world kept before comes again, or,
        if none was, the last draw."""
        kept: list[list[int]] = []
        while True:
            for _ in range(SOFT_TRIES):
                hands = self.hands(rng)
                if likelihood is None:
                    break
                floor = rng.random()
                if likelihood(self.start_hands(hands), floor) > floor:
                    kept.append(hands)
                    break
            else:
                hands = rng.choice(kept) if kept else hands
            yield hands

    def deal(self, hands: list[int]) -> Deal:
        """The world's :class:`Deal`, replayed to the view's position."""
        view = self.view
        deal = Deal(view.rules, view.dealer, self.start_hands(hands), turned=view.turned)
        replay(deal, view)
        return deal


def replay(deal: Deal, view: View) -> None:
    """Apply to a fresh ``deal`` the actions that led to ``view`` (trusted path)."""
    for action in view.bids:
        if action.kind is Kind.PASS:
            deal.pass_()
        else:
            deal.choose(action.value, deal.turn)
    last = len(view.tricks) - 1
    for number, trick in enumerate(view.tricks):
        for card in trick.cards:
            deal.play(card)
        if deal.phase is Phase.CLAIM and not (number == last and view.phase is Phase.CLAIM):
            deal.decide(trick.roem > 0)
    for card in view.trick:
        deal.play(card)
    if deal.turn != view.turn or deal.phase is not view.phase:
        raise NoWorld("the view's actions do not replay")


__all__ = ["Likelihood", "NoWorld", "Worlds", "forbidden", "replay"]
