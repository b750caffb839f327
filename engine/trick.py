"""What a trick is worth and who takes it: winner, card points and roem."""

from __future__ import annotations

from collections.abc import Sequence

from .cards import Card
from .tables import FOUR_ROEM, POINTS, RUN_ROEM, STRENGTH, STUK


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
    """Roem of a complete trick: one run (20 or 50), four of a kind, and stuk."""
    c0, c1, c2, c3 = cards
    mask = 1 << c0 | 1 << c1 | 1 << c2 | 1 << c3
    rank = c0 & 7
    if c1 & 7 == rank and c2 & 7 == rank and c3 & 7 == rank:
        return FOUR_ROEM[rank]
    total = (
        RUN_ROEM[mask & 255]
        or RUN_ROEM[mask >> 8 & 255]
        or RUN_ROEM[mask >> 16 & 255]
        or RUN_ROEM[mask >> 24]
    )
    stuk = STUK[trump]
    if mask & stuk == stuk:
        total += 20
    return total


_MEMO: tuple[dict[int, int], ...] = ({}, {}, {}, {})


def roem_memo(cards: Sequence[Card], trump: int) -> int:
    """:func:`roem`, remembered by card set (at most 35,960 sets per trump)."""
    c0, c1, c2, c3 = cards
    key = 1 << c0 | 1 << c1 | 1 << c2 | 1 << c3
    memo = _MEMO[trump]
    value = memo.get(key)
    if value is None:
        value = memo[key] = roem(cards, trump)
    return value
