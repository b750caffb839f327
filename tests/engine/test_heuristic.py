"""The heuristic CPU player: trump choice, roem, leads, smearing, roem avoidance, strength."""

from __future__ import annotations

import itertools
import random

import pytest

from engine import (
    PASS,
    TAKE,
    Action,
    Deal,
    EndKind,
    Kind,
    Match,
    Phase,
    RoemMode,
    Rules,
    TrumpMode,
    Variant,
    parse_hands,
    view,
)
from engine.cards import SUIT_MASK
from engine.policies import HeuristicPolicy, RandomPolicy
from engine.policies.heuristic import shown_voids

pytestmark = pytest.mark.engine

HEURISTIC = HeuristicPolicy()
RULES = Rules()
DECK = [rank + suit for suit in "cdhs" for rank in "789TJQKA"]
CLUBS, DIAMONDS, HEARTS, SPADES = range(4)


def hands(**fixed: str) -> list[list[str]]:
    """Four hands: seats named ``s0``..``s3`` get their cards, the rest of the deck fills
    the other seats in order."""
    given = {int(name[1:]): text.split() for name, text in fixed.items()}
    rest = [c for c in DECK if all(c not in h for h in given.values())]
    result = []
    for seat in range(4):
        hand = given.get(seat) or [rest.pop(0) for _ in range(8)]
        result.append(hand)
    return result


def choosing(rules: Rules = RULES, turned: str | None = None, passes: int = 0, **fixed: str):
    """A match in the trump phase (dealer 3) with the given hands, after ``passes`` passes."""
    match = Match(rules, 0)
    dealt = parse_hands(hands(**fixed))
    card = DECK.index(turned) if turned else None
    match.deal = Deal(rules, 3, dealt, turned=card)
    for _ in range(passes):
        match.apply(match.turn, PASS)
    return match


def playing(trump: int, chooser: int, plays: str = "", rules: Rules = RULES, **fixed: str):
    """A match in the play phase (dealer 3, so seat 0 leads) after the given cards."""
    match = Match(rules, 0)
    match.deal = Deal.with_trump(rules, 3, parse_hands(hands(**fixed)), trump, chooser)
    for text in plays.split():
        match.apply(match.turn, Action.parse(text))
    return match


def act(match: Match) -> Action:
    seat = match.turn
    assert seat is not None
    seen = view(match, seat)
    action = HEURISTIC.act(seen, random.Random(0))
    assert action in seen.legal
    return action


# -- trump choice ---------------------------------------------------------------------------


def test_names_the_suit_of_its_jack_with_two_more():
    match = choosing(s0="Jh 8h 7h 7c 8c 7d 8d 9s")
    assert act(match) == Action.trump(HEARTS)


def test_names_the_suit_of_its_nine_and_ace_with_one_more():
    match = choosing(s0="9s As 7s 7c 8c 7d 8d Th")
    assert act(match) == Action.trump(SPADES)


@pytest.mark.parametrize("hand", ["7c 8c 9c 7d 8d Qd 7s 8s", "Jh 8h 7c 8c 9c 7d 8d 7s"])
def test_passes_with_a_weak_hand(hand):
    assert act(choosing(s0=hand)) == PASS


def test_names_its_best_suit_when_it_may_not_pass():
    dealer_mode = Rules(trump_mode=TrumpMode.DEALER)
    match = choosing(dealer_mode, s3="7c 8c 7d 8d 9d Kd 7s 8s")
    assert match.turn == 3 and PASS not in view(match, 3).legal
    assert act(match) == Action.trump(DIAMONDS)
    forced = choosing(Rules(trump_mode=TrumpMode.FORCED), s0="7c 8c 7d 8d 9d Kd 7s 8s")
    assert act(forced) == Action.trump(DIAMONDS)
    all_passed = choosing(passes=4, s0="7c 8c 7d 8d 9d Kd 7s 8s")
    assert act(all_passed) == Action.trump(DIAMONDS)


