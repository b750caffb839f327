"""A club evening at full size: from a deal entered at a table to the wall screen's update.

Starts a real server (``klaverjas serve`` on a fresh SQLite file, its own process), makes an
evening, checks in ``--players`` players (default 200: 50 tables) and draws the rounds
(its time is the server's last draw for that many players, the tables' sheets made, the
evening's frame back; ``--round N``: the rounds before the Nth closed with nothing entered,
so that the standing sums N rounds); then one phone a table opens its sheet by the table's
code and a wall screen follows the evening with its view code.  Every table enters a deal every
``--every`` seconds (default 20), the tables spread evenly over that time, for
``--duration`` seconds.  For each deal it measures the time from the phone's ``sheet_deal``
to the first ``evening`` frame the wall screen gets that counts the deal: the table's sheet
commits it, tells the evening, which reads the sheet's log and sends every follower the
new standing.

Usage: ``python bench/club.py [--players N] [--round N] [--every S] [--duration S]``.  The goal is a
p99 at most 200 ms and the draw at most 1 s for 200 players.  The last line is the
figures as JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from _served import serve

from client import GameClient

GOAL_P99_MS, GOAL_DRAW_MS = 200.0, 1000.0


SETTINGS = {"KLAVERJAS_CHECK_FRAMES": "0", "KLAVERJAS_QUICK_SCHEDULE": "off",
            "KLAVERJAS_RATE": "1000", "KLAVERJAS_BURST": "1000",
            "KLAVERJAS_MAX_PER_ADDRESS": "1000"}  # fmt: skip


async def organise(url: str, players: int, rounds: int) -> tuple[GameClient, dict, float]:
    """An evening with ``players`` checked in and round ``rounds`` drawn (those before it
    closed); the last draw's time (ms)."""
    organiser = await GameClient.connect(url)
    await organiser.hello("organiser")
    made = await organiser.request(
        {"type": "evening_create", "name": "bench", "deals": 16, "rounds": max(3, rounds)},
        "evening",
    )
    code, version = made["codes"]["organiser"], made["version"]
    for n in range(players):
        check_in = {"type": "evening_check_in", "code": code, "version": version,
                    "name": f"p{n:03d}"}  # fmt: skip
        got = await organiser.request(check_in, "evening")
        version = got["version"]
    for _ in range(rounds - 1):
        await organiser.send({"type": "evening_draw", "code": code, "version": version})
        await organiser.next("evening", timeout=60, version=version + 1)
        close = {"type": "evening_close", "code": code, "version": version + 1}
        version = (await organiser.request(close, "evening"))["version"]
    started = time.perf_counter()
    await organiser.send({"type": "evening_draw", "code": code, "version": version})
    drawn = await organiser.next("evening", timeout=60, version=version + 1)
    return organiser, drawn, (time.perf_counter() - started) * 1000


async def table(phone: GameClient, code: str, start: float, every: float, until: float,
                sent: dict[tuple[str, int], float]) -> int:  # fmt: skip
    """One table's phone: a deal every ``every`` seconds from ``start`` until ``until``."""
    sheet = await phone.request({"type": "sheet_open", "code": code}, "sheet")
    sheet_id, version, deals = sheet["sheet_id"], sheet["version"], 0
    at = start
    while at < until and deals < 16:
        await asyncio.sleep(max(0.0, at - time.monotonic()))
        sent[(sheet_id, deals + 1)] = time.perf_counter()
        update = await phone.request({"type": "sheet_deal", "code": code, "version": version,
                                      "playing": deals % 2, "points": [90, None]},
                                     "sheet_update")  # fmt: skip
        assert update["type"] == "sheet_update", update
        version, deals, at = update["version"], deals + 1, at + every
    return deals


async def watch(wall: GameClient, sent: dict[tuple[str, int], float], seen: dict) -> None:
    """The wall screen: when each table's deal first shows in an evening frame."""
    while True:
        frame = await wall.next("evening", timeout=3600)
        now = time.perf_counter()
        for t in frame["tables"]:
            key = (t["sheet_id"], t["deals"])
            if key in sent and key not in seen:
                seen[key] = now - sent[key]


async def run(players: int, measured: int, every: float, duration: float) -> dict:
    with tempfile.TemporaryDirectory(prefix="klaverjas-club-") as tmp:
        proc, url = await serve(os.path.join(tmp, "c.db"), SETTINGS)
        try:
            organiser, drawn, draw_ms = await organise(url, players, measured)
            wall = await GameClient.connect(url)
            await wall.hello("wall")
            await wall.request({"type": "evening_open", "code": drawn["codes"]["view"]}, "evening")
            phones = []
            for n in range(len(drawn["tables"])):
                phone = await GameClient.connect(url)
                await phone.hello(f"table{n + 1}")
                phones.append(phone)
            sent: dict[tuple[str, int], float] = {}
            seen: dict[tuple[str, int], float] = {}
            watcher = asyncio.create_task(watch(wall, sent, seen))
            start = time.monotonic() + 1.0
            until = start + duration
            spread = every / len(phones)
            entered = await asyncio.gather(*(
                table(phone, t["code"], start + i * spread, every, until, sent)
                for i, (phone, t) in enumerate(zip(phones, drawn["tables"], strict=True))
            ))  # fmt: skip
            await asyncio.sleep(1.0)  # the last deals' frames
            watcher.cancel()
            for client in (organiser, wall, *phones):
                await client.close()
        finally:
            proc.terminate()
            await proc.wait()
    latencies = sorted(v * 1000 for v in seen.values())
    p99 = latencies[min(len(latencies) - 1, int(0.99 * len(latencies)))] if latencies else None
    return {
        "players": players, "round": measured, "tables": len(drawn["tables"]),
        "deals": sum(entered),
        "seen": len(latencies), "draw_ms": round(draw_ms, 1),
        "median_ms": round(statistics.median(latencies), 1) if latencies else None,
        "p99_ms": round(p99, 1) if p99 is not None else None,
        "max_ms": round(latencies[-1], 1) if latencies else None,
        "goal": {"p99_ms": GOAL_P99_MS, "draw_ms": GOAL_DRAW_MS},
    }  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=200)
    ap.add_argument("--round", type=int, default=1, help="the round measured (of 3 to 6)")
    ap.add_argument("--every", type=float, default=20.0, help="seconds between a table's deals")
    ap.add_argument("--duration", type=float, default=120.0)
    args = ap.parse_args()
    figures = asyncio.run(run(args.players, args.round, args.every, args.duration))
    print(f"{figures['players']} players at {figures['tables']} tables, round "
          f"{figures['round']}: draw {figures['draw_ms']} ms; {figures['deals']} deals entered, "
          f"{figures['seen']} seen on "
          f"the wall: median {figures['median_ms']} ms, p99 {figures['p99_ms']} ms, max "
          f"{figures['max_ms']} ms")  # fmt: skip
    print(json.dumps({"bench": "club", **figures}))


if __name__ == "__main__":
    main()
