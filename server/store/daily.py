"""The daily game's store: attempts (one a player and day), each deal's points and the
day's field, the all-time board of closed days, and the server's secret the days' seeds come
from.  Every query reads through an index (the tests read their plans: ``DAILY_QUERIES``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .database import Store
from .sql import Conn, Row, Sql, sql


@dataclass(frozen=True, slots=True)
class DailyAttempt:
    """A player's attempt at a day's daily game (``day`` a UTC date, YYYY-MM-DD)."""

    day: str
    player_id: str
    room_id: str
    started_at: float
    total: int | None = None  # the player's team's points, once finished
    finished_at: float | None = None

    @property
    def finished(self) -> bool:
        return self.total is not None


@dataclass(frozen=True, slots=True)
class DailyRow:
    """A finished attempt on a day's board."""

    player_id: str
    nickname: str
    total: int
    finished_at: float


@dataclass(frozen=True, slots=True)
class AlltimeRow:
    """A player on the all-time daily board: closed days played, mean difference a day."""

    player_id: str
    nickname: str
    days: int
    average: float


_SECRET = sql("INSERT INTO secrets (name, value) VALUES ($1, $2) ON CONFLICT DO NOTHING")
_SECRET_IS = sql("SELECT value FROM secrets WHERE name = $1")
_ATTEMPT_COLS = "day, player_id, room_id, started_at, total, finished_at"
_ATTEMPT = sql(f"SELECT {_ATTEMPT_COLS} FROM daily_attempts WHERE day = $1 AND player_id = $2")
_START = sql(
    f"INSERT INTO daily_attempts ({_ATTEMPT_COLS}) VALUES ($1, $2, $3, $4, NULL, NULL)"
    " ON CONFLICT (day, player_id) DO NOTHING"
)
_PLAYED = sql("INSERT INTO daily_days (day, closed) VALUES ($1, 0) ON CONFLICT DO NOTHING")
_FINISH = sql(
    "UPDATE daily_attempts SET total = $1, finished_at = $2"
    " WHERE day = $3 AND player_id = $4 AND total IS NULL"
)
# A finished attempt's points, deal by deal (numbers from 0).
_INSERT_DEALS = sql(
    "INSERT INTO daily_deals (day, player_id, number, points)"
    " SELECT $1::text, $2::text, t.n - 1, t.p FROM unnest($3::int[]) WITH ORDINALITY AS t(p, n)",
    sqlite="INSERT INTO daily_deals (day, player_id, number, points)"
    " SELECT ?1, ?2, key, value FROM json_each(?3)",
)
# A finished attempt's points added to its day's field, deal by deal in number order (so
# concurrent finishes of one day lock the field's rows in the same order).
_FIELD_GREW = (
    " ON CONFLICT (day, number) DO UPDATE SET players = daily_field.players + 1,"
    " points = daily_field.points + excluded.points"
)
_ADD_TO_FIELD = sql(
    "INSERT INTO daily_field (day, number, players, points)"
    " SELECT $1::text, t.n - 1, 1, t.p FROM unnest($2::int[]) WITH ORDINALITY AS t(p, n)"
    " ORDER BY t.n" + _FIELD_GREW,
    sqlite="INSERT INTO daily_field (day, number, players, points)"
    " SELECT ?1, key, 1, value FROM json_each(?2) WHERE true ORDER BY key" + _FIELD_GREW,
)
# A day's board, read through the partial index daily_attempts_board (its WHERE must stay).
DAILY_BOARD = sql(  # the page first, along the board's index; then its nicknames
    "SELECT a.player_id, p.nickname, a.total, a.finished_at FROM ("
    "SELECT player_id, total, finished_at FROM daily_attempts"
    " WHERE day = $1 AND total IS NOT NULL"
    " ORDER BY total DESC, finished_at, player_id LIMIT $2 OFFSET $3"
    ") a JOIN players p ON p.id = a.player_id ORDER BY a.total DESC, a.finished_at, a.player_id"
)
_FINISHED = sql("SELECT count(*) FROM daily_attempts WHERE day = $1 AND total IS NOT NULL")
_RANK = sql(
    "SELECT 1 + count(*) FROM daily_attempts WHERE day = $1 AND total IS NOT NULL AND total > $2"
)
_FIELD = sql("SELECT number, players, points FROM daily_field WHERE day = $1 ORDER BY number")
_POINTS = sql(  # these players' deal scores of a day, along daily_deals' key
    "SELECT player_id, number, points FROM daily_deals"
    " WHERE day = $1 AND player_id = ANY($2::text[]) ORDER BY player_id, number",
    sqlite="SELECT player_id, number, points FROM daily_deals"
    " WHERE day = ?1 AND player_id IN (SELECT value FROM json_each(?2))"
    " ORDER BY player_id, number",
)
_DAYS = sql(  # a player's days played, along daily_attempts_player (its WHERE must stay)
    "SELECT day FROM daily_attempts WHERE player_id = $1 AND total IS NOT NULL"
    " ORDER BY day DESC LIMIT $2"
)
_OPEN_DAYS = sql("SELECT day FROM daily_days WHERE closed = 0 AND day < $1 ORDER BY day")
_CLOSE = sql("UPDATE daily_days SET closed = 1 WHERE day = $1 AND closed = 0")
# A closed day's finished attempts added to the all-time board: each its total minus the
# field's sum of deal means (an uncorrelated subquery, evaluated once).  Rows in player
# order, so that transactions closing different days lock players' rows in the same order.
_CLOSE_DAY = sql(
    "INSERT INTO daily_alltime (player_id, days, diff_sum, average)"
    " SELECT a.player_id, 1, a.total - s.field, a.total - s.field FROM daily_attempts a,"
    " (SELECT COALESCE(SUM(CAST(points AS DOUBLE PRECISION) / players), 0.0) AS field"
    " FROM daily_field WHERE day = $1) s"
    ' WHERE a.day = $1 AND a.total IS NOT NULL ORDER BY a.player_id COLLATE "C"'
    " ON CONFLICT (player_id) DO UPDATE SET days = daily_alltime.days + 1,"
    " diff_sum = daily_alltime.diff_sum + excluded.diff_sum,"
    " average = (daily_alltime.diff_sum + excluded.diff_sum) / (daily_alltime.days + 1)"
)
_ALLTIME_BOARD = sql(  # the page first, along the average's index; then its nicknames
    "SELECT t.player_id, p.nickname, t.days, t.average FROM ("
    "SELECT player_id, days, average FROM daily_alltime WHERE days >= $1"
    " ORDER BY average DESC, player_id LIMIT $2 OFFSET $3"
    ") t JOIN players p ON p.id = t.player_id ORDER BY t.average DESC, t.player_id"
)
_ALLTIME_COUNT = sql("SELECT count(*) FROM daily_alltime WHERE days >= $1")

