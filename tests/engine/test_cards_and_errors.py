"""Notation, the seeded deal, and the typed errors for malformed input."""

from __future__ import annotations

import hashlib
import struct

import pytest

from engine import Action, NotationError, Rules, parse_card, parse_cards, parse_hands
from engine.cards import card_str, cards_of, mask_of
from engine.rng import deal_hands, shuffled_deck

pytestmark = pytest.mark.engine


@pytest.mark.parametrize(
    ("text", "printed"),
    [("Jh", "Jh"), ("10h", "Th"), ("Th", "Th"), ("7c", "7c"), ("As", "As"), ("qd", "Qd")],
)
def test_card_notation(text: str, printed: str) -> None:
    assert card_str(parse_card(text)) == printed


@pytest.mark.parametrize("text", ["Xz", "1h", "J", "", "Jhh", "6s", None, 12])
def test_unknown_card_is_named(text: object) -> None:
    with pytest.raises(NotationError, match="unknown card"):
        parse_card(text)


def test_error_messages_name_the_problem() -> None:
    with pytest.raises(NotationError, match="unknown card 'Xz'"):
        parse_cards(["Jh", "Xz"])
    with pytest.raises(NotationError, match="duplicate card Jh"):
        parse_cards(["Jh", "7c", "Jh"])
    deck = [card_str(c) for c in range(32)]
    hands = [deck[0:8], deck[8:16], deck[16:23], deck[23:32]]
    with pytest.raises(NotationError, match="hand 2 has 7 cards"):
        parse_hands(hands)
    hands = [deck[0:8], deck[8:16], deck[16:24], [*deck[24:31], deck[0]]]
    with pytest.raises(NotationError, match="duplicate card 7c"):
        parse_hands(hands)


def test_action_notation_round_trip() -> None:
    for text in ["pass", "take", "leave", "trump:h", "Jh"]:
        assert str(Action.parse(text)) == text
    assert str(Action.parse("10d")) == "Td"
    for bad in ["trump:x", "bid", "", "Xz", 3]:
        with pytest.raises(NotationError):
            Action.parse(bad)


def test_rules_validation() -> None:
    assert Rules.from_dict({"preset": "tournament"}).end_value == 1001
    assert Rules.from_dict({"deals": 16}).end == "deals"
    with pytest.raises(NotationError, match="variant must be one of"):
        Rules(variant="paris")  # type: ignore[arg-type]
    with pytest.raises(NotationError, match="target must be from 100 to 10000"):
        Rules.from_dict({"target": 50})
    with pytest.raises(NotationError, match="unknown rule option 'colour'"):
        Rules.from_dict({"colour": "red"})
    with pytest.raises(NotationError, match="unknown preset"):
        Rules.from_dict({"preset": "paris"})


def test_deck_follows_the_documented_algorithm() -> None:
    """An independent reading of the rng docstring gives the same decks."""
    for seed, number in [(0, 0), (1, 0), (1, 1), (2**70, 5), (-3, 2)]:
        digest = hashlib.shake_256(f"klaverjas-deck/{seed}/{number}".encode()).digest(128)
        keys = struct.unpack("<32I", digest)
        expected = sorted(range(32), key=lambda c, k=keys: (k[c], c))
        assert shuffled_deck(seed, number) == expected


def test_known_deck_is_stable() -> None:
    """Pinned so that a change of algorithm can never slip in unnoticed."""
    deck = [card_str(c) for c in shuffled_deck(1, 0)]
    assert deck[:8] == ["8c", "Js", "Th", "As", "Ac", "9d", "Td", "Kh"]


def test_deal_three_two_three_from_left_of_dealer() -> None:
    deck = list(range(32))
    for dealer in range(4):
        hands = deal_hands(deck, dealer)
        left = (dealer + 1) % 4
        assert sorted(cards_of(hands[left])) == [0, 1, 2, 12, 13, 20, 21, 22]
        assert deck[31] in cards_of(hands[dealer])
        assert mask_of(deck) == hands[0] | hands[1] | hands[2] | hands[3]
