"""Whole matches checked event by event by an independent referee (tests/engine/referee.py).

The referee knows DESIGN.md §1 and nothing of the engine: trick winners, card points, the
last trick's 10, roem and its parts (stuk included), claim decisions, pit bonus, nat (ties
included) and when a match ends, at a points target or after a number of deals.
"""

from __future__ import annotations

import random
import sys
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from engine import Match, Rules
from engine.rules import EndKind, PitBonus, RoemMode, TrumpMode, Variant
from engine.views import project, view
from tests.engine.referee import Referee

pytestmark = pytest.mark.engine

options = {
    "variant": st.sampled_from(Variant),
    "trump_mode": st.sampled_from(TrumpMode),
    "roem": st.sampled_from(RoemMode),
    "pit_bonus": st.sampled_from(PitBonus),
}
# Small ends keep matches short; the whole allowed range is drawn too.
targets = st.integers(100, 600) | st.integers(100, 10_000)
deal_counts = st.integers(1, 6) | st.integers(1, 100)
rules_st = st.builds(Rules, end=st.just(EndKind.TARGET), end_value=targets, **options) | st.builds(
    Rules, end=st.just(EndKind.DEALS), end_value=deal_counts, **options
)
seeds = st.integers(-(2**63), 2**63)


def refereed(rules: Rules, seed: int, first_dealer: int, rng: random.Random) -> Referee:
    """Play a match with random legal actions, every event checked by a referee, and the
    finished tricks of the spectator's view checked against the referee's after each trick."""
    match = Match(rules, seed, first_dealer)
    referee = Referee(rules.to_dict(), first_dealer)
    referee.feed(project(match.start_event(), None))
    while not match.over:
        legal = match.legal_actions()
        for event in match.apply(match.turn, legal[int(rng.random() * len(legal))]):
            referee.feed(project(event, None))
        if referee.expect in ("play", "roem_decided") and not referee.deal["trick"]:
            assert view(match, None).to_dict()["tricks"] == referee.tricks
    assert referee.over, f"the match ended but the referee expects {referee.expect}"
    assert match.winner == referee.winner
    assert match.totals == referee.totals
    assert len(match.sheet) == len(referee.history)
    return referee


@given(rules_st, seeds, st.integers(0, 3), st.randoms(use_true_random=False))
def test_the_referee_agrees_with_every_event(
    rules: Rules, seed: int, first_dealer: int, rng: random.Random
) -> None:
    refereed(rules, seed, first_dealer, rng)


@given(st.fixed_dictionaries(options), seeds, st.integers(0, 3), seeds, st.integers(1, 4))
def test_a_team_reaching_the_target_exactly_ends_the_match(
    options: dict[str, Any], seed: int, first_dealer: int, play_seed: int, deals: int
) -> None:
    """Play ``deals`` deals; the higher total after the last is the target of a replay, which
    must end right there (unless the totals are equal)."""
    played = refereed(
        Rules(**options, end="deals", end_value=deals), seed, first_dealer, random.Random(play_seed)
    )
    totals = played.history[deals - 1]["totals"]
    before = played.history[deals - 2]["totals"] if deals > 1 else [0, 0]
    target = max(totals)
    assume(target >= 100 and max(before) < target)
    replayed = refereed(
        Rules(**options, end="target", end_value=target),
        seed,
        first_dealer,
        random.Random(play_seed),
    )
    assert replayed.history[:deals] == played.history[:deals]
    assert (len(replayed.history) == deals) == (totals[0] != totals[1])


# Recorded cases where the rules' rare branches are reached by random play.  Each was found
# by `python -m tests.engine.test_referee` (the search at the bottom) and is checked here
# to still be what it was recorded as; the engine's answer is judged by the referee.
# Play: uniformly random legal actions from random.Random(seed), first dealer 0.

CLAIMED_ROTTERDAM = {"variant": "rotterdam", "trump_mode": "dealer", "roem": "claim"}
TURNED_ROTTERDAM = {"variant": "rotterdam", "trump_mode": "turned"}
CLAIMED_PIT_PLAYING = {"roem": "claim", "pit_bonus": "playing"}
ONE_DEAL = {"end": "deals", "end_value": 1}
TWO_DEALS = {"end": "deals", "end_value": 2}

DEAL_TIES: list[tuple[dict[str, Any], int]] = [
    (ONE_DEAL, 1),  # 96 + 20 against 66 + 50
    (ONE_DEAL, 257),  # 46 + 70 against 116 + 0
    (TURNED_ROTTERDAM | ONE_DEAL, 110),
    (CLAIMED_PIT_PLAYING | ONE_DEAL, 94),  # 81 against 81
    (CLAIMED_ROTTERDAM | ONE_DEAL, 198),
]

