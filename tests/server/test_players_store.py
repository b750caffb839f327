"""Profiles and ratings in storage, on SQLite and PostgreSQL: a match recorded once (also by
two nodes at once), ratings read and written in one transaction, the board and profile
queries along their indexes."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from server.store import Stores
from server.store.players import (
    BOARD_MIN_MATCHES,
    PROFILE_QUERIES,
    RATING_BOARD,
    Belief,
    MatchResult,
    NewRating,
    PlayerResult,
    PlayerStats,
)
from server.store.sqlite import sqlite_args
from tests.postgres import fresh_schema, pg_connect
from tests.server.test_daily_store import add_players, raw
from tests.server.test_store import BACKENDS, Backend, PostgresBackend, SqliteBackend

pytestmark = pytest.mark.daily

SEATS = ("a", "b", "c", "d")  # team 0: a and c; team 1: b and d


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
    await add_players(s, *SEATS, "e")
    yield s
    await s.close()


def result(
    match_id: str, seats: tuple[str, ...] = SEATS, winner: int = 0, at: float = 1.0,
    rated: bool = True, left: frozenset[str] = frozenset(),
) -> MatchResult:  # fmt: skip
    """A match of ``seats`` that ``winner`` won 300 to 200, one deal of 10 points each."""
    players = tuple(
        PlayerResult(
            pid,
            seat,
            seat % 2 == winner and pid not in left,
            pid in left,
            (300, 200) if seat % 2 == winner else (200, 300),
            1,
            10,
            seat == 0,
            0,
            0,
            20,
        )
        for seat, pid in enumerate(seats)
    )
    return MatchResult(match_id, at, "casual", None, None, rated, players)


def plus_one(seen: list[dict[str, Belief]] | None = None):
    """A rater that adds 1 to every mu (from 25 for a new player), noting what it read."""

    def rate(current: dict[str, Belief]) -> dict[str, NewRating]:
        if seen is not None:
            seen.append(dict(current))
        out = {}
        for pid in (*SEATS, "e"):
            mu, sigma = current.get(pid, (25.0, 8.0))
            out[pid] = NewRating(mu + 1, sigma, mu + 1 - 3 * sigma, 1.0)
        return out

    return rate


async def test_a_match_is_recorded_once(backend: Backend, store: Stores) -> None:
    seen: list[dict[str, Belief]] = []
    assert await store.players.record_match(result("m1"), plus_one(seen))
    assert not await store.players.record_match(result("m1"), plus_one(seen))  # nothing more
    assert seen == [{}]  # read once, everyone new
    rating, rank = await store.players.rating_of("a")  # type: ignore[misc]
    assert (rating.mu, rating.sigma, rating.matches, rank) == (26.0, 8.0, 1, None)
    assert rating.conservative == pytest.approx(2.0)
    assert await raw(backend, "SELECT count(*) FROM rating_history") == [(4,)]
    assert await raw(backend, "SELECT count(*) FROM player_matches") == [(4,)]
    profile = await store.players.profile("a", 0, 10, 10)
    assert profile is not None
    assert profile.stats == PlayerStats(1, 1, 1, 10, 1, 0, 0, 20)
    (line,) = profile.matches
    assert (line.match_id, line.won, line.left, line.score, line.rating_change) == (
        "m1", True, False, (300, 200), 1.0,
    )  # fmt: skip
    (point,) = profile.ratings
    assert (point.match_id, point.mu) == ("m1", 26.0)
    loser = await store.players.profile("b", 0, 10, 10)
    assert loser is not None and loser.stats.wins == 0 and loser.stats.chooser == 0

    # the next match reads the stored beliefs; an unrated one changes no rating
    assert await store.players.record_match(result("m2", at=2.0), plus_one(seen))
    assert seen[1] == {pid: (26.0, 8.0) for pid in SEATS}
    assert await store.players.record_match(result("m3", at=3.0, rated=False), None)
    profile = await store.players.profile("a", 0, 10, 10)
    assert profile is not None and profile.rating is not None
    assert (profile.rating.mu, profile.rating.matches, profile.stats.matches) == (27.0, 2, 3)
    assert [m.match_id for m in profile.matches] == ["m3", "m2", "m1"]  # the latest first
    assert [m.rated for m in profile.matches] == [False, True, True]
    assert [m.match_id for m in (await store.players.profile("a", 1, 1, 10)).matches] == ["m2"]  # type: ignore[union-attr]
    assert [p.match_id for p in profile.ratings] == ["m2", "m1"]
    assert await store.players.profile("nobody", 0, 10, 10) is None
    assert await store.players.rating_of("nobody") is None
    fresh = await store.players.profile("e", 0, 10, 10)
    assert fresh is not None and fresh.stats == PlayerStats() and fresh.rating is None


async def test_the_board_lists_players_with_enough_matches(store: Stores) -> None:
    # a and c win every match, b and d lose: a, c first; the ids break the tie
    for n in range(BOARD_MIN_MATCHES - 1):
        assert await store.players.record_match(result(f"m{n}", at=float(n)), plus_one())
    assert await store.players.rating_board(0, 10) == (0, [])
    assert (await store.players.rating_of("a"))[1] is None  # type: ignore[index]
    assert await store.players.record_match(result("last", at=99.0), plus_one())
    count, rows = await store.players.rating_board(0, 10)
    assert count == 4 and [r.player_id for r in rows] == ["a", "b", "c", "d"]  # all equal
    assert [r.nickname for r in rows] == ["nick a", "nick b", "nick c", "nick d"]
    assert [(await store.players.rating_of(pid))[1] for pid in SEATS] == [1, 2, 3, 4]  # type: ignore[index]
    count, rows = await store.players.rating_board(1, 2)
    assert count == 4 and [r.player_id for r in rows] == ["b", "c"]


async def test_the_board_orders_by_conservative_rating(store: Stores) -> None:
    def rate(mu: dict[str, float]):
        def run(current: dict[str, Belief]) -> dict[str, NewRating]:
            return {p: NewRating(mu[p], 1.0, mu[p] - 3, 0.0) for p in SEATS}

        return run

    values = {"a": 30.0, "b": 40.0, "c": 20.0, "d": 35.0}
    for n in range(BOARD_MIN_MATCHES):
        assert await store.players.record_match(result(f"m{n}", at=float(n)), rate(values))
    _, rows = await store.players.rating_board(0, 10)
    assert [r.player_id for r in rows] == ["b", "d", "a", "c"]
    assert [r.conservative for r in rows] == [37.0, 32.0, 27.0, 17.0]
    assert [(await store.players.rating_of(pid))[1] for pid in ("b", "d", "a", "c")] == [1, 2, 3, 4]  # type: ignore[index]


async def test_places_are_recorded_once(store: Stores) -> None:
    assert await store.players.record_places("t1", 5.0, [("a", 1, "grand"), ("b", 3, None)])
    assert not await store.players.record_places("t1", 6.0, [("a", 1, "grand"), ("b", 3, None)])
    assert await store.players.record_places("t2", 7.0, [("a", 2, "second")])
    profile = await store.players.profile("a", 0, 10, 10)
    assert profile is not None
    assert [(p.tournament_id, p.place, p.prize) for p in profile.places] == [
        ("t2", 2, "second"), ("t1", 1, "grand"),
    ]  # fmt: skip
    assert profile.place_counts == {1: 1, 2: 1}


# --------------------------------------------------------------------------- two nodes


@pytest.fixture
async def two(backend: Backend) -> AsyncIterator[tuple[Stores, Stores]]:
    first, second = backend.make(), backend.make()
    await first.open()
    await second.open()
    await add_players(first, *SEATS, "e")
    yield first, second
    await first.close()
    await second.close()


async def test_two_nodes_record_the_same_match_once(two: tuple[Stores, Stores]) -> None:
    a, b = two
    for n in range(10):
        done = await asyncio.gather(
            a.players.record_match(result(f"m{n}", at=float(n)), plus_one()),
            b.players.record_match(result(f"m{n}", at=float(n)), plus_one()),
        )
        assert sorted(done) == [False, True], n
    rating, _ = await a.players.rating_of("a")  # type: ignore[misc]
    assert (rating.mu, rating.matches) == (35.0, 10)
    profile = await b.players.profile("d", 0, 100, 100)
    assert profile is not None and profile.stats.matches == 10 and len(profile.matches) == 10


async def test_two_nodes_rate_a_shared_player_without_losing_an_update(
    two: tuple[Stores, Stores],
) -> None:
    """Matches of the same player end at once on two nodes: each rating update reads the
    other's result (no update is lost), for rows that exist and rows made at once."""
    a, b = two
    other = ("e", "b", "c", "d")  # "a"'s opponents b, d and partner c play both
    for n in range(10):
        await asyncio.gather(
            a.players.record_match(result(f"x{n}", at=float(n)), plus_one()),
            b.players.record_match(result(f"y{n}", other, at=float(n) + 0.5), plus_one()),
        )
    for pid, matches in (("a", 10), ("e", 10), ("b", 20), ("c", 20), ("d", 20)):
        rating, _ = await a.players.rating_of(pid)  # type: ignore[misc]
        assert (rating.matches, rating.mu) == (matches, 25.0 + matches), pid
        profile = await b.players.profile(pid, 0, 100, 100)
        assert profile is not None and profile.stats.matches == matches, pid


