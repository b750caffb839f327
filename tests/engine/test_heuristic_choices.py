"""More of the heuristic player's rules of thumb, each in a position where it decides:
naming trump by strength, leading trumps and winners, and the last player's choice."""

from __future__ import annotations

import pytest

from engine import Action, Rules, TrumpMode
from tests.engine.test_heuristic import HEARTS, act, choosing, playing

pytestmark = pytest.mark.engine

FORCED = Rules(trump_mode=TrumpMode.FORCED)


def test_of_two_equally_strong_suits_it_names_the_lower() -> None:
    """Hearts and spades score alike (ace, king, two cards, the other ace on the side)."""
    match = choosing(FORCED, s0="7c 8c 7d 8d Ah Kh As Ks")
    assert act(match) == Action.parse("trump:h")


def test_aces_count_on_the_side_not_twice_in_trump() -> None:
    """Forced to name trump: the king's clubs (two aces on the side) beat the ace's hearts
    (one ace on the side), since an ace in trump is worth no more than one beside it."""
    match = choosing(FORCED, s0="Ah 7h 8h Kc 7c 8c Ad 7s")
    assert act(match) == Action.parse("trump:c")


def test_pulls_trumps_with_the_highest_sure_trump() -> None:
    """Jack, nine and ace of trump are all sure winners: the jack goes first."""
    match = playing(HEARTS, 0, s0="Jh 9h Ah 7c 8c 7d 8d 7s")
    assert act(match) == Action.parse("Jh")


@pytest.mark.parametrize(
    ("hand", "card"),
    [("9h Kh Ah 7c 8c 7d 8d 7s", "Kh"), ("9h Kh Ac 7c 8c 7d 8d 7s", "Kh")],
)
def test_pulls_trumps_with_its_lowest_trump_without_a_sure_one(hand: str, card: str) -> None:
    """No sure trump (the jack is out): the lowest by trump order, king below ace and nine."""
    match = playing(HEARTS, 0, s0=hand)
    assert act(match) == Action.parse(card)


def test_cashes_the_trump_ace_before_a_plain_ten() -> None:
    """The opponents are out of trumps; of its sure winners (trump ace and nine, the ten of
    clubs once the ace went) the playing side cashes an ace first."""
    match = playing(
        HEARTS,
        0,
        "Jh Ac 7h Js",
        s0="Jh Ah 9h Tc 7d 8d 7s 8s",
        s1="Ac Kc Qc Jc 9d Td Jd 9s",
        s2="7h 8h Th Qh Kh 8c 7c 9c",
        s3="Js Ts Qs Ks As Qd Kd Ad",
    )
    assert match.turn == 0
    assert act(match) == Action.parse("Ah")


def test_leads_from_its_shortest_suit() -> None:
    """Defending with nothing sure: the seven of the suit it holds alone, not of a long one."""
    match = playing(HEARTS, 1, s0="7c 8c 9c Qc 7d Ks 7h 8h")
    assert act(match) == Action.parse("7d")


def test_last_player_wins_with_the_card_worth_most() -> None:
    """Last to play on an opponent's king: the ace and the ten both win, and whichever stays
    is then the top club; the ace brings one point more."""
    match = playing(
        HEARTS,
        1,
        "Kc 7c 8c",
        s0="Kc 9c 7d 8d 9d 7s 8s 9s",
        s1="7c Jc Qc Td Jd Qd Ts Js",
        s2="8c Kd Ad Qs Ks As 7h 8h",
        s3="Ac Tc 9h Th Jh Qh Kh Ah",
    )
    assert match.turn == 3
    assert act(match) == Action.parse("Ac")


def test_behind_a_partner_whose_ace_is_not_sure_it_keeps_its_points() -> None:
    """The partner's ace of clubs wins unless the last player, who may hold clubs and
    trumps, trumps it: no smearing the ten (or the ace) of diamonds, a spare card instead."""
    match = playing(
        HEARTS,
        0,
        "Ac 8c",
        s0="Ac Kc Qc 7d 8d 9d Jd Kd",
        s1="8c 7c 9s Ts Js Qs Ks As",
        s2="Ad Td Qd 8h 9h Th 7s 8s",
        s3="Tc Jc 9c 7h Jh Qh Kh Ah",
    )
    assert match.turn == 2
    assert act(match) == Action.parse("7s")


