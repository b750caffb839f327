"""Playouts (random on the fast path, or by policies from their views), policies by name,
and ``Match.check``, the validation without the change."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine import Action, Deal, GameOver, KlaverjasError, Match, Phase, Rules
from engine.playout import policy_playout, random_playout
from engine.policies import POLICIES, HeuristicPolicy, RandomPolicy, policy
from engine.rules import RoemMode, TrumpMode
from engine.views import View, deal_view, view
from tests.engine.helpers import snapshot

pytestmark = pytest.mark.engine

MODES = [(mode, roem) for mode in TrumpMode for roem in RoemMode]


def replayed(deal: Deal, seed: int, number: int) -> Deal:
    """The deal's actions again through the validated path, on the same shuffle."""
    again = Deal.shuffled(deal.rules, seed, number, deal.dealer)
    for action in deal.actions:
        again.apply(again.turn, action)  # raises if the playout broke a rule
    return again


@pytest.mark.parametrize(("mode", "roem"), MODES)
def test_random_playouts_finish_by_the_rules(mode: TrumpMode, roem: RoemMode) -> None:
    rules = Rules(trump_mode=mode, roem=roem)
    rng = random.Random(1)
    for number in range(12):
        deal = Deal.shuffled(rules, 3, number, number & 3)
        assert random_playout(deal, rng) is deal
        assert deal.phase is Phase.DONE and deal.result is not None
        assert len(deal.tricks) == 8 and deal.hands == [0, 0, 0, 0]
        again = replayed(deal, 3, number)
        assert again.phase is Phase.DONE and again.result == deal.result


def test_random_playouts_draw_from_the_whole_legal_set() -> None:
    """Uniform choice: every position in the legal set is drawn, trump and roem choices
    included, and none far more often than the others."""
    rules = Rules(roem=RoemMode.CLAIM)
    rng = random.Random(2)
    picked: Counter[tuple[int, int]] = Counter()  # (size of the legal set, index chosen)
    passes = names = takes = leaves = 0
    for number in range(300):
        deal = random_playout(Deal.shuffled(rules, 4, number), rng)
        again = Deal.shuffled(rules, 4, number)
        for action in deal.actions:
            if again.phase is Phase.PLAY:
                legal = [a.value for a in again.legal_actions()]
                picked[len(legal), legal.index(action.value)] += 1
            passes += action == Action.parse("pass")
            names += str(action).startswith("trump:")
            takes += action == Action.parse("take")
            leaves += action == Action.parse("leave")
            again.apply(again.turn, action)
    assert passes and names and takes and leaves
    for size in (2, 3, 4):
        counts = [picked[size, index] for index in range(size)]
        assert min(counts) > 0.6 * max(counts), f"legal sets of {size}: {counts}"


class Recording:
    """A policy that checks it is handed its own seat's view, and keeps what it chose."""

    def __init__(self, inner, seat: int) -> None:
        self.inner, self.seat, self.chosen = inner, seat, []
        self.name = inner.name

    def act(self, seen: View, rng: random.Random) -> Action:
        assert seen.seat == self.seat and seen.turn == self.seat and seen.legal
        assert len(seen.hand) == seen.hand_sizes[self.seat]
        action = self.inner.act(seen, rng)
        self.chosen.append(action)
        return action


@pytest.mark.parametrize("name", ["random", "heuristic"])
@pytest.mark.parametrize(("mode", "roem"), [("bidding", "claim"), ("turned", "auto")])
def test_policy_playouts_let_each_seat_act_from_its_own_view(
    name: str, mode: str, roem: str
) -> None:
    rules = Rules(trump_mode=mode, roem=roem)
    for number in range(3):
        seats = [Recording(policy(name), seat) for seat in range(4)]
        deal = Deal.shuffled(rules, 9, number, number & 3)
        assert policy_playout(deal, seats, random.Random(number)) is deal
        assert deal.phase is Phase.DONE and deal.result is not None
        assert Counter(deal.actions) == sum((Counter(s.chosen) for s in seats), Counter())
        assert replayed(deal, 9, number).result == deal.result


def test_policies_by_name() -> None:
    assert isinstance(policy("random"), RandomPolicy)
    assert isinstance(policy("heuristic"), HeuristicPolicy)
    assert policy("random") is not policy("random"), "a new player each time"
    assert sorted(POLICIES) == ["heuristic", "random", "strong"]
    with pytest.raises(ValueError) as raised:
        policy("greedy")
    assert str(raised.value) == "unknown policy 'greedy'; choose from random, heuristic, strong"


def test_random_policy_draws_every_legal_action() -> None:
    match = Match(Rules(), 11)
    seen = view(match, match.turn)
    drawn = {RandomPolicy().act(seen, random.Random(k)) for k in range(60)}
    assert drawn == set(seen.legal)


@pytest.mark.parametrize("seed", range(4))
def test_check_refuses_what_apply_refuses_and_changes_nothing(seed: int) -> None:
    rules = Rules(roem="claim", trump_mode=list(TrumpMode)[seed], end="deals", end_value=1)
    match = Match(rules, seed)
    rng = random.Random(seed)
    everything = [Action.parse(t) for t in ("pass", "take", "leave")]
    everything += [Action.trump(s) for s in range(4)] + [Action.play(c) for c in range(32)]
    while True:
        before = snapshot(match)
        for seat in range(4):
            for action in everything:
                try:
                    match.check(seat, action)
                except KlaverjasError as refused:
                    with pytest.raises(type(refused)) as again:
                        match.apply(seat, action)
                    assert str(again.value) == str(refused)
                    allowed = False
                else:
                    allowed = True
                assert allowed == (seat == match.turn and action in match.legal_actions())
        assert snapshot(match) == before
        if match.over:
            break
        legal = match.legal_actions()
        match.apply(match.turn, legal[int(rng.random() * len(legal))])
    with pytest.raises(GameOver) as raised:
        match.check(0, Action.parse("pass"))
    assert str(raised.value) == "the match is over"


def test_a_lone_deal_is_viewed_as_deal_zero_of_no_match() -> None:
    """What a playout's policies see: the deal alone, numbered 0, with no match scores."""
    deal = Deal.shuffled(Rules(), 6, 2, dealer=1)
    seen = deal_view(deal, deal.turn).to_dict()
    assert (seen["deal_number"], seen["totals"], seen["sheet"], seen["winner"]) == (
        0,
        [0, 0],
        [],
        None,
    )
    assert seen["dealer"] == 1 and seen["turn"] == deal.turn == 2 and seen["phase"] == "trump"
