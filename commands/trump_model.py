"""``klaverjas trump-model``: make the strong player's trump evaluator
(:mod:`engine.policies.trump_eval`) from the exact solver.

Two steps, one command. ``data`` deals seeded deals and solves each one open-card from the
opening lead eight times: every suit as trump, chosen by either team (nat and pit depend
on who chose). A deal is one JSON line (its number, rules, dealer, dealt hands and the
eight values for team 0); the file is appended to and a run skips the deals already in
it, so a stopped run resumes where it stood, and the numbers make it the same data
whatever stopped it. ``fit`` turns each line into four samples a suit (each seat as the
chooser: its hand's features, its place from the opening lead, its team's value) and
fits the evaluator's weights by least squares, written as the Python module the engine
ships (:mod:`engine.policies.trump_weights`: numbers only, read by no code at run time).

Usage: ``klaverjas trump-model --deals 6000 --seed 1 --data trump-data.jsonl`` (``--workers``
processes solve in parallel; ``make trump-model`` runs it).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine import Deal
from engine.cards import cards_of
from engine.policies.trump_eval import FEATURE_NAMES, features, fit, value
from engine.rules import PRESETS
from engine.solver import solve_value

from .errors import UsageError, positive

# The card play's rules differ between these two (must one overtrump a partner's trick).
CASES_SEED = 20261207  # the hands of the stored cases
RULES = (("amsterdam", PRESETS["amsterdam"]), ("rotterdam", PRESETS["rotterdam"]))


def solve_deal(task: tuple[int, int]) -> dict:
    """Deal ``number`` of ``seed`` and its eight open-card values for team 0."""
    seed, number = task
    label, rules = RULES[number % len(RULES)]
    dealer = number & 3
    dealt = Deal.shuffled(rules, seed, number, dealer).dealt
    values = []
    for trump in range(4):
        row = []
        for team in (0, 1):
            deal = Deal.with_trump(rules, dealer, list(dealt), trump, team)
            value = solve_value(deal)  # for the team of the leader, who is on turn
            row.append(value if deal.turn & 1 == 0 else -value)
        values.append(row)
    return {"seed": seed, "n": number, "rules": label, "dealer": dealer, "hands": list(dealt),
            "v": values}  # fmt: skip


def make_data(seed: int, deals: int, path: Path, workers: int) -> int:
    """Append the deals ``path`` lacks; how many it holds afterwards."""
    done = {row["n"] for row in rows_of(path, seed)}
    tasks = [(seed, n) for n in range(deals) if n not in done]
    append(path, tasks, solve_deal, workers, "deals solved")
    return len(done) + len(tasks)


def rows_of(path: Path, seed: int) -> list[dict]:
    """The lines of ``path`` made with ``seed`` (none if it does not exist)."""
    if not path.exists():
        return []
    rows = (json.loads(line) for line in path.read_text().splitlines())
    return [row for row in rows if row.get("seed") == seed]


def append(path: Path, tasks: list, work: Callable[[Any], dict], workers: int, what: str) -> None:
    """``work`` done on each task in ``workers`` processes, each result appended to ``path``
    as a JSON line as it comes (so a stopped run keeps what it did)."""
    start = time.perf_counter()
    with multiprocessing.get_context("fork").Pool(workers) as pool, path.open("a") as out:
        for k, row in enumerate(pool.imap_unordered(work, tasks, chunksize=2), 1):
            out.write(json.dumps(row) + "\n")
            if k % 200 == 0:
                out.flush()
                rate = k / (time.perf_counter() - start)
                print(f"  {k} {what} ({rate:.1f} a second)", file=sys.stderr)


def add_arguments(
    p: argparse.ArgumentParser, what: str, deals: int, seed: int, data: str, out: str
) -> None:
    """A model command's options: ``--deals``, ``--seed``, ``--data``, ``--out``, ``--workers``."""
    p.add_argument("--deals", type=positive, default=deals, help=f"deals {what}")
    p.add_argument("--seed", type=int, default=seed, help="the deals' seed")
    p.add_argument("--data", default=data, help="where they are kept (appended to; resumable)")
    p.add_argument("--out", default=out, help="the weights module written")
    p.add_argument(
        "--workers", type=positive, default=os.cpu_count() or 1, help="processes that work"
    )


def samples(path: Path, seed: int) -> list[tuple[list[float], float, int]]:
    """Each deal's 16 samples: (features, the chooser team's value, its place)."""
    out = []
    for row in rows_of(path, seed):
        leader = (row["dealer"] + 1) & 3
        for seat, hand in enumerate(row["hands"]):
            place = (seat - leader) & 3
            cards = cards_of(hand)
            for trump in range(4):
                value = row["v"][trump][seat & 1]
                out.append((features(cards, trump), value if seat & 1 == 0 else -value, place))
    return out


def run(args: argparse.Namespace) -> int:
    data = Path(args.data)
    held = make_data(args.seed, args.deals, data, args.workers)
    rows = samples(data, args.seed)
    if not rows:
        raise UsageError(f"{data} holds no deal of seed {args.seed}")
    model = fit(rows)
    Path(args.out).write_text(weights_module(model, args.seed, held))
    print(f"{held} deals, {len(rows)} samples: written {args.out}; fit {model['fit']}")
    return 0


def weights_module(model: dict, seed: int, deals: int) -> str:
    """The source of :mod:`engine.policies.trump_weights` for a fitted ``model``."""
    lines = [
        '"""The trump evaluator\'s weights, by place from the opening leader, in the order of',
        "``trump_eval.FEATURE_NAMES``. Made by ``klaverjas trump-model`` (do not edit): seed "
        f"{seed},",
        f"{deals} deals solved eight times each; the fit of each place (samples, R², RMSE):",
        *(f"{q['samples']}, {q['r2']}, {q['rmse']}." for q in model["fit"]),
        '"""',
        "",
        "WEIGHTS = (",
    ]
    for row in model["weights"]:
        lines.append("    (")
        lines += [f"        {w!r},  # {name}" for w, name in zip(row, FEATURE_NAMES, strict=True)]
        lines.append("    ),")
    lines += [
        ")",
        "",
        "# (dealt hand as a mask, trump, place, value) as made here: every machine must agree",
        "CASES = (",
    ]
    lines += [f"    {case!r}," for case in check_cases(model["weights"])]
    return "\n".join([*lines, ")", ""])


def case_inputs(count: int) -> list[tuple[int, int, int]]:
    """Seeded hands (as masks), each with a trump and a place: a model's stored cases."""
    deals = [
        Deal.shuffled(PRESETS["amsterdam"], CASES_SEED, n).dealt for n in range(count // 4 + 1)
    ]
    return [(deals[n // 4][n % 4], n % 4, (n // 4) % 4) for n in range(count)]


def check_cases(weights: list[list[float]], count: int = 24) -> list[tuple[int, int, int, float]]:
    """The stored cases' inputs and their value under ``weights``."""
    return [(h, t, p, value(cards_of(h), t, p, weights)) for h, t, p in case_inputs(count)]


def add_commands(sub) -> None:
    p = sub.add_parser(
        "trump-model",
        help="make the strong player's trump evaluator from the exact solver",
        description="Solve seeded deals with every suit as trump (resumable: the deals "
        "already in --data are kept), then fit the evaluator's weights to them.",
    )
    add_arguments(
        p, "solved (8 solves each)", 4000, 1, "trump-data.jsonl", "engine/policies/trump_weights.py"
    )
    p.set_defaults(func=run)
