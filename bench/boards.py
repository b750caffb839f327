"""Daily boards at scale: serving board pages over HTTP, and recording a finished game.

Loads ``--players`` players (default 20,000) and ``--results`` finished daily games
(default 100,000: ``--days`` past days of ``results / days`` players each, 16 deals a game)
into a fresh SQLite file in one bulk transaction, starts a real server on it, then times:

- ``day_page``: ``GET /leaderboard/daily?date=<a past day>&offset=<random>&limit=20``;
- ``alltime_first``: the first ``GET /leaderboard/daily/alltime`` (it closes every loaded
  day into the all-time board, in the database), then ``alltime_page``: later pages;
- ``record``: ``Store.finish_daily`` of a new finished game (the total, 16 deal scores and
  the field, in one transaction; what a daily game's end costs).

Each figure is the median and p99 of ``--requests`` runs, in milliseconds, from one
client over loopback (the requests one at a time, a connection each; ``healthz`` is that
floor: a request that reads nothing).  Profiles and ratings are not built
yet: they join this bench when they are.

Usage: ``python bench/boards.py [--players N] [--results N] [--days N] [--requests N]``.
The last line is the figures as one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import json
import random
import sqlite3
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from server.app import Server
from server.config import Settings
from server.store.base import DailyAttempt

DEALS = 16


def days_before(today: dt.date, count: int) -> list[str]:
    """``count`` days ending the day before yesterday (all closable)."""
    return [(today - dt.timedelta(days=2 + i)).isoformat() for i in range(count)]


def load(path: Path, players: int, results: int, days: list[str], rng: random.Random) -> None:
    """The players and finished games, written as the store would (bulk, one transaction)."""
    conn = sqlite3.connect(path)
    with conn:
        conn.executemany(
            "INSERT INTO players (id, nickname, token_hash, created_at) VALUES (?, ?, ?, 0)",
            ((f"p_{i:06}", f"player{i}", rng.randbytes(32)) for i in range(players)),
        )
        per_day = results // len(days)
        for day in days:
            field = [[0, 0] for _ in range(DEALS)]
            attempts, deals = [], []
            for i in rng.sample(range(players), per_day):
                points = [rng.choice((0, 40, 81, 100, 122, 162, 182)) for _ in range(DEALS)]
                for n, pts in enumerate(points):
                    field[n][0] += 1
                    field[n][1] += pts
                    deals.append((day, f"p_{i:06}", n, pts))
                total = sum(points)
                attempts.append((day, f"p_{i:06}", f"r_{day}_{i}", 0.0, total, rng.random()))
            conn.executemany(
                "INSERT INTO daily_attempts (day, player_id, room_id, started_at, total,"
                " finished_at) VALUES (?, ?, ?, ?, ?, ?)",
                attempts,
            )
            conn.executemany(
                "INSERT INTO daily_deals (day, player_id, number, points) VALUES (?, ?, ?, ?)",
                deals,
            )
            conn.executemany(
                "INSERT INTO daily_field (day, number, players, points) VALUES (?, ?, ?, ?)",
                [(day, n, c, p) for n, (c, p) in enumerate(field)],
            )
            conn.execute("INSERT INTO daily_days (day, closed) VALUES (?, 0)", (day,))
    conn.execute("ANALYZE")
    conn.close()


def get(port: int, path: str) -> float:
    """The milliseconds of one GET (the body read); a non-200 stops the bench."""
    direct = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    start = time.perf_counter()
    with direct.open(f"http://127.0.0.1:{port}{path}", timeout=30) as response:
        response.read()
        if response.status != 200:
            raise SystemExit(f"{path}: HTTP {response.status}")
    return (time.perf_counter() - start) * 1000


def spread(ms: list[float]) -> dict[str, float]:
    ordered = sorted(ms)
    return {
        "median_ms": round(statistics.median(ordered), 2),
        "p99_ms": round(ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))], 2),
    }


async def run(args: argparse.Namespace) -> dict[str, object]:
    rng = random.Random(args.seed)
    folder = Path(tempfile.mkdtemp(prefix="klaverjas-boards-"))
    settings = Settings(port=0, db=str(folder / "bench.sqlite3"), log_level="warning")
    server = Server(settings)
    await server.start()  # migrates the empty file
    await server.stop()
    today = dt.datetime.now(dt.UTC).date()
    days = days_before(today, args.days)
    started = time.perf_counter()
    load(Path(settings.db), args.players, args.results, days, rng)
    loaded = time.perf_counter() - started
    server = Server(settings)
    await server.start()
    port, per_day = server.port, args.results // args.days
    try:
        pages = [
            f"/leaderboard/daily?date={rng.choice(days)}&offset={rng.randrange(per_day)}&limit=20"
            for _ in range(args.requests)
        ]
        day_page = [await asyncio.to_thread(get, port, path) for path in pages]
        health = [await asyncio.to_thread(get, port, "/healthz") for _ in pages]
        first = await asyncio.to_thread(get, port, "/leaderboard/daily/alltime")
        alltime = [
            await asyncio.to_thread(
                get, port, f"/leaderboard/daily/alltime?offset={rng.randrange(1000)}&limit=20"
            )
            for _ in range(args.requests)
        ]
        record = []
        for i in range(args.requests):
            attempt = DailyAttempt(today.isoformat(), f"p_{i:06}", f"r_new_{i}", 0.0)
            await server.store.start_daily(attempt)
            points = [rng.choice((0, 81, 162)) for _ in range(DEALS)]
            start = time.perf_counter()
            await server.store.finish_daily(attempt.day, attempt.player_id, sum(points), points, 1)
            record.append((time.perf_counter() - start) * 1000)
    finally:
        await server.stop()
    return {
        "bench": "boards",
        "players": args.players,
        "results": args.results,
        "days": args.days,
        "requests": args.requests,
        "load_seconds": round(loaded, 1),
        "healthz": spread(health),
        "day_page": spread(day_page),
        "alltime_first_ms": round(first, 1),
        "alltime_page": spread(alltime),
        "record": spread(record),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=20_000)
    parser.add_argument("--results", type=int, default=100_000)
    parser.add_argument("--days", type=int, default=50)
    parser.add_argument("--requests", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(json.dumps(asyncio.run(run(args))))


if __name__ == "__main__":
    main()
