"""Cards as small integers, hands as 32-bit masks, and the two-character notation.

A card is ``suit * 8 + rank`` with suits ``c d h s`` (0..3) and ranks in natural order
``7 8 9 T J Q K A`` (0..7), so the bits of one suit are a byte and a run is a streak of
adjacent bits.  ``10h`` is accepted on input; output always spells the ten ``T``.
"""

from __future__ import annotations

from collections.abc import Iterable

from .errors import NotationError

SUITS = "cdhs"
RANKS = "789TJQKA"
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")

Card = int
Suit = int

DECK: tuple[Card, ...] = tuple(range(32))
FULL_MASK = (1 << 32) - 1
SUIT_MASK: tuple[int, ...] = tuple(0xFF << (8 * s) for s in range(4))

_BY_TEXT: dict[str, Card] = {}
for _s, _suit in enumerate(SUITS):
    for _r, _rank in enumerate(RANKS):
        _BY_TEXT[_rank + _suit] = _s * 8 + _r
        _BY_TEXT[_rank.lower() + _suit] = _s * 8 + _r
        _BY_TEXT[_rank + _suit.upper()] = _s * 8 + _r
        _BY_TEXT[_rank.lower() + _suit.upper()] = _s * 8 + _r
for _s, _suit in enumerate(SUITS):
    _BY_TEXT["10" + _suit] = _s * 8 + 3
    _BY_TEXT["10" + _suit.upper()] = _s * 8 + 3

_TEXT: tuple[str, ...] = tuple(RANKS[c & 7] + SUITS[c >> 3] for c in DECK)

# The cards of each byte value of each suit, so a mask becomes a list by four look-ups.
_BYTE_CARDS: tuple[tuple[tuple[Card, ...], ...], ...] = tuple(
    tuple(tuple(s * 8 + r for r in range(8) if byte >> r & 1) for byte in range(256))
    for s in range(4)
)


def parse_card(text: object) -> Card:
    """``"Jh"`` or ``"10h"`` to a card; anything else raises :class:`NotationError`."""
    card = _BY_TEXT.get(text) if isinstance(text, str) else None
    if card is None:
        raise NotationError(f"unknown card {text!r}")
    return card


def card_str(card: Card) -> str:
    return _TEXT[card]


def parse_suit(text: object) -> Suit:
    if isinstance(text, str) and len(text) == 1 and text.lower() in SUITS:
        return SUITS.index(text.lower())
    raise NotationError(f"unknown suit {text!r}")


def suit_str(suit: Suit) -> str:
    return SUITS[suit]


def parse_cards(items: object, what: str = "cards") -> list[Card]:
    """A list of card texts to cards, refusing unknown and duplicate cards."""
    if not isinstance(items, list | tuple):
        raise NotationError(f"{what} must be a list of cards")
    cards = [parse_card(item) for item in items]
    seen = 0
    for card in cards:
        if seen >> card & 1:
            raise NotationError(f"duplicate card {card_str(card)} in {what}")
        seen |= 1 << card
    return cards


def parse_hands(items: object) -> list[int]:
    """Four lists of eight cards, together the whole deck, to four hand masks."""
    if not isinstance(items, list | tuple) or len(items) != 4:
        raise NotationError("hands must be a list of four hands")
    masks, seen = [], 0
    for seat, hand in enumerate(items):
        cards = parse_cards(hand, f"hand {seat}")
        if len(cards) != 8:
            raise NotationError(f"hand {seat} has {len(cards)} cards")
        mask = mask_of(cards)
        if seen & mask:
            dup = cards_of(seen & mask)[0]
            raise NotationError(f"duplicate card {card_str(dup)} in hand {seat}")
        seen |= mask
        masks.append(mask)
    return masks


def mask_of(cards: Iterable[Card]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def cards_of(mask: int) -> list[Card]:
    """The cards of a mask, by suit then rank."""
    bc = _BYTE_CARDS
    return [
        *bc[0][mask & 255],
        *bc[1][mask >> 8 & 255],
        *bc[2][mask >> 16 & 255],
        *bc[3][mask >> 24 & 255],
    ]


def cards_str(cards: Iterable[Card]) -> list[str]:
    return [_TEXT[c] for c in cards]


def mask_str(mask: int) -> list[str]:
    """A mask as card texts sorted as text (the order the shared rule cases use)."""
    return sorted(_TEXT[c] for c in cards_of(mask))
