"""Solver speed: a full solve from the opening lead (32 cards, four hands known, every
legal action's exact value), timed per deal.

Deals: ``Deal.shuffled(rules, seed, n)`` for n < ``--deals``, dealer ``n % 4``, rules drawn
per deal from a generator seeded with ``--seed``: variant (amsterdam/rotterdam), roem
(auto/claim) and pit bonus (any/playing) uniformly.  Trump (``--trump``): ``random`` names
a uniformly random suit for a uniformly random chooser (many of those deals go nat, which
costs the solver most); ``heuristic`` lets four heuristic players bid as in a real game
(bidding mode; four passes force the first seat).  Time is the wall clock of
``engine.solver.solve`` (``median_ms``, ``p95_ms``) and, beside it, the CPU time of this
process (``cpu_median_ms``, ``cpu_p95_ms``: what other load on the machine does not
inflate); nodes are the compiled solver's count.

Usage: ``python bench/solver.py [--deals 500] [--seed 1] [--trump random|heuristic]``.
The last line is the figures as one JSON object.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import Deal, Phase, PitBonus, RoemMode, Rules, Variant
from engine.policies import HeuristicPolicy
from engine.solver import last_nodes, solve
from engine.views import deal_view


def opening(number: int, seed: int, rng: random.Random, trump: str) -> Deal:
    rules = Rules(
        variant=rng.choice(list(Variant)),
        roem=rng.choice(list(RoemMode)),
        pit_bonus=rng.choice(list(PitBonus)),
    )
    deal = Deal.shuffled(rules, seed, number, number % 4)
    if trump == "random":
        deal.choose(rng.randrange(4), rng.randrange(4))
        return deal
    player = HeuristicPolicy()
    while deal.phase is Phase.TRUMP:
        deal.apply(deal.turn, player.act(deal_view(deal, deal.turn), rng))
    return deal


def _spread(prefix: str, times: list[float]) -> dict[str, float]:
    ms = sorted(t * 1000 for t in times)
    return {
        f"{prefix}median_ms": round(statistics.median(ms), 2),
        f"{prefix}p95_ms": round(ms[min(len(ms) - 1, int(0.95 * len(ms)))], 2),
        f"{prefix}max_ms": round(ms[-1], 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--trump", choices=["random", "heuristic"], default="random")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    wall: list[float] = []
    cpu: list[float] = []
    nodes: list[int] = []
    for number in range(args.deals):
        deal = opening(number, args.seed, rng, args.trump)
        start, start_cpu = time.perf_counter(), time.process_time()
        solve(deal)
        cpu.append(time.process_time() - start_cpu)
        wall.append(time.perf_counter() - start)
        nodes.append(last_nodes())
    figures = {
        "bench": "solver",
        "deals": args.deals,
        "seed": args.seed,
        "trump": args.trump,
        **_spread("", wall),
        **_spread("cpu_", cpu),
        "median_nodes": int(statistics.median(nodes)),
        "nodes_per_second": int(sum(nodes) / sum(cpu)),
    }
    print(
        f"{args.deals} solves ({args.trump} trump): median {figures['median_ms']} ms "
        f"(CPU {figures['cpu_median_ms']}), p95 {figures['p95_ms']} ms (CPU "
        f"{figures['cpu_p95_ms']}), median {figures['median_nodes']:,} nodes, "
        f"{figures['nodes_per_second'] / 1e6:.1f} M nodes per CPU second"
    )
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
