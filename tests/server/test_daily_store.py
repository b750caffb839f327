"""The daily game's storage, run against every backend of ``test_store``: SQLite and
PostgreSQL (a fresh file, a fresh schema).  Several tests open two stores on one database, as
two nodes of a cluster do, and race them."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from server.store import Stores
from server.store.daily import DAILY_QUERIES, AlltimeRow, DailyAttempt, DailyRow
from server.store.identities import PlayerRow
from server.store.sqlite import sqlite_args
from tests.postgres import fresh_schema, pg_connect
from tests.server.test_store import BACKENDS, Backend, PostgresBackend, SqliteBackend

pytestmark = pytest.mark.daily

DAY = "2024-03-01"


@pytest.fixture(params=list(BACKENDS))
async def backend(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Backend]:
    if request.param == "sqlite":
        yield SqliteBackend(tmp_path)
        return
    async with fresh_schema() as schema:
        yield PostgresBackend(schema)


@pytest.fixture
async def store(backend: Backend) -> AsyncIterator[Stores]:
    s = backend.make()
    await s.open()
    yield s
    await s.close()


@pytest.fixture
async def two(backend: Backend) -> AsyncIterator[tuple[Stores, Stores]]:
    """Two stores on one database: two nodes."""
    first, second = backend.make(), backend.make()
    await first.open()
    await second.open()
    yield first, second
    await first.close()
    await second.close()


async def raw(backend: Backend, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    """``sql`` (``?`` placeholders) on a connection of the test's own, not the store's."""
    if isinstance(backend, SqliteBackend):
        conn = sqlite3.connect(backend.path)
        try:
            return conn.execute(sql, args).fetchall()
        finally:
            conn.close()
    parts = sql.split("?")
    sql = parts[0] + "".join(f"${i}{part}" for i, part in enumerate(parts[1:], 1))
    conn = await pg_connect(backend.schema)
    try:
        return [tuple(row) for row in await conn.fetch(sql, *args)]
    finally:
        await conn.close()


async def add_players(store: Stores, *ids: str) -> None:
    for pid in ids:
        await store.identities.add_player(
            PlayerRow(pid, f"nick {pid}", f"hash {pid}".encode(), 0.0)
        )


def attempt(pid: str, day: str = DAY, *, at: float = 1.0) -> DailyAttempt:
    return DailyAttempt(day, pid, f"room {day} {pid}", at)


async def play(
    store: Stores, pid: str, total: int, points: list[int], *, day: str = DAY, at: float = 2.0
) -> None:
    """Start and finish ``pid``'s attempt of ``day``."""
    await store.daily.start_daily(attempt(pid, day))
    assert await store.daily.finish_daily(day, pid, total, points, at)


def row(pid: str, total: int, at: float) -> DailyRow:
    return DailyRow(pid, f"nick {pid}", total, at)


# --------------------------------------------------------------------------- secrets


async def test_secret_first_writer_wins(two: tuple[Stores, Stores]) -> None:
    a, b = two
    assert await a.daily.secret("daily", "one") == "one"
    assert await a.daily.secret("daily", "two") == "one"
    assert await b.daily.secret("daily", "three") == "one"
    assert await b.daily.secret("other", "x") == "x"

    for i in range(10):  # two nodes at once: both get the one value stored
        got = await asyncio.gather(a.daily.secret(f"race{i}", "a"), b.daily.secret(f"race{i}", "b"))
        assert got[0] == got[1]
        assert got[0] in ("a", "b")
        assert await a.daily.secret(f"race{i}", "c") == got[0]


# --------------------------------------------------------------------------- attempts


