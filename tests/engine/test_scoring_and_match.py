"""Claim mode, nat, pit under both options, playing errors, and how a match ends."""

from __future__ import annotations

import random

import pytest

from engine import (
    Action,
    CardNotInHand,
    Deal,
    GameOver,
    IllegalCard,
    Match,
    NotYourTurn,
    Phase,
    PitBonus,
    Rules,
    WrongPhase,
    parse_card,
    parse_hands,
)
from engine.cards import cards_of, mask_of, parse_cards, parse_suit
from engine.events import DealEnded, DealStarted, MatchEnded, RoemDecided, TrickTaken
from engine.legal import why_illegal
from engine.tables import STRENGTH
from tests.conftest import load_cases
from tests.engine.helpers import deal_at_trump, finish_deal, play_random, snapshot

pytestmark = pytest.mark.engine

DEALS = {c["why"]: c for c in load_cases("deals.json") if c.get("why")}


def _replay(case: dict, rules: Rules) -> Deal:
    deal = Deal.with_trump(
        rules,
        case["dealer"],
        parse_hands(case["hands"]),
        parse_suit(case["trump"]),
        case["chooser"],
    )
    for card in case["plays"]:
        deal.apply(deal.turn, Action.play(parse_card(card)))
    return deal


@pytest.mark.parametrize(
    ("case", "bonus", "score", "pit", "nat"),
    [
        ("pit_playing", "any", [332, 0], 0, False),
        ("pit_playing", "playing", [332, 0], 0, False),
        ("pit_other", "any", [0, 262], 1, True),
        ("pit_other", "playing", [0, 162], 1, True),
    ],
)
def test_pit_under_both_options(case: str, bonus: str, score: list, pit: int, nat: bool) -> None:
    rules = Rules(variant=DEALS[case]["variant"], pit_bonus=PitBonus(bonus))
    result = _replay(DEALS[case], rules).result
    assert result is not None
    assert (list(result.score), result.pit, result.nat) == (score, pit, nat)


def test_a_tie_is_nat() -> None:
    case = DEALS["tie"]
    result = _replay(case, Rules(variant=case["variant"])).result
    assert result is not None
    playing = case["chooser"] & 1
    own = result.card_points[playing] + result.roem[playing]
    other = result.card_points[1 - playing] + result.roem[1 - playing]
    assert own == other and result.nat
    assert result.score[playing] == 0
    assert result.score[1 - playing] == 162 + sum(result.roem)


def _match_at_claim(seed: int) -> Match:
    """A claim-mode match stopped at its first roem decision."""
    match = Match(Rules(roem="claim"), seed)
    rng = random.Random(seed)
    play_random(match, rng, until=lambda m: m.deal.phase is Phase.CLAIM)
    return match


def test_claim_mode_take_and_leave() -> None:
    taken, left = _match_at_claim(3), _match_at_claim(3)
    trick = taken.deal.tricks[-1]
    assert trick.roem > 0 and taken.turn == trick.winner
    assert [str(a) for a in taken.legal_actions()] == ["take", "leave"]
    before = snapshot(taken)
    with pytest.raises(NotYourTurn):
        taken.apply((trick.winner + 1) & 3, Action.parse("take"))
    hand = cards_of(taken.deal.hands[trick.winner])
    with pytest.raises(WrongPhase):
        taken.apply(trick.winner, Action.play(hand[0]))
    assert snapshot(taken) == before
    team = trick.winner & 1
    roem_before = taken.deal.roem[team]
    events = taken.apply(trick.winner, Action.parse("take"))
    assert events[0] == RoemDecided(trick.winner, True, trick.roem)
    assert taken.deal.roem[team] == roem_before + trick.roem
    left.apply(trick.winner, Action.parse("leave"))
    assert left.deal.roem[team] == roem_before
    assert left.deal.tricks[-1].roem == 0
    assert taken.deal.phase is left.deal.phase is Phase.PLAY
    assert taken.turn == trick.winner, "the winner leads after deciding"


def test_claim_on_the_last_trick_ends_the_deal_after_the_decision() -> None:
    for seed in range(200):
        match = Match(Rules(roem="claim", end="deals", end_value=1), seed)
        rng = random.Random(seed)
        play_random(match, rng, until=lambda m: m.deal.phase is Phase.CLAIM or m.over)
        while not match.over and len(match.deal.tricks) < 8:
            play_random(match, rng, until=lambda m: m.deal.phase is Phase.CLAIM or m.over)
            if match.deal.phase is Phase.CLAIM and len(match.deal.tricks) < 8:
                match.apply(match.turn, Action.parse("take"))
        if match.deal.phase is Phase.CLAIM:
            assert match.deal.result is None
            events = match.apply(match.turn, Action.parse("leave"))
            assert isinstance(events[1], DealEnded)
            return
    pytest.fail("no deal with roem in the last trick in 200 seeds")


def test_playing_errors_name_the_problem_and_change_nothing() -> None:
    match = Match(Rules(trump_mode="forced"), seed=9)
    match.apply(1, Action.parse("trump:h"))
    deal = match.deal
    led = cards_of(deal.hands[1])[0]
    match.apply(1, Action.play(led))
    seat = match.turn
    hand = deal.hands[seat]
    before = snapshot(match)
    foreign = next(c for c in range(32) if not hand >> c & 1 and c != led)
    with pytest.raises(CardNotInHand, match="not in your hand"):
        match.apply(seat, Action.play(foreign))
    with pytest.raises(NotYourTurn):
        match.apply(1, Action.play(cards_of(deal.hands[1])[0]))
    with pytest.raises(WrongPhase):
        match.apply(seat, Action.parse("trump:c"))
    illegal = [c for c in cards_of(hand) if not deal.legal_mask() >> c & 1]
    if illegal:
        with pytest.raises(IllegalCard, match="is not legal: must"):
            match.apply(seat, Action.play(illegal[0]))
    assert snapshot(match) == before


