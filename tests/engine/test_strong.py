"""The strong CPU player: reproducible, legal everywhere, right where the answer is clear."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from itertools import chain

import pytest

from engine import LEAVE, PASS, TAKE, Action, Deal, Phase, Rules, parse_hands, solver
from engine.cards import SUIT_NAMES
from engine.policies import HeuristicPolicy, RandomPolicy, StrongPolicy, policy, strong
from engine.policies.strong import DEFAULT_BUDGET, INFERENCE_BUDGET, card_label
from engine.rules import RoemMode, TrumpMode, Variant
from engine.views import deal_view
from tests.engine.helpers import ROOT, klaverjas

pytestmark = pytest.mark.bots


def heuristic_position(rules: Rules, seed: int, steps: int) -> Deal:
    """Deal ``seed`` after ``steps`` actions of four heuristic players."""
    deal = Deal.shuffled(rules, seed, 0, seed & 3)
    players, rng = HeuristicPolicy(), random.Random(seed)
    for _ in range(steps):
        deal.apply(deal.turn, players.act(deal_view(deal, deal.turn), rng))
    return deal


def recorded(hands: list[str], actions: str) -> Deal:
    """A deal of ``hands`` (dealer 0, amsterdam, bidding) after the ``actions`` given."""
    deal = Deal(Rules(), 0, parse_hands([h.split() for h in hands]))
    for text in actions.split():
        deal.apply(deal.turn, Action.parse(text))
    return deal


ADVICE_SCRIPT = """
import json, random, sys
from engine.policies import StrongPolicy
from engine.rules import Rules
from engine.views import deal_view
from tests.engine.test_strong import heuristic_position
rules, seed, steps = Rules.from_dict(json.loads(sys.argv[1])), int(sys.argv[2]), int(sys.argv[3])
deal = heuristic_position(rules, seed, steps)
budget, options = int(sys.argv[5]), json.loads(sys.argv[6])
policy = StrongPolicy(budget, **options)
advice = policy.advise(deal_view(deal, deal.turn), random.Random(sys.argv[4]))
print(json.dumps([str(advice.action), {str(a): v for a, v in advice.values.items()}]))
"""


@pytest.mark.parametrize(
    ("rules", "seed", "steps", "budget", "options"),
    [
        (Rules(), 11, 0, 2000, {}),  # the first bid: the evaluator, passing in sampled worlds
        (Rules(trump_mode=TrumpMode.TURNED), 3, 0, 1, {}),  # the turned card's first bid
        (Rules(roem=RoemMode.CLAIM, variant=Variant.ROTTERDAM), 5, 14, 300, {}),
        (Rules(trump_mode=TrumpMode.TURNED), 8, 20, 300, {}),
        (Rules(), 7, 13, 1000, {}),  # inference from play (on at the server's budget)
        (Rules(), 7, 13, 300, {"prior": 20.0}),  # the heuristic's card as a prior
        (Rules(trump_mode=TrumpMode.TURNED), 8, 20, 300, {"replies": 1}),  # modelled replies
        (Rules(), 18, 1, 1000, {}),  # an opening lead: two worlds dropped (see below)
    ],
)
def test_a_decision_is_the_same_in_another_process(
    rules: Rules, seed: int, steps: int, budget: int, options: dict
) -> None:
    deal = heuristic_position(rules, seed, steps)
    view = deal_view(deal, deal.turn)
    advice = StrongPolicy(budget, **options).advise(view, random.Random("room-1/42"))
    assert advice.values
    here = [str(advice.action), {str(a): v for a, v in advice.values.items()}]
    args = [json.dumps(rules.to_dict()), str(seed), str(steps), "room-1/42", str(budget)]
    args.append(json.dumps(options))
    out = subprocess.run(
        [sys.executable, "-c", ADVICE_SCRIPT, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert json.loads(out.stdout) == here
    again = StrongPolicy(budget, **options).advise(view, random.Random("room-1/42"))
    assert again == advice


@pytest.mark.parametrize("mode", list(TrumpMode))
@pytest.mark.parametrize("roem", list(RoemMode))
def test_plays_legal_actions_in_every_phase_and_mode(mode: TrumpMode, roem: RoemMode) -> None:
    variant = Variant.ROTTERDAM if roem is RoemMode.CLAIM else Variant.AMSTERDAM
    rules = Rules(variant=variant, trump_mode=mode, roem=roem)
    strong, other = StrongPolicy(2), HeuristicPolicy()
    phases = set()
    for seed in range(3):
        deal = Deal.shuffled(rules, seed, seed, seed & 3)
        rng = random.Random(seed)
        while deal.phase is not Phase.DONE:
            view = deal_view(deal, deal.turn)
            if deal.turn & 1 == seed >> 1 & 1:  # deals 0, 1: team 0 names in every mode
                action = strong.act(view, rng)
                assert action in view.legal
                phases.add(view.phase)
            else:
                action = other.act(view, rng)
            deal.apply(deal.turn, action)
    assert {Phase.TRUMP, Phase.PLAY} <= phases


CLEAR_CASES = [
    # Last to play to 8♠ 7♣ K♠ (diamonds trump): 10♠ takes the trick.
    (
        [
            "7h 7s 9c Ad Kh Ks Qd Tc",
            "7d 8c 8h 9s Ah Qc Qs Ts",
            "8s 9h Jd Js Kd Qh Td Th",
            "7c 8d 9d Ac As Jc Jh Kc",
        ],
        "pass trump:d Ah 9h Jh 7h 8h Th 8d Kh As 7s 9s Js Ac 9c 8c Kd Jd 9d Qd 7d 8s 7c Ks",
        "Ts",
    ),
    # Playing side, last to J♠ 9♠ A♠ won by an opponent: K♠, not 10♠, which makes it nat.
    (
        [
            "7d 8d 9h Jc Js Kc Qd Td",
            "7c 7h 7s 8c 9s Ac Jh Qs",
            "8h 9c As Kd Kh Qc Qh Tc",
            "8s 9d Ad Ah Jd Ks Th Ts",
        ],
        "pass pass trump:d Ac 9c 8s Jc 7c Qc Ad Kc Jd 7d Qs Kd 9d 8d Jh 8h Ah 9h 7h Qh Th Qd "
        "7s Kh Js 9s As",
        "Ks",
    ),
    # Void in clubs under A♣ Q♦ 9♣ (hearts trump): trump with the king, keep 9♥ and A♥.
    (
        [
            "7h 7s 8c 9c Jh Qh Qs Th",
            "8h 8s 9h Ad Ah Jc Kh Tc",
            "7c 9d 9s Ac Js Kc Ks Qc",
            "7d 8d As Jd Kd Qd Td Ts",
        ],
        "trump:h 8h 7c 7d Qh 7s 8s 9s Ts As Qs Tc Js 8d 7h Ad 9d 8c Jc Qc Jd Ac Qd 9c",
        "Kh",
    ),
]


@pytest.mark.parametrize(("hands", "actions", "best"), CLEAR_CASES)
def test_clear_decisions(hands: list[str], actions: str, best: str) -> None:
    """Positions where one card is best in every world the view allows."""
    deal = recorded(hands, actions)
    view = deal_view(deal, deal.turn)
    advice = StrongPolicy(3).advise(view, random.Random(0))
    assert str(advice.action) == best
    assert advice.reason.startswith(f"Play {card_label(advice.action.value)}:")
    assert "expected" in advice.reason
    assert advice.why["kind"] == "play" and advice.why["card"] == str(advice.action)


def test_takes_or_leaves_roem_in_claim_mode() -> None:
    deal = heuristic_position(Rules(roem=RoemMode.CLAIM), 0, 18)
    view = deal_view(deal, deal.turn)
    assert view.phase is Phase.CLAIM
    advice = StrongPolicy(4).advise(view, random.Random(2))
    assert set(advice.values) == {TAKE, LEAVE}
    assert advice.reason.startswith("Take the roem" if advice.action == TAKE else "Leave")


@pytest.mark.parametrize(
    ("seed", "mode"),
    [(4, TrumpMode.BIDDING), (6, TrumpMode.DEALER), (2, TrumpMode.FORCED), (5, TrumpMode.TURNED)],
)
def test_trump_advice_names_a_suit_or_passes(seed: int, mode: TrumpMode) -> None:
    """Every budget chooses trump alike, with every choice valued: a suit named is the
    evaluator's best; where passing is allowed, whether to name is the rule of thumb's.  The
    rule of thumb alone (``rule_trump``, for measuring) gives no values."""
    deal = Deal.shuffled(Rules(trump_mode=mode), seed, 0, 0)
    view = deal_view(deal, deal.turn)
    valued = StrongPolicy(1000).advise(view, random.Random(1))
    thumb = HeuristicPolicy().act(view, random.Random())
    assert set(valued.values) == set(deal.legal_actions())
    named = [a for a in valued.values if a != PASS]
    assert (PASS in valued.values) == (mode in (TrumpMode.BIDDING, TrumpMode.TURNED))
    if PASS in valued.values:
        assert (valued.action == PASS) == (thumb == PASS)
    if valued.action != PASS:
        assert valued.values[valued.action] == max(valued.values[a] for a in named)
    assert StrongPolicy(1).advise(view, random.Random(1)) == valued
    rule = StrongPolicy(1000, rule_trump=1).advise(view, random.Random(1))
    assert rule.values == {} and rule.action == HeuristicPolicy().act(view, random.Random())
    for advice in (valued, rule):
        action = advice.action
        head = "Pass" if action == PASS else f"Name {SUIT_NAMES[action.value]}"
        assert advice.reason.startswith(f"{head}: ")


@pytest.mark.parametrize(("seed", "dropped"), [(1, 1), (18, 2)])
def test_a_world_past_world_nodes_is_dropped_for_another(
    seed: int, dropped: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A rare opening lead's world costs many times the usual: its solve is abandoned at
    ``WORLD_NODES`` and another world drawn in its place, at most ``DROPS`` times; the
    decision then solves without a limit."""
    deal = heuristic_position(Rules(), seed, 1)  # the opening lead, after one bid
    assert deal.phase is Phase.PLAY and not deal.trick
    view = deal_view(deal, deal.turn)
    limits: list[tuple[int, bool]] = []  # each limited solve: its limit, whether it ended

    def solve_within(d: Deal, limit: int) -> dict[Action, int] | None:
        values = solver.solve_within(d, limit)
        limits.append((limit, values is not None))
        return values

    monkeypatch.setattr(strong, "solve_within", solve_within)
    advice = StrongPolicy(DEFAULT_BUDGET).advise(view, random.Random("room-1/42"))
    assert [ended for _, ended in limits].count(False) == dropped <= strong.DROPS
    assert {limit for limit, _ in limits} == {strong.WORLD_NODES}
    assert advice.action in view.legal and set(advice.values) == set(view.legal)


