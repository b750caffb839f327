"""``klaverjas bid-model``: when the strong player names trump rather than passes in the
bidding, learned from play (:func:`engine.policies.trump_eval.naming_edge`).

Open-card values say what a hand is worth with each suit, but not whether naming beats
passing at a real table, where the cards are hidden: letting them decide made the strong
player name too often and lose (docs/performance.md).  So this step plays.  Seeded deals
under the bidding rules (Amsterdam, Rotterdam, claimed roem) are bid and played twice,
once with ``strong`` (budget :data:`PLAY_BUDGET`, whether to name by the rule of thumb) in
seats 0 and 2 and once in 1 and 3, ``heuristic`` in the other seats.  At each of strong's
choices whether to name, the deal is played out once after every legal choice, the rest of
the bidding and the card play by the same players; a line holds the deal and each
choice's outcome (strong's team's score minus the other's).  The file is appended to and
a run skips the deals already in it, so a stopped run resumes; a deal's outcomes are a pure
function of the seed, its number and the engine.

The fit: for each such choice, the outcome of naming the suit the evaluator values most
minus that of passing, regressed by least squares (ridge) on
:func:`~.trump_eval.bid_features` (every suit's rows, tried too, chose no better in
cross-validation).
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

from engine import Deal
from engine.actions import PASS, Action
from engine.cards import cards_of
from engine.deal import Phase
from engine.policies import HeuristicPolicy, StrongPolicy
from engine.policies.trump_eval import (
    BID_FEATURE_NAMES,
    bid_features,
    least_squares,
    naming_edge,
    value,
)
from engine.rules import PRESETS, RoemMode, Rules
from engine.views import deal_view

from .errors import UsageError
from .trump_model import add_arguments, append, case_inputs, rows_of

RULES = (
    ("amsterdam", PRESETS["amsterdam"]),
    ("rotterdam", PRESETS["rotterdam"]),
    ("claim", Rules(roem=RoemMode.CLAIM)),
)
PLAY_BUDGET = 250  # strong's budget in the playouts (a busy server's; no inference)
RIDGE = 100.0
_HEURISTIC = HeuristicPolicy()


def _after(deal: Deal, action: Action) -> Deal:
    """A copy of ``deal`` (choosing trump) after ``action``."""
    copy = Deal(deal.rules, deal.dealer, list(deal.dealt), deal.turned)
    for done in (*deal.actions, action):
        copy.apply(copy.turn, done)
    return copy


def _play_out(deal: Deal, team: int, strong: StrongPolicy, key: str) -> int:
    """``deal`` played to its end, ``team``'s seats by ``strong``: its score minus the other's."""
    number = 0
    while deal.phase is not Phase.DONE:
        seat = deal.turn
        player = strong if seat & 1 == team else _HEURISTIC
        deal.apply(seat, player.act(deal_view(deal, seat), random.Random(f"{key}/{number}")))
        number += 1
    assert deal.result is not None
    score = deal.result.score
    return score[team] - score[1 - team]


def play_deal(task: tuple[int, int, int]) -> dict:
    """Deal ``number`` of ``seed`` bid and played with strong as ``team``, and the outcome
    of every choice strong's seats had whether to name."""
    seed, number, team = task
    label, rules = RULES[number % len(RULES)]
    deal = Deal.shuffled(rules, seed, number, number & 3)
    strong = StrongPolicy(PLAY_BUDGET, bid_rule=1)
    choices = []
    while deal.phase is Phase.TRUMP:
        seat, bids = deal.turn, len(deal.actions)
        view, key = deal_view(deal, seat), f"{seed}/{number}/{team}/{bids}"
        rng = random.Random(key)
        if seat & 1 != team:
            deal.apply(seat, _HEURISTIC.act(view, rng))
            continue
        if PASS in view.legal:
            outcomes = {
                str(a): _play_out(_after(deal, a), team, strong, f"{key}/{a}") for a in view.legal
            }
            choices.append({"seat": seat, "bids": bids, "o": outcomes})
        deal.apply(seat, strong.act(view, rng))
    return {"seed": seed, "n": number, "team": team, "rules": label, "dealer": deal.dealer,
            "hands": list(deal.dealt), "choices": choices}  # fmt: skip


