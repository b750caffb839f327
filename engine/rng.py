"""The documented, explicitly seeded shuffle: the same seed gives the same deck everywhere.

Deck ``n`` of seed ``s`` (any integer): take 128 bytes of SHAKE-256 of the ASCII text
``klaverjas-deck/{s}/{n}``, read them as 32 little-endian unsigned 32-bit keys, and order
the cards ``0..31`` (``suit * 8 + rank``) by key, equal keys by card.  The deck is dealt
from its front.  SHAKE-256 is specified by FIPS 202, so no platform or Python version
changes a deck.  Policies draw their own choices from a :class:`random.Random` they are
handed; nothing here reads global state.
"""

from __future__ import annotations

from hashlib import shake_256
from struct import Struct

_KEYS = Struct("<32I")
_BIT = tuple(1 << c for c in range(32))


def _positions(dealer: int) -> tuple[tuple[int, ...], ...]:
    """For each seat, the deck positions it is dealt: packets of 3, 2, 3 from its left."""
    dealt: list[list[int]] = [[], [], [], []]
    pos = 0
    for packet in (3, 2, 3):
        for k in range(1, 5):
            dealt[(dealer + k) & 3].extend(range(pos, pos + packet))
            pos += packet
    return tuple(tuple(p) for p in dealt)


_DEALT = tuple(_positions(dealer) for dealer in range(4))


def shuffled_deck(seed: int, deal_no: int = 0) -> list[int]:
    """The 32 cards in dealing order for deal ``deal_no`` of a match seeded ``seed``."""
    keys = _KEYS.unpack(shake_256(b"klaverjas-deck/%d/%d" % (seed, deal_no)).digest(128))
    return sorted(range(32), key=keys.__getitem__)


def deal_hands(deck: list[int], dealer: int) -> list[int]:
    """Deal three, two, three to each seat from left of the dealer; four hand masks.

    The dealer's last card is ``deck[31]`` (the card turned up in ``turned`` mode).
    """
    b, d = _BIT, deck
    return [
        b[d[p0]] | b[d[p1]] | b[d[p2]] | b[d[p3]] | b[d[p4]] | b[d[p5]] | b[d[p6]] | b[d[p7]]
        for p0, p1, p2, p3, p4, p5, p6, p7 in _DEALT[dealer]
    ]
