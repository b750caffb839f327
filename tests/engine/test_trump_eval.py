"""The strong player's trump evaluator: the same on every machine, made by one command."""

from __future__ import annotations

import json
import random
import runpy
from pathlib import Path

import pytest

from engine import PASS, Action, Deal, Phase, Rules, parse_hands
from engine.cards import SUIT_NAMES, SUITS, cards_of, parse_card
from engine.policies import HeuristicPolicy, StrongPolicy, bid_weights
from engine.policies.heuristic import choose_trump
from engine.policies.trump_eval import (
    BID_FEATURE_NAMES,
    FEATURE_NAMES,
    features,
    fit,
    naming_edge,
    value,
)
from engine.policies.trump_weights import CASES, WEIGHTS
from engine.rules import TrumpMode
from engine.views import deal_view
from tests.engine.helpers import klaverjas

pytestmark = pytest.mark.bots


def test_the_shipped_weights_give_the_values_stored_when_they_were_made() -> None:
    assert len(WEIGHTS) == 4 and all(len(w) == len(FEATURE_NAMES) for w in WEIGHTS)
    assert len(CASES) >= 24 and {place for *_, place, _ in CASES} == {0, 1, 2, 3}
    for hand, trump, place, stored in CASES:
        assert value(cards_of(hand), trump, place) == stored  # exactly, not nearly


def test_the_shipped_bidding_weights_give_the_edges_stored_when_they_were_made() -> None:
    assert len(bid_weights.BID_WEIGHTS) == len(BID_FEATURE_NAMES)
    assert len(bid_weights.CASES) >= 16
    for hand, trump, place, stored in bid_weights.CASES:
        assert naming_edge(cards_of(hand), trump, place) == stored  # exactly, not nearly


def test_a_fit_finds_the_weights_that_made_its_data() -> None:
    rng = random.Random(5)
    truth = [[rng.uniform(-50, 50) for _ in FEATURE_NAMES] for _ in range(4)]
    rows = []
    for n in range(800):
        hand = rng.sample(range(32), 8)
        trump, place = n % 4, n // 4 % 4
        x = features(hand, trump)
        rows.append((x, sum(w * xi for w, xi in zip(truth[place], x, strict=True)), place))
    model = fit(rows, ridge=1e-9)
    for got, want in zip(model["weights"], truth, strict=True):
        assert got == pytest.approx(want, abs=1e-3)
    assert all(q["r2"] == 1.0 for q in model["fit"])


def test_strong_names_its_strong_suit_and_passes_a_weak_hand() -> None:
    hands = [
        "7d 8d 9d Td 7h 8h 7s 8s",
        "7c 8c 9c Tc Jc Ac Ad As",  # seat 1, first to bid: clubs, from J 9 A 10
        "Jd Qd Kd 9h Th Jh Qh Kh",
        "Qc Kc Ah 9s Ts Js Qs Ks",
    ]
    deal = Deal(Rules(), 0, parse_hands([h.split() for h in hands]))
    strong = StrongPolicy()
    advice = strong.advise(deal_view(deal, 1), random.Random(1))
    assert advice.action == Action.trump(parse_card("Jc") >> 3)
    assert advice.values[advice.action] > max(
        v for a, v in advice.values.items() if a != advice.action
    )
    assert advice.reason.startswith("Name clubs: your hand is worth about +")
    weak = [
        "Jc 9c Ac Kc Jd 9d Ad Kd",
        "7c 8c 7d 8d 7h 8h 7s 8s",  # seat 1: sevens and eights only
        "Tc Qc Td Qd Jh 9h Ah Kh",
        "Th Qh Js 9s As Ks Ts Qs",
    ]
    deal = Deal(Rules(), 0, parse_hands([h.split() for h in weak]))
    # in the bidding the learned model decides whether to name, and says so
    advice = strong.advise(deal_view(deal, 1), random.Random(1))
    best = max((a for a in advice.values if a != PASS), key=advice.values.__getitem__)
    edge = naming_edge(cards_of(deal.dealt[1]), best.value, 0)
    assert advice.action == PASS and advice.why["kind"] == "pass" and edge < 0
    assert advice.values[PASS] == pytest.approx(advice.values[best] - edge)
    assert advice.reason.startswith("Pass: your hand is worth about -")
    assert advice.reason.endswith(f"less than passing ({advice.values[PASS]:+.0f})")
    # with ``bid_rule=1`` the rule of thumb decides, and says so
    advice = StrongPolicy(bid_rule=1).advise(deal_view(deal, 1), random.Random(1))
    assert advice.action == PASS and advice.why["kind"] == "thumb_pass"
    worth = round(advice.values[best], 1)
    assert advice.why == {"kind": "thumb_pass", "suit": SUITS[best.value], "worth": worth}
    assert advice.reason.endswith(
        f"your hand is worth about {worth:+.0f} with {SUIT_NAMES[best.value]}"
    )
    # the turned card's first round: whether to take it is the rule of thumb's too
    turned = Rules(trump_mode=TrumpMode.TURNED)
    deal = Deal(turned, 0, parse_hands([h.split() for h in weak]), turned=parse_card("Kd"))
    advice = strong.advise(deal_view(deal, 1), random.Random(1))
    assert advice.action == PASS and advice.why["kind"] == "thumb_pass"
    assert PASS in advice.values  # valued by bidding on, for the hint and the review