MATCH_TIES: list[tuple[dict[str, Any], int]] = [
    (TWO_DEALS, 10),
    (TURNED_ROTTERDAM | TWO_DEALS, 5),
    (CLAIMED_PIT_PLAYING | TWO_DEALS, 0),
    ({"end": "target", "end_value": 172}, 293),
    ({"trump_mode": "forced", "end": "target", "end_value": 172}, 16),
    ({"trump_mode": "forced", "end": "target", "end_value": 192}, 47),
    (CLAIMED_ROTTERDAM | {"end": "target", "end_value": 162}, 39),
]

PITS: list[tuple[dict[str, Any], int, str]] = [  # pit_bonus aside: it does not change play
    ({}, 26, "playing"),
    ({}, 123, "other"),
    (TURNED_ROTTERDAM, 12, "playing"),
    (CLAIMED_ROTTERDAM, 26, "other"),
]


def _play(options: dict[str, Any], seed: int) -> Referee:
    return refereed(Rules.from_dict(options), seed, 0, random.Random(seed))


@pytest.mark.parametrize(("options", "seed"), DEAL_TIES)
def test_a_deal_whose_teams_tie_is_nat(options: dict[str, Any], seed: int) -> None:
    line = _play(options, seed).history[0]
    playing = line["chooser"] % 2
    own, other = (line["card_points"][t] + line["roem"][t] for t in (playing, 1 - playing))
    assert own == other, "recorded as a tie: search again if the engine's dealing changed"
    assert line["nat"] and line["score"][playing] == 0


@pytest.mark.parametrize(("options", "seed", "whose"), PITS)
def test_a_pit_under_both_options(options: dict[str, Any], seed: int, whose: str) -> None:
    """Under ``pit_bonus: playing`` a pit by the other team earns no 100; otherwise alike."""
    any_, playing = (
        _play(options | {"pit_bonus": bonus} | ONE_DEAL, seed).history[0]
        for bonus in ("any", "playing")
    )
    pit = any_["pit"]
    assert pit is not None, "recorded as a pit: search again if the engine's dealing changed"
    assert ("playing" if pit == any_["chooser"] % 2 else "other") == whose
    assert any_["score"][pit] - playing["score"][pit] == (100 if whose == "other" else 0)


def _would_end(rules: dict[str, Any], number: int, totals: list[int]) -> bool:
    """Whether the match would end after deal ``number`` (from 0) but for equal totals."""
    if rules["end"] == "target":
        return max(totals) >= rules["end_value"]
    return number + 1 >= rules["end_value"]


@pytest.mark.parametrize(("options", "seed"), MATCH_TIES)
def test_equal_totals_when_the_match_would_end_mean_another_deal(
    options: dict[str, Any], seed: int
) -> None:
    referee = _play(options, seed)
    rules = Rules.from_dict(options).to_dict()
    ties = [
        number
        for number, line in enumerate(referee.history)
        if line["totals"][0] == line["totals"][1] and _would_end(rules, number, line["totals"])
    ]
    assert ties, "recorded as a tie at the end: search again if the engine's dealing changed"
    tied = ties[0]
    assert len(referee.history) > tied + 1, "another deal was played after the tie"
    final = referee.history[-1]["totals"]
    assert final[0] != final[1]


def search(limit: int = 400) -> None:
    """Print the cases of DEAL_TIES, MATCH_TIES and PITS."""
    variants = [{}, TURNED_ROTTERDAM, CLAIMED_PIT_PLAYING, {"trump_mode": "forced"}]
    variants.append(CLAIMED_ROTTERDAM)
    for extra in variants:
        for seed in range(limit):
            options = extra | TWO_DEALS
            history = _play(options, seed).history
            first = history[0]
            playing = first["chooser"] % 2
            if first["card_points"][playing] + first["roem"][playing] == (
                first["card_points"][1 - playing] + first["roem"][1 - playing]
            ):
                print("deal tie", extra | ONE_DEAL, seed)
            if first["pit"] is not None:
                whose = "playing" if first["pit"] == playing else "other"
                print("pit", extra, seed, whose)
            if len(history) > 2:
                print("tie after 2 deals", options, seed)
                high, level = max(history[0]["totals"]), history[1]["totals"][0]
                if high < level and level >= 100:
                    print("tie at target", {**extra, "end": "target", "end_value": level}, seed)


if __name__ == "__main__":
    search(int(sys.argv[1]) if len(sys.argv) > 1 else 400)
