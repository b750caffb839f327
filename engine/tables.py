"""Precomputed tables for the hot path: points, trick strength, higher trumps, roem.

Indexed by card (``suit * 8 + rank``, ranks ``7 8 9 T J Q K A``) and by trump suit.
"""

from __future__ import annotations

from .cards import SUIT_MASK

# By rank 7 8 9 T J Q K A.
PLAIN_POINTS = (0, 0, 0, 10, 2, 3, 4, 11)
TRUMP_POINTS = (0, 0, 14, 10, 20, 3, 4, 11)
PLAIN_ORDER = (0, 1, 2, 6, 3, 4, 5, 7)  # A T K Q J 9 8 7, high to low
TRUMP_ORDER = (0, 1, 6, 4, 7, 2, 3, 5)  # J 9 A T K Q 8 7, high to low
LAST_TRICK = 10
DEAL_POINTS = 162

POINTS: tuple[tuple[int, ...], ...] = tuple(
    tuple(TRUMP_POINTS[c & 7] if c >> 3 == t else PLAIN_POINTS[c & 7] for c in range(32))
    for t in range(4)
)

# STRENGTH[trump * 4 + led][card]: trumps 16..23, led suit 8..15, other suits 0.
STRENGTH: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        16 + TRUMP_ORDER[c & 7] if c >> 3 == t else 8 + PLAIN_ORDER[c & 7] if c >> 3 == led else 0
        for c in range(32)
    )
    for t in range(4)
    for led in range(4)
)

# ABOVE[trump][card]: the trumps that beat ``card`` (a trump).  The extra last entry,
# ABOVE[trump][-1], is every trump: the answer when the trick holds no trump (high = -1).
ABOVE: tuple[tuple[int, ...], ...] = tuple(
    (
        *(
            sum(
                1 << (t * 8 + r)
                for r in range(8)
                if c >> 3 == t and TRUMP_ORDER[r] > TRUMP_ORDER[c & 7]
            )
            for c in range(32)
        ),
        SUIT_MASK[t],
    )
    for t in range(4)
)


def _run_roem(byte: int) -> int:
    best = run = 0
    for r in range(8):
        run = run + 1 if byte >> r & 1 else 0
        best = max(best, run)
    return 50 if best >= 4 else 20 if best == 3 else 0


RUN_ROEM = tuple(_run_roem(b) for b in range(256))
FOUR_ROEM = (0, 0, 0, 100, 200, 100, 100, 100)  # four 7s 8s 9s: 0; four jacks 200
STUK = tuple((1 << (t * 8 + 5)) | (1 << (t * 8 + 6)) for t in range(4))  # Q and K of trump
STUK_ROEM = 20


def _trick_roem_masks() -> dict[int, int]:
    """Every four-card set with a run or four of a kind, and its roem (stuk aside).

    Only 684 of the 35,960 possible tricks hold such roem, so one dictionary look-up
    prices any trick.
    """
    found: dict[int, int] = {}
    for s in range(4):
        for start in range(6):
            run = 0b111 << (s * 8 + start)
            for card in range(32):
                if not run >> card & 1:
                    mask = run | 1 << card
                    found[mask] = RUN_ROEM[mask >> (s * 8) & 255]
    for rank in range(8):
        found[sum(1 << (s * 8 + rank) for s in range(4))] = FOUR_ROEM[rank]
    return {mask: value for mask, value in found.items() if value}


TRICK_ROEM = _trick_roem_masks()
