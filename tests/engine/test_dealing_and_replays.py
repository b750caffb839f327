"""A shuffled deal by the documented algorithm (defaults included), the trick's highest
trump when it is a seven, random playouts' choices, and match records replayed whole."""

from __future__ import annotations

import hashlib
import random
import struct

import pytest

from engine import Action, Deal, IllegalCard, Match, NotationError, Rules, parse_card, parse_hands
from engine.cards import parse_suit
from engine.playout import random_playout
from engine.record import analyze, match_deals
from engine.rng import shuffled_deck
from tests.engine.helpers import deal_at_trump, play_random

pytestmark = pytest.mark.engine


def documented_deck(seed: int, number: int) -> list[int]:
    digest = hashlib.shake_256(f"klaverjas-deck/{seed}/{number}".encode()).digest(128)
    keys = struct.unpack("<32I", digest)
    return sorted(range(32), key=lambda c: (keys[c], c))


def dealt_3_2_3(deck: list[int], dealer: int) -> list[int]:
    hands = [0, 0, 0, 0]
    position = 0
    for packet in (3, 2, 3):
        for k in (1, 2, 3, 4):
            for card in deck[position : position + packet]:
                hands[(dealer + k) % 4] |= 1 << card
            position += packet
    return hands


@pytest.mark.parametrize(("seed", "number", "dealer"), [(5, 0, 0), (5, 3, 2), (-8, 1, 3)])
def test_a_shuffled_deal_is_the_documented_deck_dealt_three_two_three(
    seed: int, number: int, dealer: int
) -> None:
    deck = documented_deck(seed, number)
    deal = Deal.shuffled(Rules(trump_mode="turned"), seed, number, dealer)
    assert deal.dealer == dealer and list(deal.dealt) == dealt_3_2_3(deck, dealer)
    assert deal.turned == deck[31] and deal.dealt[dealer] >> deck[31] & 1


def test_by_default_deal_zero_dealt_by_seat_zero() -> None:
    assert shuffled_deck(9) == documented_deck(9, 0)
    deal = Deal.shuffled(Rules(), 9)
    assert deal.dealer == 0 and list(deal.dealt) == dealt_3_2_3(documented_deck(9, 0), 0)


def test_a_seven_of_trump_is_the_trick_highest_trump() -> None:
    """Clubs are trump and an opponent trumps with the seven: a player who holds higher
    clubs and no diamonds must trump higher, and is told so."""
    hands = [
        ["Ad", "7s", "8s", "9s", "Ts", "Js", "Qs", "Ks"],
        ["7c", "7h", "8h", "9h", "Th", "Jh", "Qh", "Kh"],
        ["9c", "Jc", "Ah", "As", "8c", "Tc", "Qc", "Kc"],
        ["Ac", "7d", "8d", "9d", "Td", "Jd", "Qd", "Kd"],
    ]
    match = deal_at_trump(Rules(), parse_hands(hands), parse_suit("c"), chooser=0, dealer=3)
    match.apply(0, Action.parse("Ad"))
    match.apply(1, Action.parse("7c"))
    with pytest.raises(IllegalCard) as raised:
        match.apply(2, Action.parse("Ah"))
    assert str(raised.value) == "Ah is not legal: must trump higher than the trick's highest trump"


def test_random_playouts_name_every_suit_and_play_either_of_two_cards() -> None:
    """Uniform draws: the first bidder accepts or passes, every suit gets named, and a seat
    holding the seven and eight of clubs on a club lead plays each about half the time."""
    named = set()
    first_bids = set()
    for number in range(200):
        deal = random_playout(Deal.shuffled(Rules(), 1, number), random.Random(number))
        named.add(deal.trump)
        first_bids.add(deal.actions[0].kind)
    assert named == {0, 1, 2, 3} and len(first_bids) == 2
    hands = [
        ["Kc", "7d", "8d", "9d", "Td", "Jd", "Qd", "Kd"],
        ["7c", "8c", "7h", "8h", "9h", "Th", "Jh", "Qh"],
        ["9c", "Tc", "Jc", "Qc", "Ac", "Ad", "Kh", "Ah"],
        ["7s", "8s", "9s", "Ts", "Js", "Qs", "Ks", "As"],
    ]
    second = []
    for seed in range(60):
        deal = Deal.with_trump(Rules(), 3, parse_hands(hands), parse_suit("s"), 0)
        deal.apply(0, Action.play(parse_card("Kc")))
        random_playout(deal, random.Random(seed))
        second.append(str(deal.actions[2]))
    assert 15 < second.count("8c") < 45 and second.count("7c") + second.count("8c") == 60


def test_a_match_record_with_another_first_dealer_replays_deal_by_deal() -> None:
    match = play_random(Match(Rules(end="deals", end_value=2), 4, first_dealer=2), random.Random(4))
    answer = analyze(match.to_record())
    assert "error" not in answer
    assert answer["totals"] == match.totals and answer["winner"] == match.winner
    assert [d["result"] for d in answer["deals"]] == [s.result.to_dict() for s in match.sheet]
    deals = match_deals(match.to_record())  # seats, not only teams, as dealt
    assert [(d["dealer"], d["chooser"]) for d in deals] == [
        (s.dealer, s.chooser) for s in match.sheet
    ]


def test_a_match_record_before_its_first_deal_ends_has_no_winner() -> None:
    match = Match(Rules(), 4)
    match.apply(match.turn, Action.parse("pass"))
    assert analyze(match.to_record()) == {"deals": [], "totals": [0, 0], "winner": None}


def test_a_record_needs_both_seed_and_actions_to_be_a_match() -> None:
    with pytest.raises(NotationError) as raised:
        analyze({"rules": {}, "seed": 1})
    assert str(raised.value) == "record has no 'variant'"
