"""The club evening's draw (``server/club/draw.py``): how long it takes, and how fair it is.

Time: a fresh draw of ``--players`` (200) for 3, 4, 5 and 6 rounds, and the re-draw of the
rest after a late arrival joins before round 2 (the first round played, one player more),
each the median and the largest of ``--runs`` (5) runs with seeds ``--seed`` onwards, wall
clock (``time.perf_counter``) and this process's CPU time beside it (what other load on
the machine does not inflate).  The issue's limit is 1 s for 200 players.

Fairness, over every room from 4 to ``--max-players`` (200) players and 3 to 6 rounds
(at most N - 1), seed ``--seed``: fresh evenings, and the same after one late arrival and
after one leaver (the first seat of round 1's table 1) between rounds 1 and 2.  Summarised:
the draws, the room sizes with any repeated partner and the repeats (partnerships beyond
each two's first), the most repeated opponents of any draw (and of any room of more than
20 players), and the largest sit-out spread.

Usage: ``python bench/club_draw.py [--players 200] [--runs 5] [--seed 1]
[--max-players 200] [--quick]``; ``--quick`` (the smoke run) takes one run and rooms up to
12 players.  The last line is the figures as one JSON object.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from server.club.draw import Round, draw_individual, fairness

ROUNDS = (3, 4, 5, 6)


def names(n: int) -> list[str]:
    return [f"p{i:03d}" for i in range(n)]


def timed(players: list[str], rounds: int, seed: int, played: list[Round]) -> tuple[float, float]:
    """Wall and CPU milliseconds of one draw."""
    start, start_cpu = time.perf_counter(), time.process_time()
    draw_individual(players, rounds, seed, played)
    return (time.perf_counter() - start) * 1000, (time.process_time() - start_cpu) * 1000


def timings(count: int, runs: int, seed: int) -> dict[str, dict[str, dict[str, float]]]:
    """Fresh and after-a-late-arrival draw times for ``count`` players, per round count."""
    figures: dict[str, dict[str, dict[str, float]]] = {"fresh": {}, "late": {}}
    for rounds in ROUNDS:
        for kind in figures:
            wall, cpu = [], []
            for run in range(runs):
                players, played = names(count), []
                if kind == "late":
                    played = list(draw_individual(players, rounds, seed + run)[:1])
                    players = [*players, "late"]
                w, c = timed(players, rounds, seed + run, played)
                wall.append(w)
                cpu.append(c)
            figures[kind][str(rounds)] = {
                "median_ms": round(statistics.median(wall), 2),
                "max_ms": round(max(wall), 2),
                "cpu_median_ms": round(statistics.median(cpu), 2),
            }
    return figures


def grid(largest: int, seed: int) -> dict[str, dict[str, int]]:
    """Fairness over every room size and round count, fresh and after each change."""
    summary = {}
    for kind in ("fresh", "late", "leaver"):
        draws = repeats = opponents = opponents_big = spread = 0
        sizes_with_repeats: set[int] = set()
        for n in range(4, largest + 1):
            for rounds in range(3, min(6, n - 1) + 1):
                fresh = draw_individual(names(n), rounds, seed)
                evening = fresh
                if kind != "fresh":
                    leaver = fresh[0].tables[0].seats[0]
                    present = [*names(n), "late"] if kind == "late" else names(n)
                    if kind == "leaver":
                        present.remove(leaver)
                    if len(present) < 4:
                        continue
                    evening = fresh[:1] + draw_individual(present, rounds, seed, fresh[:1])
                report = fairness(evening)
                draws += 1
                repeats += report.partner_repeats
                if report.partner_repeats:
                    sizes_with_repeats.add(n)
                opponents = max(opponents, report.opponent_repeats)
                if n > 20:
                    opponents_big = max(opponents_big, report.opponent_repeats)
                spread = max(spread, report.sit_out_spread)
        summary[kind] = {
            "draws": draws,
            "sizes_with_partner_repeats": len(sizes_with_repeats),
            "partner_repeats": repeats,
            "max_opponent_repeats": opponents,
            "max_opponent_repeats_over_20": opponents_big,
            "max_sit_out_spread": spread,
            "sizes": sorted(sizes_with_repeats),  # type: ignore[dict-item]
        }
    return summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-players", type=int, default=200)
    parser.add_argument("--quick", action="store_true", help="one run, rooms up to 12")
    args = parser.parse_args()
    runs, largest = (1, min(12, args.max_players)) if args.quick else (args.runs, args.max_players)

    times = timings(args.players, runs, args.seed)
    print(f"draw of {args.players} players, median of {runs} (max; CPU median), ms:")
    print(f"{'rounds':>6} | {'fresh':>22} | {'after a late arrival':>22}")
    for rounds in ROUNDS:
        cells = [times[kind][str(rounds)] for kind in ("fresh", "late")]
        shown = [
            f"{c['median_ms']:7.1f} ({c['max_ms']:6.1f}; {c['cpu_median_ms']:6.1f})" for c in cells
        ]
        print(f"{rounds:>6} | {shown[0]:>22} | {shown[1]:>22}")

    started = time.perf_counter()
    fair = grid(largest, args.seed)
    seconds = time.perf_counter() - started
    print(f"\nrooms of 4..{largest} players, 3..6 rounds (R <= N - 1), seed {args.seed}:")
    print(f"{'':>7} | draws | sizes with a repeated partner | repeats | max opp. (N > 20) | spread")
    for kind, s in fair.items():
        print(
            f"{kind:>7} | {s['draws']:5} | {s['sizes_with_partner_repeats']:29} "
            f"| {s['partner_repeats']:7} | {s['max_opponent_repeats']:9} "
            f"({s['max_opponent_repeats_over_20']:3}) | {s['max_sit_out_spread']:6}"
            + (f"  sizes: {s['sizes']}" if s["sizes"] else "")
        )
    print(f"({seconds:.1f} s for the fairness grid)")
    print(
        json.dumps(
            {
                "bench": "club_draw",
                "players": args.players,
                "runs": runs,
                "seed": args.seed,
                "max_players": largest,
                **times,
                "grid": fair,
                "grid_seconds": round(seconds, 2),
            }
        )
    )


if __name__ == "__main__":
    main()
