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
from operator import itemgetter
from struct import Struct

_KEYS = Struct("<32I")
_BIT = tuple(1 << c for c in range(32))

# Deck positions dealt to the seat ``k`` places left of the dealer (k = 1..4), 3-2-3.
_POSITIONS: list[list[int]] = [[] for _ in range(4)]
_pos = 0
for _packet in (3, 2, 3):
    for _k in range(4):
        _POSITIONS[_k].extend(range(_pos, _pos + _packet))
        _pos += _packet
_TAKE = tuple(itemgetter(*p) for p in _POSITIONS)


def shuffled_deck(seed: int, deal_no: int = 0) -> list[int]:
    """The 32 cards in dealing order for deal ``deal_no`` of a match seeded ``seed``."""
    keys = _KEYS.unpack(shake_256(b"klaverjas-deck/%d/%d" % (seed, deal_no)).digest(128))
    return sorted(range(32), key=keys.__getitem__)


def deal_hands(deck: list[int], dealer: int) -> list[int]:
    """Deal three, two, three to each seat from left of the dealer; four hand masks.

    The dealer's last card is ``deck[31]`` (the card turned up in ``turned`` mode).
    """
    hands = [0, 0, 0, 0]
    bit = _BIT.__getitem__
    for k in range(4):
        hands[(dealer + 1 + k) & 3] = sum(map(bit, _TAKE[k](deck)))
    return hands
