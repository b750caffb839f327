"""Boards at scale: serving board pages and profiles over HTTP, and recording a finished
game (a daily game's result; a rated match's ratings, counters and history).

Loads ``--players`` players (default 20,000) and ``--results`` finished daily games
(default 100,000: ``--days`` past days of ``results / days`` players each, 16 deals a game)
into a fresh SQLite file in one bulk transaction, starts a real server on it, then times:

- ``day_page``: ``GET /leaderboard/daily?date=<a past day>&offset=<random>&limit=20``;
- ``alltime_first``: the first ``GET /leaderboard/daily/alltime`` (it closes every loaded
  day into the all-time board, in the database), then ``alltime_page``: later pages;
- ``record``: ``DailyStore.finish_daily`` of a new finished game (the total, 16 deal scores and
  the field, in one transaction: the board's part of a daily game's end);
- ``daily_match``: the recording of one finished daily game as the server does it, its
  ending published to every subscriber (``MatchEnded``: the daily result, deal scores and
  field, then the player's profile counters, history line and daily part);
- with ``--rated`` players (default 20,000, each with a rating, counters, 10 rated matches
  of history and ratings, some tournament places): ``rating_page``,
  ``GET /leaderboard/rating?offset=<random>&limit=20``; ``profile``,
  ``GET /players/<random player>``; ``rated_record``, the recording of one finished rated
  match of four of them, its ending published to every subscriber (the ratings read, rated
  and written, the four players' counters, history lines and rating history, in one
  transaction).

``finished_match`` sums it up: the p99 and median of recording one finished match, daily
(result and counters) or rated (ratings and counters), whichever is slower, and
``within_goal`` says whether a board page and a profile are served within ``goal_ms``
(20 ms) at the p99.

Each figure is the median and p99 of ``--requests`` runs, in milliseconds, from one
client over loopback (the requests one at a time, a connection each; ``healthz`` is that
floor: a request that reads nothing).

Usage: ``python bench/boards.py [--players N] [--results N] [--days N] [--rated N]
[--requests N]``.
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
from server.core.config import Settings
from server.runtime.domain_events import MatchEnded
from server.store.daily import DailyAttempt
from server.store.players import BOARD_MIN_MATCHES
from tests.matches import ending, won_by

DEALS = 16
GOAL_MS = 20.0  # a board page and a profile at the p99


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
            conn.executemany(  # each game's part of its player's profile (revealed days)
                "INSERT INTO player_daily VALUES (?, ?, ?, ?, 16, ?, 4, 1, 0, 40)",
                [(pid, day, room, int(total > 1300), total) for day, pid, room, _, total, _
                 in attempts],
            )  # fmt: skip
    conn.execute("ANALYZE")
    conn.close()


def load_rated(path: Path, rated: int, rng: random.Random) -> None:
    """``rated`` players with ratings (most on the board), profile counters, 10 rated
    matches each (history lines and ratings) and a few tournament places."""
    conn = sqlite3.connect(path)
    history, lines, ratings, stats, places = [], [], [], [], []
    listed = 0
    for i in range(rated):
        pid = f"p_{i:06}"
        matches = rng.randrange(1, 120)
        listed += matches >= BOARD_MIN_MATCHES
        mu, sigma = rng.gauss(25, 4), max(1.0, 8.3 - matches * 0.05)
        ratings.append((pid, mu, sigma, matches, mu - 3 * sigma))
        wins = rng.randrange(matches + 1)
        deals = matches * 16
        stats.append((pid, matches, wins, deals, deals * 80, deals // 4, deals // 40, 3, 900))
        for n in range(10):
            at = 1_700_000_000.0 + n * 3600 + i
            match_id = f"r_{i:06}_{n}"
            history.append((pid, at, match_id, mu, sigma, mu - 3 * sigma))
            lines.append((pid, match_id, at, "casual", None, None, 1, n % 4, n % 2, 0,
                           1500, 1200, 0.5))  # fmt: skip
        if i % 4 == 0:
            places.append((pid, f"t_{i % 500}", 1 + i % 4, None, 1_700_000_000.0 + i))
    with conn:
        conn.executemany("INSERT INTO ratings VALUES (?, ?, ?, ?, ?)", ratings)
        conn.execute("UPDATE rating_board SET players = ? WHERE id = 1", (listed,))
        conn.executemany("INSERT INTO rating_history VALUES (?, ?, ?, ?, ?, ?)", history)
        conn.executemany("INSERT INTO player_stats VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", stats)
        conn.executemany(
            "INSERT INTO player_matches VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", lines
        )
        conn.executemany("INSERT INTO player_places VALUES (?, ?, ?, ?, ?)", places)
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
    load_rated(Path(settings.db), min(args.rated, args.players), rng)
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
            await server.stores.daily.start_daily(attempt)
            points = [rng.choice((0, 81, 162)) for _ in range(DEALS)]
            start = time.perf_counter()
            daily = server.stores.daily
            await daily.finish_daily(attempt.day, attempt.player_id, sum(points), points, 1)
            record.append((time.perf_counter() - start) * 1000)
        daily_match = []
        for i in range(args.requests):
            player = f"p_{(args.requests + i) % args.players:06}"
            attempt = DailyAttempt(today.isoformat(), player, f"r_daily_{i}", 0.0)
            await server.stores.daily.start_daily(attempt)
            seats = (player, None, None, None)
            event = MatchEnded(
                attempt.room_id, None, **ending(won_by(i % 2, DEALS)), players=seats,
                mode="daily", day=attempt.day, starters=seats,
            )  # fmt: skip
            start = time.perf_counter()
            await server.events.publish(event)
            daily_match.append((time.perf_counter() - start) * 1000)
        finished = await server.stores.daily.daily_finished(today.isoformat())
        if finished != 2 * args.requests:  # each game recorded, or the figure means nothing
            raise SystemExit(f"{finished} daily games recorded, not {2 * args.requests}")
        rated = min(args.rated, args.players)
        rating_page = [
            await asyncio.to_thread(
                get, port, f"/leaderboard/rating?offset={rng.randrange(rated // 2)}&limit=20"
            )
            for _ in range(args.requests)
        ]
        profile = [
            await asyncio.to_thread(get, port, f"/players/p_{rng.randrange(rated):06}")
            for _ in range(args.requests)
        ]
        rated_record = []
        for i in range(args.requests):
            four = tuple(f"p_{n:06}" for n in rng.sample(range(rated), 4))
            event = MatchEnded(
                f"r_bench_{i}", None, **ending(won_by(i % 2, DEALS)), players=four, rated=True,
                starters=four,
            )  # fmt: skip
            start = time.perf_counter()
            await server.events.publish(event)
            rated_record.append((time.perf_counter() - start) * 1000)
    finally:
        await server.stop()
    slower = max(spread(daily_match), spread(rated_record), key=lambda x: x["p99_ms"])
    served = max(spread(day_page)["p99_ms"], spread(profile)["p99_ms"])
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
        "daily_match": spread(daily_match),
        "rated_players": min(args.rated, args.players),
        "rating_page": spread(rating_page),
        "profile": spread(profile),
        "rated_record": spread(rated_record),
        "finished_match": slower,
        "goal_ms": GOAL_MS,
        "within_goal": served <= GOAL_MS,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=20_000)
    parser.add_argument("--results", type=int, default=100_000)
    parser.add_argument("--days", type=int, default=50)
    parser.add_argument("--rated", type=int, default=20_000)
    parser.add_argument("--requests", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(json.dumps(asyncio.run(run(args))))


if __name__ == "__main__":
    main()