def test_illegal_card_reasons() -> None:
    hands = [
        ["7c", "8c", "9c", "Tc", "Jc", "Qc", "Kc", "As"],
        ["Ac", "7d", "8d", "9d", "Td", "Jd", "Qd", "Ah"],
        ["7h", "8h", "9h", "Th", "Jh", "Qh", "Kh", "Ad"],
        ["7s", "8s", "9s", "Ts", "Js", "Qs", "Ks", "Kd"],
    ]
    match = deal_at_trump(Rules(), parse_hands(hands), parse_suit("h"), chooser=0, dealer=3)
    match.apply(0, Action.parse("Kc"))
    with pytest.raises(IllegalCard, match="Ah is not legal: must follow clubs"):
        match.apply(1, Action.parse("Ah"))
    match.apply(1, Action.parse("Ac"))
    with pytest.raises(IllegalCard, match="Ad is not legal: must trump"):
        match.apply(2, Action.parse("Ad"))
    match.apply(2, Action.parse("Qh"))
    match.apply(3, Action.parse("Kd"))
    assert match.deal.tricks[-1].winner == 2


@pytest.mark.parametrize(
    ("hand", "trick", "card", "reason"),
    [
        (["7s", "Ad", "7h", "8h"], ["Kc", "Qh"], "8h", "may not undertrump"),
        (["7s", "Ad", "9h", "8h"], ["Kc", "Qh"], "7s", "must trump higher than"),
        (["7h", "Jh", "Ac"], ["9h", "Ah"], "7h", "must play a higher trump"),
        (["7c", "Ac", "Jh", "8s"], ["Kc"], "Jh", "must follow clubs"),
    ],
)
def test_why_illegal(hand: list, trick: list, card: str, reason: str) -> None:
    cards = [parse_card(c) for c in trick]
    trumps = [c for c in cards if c >> 3 == parse_suit("h")]
    high = max(trumps, key=lambda c: STRENGTH[parse_suit("h") * 4][c]) if trumps else -1
    mask = mask_of(parse_cards(hand))
    assert reason in why_illegal(mask, cards, high, parse_suit("h"), parse_card(card))


def _score_of_first_deal(rules: Rules, seed: int) -> tuple[int, int]:
    match = Match(rules, seed)
    finish_deal(match, random.Random(seed))
    return match.sheet[0].result.score


@pytest.mark.parametrize("end", ["target", "deals"])
def test_equal_totals_at_the_end_mean_another_deal(end: str) -> None:
    rules = Rules(end=end, end_value=100 if end == "target" else 1)
    s0, s1 = _score_of_first_deal(rules, 21)
    match = Match(rules, 21)
    base = 200
    match.totals = [base + s1, base + s0]  # after the deal both teams hold base + s0 + s1
    events = []
    rng = random.Random(21)
    while match.deal_number == 0:
        actions = match.legal_actions()
        events = match.apply(match.turn, actions[int(rng.random() * len(actions))])
    assert match.totals[0] == match.totals[1]
    assert not match.over
    assert isinstance(events[-1], DealStarted) and events[-1].number == 1
    finish_deal(match, rng)
    assert match.over and isinstance(match.winner, int)


def test_match_to_a_target_ends_after_the_deal_that_reaches_it() -> None:
    for seed in range(5):
        match = play_random(Match(Rules(end_value=300), seed), random.Random(seed))
        totals = [0, 0]
        for number, line in enumerate(match.sheet):
            totals = [totals[0] + line.result.score[0], totals[1] + line.result.score[1]]
            last = number == len(match.sheet) - 1
            assert (max(totals) >= 300 and totals[0] != totals[1]) == last
        assert match.totals == totals
        assert match.winner == (0 if totals[0] > totals[1] else 1)
        with pytest.raises(GameOver):
            match.apply(0, Action.parse("pass"))


def test_match_of_a_number_of_deals() -> None:
    match = play_random(Match(Rules(end="deals", end_value=4), 8), random.Random(8))
    assert len(match.sheet) >= 4
    assert len(match.sheet) == 4 or all(
        sum(s.result.score[0] for s in match.sheet[:k])
        == sum(s.result.score[1] for s in match.sheet[:k])
        for k in range(4, len(match.sheet))
    )
    assert [s.dealer for s in match.sheet] == [n % 4 for n in range(len(match.sheet))]


def test_events_of_a_whole_match() -> None:
    match = Match(Rules(end="deals", end_value=2), 4)
    rng = random.Random(4)
    seen: list = []
    while not match.over:
        actions = match.legal_actions()
        seen += match.apply(match.turn, actions[int(rng.random() * len(actions))])
    assert sum(isinstance(e, TrickTaken) for e in seen) == 8 * len(match.sheet)
    assert sum(isinstance(e, DealEnded) for e in seen) == len(match.sheet)
    assert isinstance(seen[-1], MatchEnded) and seen[-1].totals == tuple(match.totals)
