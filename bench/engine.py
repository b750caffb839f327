"""Engine speed: random-playout and heuristic deals per second, dealing included.

Median of 5 runs on one core.  Usage: ``python bench/engine.py [--deals N] [--runs R]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import Deal, Rules
from engine.playout import policy_playout, random_playout
from engine.policies import HeuristicPolicy


def random_deals(n: int, seed: int) -> float:
    rules, rng = Rules(), random.Random(seed)
    start = time.perf_counter()
    for number in range(n):
        random_playout(Deal.shuffled(rules, seed, number, number & 3), rng)
    return n / (time.perf_counter() - start)


def heuristic_deals(n: int, seed: int) -> float:
    rules, rng = Rules(), random.Random(seed)
    players = [HeuristicPolicy() for _ in range(4)]
    start = time.perf_counter()
    for number in range(n):
        policy_playout(Deal.shuffled(rules, seed, number, number & 3), players, rng)
    return n / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=20_000, help="random deals per run")
    parser.add_argument("--heuristic-deals", type=int, default=500)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    for label, fn, n in (
        ("random playout", random_deals, args.deals),
        ("heuristic", heuristic_deals, args.heuristic_deals),
    ):
        rates = [fn(n, seed) for seed in range(args.runs)]
        print(
            f"{label:15} median {statistics.median(rates):10,.0f} deals/s"
            f"   (runs: {', '.join(f'{r:,.0f}' for r in rates)})"
        )


if __name__ == "__main__":
    main()
