"""Servers side by side: alternating rounds of ``bench/load.py`` (and the floor), with ratios.

Usage::

    python bench/rounds.py --rounds 3 --tables 2000 --duration 40 --server-root /tmp/base --floor

Method
------
This VM's speed moves by a third within a day, so a CPU figure is only comparable with one
measured beside it.  Each round runs every side once, one after the other, each a fresh
spawned server under the same generator: this checkout (``head``), each ``--server-root``
(another checkout, named by its commit; ``git worktree add /tmp/base REV`` and copy
``engine/*.so`` in), and with ``--floor`` the stand-in of ``bench/floor.py --durable`` (the
transport and the durable append, no game).  The order turns by one side each round, so no
side always runs first.  Printed per round and as medians: CPU an action, p99 and max, and
each side's CPU an action as a ratio of ``head``'s in the same round (the median of those
ratios is the figure to quote); the last line is the whole result as JSON.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

from load import source_version

BENCH = Path(__file__).resolve().parent
FLOOR = "floor"
HEAD = "head"


def command(side: str, root: str | None, args: argparse.Namespace) -> list[str]:
    """The benchmark run of one side."""
    window = ["--tables", str(args.tables), "--duration", str(args.duration)]
    if args.warmup is not None:
        window += ["--warmup", str(args.warmup)]
    if side == FLOOR:
        return [sys.executable, str(BENCH / "floor.py"), *window, "--durable"]
    run = [sys.executable, str(BENCH / "load.py"), "--spawn", *window]
    return run if root is None else [*run, "--server-root", root]


def measure(cmd: list[str]) -> dict[str, Any]:
    """Run one benchmark; its result is the JSON object on its last such line."""
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    lines = [ln for ln in done.stdout.splitlines() if ln.startswith("{")]
    if done.returncode != 0 or not lines:
        tail = (done.stderr or done.stdout).strip().splitlines()[-5:]
        raise SystemExit(f"{' '.join(cmd)} failed ({done.returncode}): " + " | ".join(tail))
    result = json.loads(lines[-1])
    latency = result["latency_ms"]
    return {
        "cpu_us": result["cpu_us_per_action"],
        "p99_ms": latency["p99"],
        "max_ms": latency.get("max"),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--tables", type=int, default=2000)
    ap.add_argument("--duration", type=float, default=40.0)
    ap.add_argument("--warmup", type=float, help="seconds before measuring (default the benches')")
    ap.add_argument(
        "--server-root",
        action="append",
        default=[],
        metavar="DIR",
        help="another checkout's server (repeatable)",
    )
    ap.add_argument("--floor", action="store_true", help="also the stand-in's durable floor")
    args = ap.parse_args()
    if args.rounds < 1:
        ap.error("--rounds must be at least 1")

    sides: list[tuple[str, str | None]] = [(HEAD, None)]
    for root in args.server_root:
        sides.append((source_version(Path(root)) or root, root))
    if args.floor:
        sides.append((FLOOR, None))
    names = [name for name, _ in sides]
    if len(set(names)) != len(names):
        ap.error(f"two sides have one name: {names}")

    rounds: list[dict[str, dict[str, Any]]] = []
    for r in range(args.rounds):
        shift = r % len(sides)
        results: dict[str, dict[str, Any]] = {}
        for name, root in sides[shift:] + sides[:shift]:
            results[name] = measure(command(name, root, args))
            print(f"round {r + 1} {name:>10}: {_line(results[name])}", flush=True)
        head = results[HEAD]["cpu_us"]  # 0 when a short run's CPU is under one clock tick
        for name in names:
            results[name]["ratio"] = round(results[name]["cpu_us"] / head, 3) if head else None
        rounds.append({name: results[name] for name in names})

    medians = {name: _medians([rnd[name] for rnd in rounds]) for name in names}
    print(f"-- {args.tables} tables, {args.rounds} rounds of {args.duration:g} s, medians:")
    for name in names:
        m = medians[name]
        per = " / ".join(str(rnd[name]["cpu_us"]) for rnd in rounds)
        print(f"   {name:>10}: {_line(m)}  ({per} µs), {m.get('ratio')} x head's CPU an action")
    print(
        json.dumps(
            {
                "tables": args.tables,
                "duration_s": args.duration,
                "sides": names,
                "rounds": rounds,
                "medians": medians,
            }
        )
    )


def _medians(results: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        key: round(statistics.median(r[key] for r in results), 3)
        for key in ("cpu_us", "p99_ms", "max_ms", "ratio")
        if all(r.get(key) is not None for r in results)
    }


def _line(r: dict[str, Any]) -> str:
    worst = f", max {r['max_ms']:g} ms" if r.get("max_ms") is not None else ""
    return f"{r['cpu_us']:g} µs an action, p99 {r['p99_ms']:g} ms{worst}"


if __name__ == "__main__":
    main()