@pytest.mark.parametrize("mode", list(TrumpMode))
def test_a_trump_choice_needs_no_search_and_acts_as_advised(mode: TrumpMode) -> None:
    """Whether to name is the learned bidding model's or the rule of thumb's, so acting
    never values passing in sampled worlds: microseconds, decided on the server's loop."""
    strong, ruled = StrongPolicy(), StrongPolicy(bid_rule=1)
    players, choices = HeuristicPolicy(), 0
    for seed in range(40):
        deal = Deal.shuffled(Rules(trump_mode=mode), seed, 0, seed & 3)
        while deal.phase is Phase.TRUMP:
            view = deal_view(deal, deal.turn)
            if len(view.legal) > 1:
                choices += 1
                advised = strong.advise(view, random.Random(seed)).action
                assert strong.act(view, random.Random(seed)) == advised
                assert not strong.searches(view) and not ruled.searches(view)
                advised = ruled.advise(view, random.Random(seed)).action
                assert ruled.act(view, random.Random(seed)) == advised
            deal.apply(deal.turn, players.act(view, random.Random(seed)))
    assert choices >= 40
    play = deal_view(deal, deal.turn)
    assert strong.searches(play) == (len(play.legal) > 1)


def test_budget_is_checked_and_passed_through() -> None:
    assert policy("strong").budget == DEFAULT_BUDGET  # type: ignore[attr-defined]
    assert policy("strong", budget=5).budget == 5  # type: ignore[attr-defined]
    assert isinstance(policy("heuristic", budget=5), HeuristicPolicy)
    with pytest.raises(ValueError):
        StrongPolicy(0)