async def test_start_daily_keeps_the_first_attempt(backend: Backend, store: Stores) -> None:
    await add_players(store, "p1")
    first = DailyAttempt(DAY, "p1", "room-1", 10.5)
    assert await store.daily.start_daily(first) == first
    assert not first.finished
    again = await store.daily.start_daily(DailyAttempt(DAY, "p1", "room-2", 20.0))
    assert again == first
    assert await store.daily.daily_attempt(DAY, "p1") == first
    assert await store.daily.daily_attempt(DAY, "p2") is None
    assert await store.daily.daily_attempt("2024-03-02", "p1") is None

    assert await raw(backend, "SELECT count(*) FROM daily_attempts") == [(1,)]
    assert await raw(backend, "SELECT day, closed FROM daily_days") == [(DAY, 0)]
    assert await store.daily.daily_finished(DAY) == 0
    assert await store.daily.daily_board(DAY, 0, 10) == []

    # A finished attempt is returned finished, and not restarted.
    assert await store.daily.finish_daily(DAY, "p1", 90, [40, 50], 30.25)
    finished = DailyAttempt(DAY, "p1", "room-1", 10.5, 90, 30.25)
    assert finished.finished
    assert await store.daily.start_daily(DailyAttempt(DAY, "p1", "room-3", 40.0)) == finished
    assert await store.daily.daily_attempt(DAY, "p1") == finished


async def test_finish_daily_once_and_its_results(backend: Backend, store: Stores) -> None:
    await add_players(store, "p1", "p2", "p3")
    for pid in ("p1", "p2", "p3"):
        await store.daily.start_daily(attempt(pid))

    assert await store.daily.finish_daily(DAY, "p1", 100, [10, 20, 70], 5.0)
    assert not await store.daily.finish_daily(DAY, "p1", 50, [1, 1, 1], 6.0)  # already finished
    assert not await store.daily.finish_daily(DAY, "p9", 50, [1, 1, 1], 6.0)  # never started
    assert not await store.daily.finish_daily("2024-03-02", "p1", 50, [1, 1, 1], 6.0)
    assert await store.daily.daily_attempt(DAY, "p1") == DailyAttempt(
        DAY, "p1", f"room {DAY} p1", 1.0, 100, 5.0
    )
    assert await store.daily.daily_field(DAY) == [(0, 1, 10), (1, 1, 20), (2, 1, 70)]
    assert await raw(backend, "SELECT count(*) FROM daily_deals") == [(3,)]

    assert await store.daily.finish_daily(DAY, "p2", 120, [30, 30, 60], 4.0)
    assert await store.daily.daily_field(DAY) == [(0, 2, 40), (1, 2, 50), (2, 2, 130)]
    assert await store.daily.daily_points(DAY, ["p1", "p2", "p3", "nobody"]) == {
        "p1": [10, 20, 70],
        "p2": [30, 30, 60],
    }
    assert await store.daily.daily_points(DAY, ["p2"]) == {"p2": [30, 30, 60]}
    assert await store.daily.daily_points(DAY, []) == {}
    assert await store.daily.daily_points("2024-03-02", ["p1"]) == {}

    assert await store.daily.daily_board(DAY, 0, 10) == [row("p2", 120, 4.0), row("p1", 100, 5.0)]
    assert await store.daily.daily_finished(DAY) == 2  # p3 has not finished
    assert [await store.daily.daily_rank(DAY, t) for t in (200, 120, 110, 100, 99, 0)] == [
        1,
        1,
        2,
        2,
        3,
        3,
    ]
    assert await store.daily.daily_board("2024-03-02", 0, 10) == []
    assert await store.daily.daily_field("2024-03-02") == []
    assert await store.daily.daily_finished("2024-03-02") == 0
    assert await store.daily.daily_rank("2024-03-02", 0) == 1


async def test_board_ties_and_pages(store: Stores) -> None:
    # Same total: the earlier finish first; same finish too: player id, by code point.
    ids = ["b", "a", "Z", "c", "d", "e", "f"]
    await add_players(store, *ids)
    await play(store, "b", 80, [80], at=3.0)
    await play(store, "a", 80, [80], at=3.0)
    await play(store, "Z", 80, [80], at=3.0)
    await play(store, "c", 80, [80], at=2.5)
    await play(store, "d", 95, [95], at=9.0)
    await play(store, "e", 10, [10], at=1.0)
    await play(store, "f", 80, [80], at=3.5)
    board = [
        row("d", 95, 9.0),
        row("c", 80, 2.5),
        row("Z", 80, 3.0),
        row("a", 80, 3.0),
        row("b", 80, 3.0),
        row("f", 80, 3.5),
        row("e", 10, 1.0),
    ]
    assert await store.daily.daily_board(DAY, 0, 100) == board
    assert await store.daily.daily_rank(DAY, 80) == 2
    for offset in range(9):
        for limit in (1, 2, 3, 7):
            page = await store.daily.daily_board(DAY, offset, limit)
            assert page == board[offset : offset + limit], (offset, limit)
    assert await store.daily.daily_board(DAY, 0, 0) == []


