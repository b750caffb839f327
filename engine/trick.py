"""What a trick is worth and who takes it: winner, card points and roem."""

from __future__ import annotations

from collections.abc import Sequence

from .cards import Card
from .tables import POINTS, STRENGTH, STUK, TRICK_ROEM


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
    return TRICK_ROEM.get(mask, 0) + (20 if mask & stuk == stuk else 0)
