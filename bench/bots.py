"""Strength of the strong CPU player: duplicate matches against another policy.

Each deal pair is one seeded deal played twice: once with the strong team in seats 0 and
2, once with it in seats 1 and 3, every other seat played by the opponent policy.  The
luck of the cards cancels; what is left is the difference in play.  The deal's rules cycle
through :data:`RULESETS`, so every trump mode is represented (and rotterdam and claimed
roem).  Reported per configuration: the mean of (strong team's score - the other team's)
per deal with its 95% confidence interval over the deal pairs, the number of pairs, and
the median and p95 CPU time (``time.process_time``) of the strong player's decisions that
had a choice.  A pool of worker processes (one per core by default) plays the pairs.

Usage: ``python bench/bots.py [--pairs N] [--against heuristic,random] [--budget 1000,8000]
[--minutes M]`` (the strong budget in thousands of solver nodes a decision; ``--minutes``
ends each run early, after the pairs finished by then).  An opponent may be ``strong`` with
options of its own, ``strong/rule_trump=1``: the same card play with the heuristic's trump
choice, so that the difference is the trump choice's alone.  The trump choice's share
against ``heuristic``: ``--options rule_trump=1`` on the same pairs and seed.
The last line is one JSON object with every configuration's figures.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import Deal, Phase, Rules
from engine.actions import Action
from engine.cards import cards_of
from engine.policies import DEFAULT_BUDGET, Policy, StrongPolicy, policy
from engine.policies.heuristic import choose_trump
from engine.rules import PRESETS, RoemMode, TrumpMode
from engine.solver import solve, solve_value
from engine.views import deal_view

RULESETS: tuple[tuple[str, Rules], ...] = (
    ("amsterdam", PRESETS["amsterdam"]),  # bidding
    ("rotterdam", PRESETS["rotterdam"]),  # bidding
    ("tournament", PRESETS["tournament"]),  # dealer's choice
    ("forced", Rules(trump_mode=TrumpMode.FORCED)),
    ("turned", Rules(trump_mode=TrumpMode.TURNED)),
    ("claim", Rules(roem=RoemMode.CLAIM)),
)


def _bid(deal: Deal, action: Action) -> Deal:
    """A copy of ``deal`` (in its trump phase) after ``action``."""
    copy = Deal(deal.rules, deal.dealer, list(deal.dealt), deal.turned)
    for done in (*deal.actions, action):
        copy.apply(copy.turn, done)
    return copy


def _bidding_value(deal: Deal, team: int) -> int:
    """The open-hand value for ``team`` of the rest of the bidding: ``team``'s seats choose
    what is best for it, the others by the heuristic's rule of thumb; each outcome is the
    exact solver's value at the opening lead of the real deal."""
    if deal.phase is not Phase.TRUMP:
        value = solve_value(deal)
        return value if deal.turn & 1 == team else -value
    choices = deal.trump_choices()
    if deal.turn & 1 != team:
        rule = choose_trump(cards_of(deal.hands[deal.turn]), choices)
        return _bidding_value(_bid(deal, rule), team)
    return max(_bidding_value(_bid(deal, a), team) for a in choices)


def cheat_trump(deal: Deal, rule: Action) -> Action:
    """A trump choice with all hands seen (a ceiling, not a player): the choice whose
    bidding, played on as :func:`_bidding_value` says, is worth most (``rule`` on ties)."""
    team = deal.turn & 1
    values = {a: _bidding_value(_bid(deal, a), team) for a in deal.trump_choices()}
    return rule if values[rule] == max(values.values()) else max(values, key=values.__getitem__)


def play(
    deal: Deal,
    strong_team: int,
    strong: StrongPolicy,
    other: str,
    key: str,
    cheat: bool = False,
    cheat_trumps: bool = False,
):
    """Play ``deal`` out; the strong team's score minus the other's, and strong's times.
    Ceilings, not players: with ``cheat`` strong's cards and roem decisions are the exact
    solver's best on the real deal, all hands seen; with ``cheat_trumps`` its trump
    choices are :func:`cheat_trump`'s (else its own)."""
    opponent = opponent_policy(other, strong.budget)
    times = []
    number = 0
    while deal.phase is not Phase.DONE:
        seat = deal.turn
        view = deal_view(deal, seat)
        rng = random.Random(f"{key}/{number}")
        if seat & 1 == strong_team:
            start = time.process_time()
            if cheat_trumps and view.phase is Phase.TRUMP and len(view.legal) > 1:
                action = cheat_trump(deal, strong.act(view, rng))
            elif cheat and view.phase is not Phase.TRUMP and len(view.legal) > 1:
                values = solve(deal)
                action = max(view.legal, key=lambda a: values[a])
            else:
                action = strong.act(view, rng)
            if len(view.legal) > 1:
                times.append(time.process_time() - start)
        else:
            action = opponent.act(view, rng)
        deal.apply(seat, action)
        number += 1
    assert deal.result is not None
    score = deal.result.score
    return score[strong_team] - score[1 - strong_team], times


def opponent_policy(spec: str, budget: int) -> Policy:
    """A policy by name, or ``strong/k=v,...``: strong with those options (and ``budget``)."""
    name, _, options = spec.partition("/")
    if name == "strong" and options:
        return StrongPolicy(budget, **parse_options(options))
    return policy(name)