async def test_daily_days_latest_first(store: Stores) -> None:
    await add_players(store, "p1", "p2")
    for day in ("2024-03-01", "2024-03-03", "2024-02-27", "2024-03-02"):
        await play(store, "p1", 50, [50], day=day)
    await store.daily.start_daily(attempt("p1", "2024-03-04"))  # not finished: not a day played
    await play(store, "p2", 50, [50], day="2024-03-05")

    assert await store.daily.daily_days("p1", 10) == [
        "2024-03-03",
        "2024-03-02",
        "2024-03-01",
        "2024-02-27",
    ]
    assert await store.daily.daily_days("p1", 2) == ["2024-03-03", "2024-03-02"]
    assert await store.daily.daily_days("p2", 10) == ["2024-03-05"]
    assert await store.daily.daily_days("p3", 10) == []


# --------------------------------------------------------------------------- all-time board


async def test_close_daily_days_and_the_alltime_board(backend: Backend, store: Stores) -> None:
    await add_players(store, "A", "B", "C")
    # 2024-02-28: only an unfinished attempt.  It closes and adds nothing.
    await store.daily.start_daily(attempt("C", "2024-02-28"))
    # 2024-03-01: deal 0 field 110/3, deal 1 field 131/3: the field's sum 241/3.
    # Differences: A 100 - 241/3 = 59/3, B 81 - 241/3 = 2/3, C 60 - 241/3 = -61/3.
    await play(store, "A", 100, [40, 60], day="2024-03-01")
    await play(store, "B", 81, [50, 31], day="2024-03-01")
    await play(store, "C", 60, [20, 40], day="2024-03-01")
    # 2024-03-02: field 60/2 + 80/2 = 70: A 50 - 70 = -20, B 90 - 70 = 20; C unfinished.
    await play(store, "A", 50, [20, 30], day="2024-03-02")
    await play(store, "B", 90, [40, 50], day="2024-03-02")
    await store.daily.start_daily(attempt("C", "2024-03-02"))
    # 2024-03-03, today: A alone, 70 - 70 = 0.
    await play(store, "A", 70, [30, 40], day="2024-03-03")

    assert await store.daily.alltime_board(1, 0, 10) == []
    assert await store.daily.alltime_count(0) == 0
    assert await store.daily.close_daily_days("2024-03-03") == [
        "2024-02-28",
        "2024-03-01",
        "2024-03-02",
    ]
    assert await store.daily.close_daily_days("2024-03-03") == []
    closed = await raw(backend, "SELECT day, closed FROM daily_days ORDER BY day")
    assert closed == [("2024-02-28", 1), ("2024-03-01", 1), ("2024-03-02", 1), ("2024-03-03", 0)]

    # A: 59/3 - 20 = -1/3 over 2 days; B: 2/3 + 20 = 62/3 over 2; C: -61/3 over 1.
    approx = pytest.approx
    board = [
        AlltimeRow("B", "nick B", 2, approx(31 / 3)),
        AlltimeRow("A", "nick A", 2, approx(-1 / 6)),
        AlltimeRow("C", "nick C", 1, approx(-61 / 3)),
    ]
    assert await store.daily.alltime_board(1, 0, 10) == board
    assert await store.daily.alltime_board(0, 0, 10) == board
    assert await store.daily.alltime_board(2, 0, 10) == board[:2]
    assert await store.daily.alltime_board(1, 1, 1) == board[1:2]
    assert await store.daily.alltime_board(1, 3, 10) == []
    assert await store.daily.alltime_board(3, 0, 10) == []
    assert [await store.daily.alltime_count(n) for n in (0, 1, 2, 3)] == [3, 3, 2, 0]
    sums = await raw(backend, "SELECT player_id, diff_sum FROM daily_alltime ORDER BY player_id")
    assert sums == [("A", approx(-1 / 3)), ("B", approx(62 / 3)), ("C", approx(-61 / 3))]

    # The next day: today closes too.  A's third day adds 0.
    assert await store.daily.close_daily_days("2024-03-04") == ["2024-03-03"]
    assert await store.daily.close_daily_days("2024-03-04") == []
    assert await store.daily.alltime_board(3, 0, 10) == [
        AlltimeRow("A", "nick A", 3, approx(-1 / 9))
    ]
    assert await store.daily.alltime_board(2, 0, 10) == [
        AlltimeRow("B", "nick B", 2, approx(31 / 3)),
        AlltimeRow("A", "nick A", 3, approx(-1 / 9)),
    ]


