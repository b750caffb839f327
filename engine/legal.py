"""Which cards a seat may play: the following and trumping rules of both variants.

``legal_mask`` is the hot path (masks and table look-ups only); ``refusal`` says why a card
is refused (a code for a client to put in words) and ``why_illegal`` says it in English;
they run only for refused cards.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from .cards import SUIT_MASK, SUIT_NAMES, card_str, cards_of, suit_str
from .tables import ABOVE, TRUMP_ORDER
from .trick import winning_index


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


class Refusal(NamedTuple):
    """Why a card may not be played: ``code``, and the suit or card the reason names.

    Codes: ``follow`` / ``follow_trump`` (``suit``, the suit led: you hold it),
    ``trump_higher`` (trump led: play a trump higher than ``card``, you hold one),
    ``overtrump`` (you cannot follow: trump higher than ``card``, you hold one),
    ``must_trump`` (Rotterdam, an opponent winning), ``must_trump_opponent`` (Amsterdam),
    ``must_trump_partner`` (Rotterdam, your partner winning: ``suit`` led, you hold trump),
    ``no_undertrump`` (Amsterdam: discard rather than play a lower trump) and
    ``partner_undertrump`` (Amsterdam: no lower trump while your partner wins).
    """

    code: str
    suit: int | None = None
    card: int | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"why": self.code}
        if self.suit is not None:
            out["suit"] = suit_str(self.suit)
        if self.card is not None:
            out["card"] = card_str(self.card)
        return out


def refusal(
    hand: int,
    trick: list[int],
    high_trump: int,
    partner_winning: bool,
    trump: int,
    amsterdam: bool,
    card: int,
) -> Refusal:
    """Why ``card`` of ``hand``, not among :func:`legal_mask`'s cards, is refused (the
    arguments as there)."""
    led = trick[0] >> 3
    if card >> 3 != led and hand & SUIT_MASK[led]:
        return Refusal("follow_trump" if led == trump else "follow", suit=led)
    if led == trump:  # a lower trump, while holding a higher one
        return Refusal("trump_higher", card=high_trump)
    higher = high_trump >= 0 and hand & ABOVE[trump][high_trump]
    if card >> 3 == trump:  # a lower trump
        if amsterdam and partner_winning:
            return Refusal("partner_undertrump")
        return Refusal("overtrump", card=high_trump) if higher else Refusal("no_undertrump")
    if higher:  # a plain card, while holding a trump over the trick's
        return Refusal("overtrump", card=high_trump)
    if amsterdam:
        return Refusal("must_trump_opponent", suit=led)
    return Refusal("must_trump_partner" if partner_winning else "must_trump", suit=led)


def refusals(
    hand: int, trick: list[int], leader: int, seat: int, trump: int, amsterdam: bool
) -> dict[int, Refusal]:
    """Why each card of ``hand`` that ``seat`` may not play into ``trick`` (led by
    ``leader``) is refused; empty when leading."""
    if not trick:
        return {}
    winner = (leader + winning_index(trick, trump)) & 3
    trumps = [c for c in trick if c >> 3 == trump]
    high = max(trumps, key=lambda c: TRUMP_ORDER[c & 7]) if trumps else -1
    partner = not (winner ^ seat) & 1
    legal = legal_mask(hand, trick, high, partner, trump, amsterdam)
    return {
        card: refusal(hand, trick, high, partner, trump, amsterdam, card)
        for card in cards_of(hand & ~legal)
    }
