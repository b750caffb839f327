"""Refusals word for word: the reason a player reads, and what a record's reader is told.

Each message is what the error frame (or ``klaverjas analyze``) shows, so it is checked
whole, with the type of the error, which decides its wire code.
"""

from __future__ import annotations

import random

import pytest

from engine import (
    Action,
    Deal,
    GameOver,
    IllegalAction,
    IllegalCard,
    Match,
    NotationError,
    NotYourTurn,
    Phase,
    Rules,
    WrongPhase,
    parse_card,
    parse_cards,
    parse_hands,
)
from engine.cards import cards_of, mask_of, parse_suit
from engine.legal import why_illegal
from engine.playout import random_playout
from engine.rules import preset
from tests.engine.helpers import deal_at_trump

pytestmark = pytest.mark.engine

HEARTS = parse_suit("h")
DECK = [rank + suit for suit in "cdhs" for rank in "789TJQKA"]


@pytest.mark.parametrize(
    ("variant", "hand", "trick", "high", "card", "reason"),
    [
        ("amsterdam", "7c Ac Jh 8s", "Kc", None, "Jh", "must follow clubs"),
        ("amsterdam", "7h Jh Ac", "9h Ah", "9h", "7h", "must play a higher trump"),
        ("amsterdam", "7s Ad 7h 8h", "Kc Qh", "Qh", "8h", "may not undertrump"),
        ("rotterdam", "7s Ad 7h Ah", "Kc Th", "Th", "7h", "may not undertrump"),
        (
            "amsterdam",
            "7s Ad 9h 8h",
            "Kc Qh",
            "Qh",
            "7s",
            "must trump higher than the trick's highest trump",
        ),
        ("rotterdam", "7h 8h Ad", "Kc 9h", "9h", "Ad", "must trump"),
        ("rotterdam", "7h 8h Ad", "Kc Jh", "Jh", "Ad", "must trump"),
        ("amsterdam", "7h 8h Ad", "Kc Qs", None, "Ad", "must trump"),
    ],
)
def test_why_a_card_is_illegal(
    variant: str, hand: str, trick: str, high: str | None, card: str, reason: str
) -> None:
    cards = [parse_card(c) for c in trick.split()]
    high_trump = parse_card(high) if high else -1
    mask = mask_of(parse_cards(hand.split()))
    assert why_illegal(mask, cards, high_trump, HEARTS, parse_card(card)) == reason


def test_an_illegal_card_is_refused_with_its_reason() -> None:
    hands = [
        ["7c", "8c", "9c", "Tc", "Jc", "Qc", "Kc", "As"],
        ["Ac", "7d", "8d", "9d", "Td", "Jd", "Qd", "Ah"],
        ["7h", "8h", "9h", "Th", "Jh", "Qh", "Kh", "Ad"],
        ["7s", "8s", "9s", "Ts", "Js", "Qs", "Ks", "Kd"],
    ]
    match = deal_at_trump(Rules(), parse_hands(hands), HEARTS, chooser=0, dealer=3)
    match.apply(0, Action.parse("Kc"))
    match.apply(1, Action.parse("Ac"))
    with pytest.raises(IllegalCard) as raised:
        match.apply(2, Action.parse("Ad"))
    assert str(raised.value) == "Ad is not legal: must trump"


def _turned_in_hearts_or_spades() -> Match:
    """A turned-mode match whose turned card is a heart or a spade."""
    for seed in range(100):
        match = Match(Rules(trump_mode="turned"), seed)
        if match.deal.turned is not None and match.deal.turned >> 3 >= 2:
            return match
    raise AssertionError("no heart or spade turned in 100 seeds")


def test_passing_is_refused_when_trump_must_be_named() -> None:
    match = Match(Rules(trump_mode="dealer"), 1)
    with pytest.raises(IllegalAction) as raised:
        match.apply(match.turn, Action.parse("pass"))
    assert str(raised.value) == "you must name trump: passing is not allowed now"