# Every query behind a daily board, with example arguments (the tests read their plans).
DAILY_QUERIES: dict[str, tuple[Sql, tuple[Any, ...]]] = {
    "attempt": (_ATTEMPT, ("2024-01-10", "p01")),
    "board": (DAILY_BOARD, ("2024-01-10", 20, 0)),
    "count": (_FINISHED, ("2024-01-10",)),
    "rank": (_RANK, ("2024-01-10", 800)),
    "field": (_FIELD, ("2024-01-10",)),
    "points": (_POINTS, ("2024-01-10", ["p01", "p02", "p03"])),
    "streak_days": (_DAYS, ("p01", 1000)),
    "alltime_board": (_ALLTIME_BOARD, (5, 20, 0)),
    "alltime_count": (_ALLTIME_COUNT, (5,)),
}


def _attempt(row: Row) -> DailyAttempt:
    finished_at = None if row[5] is None else float(row[5])
    return DailyAttempt(row[0], row[1], row[2], float(row[3]), row[4], finished_at)


class DailyStore(Store):
    async def secret(self, name: str, fresh: str) -> str:
        """The server-wide secret ``name``: ``fresh`` is stored if there is none yet; the
        stored value is returned (the first writer wins, on every node)."""

        async def run(conn: Conn) -> str:
            # DO NOTHING waits for a concurrent insert of the name to commit; the SELECT, a
            # statement of its own (READ COMMITTED), then sees the winner.
            await conn.execute(_SECRET, name, fresh)
            return str(await conn.fetchval(_SECRET_IS, name))

        return await self.db.run(f"secret {name!r}", run)

    async def start_daily(self, attempt: DailyAttempt) -> DailyAttempt:
        """Store ``attempt`` (unfinished) unless its player has an attempt that day already,
        and note its day as played; return the stored attempt (this one, or the earlier)."""
        a = attempt

        async def run(conn: Conn) -> DailyAttempt:
            async with conn.transaction():
                await conn.execute(_START, a.day, a.player_id, a.room_id, float(a.started_at))
                await conn.execute(_PLAYED, a.day)
                row = await conn.fetchrow(_ATTEMPT, a.day, a.player_id)
            assert row is not None
            return _attempt(row)

        return await self.db.run(f"start daily {a.day} of {a.player_id!r}", run)

    async def daily_attempt(self, day: str, player_id: str) -> DailyAttempt | None:
        row = await self._fetchrow(f"daily {day} of {player_id!r}", _ATTEMPT, day, player_id)
        return None if row is None else _attempt(row)

    async def finish_daily(
        self, day: str, player_id: str, total: int, points: list[int], at: float
    ) -> bool:
        """Record a finished attempt atomically: its ``total``, its team's ``points`` deal
        by deal (deal numbers from 0), and those points added to the day's field.  False,
        and nothing written, if the attempt is unknown or already finished (idempotent).

        Exactly once across processes: a concurrent finish of the same attempt waits for
        this one's row lock and then finds it finished (READ COMMITTED re-checks the row)."""
        points = list(points)

        async def run(conn: Conn) -> bool:
            async with conn.transaction():
                if await conn.execute(_FINISH, total, float(at), day, player_id) == 0:
                    return False
                await conn.execute(_INSERT_DEALS, day, player_id, points)
                await conn.execute(_ADD_TO_FIELD, day, points)
            return True

        return await self.db.run(f"finish daily {day} of {player_id!r}", run)

    async def daily_board(self, day: str, offset: int, limit: int) -> list[DailyRow]:
        """Finished attempts of ``day``, best total first (the earlier finish on a tie)."""
        rows = await self._fetch(f"daily board {day}", DAILY_BOARD, day, limit, offset)
        return [DailyRow(row[0], row[1], row[2], float(row[3])) for row in rows]

    async def daily_finished(self, day: str) -> int:
        """How many attempts of ``day`` are finished."""
        return int(await self._fetchval(f"daily finished {day}", _FINISHED, day))

    async def daily_rank(self, day: str, total: int) -> int:
        """1 + the finished attempts of ``day`` with a higher total."""
        return int(await self._fetchval(f"daily rank {day}", _RANK, day, total))

    async def daily_field(self, day: str) -> list[tuple[int, int, int]]:
        """``(deal number, players, their points in all)`` for each deal of ``day``."""
        rows = await self._fetch(f"daily field {day}", _FIELD, day)
        return [(n, players, p) for n, players, p in rows]

    async def daily_points(self, day: str, player_ids: list[str]) -> dict[str, list[int]]:
        """The finished attempts' points deal by deal, for these players."""
        if not player_ids:
            return {}
        found: dict[str, list[int]] = {}
        for player_id, _number, p in await self._fetch(
            f"daily points {day}", _POINTS, day, list(player_ids)
        ):  # ordered by player and number
            found.setdefault(player_id, []).append(p)
        return found

    async def daily_days(self, player_id: str, limit: int) -> list[str]:
        """The days ``player_id`` finished an attempt, the latest first, at most ``limit``."""
        rows = await self._fetch(f"daily days of {player_id!r}", _DAYS, player_id, limit)
        return [day for (day,) in rows]

    async def close_daily_days(self, before: str) -> list[str]:
        """Add every played day before ``before`` that is not yet closed to the all-time
        board, each exactly once across nodes: a finished attempt adds one day and its
        total minus the field's sum of deal means to its player's row.  The days closed.

        Each day is closed in a transaction of its own that first flips its ``closed``
        flag: a node racing it waits for that row lock (or SQLite's write lock), then finds
        the day closed."""

        async def run(conn: Conn) -> list[str]:
            closed: list[str] = []
            for (day,) in await conn.fetch(_OPEN_DAYS, before):
                async with conn.transaction():
                    if await conn.execute(_CLOSE, day) == 0:
                        continue
                    await conn.execute(_CLOSE_DAY, day)
                closed.append(day)
            return closed

        return await self.db.run(f"close daily days before {before}", run)

    async def alltime_board(self, min_days: int, offset: int, limit: int) -> list[AlltimeRow]:
        """Players with at least ``min_days`` closed days, by mean difference, best first."""
        rows = await self._fetch("all-time board", _ALLTIME_BOARD, min_days, limit, offset)
        return [AlltimeRow(row[0], row[1], row[2], float(row[3])) for row in rows]

    async def alltime_count(self, min_days: int) -> int:
        return int(await self._fetchval("all-time count", _ALLTIME_COUNT, min_days))
