"""Which cards a seat may play: the following and trumping rules of both variants.

``legal_mask`` is the hot path (masks and table look-ups only); ``why_illegal`` explains a
refusal in words and runs only when a card is refused.
"""

from __future__ import annotations

from .cards import SUIT_MASK, SUIT_NAMES
from .tables import ABOVE


def legal_mask(
    hand: int,
    trick: list[int],
    high_trump: int,
    partner_winning: bool,
    trump: int,
    amsterdam: bool,
) -> int:
    """The cards of ``hand`` that may be played into ``trick``.

    ``high_trump`` is the highest trump in the trick (-1 for none) and
    ``partner_winning`` whether the seat's partner holds the trick so far.
    """
    if not trick:
        return hand
    led = trick[0] >> 3
    follow = hand & SUIT_MASK[led]
    if led == trump:
        if follow:
            return follow & ABOVE[trump][high_trump] or follow
        return hand
    if follow:
        return follow
    trumps = hand & SUIT_MASK[trump]
    if not trumps:
        return hand
    over = trumps & ABOVE[trump][high_trump]
    if not amsterdam:
        return over or trumps
    if partner_winning:
        return (hand ^ trumps) | over or hand
    return over or (hand ^ trumps) or hand


def why_illegal(hand: int, trick: list[int], high_trump: int, trump: int, card: int) -> str:
    """Why ``card``, not among the legal cards, is refused (the reason shown to a player)."""
    led = trick[0] >> 3
    suit = card >> 3
    if hand & SUIT_MASK[led] and suit != led:
        return f"must follow {SUIT_NAMES[led]}"
    if suit == trump:  # a refused trump is always below the trick's highest trump
        return "must play a higher trump" if led == trump else "may not undertrump"
    if high_trump >= 0 and hand & ABOVE[trump][high_trump]:
        return "must trump higher than the trick's highest trump"
    return "must trump"