def parse_options(text: str) -> dict:
    """``k=v,k=v`` (numbers) as keyword arguments."""
    return {
        k: float(v) if "." in v else int(v)
        for k, v in (item.split("=") for item in text.split(",") if item)
    }


def pair(task: tuple[int, int, str, int, dict]) -> tuple[int, str, float, list[float]]:
    """One duplicate deal pair: its rules label, the mean difference a deal, strong's times."""
    seed, number, other, budget, options = task
    label, rules = RULESETS[number % len(RULESETS)]
    options = dict(options)
    cheat = bool(options.pop("cheat", 0))
    cheat_trumps = bool(options.pop("cheat_trump", 0))
    strong = StrongPolicy(budget, **options)
    total, times = 0, []
    for team in (0, 1):
        deal = Deal.shuffled(rules, seed, number, number & 3)
        key = f"{seed}/{number}/{team}"
        diff, spent = play(deal, team, strong, other, key, cheat, cheat_trumps)
        total += diff
        times += spent
    return number, label, total / 2, times


keep_diffs = False


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def run(
    pairs: int,
    seed: int,
    other: str,
    budget: int,
    workers: int,
    minutes: float,
    options: dict | None = None,
    first: int = 0,
    log: str | None = None,
) -> dict:
    """Play ``pairs`` deal pairs (numbered from ``first``), or the first ones of them that
    finish within ``minutes`` of wall clock (the bench's own limit: the players never see
    a clock); ``options`` are StrongPolicy's keyword arguments; ``log`` names a file that
    gets one JSON line a finished pair (number, rules, difference, decision times)."""
    options = options or {}
    tasks = [(seed, number, other, budget, options) for number in range(first, first + pairs)]
    start = time.perf_counter()
    results = []
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        for result in pool.imap(pair, tasks, chunksize=1):  # in order: a prefix of the pairs
            results.append(result)
            if log:
                with open(log, "a") as out:
                    out.write(json.dumps(result) + "\n")
            if time.perf_counter() - start > 60 * minutes:
                pool.terminate()
                break
            if len(results) % 100 == 0:  # a run stopped early still says how it went
                diffs = [d for _, _, d, _ in results]
                half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs))
                print(
                    f"  {len(diffs)} pairs: {statistics.fmean(diffs):+.1f} ± {half:.1f}",
                    file=sys.stderr,
                    flush=True,
                )
    elapsed = time.perf_counter() - start
    diffs = [d for _, _, d, _ in results]
    times = [t for *_, ts in results for t in ts]
    mean = statistics.fmean(diffs)
    sd = statistics.stdev(diffs) if len(diffs) > 1 else 0.0
    half = 1.96 * sd / math.sqrt(len(diffs))
    by_rules = {
        label: round(statistics.fmean(d for _, lab, d, _ in results if lab == label), 1)
        for label, _ in RULESETS
        if any(lab == label for _, lab, _, _ in results)
    }
    return {
        "against": other,
        "budget": budget,
        "options": options,
        "first": first,
        "pairs": len(diffs),
        "points_per_deal": round(mean, 1),
        "ci95": [round(mean - half, 1), round(mean + half, 1)],
        "by_rules": by_rules,
        "decisions": len(times),
        "median_ms": round(1000 * statistics.median(times), 2) if times else 0.0,
        "p95_ms": round(1000 * percentile(times, 0.95), 2),
        "mean_ms": round(1000 * statistics.fmean(times), 2) if times else 0.0,
        "wall_s": round(elapsed, 1),
        "diffs": [d for _, _, d, _ in results] if keep_diffs else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=200, help="duplicate deal pairs a run")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--against", default="heuristic", help="opponent policies, A,B,...")
    parser.add_argument(
        "--budget",
        default=str(DEFAULT_BUDGET),
        help="strong budgets (thousand solver nodes), N,M,...",
    )
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--first", type=int, default=0, help="number of the first deal pair")
    parser.add_argument(
        "--options", default="", help="StrongPolicy keyword arguments, k=v,k=v (numbers)"
    )
    parser.add_argument("--diffs", action="store_true", help="list each pair's difference")
    parser.add_argument("--log", help="append each finished pair to this file (JSON lines)")
    parser.add_argument(
        "--minutes", type=float, default=math.inf, help="stop a run after this much wall clock"
    )
    args = parser.parse_args()
    options = parse_options(args.options)
    global keep_diffs
    keep_diffs = args.diffs
    runs = []
    for other in args.against.split(","):
        for budget in map(int, args.budget.split(",")):
            result = run(
                args.pairs,
                args.seed,
                other,
                budget,
                args.workers,
                args.minutes,
                options,
                args.first,
                args.log,
            )
            runs.append(result)
            print(
                f"strong({budget}) vs {other}: {result['points_per_deal']:+.1f} points a deal "
                f"(95% CI {result['ci95'][0]:+.1f}..{result['ci95'][1]:+.1f}, "
                f"{result['pairs']} pairs), decision median {result['median_ms']} ms, "
                f"p95 {result['p95_ms']} ms",
                flush=True,
            )
    print(json.dumps({"bench": "bots", "seed": args.seed, "runs": runs}))


if __name__ == "__main__":
    main()
