"""A match to a target ends on the deal that reaches it exactly; a match needs a whole
number for its seed and a seat for its first dealer."""

from __future__ import annotations

import random

import pytest

from engine import Match, NotationError, Rules
from tests.engine.helpers import finish_deal

pytestmark = pytest.mark.engine


def test_reaching_the_target_exactly_ends_the_match() -> None:
    rules = Rules(end="target", end_value=1000)
    for seed in range(20):
        probe = Match(rules, seed)
        finish_deal(probe, random.Random(seed))
        s0, s1 = probe.sheet[0].result.score
        if s0 and s0 != s1:
            break
    match = Match(rules, seed)
    match.totals = [1000 - s0, 0]  # the first deal brings team 0 to 1000 exactly
    finish_deal(match, random.Random(seed))
    assert match.totals == [1000, s1]
    assert match.over and match.winner == 0


@pytest.mark.parametrize(
    ("seed", "first_dealer", "message"),
    [
        (True, 0, "seed must be a whole number, not True"),
        ("7", 0, "seed must be a whole number, not '7'"),
        (1.5, 0, "seed must be a whole number, not 1.5"),
        (7, 4, "first dealer must be a seat 0-3, not 4"),
        (7, -1, "first dealer must be a seat 0-3, not -1"),
    ],
)
def test_a_match_needs_a_seed_and_a_first_dealer(seed, first_dealer, message: str) -> None:
    with pytest.raises(NotationError) as raised:
        Match(Rules(), seed, first_dealer=first_dealer)
    assert str(raised.value) == message