async def test_alltime_ties_by_player_id(store: Stores) -> None:
    await add_players(store, "b", "a", "Z")
    for pid in ("b", "a", "Z"):
        await play(store, pid, 50, [50])  # every difference 0
    assert await store.daily.close_daily_days("2024-03-02") == [DAY]
    board = await store.daily.alltime_board(1, 0, 10)
    assert [(r.player_id, r.days, r.average) for r in board] == [
        ("Z", 1, 0.0),
        ("a", 1, 0.0),
        ("b", 1, 0.0),
    ]


# --------------------------------------------------------------------------- two nodes


async def test_two_nodes_race_finish_daily(two: tuple[Stores, Stores]) -> None:
    a, b = two
    ids = [f"p{i:02}" for i in range(20)]
    await add_players(a, *ids)
    await asyncio.gather(*(s.daily.start_daily(attempt(pid)) for pid in ids for s in (a, b)))

    results = await asyncio.gather(
        *(
            s.daily.finish_daily(DAY, pid, 10 + i, [i, 10], float(i) + (s is b))
            for i, pid in enumerate(ids)
            for s in (a, b)
        )
    )
    for i in range(len(ids)):
        assert sorted(results[2 * i : 2 * i + 2]) == [False, True], ids[i]
    expected = [(0, 20, sum(range(20))), (1, 20, 200)]
    assert await a.daily.daily_field(DAY) == expected
    assert await b.daily.daily_field(DAY) == expected
    assert await b.daily.daily_finished(DAY) == 20
    points = await a.daily.daily_points(DAY, ids)
    assert points == {pid: [i, 10] for i, pid in enumerate(ids)}


async def test_two_nodes_race_close_daily_days(two: tuple[Stores, Stores]) -> None:
    a, b = two
    ids = [f"p{i}" for i in range(4)]
    await add_players(a, *ids)
    days = [f"2024-03-{d:02}" for d in range(1, 9)]
    for d, day in enumerate(days):
        for i, pid in enumerate(ids):
            await play(a if i % 2 else b, pid, 10 * i + d, [10 * i + d], day=day)
    await play(a, "p0", 0, [0], day="2024-03-09")  # today

    closed_a, closed_b = await asyncio.gather(
        a.daily.close_daily_days("2024-03-09"), b.daily.close_daily_days("2024-03-09")
    )
    assert sorted(closed_a + closed_b) == days  # each day closed once, by one of them
    assert closed_a == sorted(closed_a)
    assert closed_b == sorted(closed_b)
    assert await a.daily.close_daily_days("2024-03-09") == []

    # A day's field sum is 0 + 10 + 20 + 30 + 4d = 60 + 4d: player i's difference each day is
    # 10i + d - 15 - d = 10i - 15, whatever the day.
    board = await b.daily.alltime_board(1, 0, 10)
    assert [(r.player_id, r.days) for r in board] == [(pid, 8) for pid in reversed(ids)]
    assert [r.average for r in board] == pytest.approx([15.0, 5.0, -5.0, -15.0])


# --------------------------------------------------------------------------- indexes


