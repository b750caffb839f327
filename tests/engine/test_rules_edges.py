"""Edges of the rules that the other engine tests leave open: ``why_not`` for a deal under
way, what ``analyze`` reads from a record (the pit option, the claims, the seat to review)
and refuses, ``analyze_match`` without the solver, and when equal totals force another deal.

The expectations come from the hand-checked deals of ``tests/data/rules/deals.json``: which
seat plays each card (the trick's leader and the card's place in it), which trick carries
roem and who won it.
"""

from __future__ import annotations

import random

import pytest

from engine import Match, NotationError, Rules
from engine.cards import card_str, cards_of
from engine.deal import Phase
from engine.legal import refusals
from engine.record import analyze, analyze_match
from engine.rules import EndKind
from engine.scoring import extra_deal
from engine.views import view, why_not
from tests.conftest import load_cases
from tests.engine.helpers import play_random

pytestmark = pytest.mark.engine

DEALS = load_cases("deals.json")
FIELDS = ("variant", "dealer", "trump", "chooser", "hands", "plays")
ROEM_DEAL = 1  # Rotterdam, trump diamonds: roem in tricks 2, 4 and 6, won by seats 2, 0, 3
PIT_DEAL = 25  # Amsterdam, seat 0 names clubs, and the other team takes every trick


def record_of(index: int, **changes: object) -> dict:
    """Deal ``index`` of the hand-checked deals as a bare record, with ``changes``."""
    return {**{key: DEALS[index][key] for key in FIELDS}, **changes}


def seat_of_play(index: int, play: int) -> int:
    """Who plays card ``play`` of hand-checked deal ``index``: its trick's leader, then in
    turn."""
    return (DEALS[index]["tricks"][play // 4]["leader"] + play % 4) % 4


# -- why_not for a deal under way ---------------------------------------------------------


@pytest.mark.parametrize("variant", ["amsterdam", "rotterdam"])
def test_why_not_of_a_deal_is_the_views_and_the_rules_refusals(variant: str) -> None:
    """For every seat of many random positions: the seat on turn, into a trick under way,
    hears why each refused card is refused (the view's ``why_not``, and
    ``engine.legal.refusals`` by card), its keys the hand less the legal cards; any other
    seat, the trump choice, a claim and a lead hear nothing."""
    rules = Rules.from_dict({"deals": 1, "variant": variant, "roem": "claim"})
    seen = {"refused": 0, "off_turn": 0, "trump": 0, "claim": 0, "lead": 0}
    for seed in range(40):
        match = Match(rules, seed)
        rng = random.Random(seed)
        while not match.over:
            deal = match.deal
            for seat in range(4):
                answer = why_not(deal, seat)
                assert answer == view(match, seat).why_not()
                on_turn = deal.phase is Phase.PLAY and deal.turn == seat
                if not on_turn or not deal.trick:
                    assert answer == {}
                    continue
                found = refusals(
                    deal.hands[seat],
                    deal.trick,
                    deal.leader,
                    seat,
                    deal.trump,
                    rules.amsterdam,
                )
                assert answer == {card_str(c): why.to_dict() for c, why in found.items()}
                legal = {str(a) for a in deal.legal_actions()}
                assert set(answer) == {card_str(c) for c in cards_of(deal.hands[seat])} - legal
                seen["refused"] += bool(answer)
            if deal.phase is Phase.PLAY and deal.trick:
                # an off-turn seat that would have a card refused, were it its turn
                seen["off_turn"] += any(
                    refusals(
                        deal.hands[s],
                        deal.trick,
                        deal.leader,
                        s,
                        deal.trump,
                        rules.amsterdam,
                    )
                    for s in range(4)
                    if s != deal.turn
                )
            seen["trump"] += deal.phase is Phase.TRUMP
            seen["claim"] += deal.phase is Phase.CLAIM
            seen["lead"] += deal.phase is Phase.PLAY and not deal.trick
            actions = match.legal_actions()
            match.apply(deal.turn, actions[int(rng.random() * len(actions))])
    assert all(seen.values()), seen  # every kind of position came up


# -- analyze: what it reads from a record, and what it refuses ------------------------------


@pytest.mark.parametrize(
    ("pit_bonus", "result"),
    [
        (None, {"card_points": [0, 162], "roem": [0, 100], "nat": True, "pit": 1,
                "score": [0, 262]}),
        ("any", {"card_points": [0, 162], "roem": [0, 100], "nat": True, "pit": 1,
                 "score": [0, 262]}),
        ("playing", {"card_points": [0, 162], "roem": [0, 0], "nat": True, "pit": 1,
                     "score": [0, 162]}),
    ],
    ids=["default", "any", "playing"],
)  # fmt: skip
def test_analyze_scores_a_pit_under_the_records_pit_bonus(pit_bonus, result) -> None:
    """Team 1 takes every trick against team 0's trump (no roem in any trick): under
    ``any`` (the default) it earns the 100 pit bonus, nat or not, 162 + 100; under
    ``playing`` it does not, not being the playing team, and the nat scores 162."""
    changes = {} if pit_bonus is None else {"pit_bonus": pit_bonus}
    assert analyze(record_of(PIT_DEAL, **changes))["result"] == result


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        (
            "roem",
            "sometimes",
            "record: roem must be one of auto, claim, not 'sometimes'",
        ),
        ("roem", 1, "record: roem must be one of auto, claim, not 1"),
        (
            "pit_bonus",
            "never",
            "record: pit_bonus must be one of any, playing, not 'never'",
        ),
    ],
)
def test_a_malformed_rule_option_is_refused_naming_the_record(field, value, message) -> None:
    with pytest.raises(NotationError) as raised:
        analyze(record_of(0, **{field: value}))
    assert str(raised.value) == message