async def test_a_daily_games_part_of_the_counters(backend: Backend, store: Stores) -> None:
    """Each daily game's part is kept (once) for the profile read with ``hidden_from``: the
    sum over the player's daily games of that day and later."""
    days = ("2027-01-14", "2027-01-15")
    for n, day in enumerate(days):
        part = PlayerResult("a", 0, n == 0, False, (90 + n, 72), 1, 90 + n, 1, n, 0, 20 * n)
        daily = MatchResult(f"d{n}", float(n), "daily", None, day, False, (part,))
        for _ in range(2):  # published again: once
            await store.players.record_match(daily, None)
    await store.players.record_match(result("m1", rated=False), None)
    mine = await store.players.profile("a", 0, 10, 10)
    assert mine is not None and mine.unrevealed == PlayerStats()  # not asked for
    assert mine.stats == PlayerStats(3, 2, 3, 191, 3, 1, 0, 40)
    for hidden_from, part in (
        ("2027-01-14", PlayerStats(2, 1, 2, 181, 2, 1, 0, 20)),
        ("2027-01-15", PlayerStats(1, 0, 1, 91, 1, 1, 0, 20)),
        ("2027-01-16", PlayerStats()),
    ):
        seen = await store.players.profile("a", 0, 10, 10, hidden_from)
        assert seen is not None and seen.unrevealed == part, hidden_from
        assert seen.stats == mine.stats and seen.matches == mine.matches
    assert await raw(backend, "SELECT count(*) FROM player_daily") == [(2,)]