def test_only_the_turned_suit_may_be_accepted() -> None:
    match = _turned_in_hearts_or_spades()
    suit = ("hearts", "spades")[(match.deal.turned >> 3) - 2]
    with pytest.raises(IllegalAction) as raised:
        match.apply(match.turn, Action.parse("trump:c"))
    assert str(raised.value) == f"only {suit} (the turned card's suit) or pass"


def test_the_refused_turned_suit_may_not_be_named_in_the_forced_round() -> None:
    match = _turned_in_hearts_or_spades()
    letter = "cdhs"[match.deal.turned >> 3]
    for _ in range(4):
        match.apply(match.turn, Action.parse("pass"))
    with pytest.raises(IllegalAction) as raised:
        match.apply(match.turn, Action.parse(f"trump:{letter}"))
    suit = {"h": "hearts", "s": "spades"}[letter]
    assert str(raised.value) == f"{suit} may not be named: the turned card's suit was refused"


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: parse_cards("Jh 7c"), "cards must be a list of cards"),
        (lambda: parse_cards(["Jh", "7c", "Jh"]), "duplicate card Jh in cards"),
        (lambda: parse_hands([["Jh"]] * 3), "hands must be a list of four hands"),
        (lambda: parse_hands("Jh"), "hands must be a list of four hands"),
        (lambda: parse_hands([["Jh"], 3, [], []]), "hand 0 has 1 cards"),
        (lambda: parse_hands([DECK[0:8], "Jh", [], []]), "hand 1 must be a list of cards"),
        (lambda: parse_hands([DECK[0:8], ["Jh", "Jh"], [], []]), "duplicate card Jh in hand 1"),
        (lambda: parse_card(["Jh"]), "unknown card ['Jh']"),
        (lambda: parse_suit("x"), "unknown suit 'x'"),
        (lambda: parse_suit("hs"), "unknown suit 'hs'"),
        (lambda: Action.parse(7), "unknown action 7"),
        (lambda: Action.parse("Jx"), "unknown action 'Jx'"),
        (lambda: Action.parse("trump:x"), "unknown suit 'x'"),
        (lambda: Rules.from_dict(["amsterdam"]), "rules must be an object"),
        (
            lambda: preset("paris"),
            "unknown preset 'paris'; choose from amsterdam, rotterdam, tournament",
        ),
        (lambda: Match.from_record([]), "a match record must be an object"),
        (lambda: Match.from_record({"rules": {}, "seed": 1}), "match record has no 'actions'"),
        (lambda: Match.from_record({"rules": {}, "actions": []}), "match record has no 'seed'"),
        (lambda: Match.from_record({"seed": 1, "actions": []}), "match record has no 'rules'"),
        (
            lambda: Match.from_record({"rules": {}, "seed": 1, "actions": "pass"}),
            "match record 'actions' must be a list",
        ),
        (
            lambda: Match.from_record({"rules": {}, "seed": 1, "actions": ["bid"]}),
            "action 0 ('bid'): unknown action 'bid'",
        ),
    ],
)
def test_malformed_input_is_named(call, message: str) -> None:
    with pytest.raises(NotationError) as raised:
        call()
    assert str(raised.value) == message


def test_a_duplicate_across_hands_names_the_card_and_the_hand() -> None:
    deck = DECK
    hands = [deck[0:8], deck[8:16], deck[16:24], [*deck[24:31], deck[12]]]
    with pytest.raises(NotationError) as raised:
        parse_hands(hands)
    assert str(raised.value) == f"duplicate card {deck[12]} in hand 3"
    hands = [deck[0:8], deck[8:16], [*deck[16:23], deck[3]], deck[24:32]]
    with pytest.raises(NotationError) as raised:
        parse_hands(hands)
    assert str(raised.value) == f"duplicate card {deck[3]} in hand 2"