@pytest.mark.parametrize(
    "claims",
    [["take", "pass", "take"], ["take", None], "take", {"take": 1}, 3],
    ids=["another-word", "a-null", "a-string", "an-object-of-claims", "a-number"],
)
def test_claims_must_be_a_list_of_take_and_leave(claims: object) -> None:
    record = record_of(ROEM_DEAL, roem="claim", claims=claims)
    with pytest.raises(NotationError) as raised:
        analyze(record)
    assert str(raised.value) == "claims must be a list of 'take' and 'leave'"


def test_claims_are_read_in_order() -> None:
    """Roem 20 in tricks 2, 4 and 6, won by seats 2, 0 and 3: take, leave, take leaves
    team 0 with 20 of its 40 and team 1 its 20; with its 114 card points to 48, team 0
    (seat 2 named trump) makes it."""
    record = record_of(ROEM_DEAL, roem="claim", claims=["take", "leave", "take"])
    answer = analyze(record)
    assert record["claims"] == ["take", "leave", "take"]  # read, not used up
    assert analyze(record) == answer
    assert answer["result"] == {
        "card_points": [114, 48], "roem": [20, 20], "nat": False, "pit": None,
        "score": [134, 68],
    }  # fmt: skip
    assert [t["roem"] for t in answer["tricks"]] == [0, 20, 0, 0, 0, 20, 0, 0]


@pytest.mark.parametrize(("claims", "play"), [([], 7), (["take"], 15), (["leave", "take"], 23)])
def test_a_claimed_roem_without_its_claim_names_the_play(claims: list, play: int) -> None:
    """Tricks 2, 4 and 6 carry roem: a record whose claims run out is refused at the last
    card of the next of them (plays 7, 15 and 23)."""
    with pytest.raises(NotationError) as raised:
        analyze(record_of(ROEM_DEAL, roem="claim", claims=claims))
    assert str(raised.value) == f"play {play}: the trick's roem was claimed, say how"


def test_analyze_reviews_only_the_named_seats_decisions() -> None:
    """With ``solve`` and ``seat``, each of that seat's plays and claims has the solver's
    review (a value for every legal card, ``lost`` the best less the one played) and every
    other entry is None; without ``seat`` every decision is reviewed, alike."""

    def record() -> dict:  # afresh each time: analyze consumes the record's claims list
        return record_of(ROEM_DEAL, roem="claim", claims=["take", "leave", "take"])

    plays = DEALS[ROEM_DEAL]["plays"]
    claimers = [2, 0, 3]  # the winners of tricks 2, 4 and 6
    everyone = analyze(record(), solve=True)
    assert all(everyone["solve"]) and all(everyone["solve_claims"])
    for play, entry in enumerate(everyone["solve"]):
        assert sorted(entry["values"]) == everyone["legal"][play]
        chosen = entry["values"][plays[play]]
        assert entry["lost"] == max(entry["values"].values()) - chosen >= 0
    for entry in everyone["solve_claims"]:
        assert set(entry["values"]) == {"take", "leave"}
    for seat in range(4):
        answer = analyze(record(), solve=True, seat=seat)
        assert answer["solve"] == [
            everyone["solve"][play] if seat_of_play(ROEM_DEAL, play) == seat else None
            for play in range(32)
        ]
        assert answer["solve_claims"] == [
            everyone["solve_claims"][n] if claimer == seat else None
            for n, claimer in enumerate(claimers)
        ]
        assert answer["result"] == everyone["result"]


def test_analyze_match_does_not_solve_unless_asked() -> None:
    match = Match(Rules(end="deals", end_value=1), 4)
    play_random(match, random.Random(4))
    answer = analyze_match(match.to_record())
    assert len(answer["deals"]) == 1
    assert "solve" not in answer["deals"][0] and "solve_claims" not in answer["deals"][0]
    assert answer["deals"][0]["result"] == match.sheet[0].result.to_dict()


# -- another deal on equal totals ----------------------------------------------------------


def test_equal_totals_force_another_deal_only_once_the_match_would_end() -> None:
    """A match of 16 deals is not over after 3, however high its equal totals; a match to
    1000 whose equal totals are exactly 1000 would have ended: another deal."""
    assert not extra_deal(EndKind.DEALS, 16, (20, 20), 3)
    assert extra_deal(EndKind.DEALS, 16, (20, 20), 16)
    assert extra_deal(EndKind.TARGET, 1000, (1000, 1000), 3)
    assert not extra_deal(EndKind.TARGET, 1000, (999, 999), 16)