def test_turned_mode_accepts_or_passes_the_turned_suit():
    turned = Rules(trump_mode=TrumpMode.TURNED)
    strong = choosing(turned, "Kh", s0="Jh 8h 7h 7c 8c 7d 8d 9s", s3="Kh Qh Th Ah Ac Kc Qc Jc")
    assert act(strong) == Action.trump(HEARTS)
    weak = choosing(turned, "Kh", s0="8h 7h Jc 9c Ac 8c 7d 8d", s3="Kh Qh Th Ah Jh 9h Tc Qc")
    assert act(weak) == PASS


def test_turned_mode_never_names_the_refused_suit_in_the_forced_round():
    turned = Rules(trump_mode=TrumpMode.TURNED)
    match = choosing(turned, "Kh", 4, s0="Jh 9h Ah Th 7c 8c 7d 7s", s3="Kh Qh 8h 7h Ac Kc Qc Jc")
    action = act(match)
    assert action.kind is Kind.TRUMP and action.value != HEARTS


# -- roem claim -----------------------------------------------------------------------------


def test_takes_roem_in_claim_mode():
    claim = Rules(roem=RoemMode.CLAIM)
    match = playing(
        SPADES,
        0,
        "7h 8h 9h Ah",
        claim,
        s0="7h 7c 8c 9c Tc Jc Qc Kc",
        s1="8h Ac 7d 8d 9d Td Jd Qd",
        s2="9h Kd Ad 7s 8s 9s Ts Js",
    )
    assert match.deal.phase is Phase.CLAIM and match.turn == 3
    assert act(match) == TAKE


# -- leading --------------------------------------------------------------------------------


def test_playing_side_pulls_trumps_with_the_jack():
    match = playing(HEARTS, 0, s0="Jh 9h 7h Ac Ad 7c 8d 7s", s1="Ah Kh 8c 9c Tc 8s 9s Ts")
    assert act(match) == Action.parse("Jh")


def test_playing_side_leads_a_low_trump_without_the_top_one():
    match = playing(HEARTS, 2, s0="9h 7h 8h Ac Ad 7c 8d 7s", s1="Jh Kh 8c 9c Tc 8s 9s Ts")
    assert act(match) == Action.parse("7h")


def test_cashes_aces_once_the_opponents_are_out_of_trumps():
    match = playing(
        HEARTS,
        0,
        "Jh 8c 7h Js",  # seats 1 and 3 show they hold no hearts
        s0="Jh Ah 9h Ac Ad 7c 8d 7s",
        s1="8c 9c Tc Kc 8s 9s Ts Ks",
        s2="7h 8h Th Qh Kh Qc 7d 9d",
    )
    assert match.turn == 0
    assert act(match) in (Action.parse("Ac"), Action.parse("Ad"))


def test_defenders_lead_an_ace_rather_than_a_trump():
    match = playing(HEARTS, 1, s0="Jh 9h Ac 7c 8d 9d 7s 8s")
    assert act(match) == Action.parse("Ac")


# -- following ------------------------------------------------------------------------------


def test_smears_a_ten_when_last_and_partner_wins():
    match = playing(
        SPADES,
        0,
        "7h Ah 8h",
        s0="7h Qh 9h 7c 8c 9c Jc Qc",
        s1="Ah Kh Jh Kc 7d 8d 9d Js",
        s3="Tc 7s 8s 9s Ad Kd Qd Jd",
    )
    assert match.turn == 3
    assert act(match) == Action.parse("Tc")


def test_smears_a_ten_on_the_partners_sure_trump_jack():
    match = playing(
        HEARTS,
        0,
        "Jh 7h",
        s0="Jh 8c 9c Ac 7d 8d 9d Ad",
        s1="7h 8h 7s 8s 9s Js Qs Ks",
        s2="Tc 7c Kc Qc Td Jd Qd Kd",
    )
    assert match.turn == 2
    assert act(match) in (Action.parse("Tc"), Action.parse("Td"))


