"""Memory: does the server give back what a big run took once its clients have gone?

Usage::

    python bench/memory.py --tables 2000 --runs 10       # one server, ten runs back to back
    python bench/memory.py --tables 500 --runs 3 --duration 10
    python bench/memory.py ws://127.0.0.1:8765/ --tables 100 --runs 1   # a running server

Method
------
One server is spawned as ``bench/load.py --spawn`` spawns it (SQLite in a temporary
directory, ``KLAVERJAS_*`` from this environment).  Its RSS is read once it has started
and settled (*idle*).  Then ``--runs`` runs, back to back against that one process, each:

* ``--tables`` four-player tables connect, seat, start and are paced at one card a second
  per table for ``--duration`` seconds (``load.py``'s clients; matches of ``--deals``
  deals, a new one when a match ends);
* every table then plays its match to the end at once and starts no other, every
  connection closes, and the bench waits until the server holds no room and no
  connection (``klaverjas_rooms`` and ``klaverjas_connections`` on ``/metrics`` are 0);
* after ``--settle`` seconds (15: the server looks at its load every 10 s and gives memory
  back once it has halved, see ``server/core/tidy.py``) the server's RSS (*after*) and its peak
  (``VmHWM``) are read,
  with ``klaverjas_python_blocks`` (the interpreter's allocated blocks: a heap measure that
  falls when objects are freed, whatever the allocator keeps).

The issue's goals: after each run RSS is within 20% of idle (*after / idle* <= 1.2), and
nothing grows across the runs (the last run's *after* against the first's, and the
same for the heap).  The last line is the figures as one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import load  # bench/load.py, beside this file

EMPTY = ("klaverjas_rooms", "klaverjas_connections")


async def one_run(cfg: load.Config, server: load.Cluster, number: int) -> dict[str, Any]:
    """Play ``cfg.tables`` tables for ``cfg.duration`` s, end their matches, leave."""
    stats = load.Stats()
    tables = [load.Table(i, cfg, stats) for i in range(cfg.tables)]
    tables = await load._in_batches(tables, cfg.batch, load.Table.connect, stats)
    tables = await load._in_batches(tables, cfg.batch, load.Table.seat, stats)
    tables = await load._in_batches(tables, cfg.batch, load.Table.start, stats)
    await asyncio.sleep(cfg.duration)
    playing = server.read_rss("playing")
    ended = [table.finish() for table in tables]
    unfinished = 0
    try:
        async with asyncio.timeout(120):
            await asyncio.gather(*(event.wait() for event in ended))
    except TimeoutError:
        unfinished = sum(not event.is_set() for event in ended)
    stats.stopping = True
    for i in range(0, len(tables), 250):
        await asyncio.gather(*(t.close() for t in tables[i : i + 250]))
    emptied = await _until_empty(server)
    await asyncio.sleep(cfg.drain)
    metrics = await server.metrics()
    result = {
        "run": number,
        "tables": len(tables),
        "rss_playing_kib": playing,
        "rss_after_kib": server.read_rss("after"),
        "rss_peak_kib": server.read_rss("peak", "VmHWM"),
        "python_blocks_after": metrics.get("klaverjas_python_blocks"),
        "emptied": emptied,
        "unfinished": unfinished,
        "actions": len(stats.acks),
        "errors": dict(stats.errors),
        "setup_failures": stats.setup_failures,
        "client_bugs": stats.client_bugs,
    }
    print(_line(result), flush=True)
    return result


async def _until_empty(server: load.Cluster, limit: float = 120.0) -> bool:
    """Wait until the server holds no room and no connection; whether it did in time."""
    try:
        async with asyncio.timeout(limit):
            while True:
                metrics = await server.metrics()
                if all(metrics.get(name) == 0 for name in EMPTY):
                    return True
                await asyncio.sleep(0.5)
    except TimeoutError:
        return False


def _mib(kib: int | None) -> str:
    return "-" if kib is None else f"{kib / 1024:.1f}"


def _line(r: dict[str, Any]) -> str:
    blocks = r["python_blocks_after"]
    return (
        f"   run {r['run']:>2}: {r['tables']} tables, {r['actions']} actions; RSS MiB playing"
        f" {_mib(r['rss_playing_kib'])}, after {_mib(r['rss_after_kib'])}, peak"
        f" {_mib(r['rss_peak_kib'])}; Python blocks after {blocks:,.0f}; emptied"
        f" {'yes' if r['emptied'] else 'NO'}, unfinished {r['unfinished']}, errors"
        f" {sum(r['errors'].values())}, setup failures {r['setup_failures']}"
    )


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    cfg = load.Config(
        urls=(), tables=args.tables, rate=1.0, warmup=0.0, duration=args.duration,
        drain=args.settle, batch=args.batch, deals=args.deals, move_seconds=120,
        seed=args.seed, compression=True, server_pids=(), spawn=True, nodes=1,
        database_url=None, redis_url=None, profile=None, profile_top=0, timeline=False,
    )  # fmt: skip
    if args.url:  # a running server (its pid from ``ss``), left running
        cfg = replace(cfg, urls=(args.url,), spawn=False)
    server = await load.Cluster.spawn(cfg) if cfg.spawn else load.Cluster.attach(cfg)
    cfg = replace(cfg, urls=server.urls)
    try:
        await asyncio.sleep(args.settle)
        idle = server.read_rss("idle")
        blocks = (await server.metrics()).get("klaverjas_python_blocks")
        print(
            f"-- {args.runs} runs of {args.tables} tables against one server (pid"
            f" {server.nodes[0].pid}): RSS idle {_mib(idle)} MiB, Python blocks {blocks:,.0f}",
            flush=True,
        )
        runs = []
        for n in range(args.runs):
            runs.append(await one_run(replace(cfg, seed=cfg.seed + n), server, n + 1))
    finally:
        if server.spawned:
            await server.stop()
    return summary(idle, blocks, runs)


def summary(idle: int | None, blocks: float | None, runs: list[dict[str, Any]]) -> dict[str, Any]:
    afters = [r["rss_after_kib"] for r in runs]
    ratios = [None if a is None or not idle else round(a / idle, 3) for a in afters]
    first, last = runs[0], runs[-1]
    result = {
        "rss_idle_kib": idle,
        "python_blocks_idle": blocks,
        "after_over_idle": ratios,
        "worst_after_over_idle": max((r for r in ratios if r is not None), default=None),
        "growth_kib": None if None in (afters[0], afters[-1]) else afters[-1] - afters[0],
        "python_blocks_growth": last["python_blocks_after"] - first["python_blocks_after"],
        "runs": runs,
    }
    worst = result["worst_after_over_idle"]
    print(
        f"   after/idle: worst {worst} (goal <= 1.2); growth from run 1 to run {len(runs)}:"
        f" RSS {_mib(result['growth_kib'])} MiB, Python blocks"
        f" {result['python_blocks_growth']:+,.0f}"
    )
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("url", nargs="?", help="a running server (default: spawn one)")
    parser.add_argument("--tables", type=int, default=2000, help="tables in each run")
    parser.add_argument("--runs", type=int, default=10, help="runs against the one server")
    parser.add_argument("--duration", type=float, default=20.0, help="seconds paced per run")
    parser.add_argument("--deals", type=int, default=2, help="deals per match")
    parser.add_argument("--settle", type=float, default=15.0,
                        help="seconds before reading RSS (the server looks each 10 s)")  # fmt: skip
    parser.add_argument("--batch", type=int, default=50, help="tables set up at once")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.tables < 1 or args.runs < 1:
        parser.error("--tables and --runs must be positive")
    load.raise_fd_limit(4 * args.tables + 1024)
    result = asyncio.run(main_async(args))
    print(json.dumps(result))
    bad = any(r["errors"] or r["setup_failures"] or r["client_bugs"] or not r["emptied"]
              for r in result["runs"])  # fmt: skip
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