def test_keeps_the_nine_of_trump_for_a_trick_worth_more() -> None:
    """An opponent leads the seven of trump: the nine (or jack) would win a trick worth
    nothing, so the eight, the cheapest trump above the seven, goes instead."""
    match = playing(
        HEARTS,
        1,
        "7h",
        s0="7h Ah Th 7c 8c 9c 7d 8d",
        s1="8h 9h Jh Tc Jc 9d Td 7s",
        s2="Qh Kh Qc Kc Ac Jd Qd Kd",
        s3="Ad 8s 9s Ts Js Qs Ks As",
    )
    assert match.turn == 1
    assert act(match) == Action.parse("8h")


def test_third_player_takes_the_trick_for_now_with_a_cheap_card() -> None:
    """The opponent's jack wins and no club of ours is sure to hold: the queen (three
    points) takes the trick for now rather than the eight giving it up."""
    match = playing(
        HEARTS,
        0,
        "7c Jc",
        s0="7c 7d 8d 9d Td 7s 8s 9s",
        s1="Jc Jd Qd Kd Ad Ts Js Qs",
        s2="8c Qc Tc 7h 8h 9h Ks As",
        s3="9c Kc Ac Th Jh Qh Kh Ah",
    )
    assert match.turn == 2
    assert act(match) == Action.parse("Qc")


def test_discards_its_least_valuable_card() -> None:
    """It cannot follow or trump an opponent's ace: the seven of diamonds, not the ace of
    clubs (the lowest card by number) nor any card with points."""
    match = playing(
        HEARTS,
        1,
        "As",
        s0="As Ks Qs 7c 8c 9c Jc 8d",
        s1="Ac Tc Kc Qc 7d Td Kd Qd",
        s2="Js Ts 9s 8s 7s 9d Jd Ad",
        s3="7h 8h 9h Th Jh Qh Kh Ah",
    )
    assert match.turn == 1
    assert act(match) == Action.parse("7d")


def test_leads_no_suit_an_opponent_may_ruff() -> None:
    """Seat 3 showed no clubs (it may still hold trumps): the nine of clubs, alone, would
    be the short-suit lead, so the eight of spades goes instead."""
    match = playing(
        HEARTS,
        1,
        "7c Ac 8c 7s  7d 8d 9d Ad",
        s0="7c Ad 9c 8s 9s Qd 7h 8h",
        s1="Ac 7d Kc Qc Jc Ks Qs Js",
        s2="8c 8d Tc Td Jd Kd Ts 9h",
        s3="7s 9d Th Jh Qh Kh Ah As",
    )
    assert match.turn == 0
    assert act(match) == Action.parse("8s")


def test_last_player_keeps_its_ace_from_a_worthless_trick() -> None:
    """Last to play on an opponent's nine, with nothing in the trick: winning it with the
    ace gains 11 points now but loses the sure ace, so the eight goes."""
    match = playing(
        HEARTS,
        1,
        "9d 7s 8s",
        s0="9d 7d Td Jd Qd Kd 7h 8h",
        s1="7s Ac Tc 9c 8c 7c Qs Ks",
        s2="8s 9s Ts Js As Jh Qh Kh",
        s3="Ad 8d Jc Qc Kc 9h Th Ah",
    )
    assert match.turn == 3
    assert act(match) == Action.parse("8d")


def test_smears_the_card_that_makes_roem_for_its_side() -> None:
    """The partner's jack of trump surely wins: the ten of trump adds ten points and a run
    (nine, ten, jack) for its own side."""
    match = playing(
        HEARTS,
        0,
        "Jh 9h",
        s0="Jh 7c 8c 9c 7d 8d 9d 7s",
        s1="9h Tc Jc Qc Td Jd Qd 8s",
        s2="Th 8h Qh Kc Ac Kd Ad 9s",
        s3="7h Kh Ah Ts Js Qs Ks As",
    )
    assert match.turn == 2
    assert act(match) == Action.parse("Th")


def test_a_top_card_an_opponent_may_ruff_is_no_sure_winner() -> None:
    """The ten of clubs is the highest club left, but seat 3 showed no clubs and may hold
    trumps: not a winner to cash; the eight of spades goes."""
    match = playing(
        HEARTS,
        1,
        "7c Ac 8c 7s  7d 8d 9d Ad",
        s0="7c Ad Tc 8s 9s Qd 7h 8h",
        s1="Ac 7d 9c Qc Jc Ks Qs Js",
        s2="8c 8d Kc Td Jd Kd Ts 9h",
        s3="7s 9d Th Jh Qh Kh Ah As",
    )
    assert match.turn == 0
    assert act(match) == Action.parse("8s")
