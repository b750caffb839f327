"""What a trick is worth and who takes it: winner, card points and roem."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from .cards import Card
from .tables import FOUR_ROEM, POINTS, RUN_ROEM, STRENGTH, STUK, STUK_ROEM, TRICK_ROEM


def winning_index(cards: Sequence[Card], trump: int) -> int:
    """Index in ``cards`` (in play order) of the card that takes the trick."""
    strength = STRENGTH[trump * 4 + (cards[0] >> 3)]
    best = 0
    for i in range(1, len(cards)):
        if strength[cards[i]] > strength[cards[best]]:
            best = i
    return best


def card_points(cards: Sequence[Card], trump: int) -> int:
    points = POINTS[trump]
    return sum(points[c] for c in cards)


def roem(cards: Sequence[Card], trump: int) -> int:
    """Roem of a complete trick: one run (20 or 50) or four of a kind, plus stuk."""
    c0, c1, c2, c3 = cards
    mask = 1 << c0 | 1 << c1 | 1 << c2 | 1 << c3
    stuk = STUK[trump]
    return TRICK_ROEM.get(mask, 0) + (STUK_ROEM if mask & stuk == stuk else 0)


class RoemParts(NamedTuple):
    """A trick's roem by kind: its run (0, 20, 50), four of a kind (0, 100, 200), stuk (0, 20)."""

    run: int = 0
    four: int = 0
    stuk: int = 0

    @property
    def total(self) -> int:
        return self.run + self.four + self.stuk

    def to_dict(self) -> dict[str, Any]:
        return {"run": self.run, "four": self.four, "stuk": self.stuk}


NO_ROEM = RoemParts()


def roem_parts(cards: Sequence[Card], trump: int) -> RoemParts:
    """The roem of a complete trick by kind; the parts sum to :func:`roem`.

    For events and views only: the hot path prices a trick with :func:`roem`.
    """
    mask = 0
    for c in cards:
        mask |= 1 << c
    run = max(RUN_ROEM[mask >> (suit * 8) & 255] for suit in range(4))
    rank = cards[0] & 7
    four = FOUR_ROEM[rank] if all(c & 7 == rank for c in cards) else 0
    stuk = STUK_ROEM if mask & STUK[trump] == STUK[trump] else 0
    return RoemParts(run, four, stuk)


def roem_cards(cards: Sequence[Card], trump: int, parts: RoemParts) -> tuple[Card, ...]:
    """The cards of a complete trick behind its roem ``parts``, in play order: its run's (a
    streak of one suit in natural order), all four of a kind, stuk's trump king and queen.

    For events and views only, like :func:`roem_parts`.
    """
    if not parts.total:
        return ()
    mask = 0
    for c in cards:
        mask |= 1 << c
    marked = mask if parts.four else 0
    if parts.run:
        length = next(n for n in (3, 4) if RUN_ROEM[(1 << n) - 1] == parts.run)
        streak = (1 << length) - 1
        for suit in range(4):
            for start in range(8 - length + 1):
                run = streak << (suit * 8 + start)
                if mask & run == run:
                    marked |= run
    if parts.stuk:
        marked |= STUK[trump]
    return tuple(c for c in cards if marked >> c & 1)