# Where each daily query must read (its index by name); every one reads along some index.
DAILY_INDEXES = {
    "board": "daily_attempts_board",
    "count": "daily_attempts_board",
    "rank": "daily_attempts_board",
    "streak_days": "daily_attempts_player",
    "alltime_board": "daily_alltime_average",
    "alltime_count": "daily_alltime_days",
}
TABLES = ("daily_attempts", "daily_deals", "daily_field", "daily_alltime", "players")
COLUMNS = {"players": ["id", "nickname", "token_hash", "created_at"]}  # (and the key, unset)


def daily_tables() -> dict[str, list[tuple[Any, ...]]]:
    """20,000 players; 40 days of 200 of them (four in five finished, 16 deals each for 50
    of them), and an all-time board of 3,000, one in ten of them with 5 days or more."""
    days = [f"2024-{1 + d // 28:02}-{1 + d % 28:02}" for d in range(40)]
    ids = [f"p{i:02}" for i in range(20_000)]
    attempts, deals, field = [], [], []
    for d, day in enumerate(days):
        for i, pid in enumerate(ids[:200]):
            done = i % 5 != 0
            total = (i * 37 + d) % 2000 if done else None
            attempts.append((day, pid, f"r{d}-{i}", 0.0, total, float(i + d) if done else None))
            if done and i < 50:
                deals.extend((day, pid, n, (i + n) % 162) for n in range(16))
        field.extend((day, n, 160, 13_000) for n in range(16))
    alltime = [
        (pid, 5 + i % 30 if i % 10 == 0 else 1 + i % 4, 0.0, (i * 7919) % 400 - 200.0)
        for i, pid in enumerate(ids[:3000])
    ]
    return {
        "players": [(pid, f"nick {pid}", pid.encode(), 0.0) for pid in ids],
        "daily_attempts": attempts,
        "daily_deals": deals,
        "daily_field": field,
        "daily_alltime": alltime,
    }


async def test_sqlite_daily_queries_read_through_indexes(tmp_path: Path) -> None:
    backend = SqliteBackend(tmp_path)
    store = backend.make()
    await store.open()  # the migrations
    await store.close()
    conn = sqlite3.connect(backend.path)
    try:
        with conn:
            for table, rows in daily_tables().items():
                marks = ", ".join("?" * len(rows[0]))
                named = f" ({', '.join(COLUMNS[table])})" if table in COLUMNS else ""
                conn.executemany(f"INSERT INTO {table}{named} VALUES ({marks})", rows)
        conn.execute("ANALYZE")
        plans = {
            name: [
                str(step[-1])
                for step in conn.execute(f"EXPLAIN QUERY PLAN {q.sqlite}", sqlite_args(args))
            ]
            for name, (q, args) in DAILY_QUERIES.items()
        }
    finally:
        conn.close()
    for name, plan in plans.items():
        for step in plan:  # a scan only of a subquery's rows, or along an index
            scanned = step.split()[1] if step.startswith("SCAN") else None
            assert scanned not in TABLES or "INDEX" in step, (name, plan)
        assert any("INDEX" in step or "PRIMARY KEY" in step for step in plan), (name, plan)
        assert DAILY_INDEXES.get(name, "") in " ".join(plan), (name, plan)


async def test_postgres_daily_queries_read_through_indexes() -> None:
    async with fresh_schema() as schema:
        store = PostgresBackend(schema).make()
        await store.open()  # the migrations
        await store.close()
        conn = await pg_connect(schema)
        try:
            for table, rows in daily_tables().items():
                await conn.copy_records_to_table(table, records=rows, columns=COLUMNS.get(table))
            await conn.execute("VACUUM ANALYZE")
            plans = {}
            for name, (q, args) in DAILY_QUERIES.items():
                rows = await conn.fetch(f"EXPLAIN {q.postgres}", *args)
                plans[name] = "\n".join(r[0] for r in rows)
        finally:
            await conn.close()
    for name, plan in plans.items():
        assert "Seq Scan" not in plan, (name, plan)
        assert "Index" in plan, (name, plan)
        assert DAILY_INDEXES.get(name, "") in plan, (name, plan)