def test_beats_random_in_a_small_duplicate_match() -> None:
    strong, weak = StrongPolicy(300), RandomPolicy()
    total = 0
    for number in range(4):
        for team in (0, 1):
            deal = Deal.shuffled(Rules(), 99, number, number)
            rng = random.Random(number)
            while deal.phase is not Phase.DONE:
                player = strong if deal.turn & 1 == team else weak
                deal.apply(deal.turn, player.act(deal_view(deal, deal.turn), rng))
            assert deal.result is not None
            total += deal.result.score[team] - deal.result.score[1 - team]
    assert total > 0


def test_selfplay_with_a_policy_per_team() -> None:
    args = ["selfplay", "--deals", "2", "--seed", "3", "--policies", "strong,heuristic"]
    out = klaverjas(*args, "--budget", "2", "--out", "-")
    assert out.returncode == 0, out.stderr
    records = [json.loads(line) for line in out.stdout.splitlines()]
    assert len(records) == 2
    for record in records:
        assert sorted(chain.from_iterable(record["hands"])) == sorted(record["plays"])
    analyzed = klaverjas("analyze", "-", stdin=out.stdout)
    assert analyzed.returncode == 0, analyzed.stderr
    summary = klaverjas(*args, "--budget", "2")
    assert summary.returncode == 0, summary.stderr
    assert "strong - heuristic" in summary.stdout
    bad = klaverjas("selfplay", "--deals", "1", "--seed", "1", "--policies", "strong")
    assert bad.returncode != 0 and "--policies" in bad.stderr


def test_inference_from_play_is_on_at_the_servers_budget_and_off_below_it() -> None:
    """The smaller budgets are a busy server's: they shed inference's cost first."""
    deal = heuristic_position(Rules(), 7, 13)
    view = deal_view(deal, deal.turn)

    def values(budget: int, **options: float) -> dict:
        return StrongPolicy(budget, **options).advise(view, random.Random("r/1")).values

    assert values(INFERENCE_BUDGET) != values(INFERENCE_BUDGET, eps_opponent=1.0)
    below = INFERENCE_BUDGET // 4
    assert values(below) == values(below, eps_opponent=1.0)