def test_wins_an_opponents_trick_as_cheaply_as_possible():
    match = playing(
        SPADES,
        0,
        "9h Kh",
        s0="9h 7c 8c 9c Jc Qc Kc Ac",
        s1="Kh 7d 8d 9d Td Jd Qd Kd",
        s2="Ah Th Qh Tc Js Qs Ks As",
    )
    assert act(match) == Action.parse("Th")  # beats the king and keeps the ace


def test_last_player_does_not_complete_a_run_for_the_opponents():
    match = playing(
        SPADES,
        0,
        "9h 8h Ah",
        s0="9h 7c 8c 9c Tc Jc Qc Kc",
        s1="8h Ac 7d 8d 9d Td Kd Ad",
        s2="Ah Kh Qh Th Jd Qd 7s 8s",
        s3="7h Jh 9s Ts Js Qs Ks As",
    )
    assert match.turn == 3
    assert act(match) == Action.parse("Jh")  # 7h would make 7-8-9 for the opponents


def test_third_player_does_not_form_a_run_behind_an_opponents_ace():
    match = playing(
        SPADES,
        0,
        "Kd Ad",
        s0="Kd 7c 8c 9c Tc Jc Qc Kc",
        s1="Ad Ac 7d 8d 9d 7h 8h 9h",
        s2="Qd Td Ah Kh 7s 8s 9s Ts",
    )
    assert act(match) == Action.parse("Td")  # Qd would make Q-K-A


# -- whole matches --------------------------------------------------------------------------


def play_match(rules: Rules, seed: int, policies) -> Match:
    match, rng = Match(rules, seed), random.Random(seed)
    while not match.over:
        seat = match.turn
        seen = view(match, seat)
        action = policies[seat].act(seen, rng)
        assert action in seen.legal
        match.apply(seat, action)
    return match


@pytest.mark.parametrize("variant", list(Variant))
@pytest.mark.parametrize("mode", list(TrumpMode))
@pytest.mark.parametrize("roem", list(RoemMode))
def test_full_matches_are_always_legal(variant, mode, roem):
    rules = Rules(variant, mode, roem, end=EndKind.DEALS, end_value=2)
    for seed in range(2):
        match = play_match(rules, seed, [HEURISTIC] * 4)
        assert len(match.sheet) >= 2


@pytest.mark.parametrize("variant", list(Variant))
def test_shown_voids_are_true(variant):
    """Every void the policy infers from the cards played holds in the real hands."""
    rules = Rules(variant, end=EndKind.DEALS, end_value=2)
    policies = [HEURISTIC, RandomPolicy(), RandomPolicy(), HEURISTIC]
    checked = 0
    for seed in range(10):
        match, rng = Match(rules, seed), random.Random(seed)
        while not match.over:
            seat = match.turn
            seen = view(match, seat)
            if seen.phase is Phase.PLAY:
                voids = shown_voids(seen, seen.trump)
                for other, suit in itertools.product(range(4), range(4)):
                    if voids[other] >> suit & 1:
                        checked += 1
                        assert not match.deal.hands[other] & SUIT_MASK[suit]
            match.apply(seat, policies[seat].act(seen, rng))
    assert checked > 100


def test_is_deterministic():
    match = playing(HEARTS, 0, s0="Jh 9h 7h Ac Ad 7c 8d 7s")
    seen = view(match, match.turn)
    actions = {HEURISTIC.act(seen, random.Random(seed)) for seed in range(10)}
    assert len(actions) == 1


def test_beats_random_players():
    rules = Rules(end=EndKind.DEALS, end_value=100)
    policies = [HEURISTIC, RandomPolicy(), HEURISTIC, RandomPolicy()]
    totals = [0, 0]
    for seed in range(3):
        match = play_match(rules, seed, policies)
        totals[0] += match.totals[0]
        totals[1] += match.totals[1]
    share = totals[0] / sum(totals)
    print(f"heuristic share of all points over 300 deals: {share:.3f}")
    assert share > 0.6