def test_a_record_with_an_illegal_action_names_it_and_keeps_the_refusals_type() -> None:
    match = Match(Rules(trump_mode="forced"), 5)
    match.apply(1, Action.parse("trump:h"))
    record = match.to_record()
    hand = match.deal.hands[1]
    foreign = next(c for c in range(32) if not hand >> c & 1)
    record["actions"].append(str(Action.play(foreign)))
    with pytest.raises(IllegalAction) as raised:
        Match.from_record(record)
    assert type(raised.value).__name__ == "CardNotInHand"
    text = str(Action.play(foreign))
    assert str(raised.value) == f"action 1 ({text!r}): {text} is not in your hand"


@pytest.mark.parametrize("first_dealer", [0, 1, 3])
def test_a_record_keeps_the_first_dealer(first_dealer: int) -> None:
    match = Match(Rules(), 4, first_dealer=first_dealer)
    match.apply(match.turn, Action.parse("pass"))
    record = match.to_record()
    assert record["first_dealer"] == first_dealer
    again = Match.from_record(record)
    assert again.first_dealer == first_dealer and again.deal.dealer == first_dealer
    del record["first_dealer"]  # records from before the field: the first dealer was seat 0
    assert Match.from_record({**record, "actions": []}).deal.dealer == 0


def test_rules_as_plain_values() -> None:
    """``to_dict`` gives plain strings and numbers (the JSON the wire and the store keep)."""
    values = Rules(variant="rotterdam", trump_mode="turned", roem="claim").to_dict()
    assert values == {
        "variant": "rotterdam",
        "trump_mode": "turned",
        "roem": "claim",
        "pit_bonus": "any",
        "end": "target",
        "end_value": 1500,
    }
    assert {type(v) for v in values.values()} == {str, int}


def test_a_finished_deal_refuses_everything() -> None:
    deal = Deal.shuffled(Rules(trump_mode="dealer"), 2)
    random_playout(deal, random.Random(2))
    assert deal.phase is Phase.DONE
    for action in (Action.parse("pass"), Action.parse("take"), Action.play(0)):
        with pytest.raises(GameOver) as raised:
            deal.apply(deal.turn, action)
        assert str(raised.value) == "the deal is over"


def test_actions_out_of_their_phase_name_the_phase() -> None:
    match = Match(Rules(trump_mode="dealer"), 3)
    seat = match.turn
    card = Action.play(cards_of(match.deal.hands[seat])[0])
    with pytest.raises(WrongPhase) as raised:
        match.apply(seat, card)
    assert str(raised.value) == "cards are not being played now (phase trump)"
    with pytest.raises(WrongPhase) as raised:
        match.apply(seat, Action.parse("take"))
    assert str(raised.value) == "there is no roem to take or leave now (phase trump)"
    match.apply(seat, Action.parse("trump:s"))
    with pytest.raises(WrongPhase) as raised:
        match.apply(match.turn, Action.parse("trump:h"))
    assert str(raised.value) == "trump is not being chosen now (phase play)"
    with pytest.raises(NotYourTurn) as raised:
        match.apply((match.turn + 1) % 4, Action.parse("pass"))
    turn = match.turn
    assert str(raised.value) == f"it is seat {turn}'s turn, not seat {(turn + 1) % 4}'s"


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"variant": "paris"}, "variant must be one of amsterdam, rotterdam, not 'paris'"),
        (
            {"trump_mode": "auction"},
            "trump_mode must be one of bidding, dealer, forced, turned, not 'auction'",
        ),
        ({"roem": "never"}, "roem must be one of auto, claim, not 'never'"),
        ({"pit_bonus": None}, "pit_bonus must be one of any, playing, not None"),
        ({"end": "time"}, "end must be one of target, deals, not 'time'"),
        ({"end_value": True}, "target must be a whole number"),
        ({"end": "deals", "end_value": 2.0}, "deals must be a whole number"),
        ({"end": "deals", "end_value": 101}, "deals must be from 1 to 100"),
        ({"end_value": 99}, "target must be from 100 to 10000"),
    ],
)
def test_rule_options_are_refused_by_name(options: dict, message: str) -> None:
    with pytest.raises(NotationError) as raised:
        Rules(**options)
    assert str(raised.value) == message