def make_data(seed: int, deals: int, path: Path, workers: int) -> None:
    """Append the lines (a deal and strong's team) of the first ``deals`` that ``path``
    lacks."""
    done = {(row["n"], row["team"]) for row in rows_of(path, seed)}
    tasks = [(seed, n, t) for n in range(deals) for t in (0, 1) if (n, t) not in done]
    append(path, tasks, play_deal, workers, "deals played")


def samples(path: Path, seed: int, deals: int) -> list[tuple[list[float], float]]:
    """A row for each choice in the first ``deals`` deals: the features of naming the
    suit the evaluator values most (the one strong would name), and the outcome of naming
    it minus that of passing."""
    out = []
    for row in rows_of(path, seed):
        if row["n"] >= deals:
            continue
        for choice in row["choices"]:
            seat = choice["seat"]
            hand, place = cards_of(row["hands"][seat]), (seat - row["dealer"] - 1) & 3
            best = max(range(4), key=lambda t: (value(hand, t, place), -t))  # the first on ties
            edge = choice["o"][str(Action.trump(best))] - choice["o"]["pass"]
            out.append((bid_features(hand, best, place), edge))
    return out


def run(args: argparse.Namespace) -> int:
    data = Path(args.data)
    start = time.perf_counter()
    make_data(args.seed, args.deals, data, args.workers)
    rows = samples(data, args.seed, args.deals)
    if not rows:
        raise UsageError(f"{data} holds no choice whether to name in seed {args.seed}")
    weights, quality = least_squares(rows, RIDGE)
    Path(args.out).write_text(weights_module(weights, quality, args.seed, args.deals))
    took = time.perf_counter() - start
    print(f"{args.deals} deals played twice, {len(rows)} choices: written {args.out}; "
          f"fit {quality}; {took:.0f} s")  # fmt: skip
    return 0


def weights_module(weights: list[float], quality: dict, seed: int, deals: int) -> str:
    """The source of :mod:`engine.policies.bid_weights`."""
    lines = [
        '"""The bidding model\'s weights, in the order of ``trump_eval.BID_FEATURE_NAMES``. Made',
        f"by ``klaverjas bid-model`` (do not edit): seed {seed}, {deals} deals played twice;",
        f"the fit (samples, R², RMSE): {quality['samples']}, {quality['r2']}, {quality['rmse']}.",
        '"""',
        "",
        "BID_WEIGHTS = (",
        *(f"    {w!r},  # {name}" for w, name in zip(weights, BID_FEATURE_NAMES, strict=True)),
        ")",
        "",
        "# (dealt hand as a mask, trump, place, edge) as made here: every machine must agree",
        "CASES = (",
        *(f"    {case!r}," for case in check_cases(weights)),
        ")",
        "",
    ]
    return "\n".join(lines)


def check_cases(weights: list[float], count: int = 16) -> list[tuple[int, int, int, float]]:
    """The stored cases' inputs (:func:`.trump_model.case_inputs`) and their edge under
    ``weights``."""
    return [(h, t, p, naming_edge(cards_of(h), t, p, weights)) for h, t, p in case_inputs(count)]


def add_commands(sub) -> None:
    p = sub.add_parser(
        "bid-model",
        help="learn when the strong player names trump rather than passes, from play",
        description="Play seeded deals out after every choice strong has whether to name "
        "(resumable: the deals already in --data are kept), then fit when naming beats "
        "passing.",
    )
    add_arguments(
        p, "played (twice each)", 3000, 2, "bid-data.jsonl", "engine/policies/bid_weights.py"
    )
    p.set_defaults(func=run)
