"""Inference from play and heuristic playouts: the true world is never ruled out, a
heuristic player's world always fits, and the fast playout is the heuristic's own."""

from __future__ import annotations

import random

import pytest

from engine import Deal, Phase, Rules
from engine.playout import policy_playout
from engine.policies import HeuristicPolicy, RandomPolicy
from engine.policies.inference import PlayModel, decisions
from engine.policies.rollout import heuristic_playout
from engine.rules import PRESETS, RoemMode, TrumpMode
from engine.views import deal_view
from engine.worlds import Worlds

pytestmark = pytest.mark.bots

RULES = [
    PRESETS["amsterdam"],
    PRESETS["rotterdam"],
    PRESETS["tournament"],
    Rules(trump_mode=TrumpMode.TURNED),
    Rules(roem=RoemMode.CLAIM),
]


def positions(rules: Rules, seed: int, players):
    """Every play-phase view with a choice of deal ``seed`` and its deal, ``players`` by seat."""
    deal = Deal.shuffled(rules, seed, seed, seed & 3)
    rng = random.Random(seed)
    while deal.phase is not Phase.DONE:
        view = deal_view(deal, deal.turn)
        if view.phase is Phase.PLAY and len(view.legal) > 1:
            yield view, deal
        deal.apply(deal.turn, players[deal.turn].act(view, rng))


@pytest.mark.parametrize("rules", RULES)
def test_heuristic_players_plays_fit_their_true_hands(rules: Rules) -> None:
    eps = dict.fromkeys(range(4), 0.01)
    for seed in range(4):
        for view, deal in positions(rules, seed, [HeuristicPolicy()] * 4):
            model = PlayModel(view, eps)
            true = Worlds(view).start_hands(list(deal.hands))
            assert model(true) == 1.0


@pytest.mark.parametrize("rules", RULES)
def test_the_true_world_never_has_weight_zero(rules: Rules) -> None:
    eps = dict.fromkeys(range(4), 0.05)
    players = [RandomPolicy(), HeuristicPolicy(), RandomPolicy(), HeuristicPolicy()]
    for seed in range(4):
        for view, deal in positions(rules, seed, players):
            true = Worlds(view).start_hands(list(deal.hands))
            assert PlayModel(view, eps)(true) > 0


@pytest.mark.parametrize("rules", RULES)
def test_a_floor_stops_early_only_below_it(rules: Rules) -> None:
    """With a floor the weight is exact when above it, else at most it; a model asked with
    floors first and without one after gives the full weight (its lazy memo resumes)."""
    eps = dict.fromkeys(range(4), 0.1)
    players = [RandomPolicy(), HeuristicPolicy(), RandomPolicy(), HeuristicPolicy()]
    rng = random.Random(5)
    lowered = 0
    for seed in range(4):
        for view, _ in positions(rules, seed, players):
            worlds, lazy = Worlds(view), PlayModel(view, eps)
            for _ in range(20):
                start = worlds.start_hands(worlds.hands(rng))
                full, floor = PlayModel(view, eps)(start), rng.random()
                weight = lazy(start, floor)
                assert weight == full if full > floor else weight <= floor
                assert lazy(start) == full
                lowered += full < 1.0
    assert lowered  # the random players' plays were off the model in some worlds


def test_decisions_name_every_card_played_in_order() -> None:
    for view, _ in positions(Rules(), 3, [HeuristicPolicy()] * 4):
        found = decisions(view)
        cards = [c for t in view.tricks for c in t.cards] + list(view.trick)
        assert [d.card for d in found] == cards
        assert all(not d.gone >> d.card & 1 for d in found)


@pytest.mark.parametrize("rules", [*RULES, Rules(trump_mode=TrumpMode.FORCED)])
def test_fast_playout_is_the_heuristics_own(rules: Rules) -> None:
    for seed in range(12):
        slow = Deal.shuffled(rules, seed, 0, seed & 3)
        fast = Deal.shuffled(rules, seed, 0, seed & 3)
        policy_playout(slow, [HeuristicPolicy()] * 4, random.Random(0))
        heuristic_playout(fast)
        assert fast.actions == slow.actions
        assert fast.result == slow.result