# --------------------------------------------------------------------------- indexes


async def test_sqlite_profile_and_board_queries_read_through_indexes(tmp_path: Path) -> None:
    backend = SqliteBackend(tmp_path)
    store = backend.make()
    await store.open()
    await store.close()
    conn = sqlite3.connect(backend.path)
    try:
        for name, (q, args) in PROFILE_QUERIES.items():
            plan = " | ".join(
                str(step[-1])
                for step in conn.execute(f"EXPLAIN QUERY PLAN {q.sqlite}", sqlite_args(args))
            )
            scans = [s for s in plan.split(" | ") if s.startswith("SCAN") and "INDEX" not in s]
            # (the one-row SELECT the rank's two counts are added in scans no table)
            tables = [s for s in scans if not s.startswith(("SCAN r", "SCAN CONSTANT ROW"))]
            assert not tables, (name, plan)
            assert "INDEX" in plan or "PRIMARY KEY" in plan, (name, plan)
        board = " ".join(
            str(s[-1]) for s in conn.execute(f"EXPLAIN QUERY PLAN {RATING_BOARD.sqlite}", (20, 0))
        )
        assert "ratings_board" in board, board
    finally:
        conn.close()


async def test_postgres_profile_and_board_queries_read_through_indexes() -> None:
    async with fresh_schema() as schema:
        store = PostgresBackend(schema).make()
        await store.open()  # the migrations
        await store.close()
        conn = await pg_connect(schema)
        try:
            # 3,000 players, a third of them on the board, 20 matches each in the history
            ids = [f"p{i:05}" for i in range(3000)]
            await conn.executemany(
                "INSERT INTO players (id, nickname, token_hash, created_at) VALUES ($1, $1, $2, 0)",
                [(pid, pid.encode()) for pid in ids],
            )
            await conn.executemany(
                "INSERT INTO ratings VALUES ($1, $2::float8, 2, $3, $2::float8 - 6)",
                [(pid, float(i % 97), 5 + i % 15) for i, pid in enumerate(ids)],
            )
            await conn.executemany(
                "INSERT INTO rating_history VALUES ($1, $2, $3, 25, 8, 1)",
                [(pid, float(n), f"m{n}") for pid in ids[:1000] for n in range(20)],
            )
            await conn.executemany(
                "INSERT INTO player_matches VALUES ($1, $2, $3, 'casual', NULL, NULL, 1, 0, 1, 0,"
                " 1, 0, NULL)",
                [(pid, f"m{n}", float(n)) for pid in ids[:1000] for n in range(20)],
            )
            await conn.executemany(
                "INSERT INTO player_places VALUES ($1, $2, 1, NULL, $3)",
                [(pid, f"t{n}", float(n)) for pid in ids[:1000] for n in range(5)],
            )
            await conn.executemany(
                "INSERT INTO player_stats VALUES ($1, 1, 1, 1, 1, 1, 1, 1, 1)",
                [(pid,) for pid in ids],
            )
            await conn.executemany(  # a daily game a day of the last 30 days
                "INSERT INTO player_daily VALUES ($1, $2, 'm', 1, 16, 1300, 4, 1, 0, 40)",
                [(pid, f"2027-01-{d:02}") for pid in ids for d in range(1, 31)],
            )
            await conn.execute("ANALYZE")
            plans = {}
            for name, (q, args) in PROFILE_QUERIES.items():
                args = tuple("p00042" if a == "p" else a for a in args)
                rows = await conn.fetch(f"EXPLAIN {q.postgres}", *args)
                plans[name] = "\n".join(r[0] for r in rows)
        finally:
            await conn.close()
    assert "rating_board" in plans.pop("count")  # its one row
    for name, plan in plans.items():
        assert "Seq Scan" not in plan, (name, plan)
        assert "Index" in plan, (name, plan)
    assert "ratings_board" in plans["board"] and "ratings_board" in plans["rank"], plans