def test_the_command_makes_the_same_model_from_the_same_deals_and_resumes(tmp_path: Path) -> None:
    data, out = tmp_path / "data.jsonl", tmp_path / "weights.py"
    args = ["trump-model", "--deals", "6", "--seed", "3", "--workers", "1"]
    made = klaverjas(*args, "--data", str(data), "--out", str(out))
    assert made.returncode == 0, made.stderr
    assert "6 deals, 96 samples" in made.stdout
    first = out.read_text()
    lines = data.read_text().splitlines()
    assert len(lines) == 6
    data.write_text("\n".join(lines[:2]) + "\n")  # as if stopped after two deals
    again = klaverjas(*args, "--data", str(data), "--out", str(out))
    assert again.returncode == 0, again.stderr
    assert sorted(data.read_text().splitlines()) == sorted(lines)  # the four missing, solved
    assert out.read_text() == first
    module = runpy.run_path(str(out))
    for hand, trump, place, stored in module["CASES"]:
        assert value(cards_of(hand), trump, place, module["WEIGHTS"]) == stored


def test_in_the_bidding_strong_names_its_best_suit_exactly_when_the_model_sees_an_edge() -> None:
    """Whether to name is the learned model's, the suit the evaluator's; it differs from the
    rule of thumb's choice in some of these deals (else the model would not be used)."""
    strong, players = StrongPolicy(), HeuristicPolicy()
    named = passed = against_rule = 0
    for seed in range(300):
        deal = Deal.shuffled(Rules(), seed, 0, seed & 3)
        while deal.phase is Phase.TRUMP and PASS in deal.trump_choices():
            view = deal_view(deal, deal.turn)
            place = (deal.turn - deal.dealer - 1) & 3
            suit = max(range(4), key=lambda t: (value(view.hand, t, place), -t))
            action = strong.act(view, random.Random(seed))
            edge = naming_edge(view.hand, suit, place)
            assert action == (Action.trump(suit) if edge > 0 else PASS)
            named, passed = named + (action != PASS), passed + (action == PASS)
            against_rule += (action == PASS) != (choose_trump(view.hand, view.legal) == PASS)
            deal.apply(deal.turn, players.act(view, random.Random(seed)))
    assert named >= 50 and passed >= 50 and against_rule >= 10


def test_the_bidding_command_makes_the_same_model_from_the_same_deals_and_resumes(
    tmp_path: Path,
) -> None:
    data, out = tmp_path / "data.jsonl", tmp_path / "bid_weights.py"
    args = ["bid-model", "--deals", "3", "--seed", "3", "--workers", "1"]
    made = klaverjas(*args, "--data", str(data), "--out", str(out))
    assert made.returncode == 0, made.stderr
    first = out.read_text()
    lines = data.read_text().splitlines()
    assert len(lines) == 6  # each deal twice: strong in either team's seats
    assert sum(len(json.loads(line)["choices"]) for line in lines) >= 2
    data.write_text(lines[0] + "\n")  # as if stopped after one
    again = klaverjas(*args, "--data", str(data), "--out", str(out))
    assert again.returncode == 0, again.stderr
    assert sorted(data.read_text().splitlines()) == sorted(lines)  # the missing, played again
    assert out.read_text() == first
    module = runpy.run_path(str(out))
    for hand, trump, place, stored in module["CASES"]:
        assert naming_edge(cards_of(hand), trump, place, module["BID_WEIGHTS"]) == stored
