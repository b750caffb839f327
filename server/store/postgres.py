"""PostgreSQL implementation of :class:`~server.store.base.Store` (``asyncpg``).

Same semantics as :mod:`server.store.sqlite`:

* Every write is one committed transaction when its coroutine returns.  Connections run with
  ``synchronous_commit`` on (forced on if the server's default is ``off``), so an
  acknowledged ``append`` survives a crash of this process or of PostgreSQL.
* Operations touching one room's log (``append``, ``add_room``, ``add_tournament``) run in
  call order for that room, one at a time, like the SQLite worker's queue; different rooms
  run concurrently on a pool of connections.  ``fence`` takes its key's turn too.
* Fencing across processes: an ``append`` with an epoch is one ``INSERT ... SELECT`` that
  reads the room's fence row ``FOR SHARE``, and ``fence`` updates that row.  So a ``fence``
  waits for any in-flight fenced append of the row to commit, and an append racing a
  ``fence`` waits for it and then sees the new epoch (READ COMMITTED re-checks the locked
  row) and inserts nothing: once ``fence`` has returned, no append with an older epoch can
  commit.
* A started operation is not withdrawn when its caller is cancelled; it completes in the
  background and :meth:`PostgresStore.close` waits for it.
* Migrations (``migrations/postgres/NNNN_*.sql``) are applied at :meth:`PostgresStore.open`
  under a PostgreSQL advisory lock, so several server processes starting together apply each
  exactly once; each is recorded in ``schema_migrations``.
* Every database, network or timeout failure surfaces as :class:`StoreError`.  Connecting
  and each statement are bounded by timeouts, so an unreachable server fails calls within
  seconds; broken connections are dropped and replaced, so calls succeed again once it is
  back.  (As with any client/server database, if the connection dies while a COMMIT is in
  flight the caller gets a :class:`StoreError` although the write may have committed.)
"""

from __future__ import annotations

import asyncio
import hashlib
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, field
from typing import Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from server.store import rows as codec
from server.store.base import (
    BOARD_MIN_MATCHES,
    AlltimeRow,
    DailyAttempt,
    DailyRow,
    Fenced,
    LogEntry,
    MatchResult,
    PlayerRow,
    PlayerStats,
    Profile,
    Rater,
    RatingRow,
    RoomRow,
    SheetRow,
    StoreError,
    TournamentRow,
    VersionConflict,
)
from server.store.migrations import check_newer, list_migrations

__all__ = [
    "DAILY_BOARD",
    "DAILY_QUERIES",
    "PROFILE_QUERIES",
    "RATING_BOARD",
    "PostgresStore",
    "migration_lock_key",
]

CONNECT_TIMEOUT_S = 5.0  # establishing a connection, or waiting for a free one
COMMAND_TIMEOUT_S = 5.0  # one statement
MIGRATION_TIMEOUT_S = 120.0  # waiting for another process's migrations, and each migration

_PLAYER_COLS = "id, nickname, token_hash, created_at"
_ROOM_COLS = "id, owner, invite_code, status, created_at"
_TOURNAMENT_COLS = "id, format, status, start_at, created_at"
_ATTEMPT_COLS = "day, player_id, room_id, started_at, total, finished_at"
_ATTEMPT = f"SELECT {_ATTEMPT_COLS} FROM daily_attempts WHERE day = $1 AND player_id = $2"
_INSERT_LOG = "INSERT INTO room_log (room_id, version, entry) VALUES ($1, $2, $3)"
# One statement: check the room's epoch under a share lock on its fence row, and insert.
# A concurrent fence() (an UPDATE of that row) waits for this to commit, or this waits for it
# and then re-checks the new epoch and inserts 0 rows ("INSERT 0 0").  The entry keeps the
# epoch it was written with (epochs never go down along a key's versions).
_INSERT_LOG_FENCED = (
    "INSERT INTO room_log (room_id, version, entry, epoch)"
    " SELECT $1::text, $2::bigint, $3::text, epoch FROM fences WHERE id = $1 AND epoch = $4"
    " FOR SHARE"
)
_FENCE = (
    "INSERT INTO fences (id, epoch) VALUES ($1, 1)"
    " ON CONFLICT (id) DO UPDATE SET epoch = fences.epoch + 1 RETURNING epoch"
)
# A day's board, read through the partial index daily_attempts_board (its WHERE must stay).
DAILY_BOARD = (  # the page first, along the board's index; then its nicknames
    "SELECT a.player_id, p.nickname, a.total, a.finished_at FROM ("
    "SELECT player_id, total, finished_at FROM daily_attempts"
    " WHERE day = $1 AND total IS NOT NULL"
    " ORDER BY total DESC, finished_at, player_id LIMIT $2 OFFSET $3"
    ") a JOIN players p ON p.id = a.player_id ORDER BY a.total DESC, a.finished_at, a.player_id"
)
_DAILY_FINISHED = "SELECT count(*) FROM daily_attempts WHERE day = $1 AND total IS NOT NULL"
_DAILY_RANK = (
    "SELECT 1 + count(*) FROM daily_attempts WHERE day = $1 AND total IS NOT NULL AND total > $2"
)
_DAILY_FIELD = "SELECT number, players, points FROM daily_field WHERE day = $1 ORDER BY number"
_DAILY_POINTS = (
    "SELECT player_id, number, points FROM daily_deals"
    " WHERE day = $1 AND player_id = ANY($2::text[]) ORDER BY player_id, number"
)
_DAILY_DAYS = (  # a player's days played, along daily_attempts_player (its WHERE must stay)
    "SELECT day FROM daily_attempts WHERE player_id = $1 AND total IS NOT NULL"
    " ORDER BY day DESC LIMIT $2"
)
_ALLTIME_BOARD = (  # the page first, along the average's index; then its nicknames
    "SELECT t.player_id, p.nickname, t.days, t.average FROM ("
    "SELECT player_id, days, average FROM daily_alltime WHERE days >= $1"
    " ORDER BY average DESC, player_id LIMIT $2 OFFSET $3"
    ") t JOIN players p ON p.id = t.player_id ORDER BY t.average DESC, t.player_id"
)
_ALLTIME_COUNT = "SELECT count(*) FROM daily_alltime WHERE days >= $1"
# Every query behind a daily board, with example arguments (the tests read their plans).
DAILY_QUERIES: dict[str, tuple[str, tuple[Any, ...]]] = {
    "attempt": (_ATTEMPT, ("2024-01-10", "p01")),
    "board": (DAILY_BOARD, ("2024-01-10", 20, 0)),
    "count": (_DAILY_FINISHED, ("2024-01-10",)),
    "rank": (_DAILY_RANK, ("2024-01-10", 800)),
    "field": (_DAILY_FIELD, ("2024-01-10",)),
    "points": (_DAILY_POINTS, ("2024-01-10", ["p01", "p02", "p03"])),
    "streak_days": (_DAILY_DAYS, ("p01", 1000)),
    "alltime_board": (_ALLTIME_BOARD, (5, 20, 0)),
    "alltime_count": (_ALLTIME_COUNT, (5,)),
}
# A finished attempt's points, deal by deal (numbers from 0).
_INSERT_DEALS = (
    "INSERT INTO daily_deals (day, player_id, number, points)"
    " SELECT $1::text, $2::text, t.n - 1, t.p FROM unnest($3::int[]) WITH ORDINALITY AS t(p, n)"
)
# A finished attempt's points added to its day's field, deal by deal in number order (so
# concurrent finishes of one day lock the field's rows in the same order).
_ADD_TO_FIELD = (
    "INSERT INTO daily_field (day, number, players, points)"
    " SELECT $1::text, t.n - 1, 1, t.p FROM unnest($2::int[]) WITH ORDINALITY AS t(p, n)"
    " ORDER BY t.n"
    " ON CONFLICT (day, number) DO UPDATE SET players = daily_field.players + 1,"
    " points = daily_field.points + excluded.points"
)
# A closed day's finished attempts added to the all-time board: each its total minus the
# field's sum of deal means (an uncorrelated subquery, evaluated once).  Rows in player
# order, so that transactions closing different days lock players' rows in the same order.
_CLOSE_DAY = (
    "INSERT INTO daily_alltime (player_id, days, diff_sum, average)"
    " SELECT a.player_id, 1, a.total - s.field, a.total - s.field FROM daily_attempts a,"
    " (SELECT COALESCE(SUM(points::double precision / players), 0.0) AS field"
    " FROM daily_field WHERE day = $1) s"
    ' WHERE a.day = $1 AND a.total IS NOT NULL ORDER BY a.player_id COLLATE "C"'
    " ON CONFLICT (player_id) DO UPDATE SET days = daily_alltime.days + 1,"
    " diff_sum = daily_alltime.diff_sum + excluded.diff_sum,"
    " average = (daily_alltime.diff_sum + excluded.diff_sum) / (daily_alltime.days + 1)"
)

# Profiles and ratings.  The board's queries repeat the partial index's WHERE (ratings_board).
_LISTED = f"matches >= {BOARD_MIN_MATCHES}"
RATING_BOARD = (  # the page along the board's index; each nickname by its key
    "SELECT player_id, (SELECT nickname FROM players WHERE id = player_id),"
    f" mu, sigma, matches, conservative FROM ratings WHERE {_LISTED}"
    " ORDER BY conservative DESC, player_id LIMIT $1 OFFSET $2"
)
_RATING_COUNT = "SELECT players FROM rating_board WHERE id = 1"
_BOARD_GREW = "UPDATE rating_board SET players = players + $1 WHERE id = 1"
_RATING_OF = (
    "SELECT r.player_id, p.nickname, r.mu, r.sigma, r.matches, r.conservative"
    " FROM ratings r JOIN players p ON p.id = r.player_id WHERE r.player_id = $1"
)
_RANK = (  # 1 + the listed players above: a higher rating, or the same and a lower id
    f"SELECT 1 + (SELECT count(*) FROM ratings WHERE {_LISTED} AND conservative > $1)"
    f" + (SELECT count(*) FROM ratings WHERE {_LISTED} AND conservative = $1 AND player_id < $2)"
)
_STATS = f"SELECT {codec.STATS_COLS} FROM player_stats WHERE player_id = $1"
_LINES = (
    f"SELECT {codec.LINE_COLS} FROM player_matches WHERE player_id = $1"
    " ORDER BY at DESC, match_id DESC LIMIT $2 OFFSET $3"
)
_POINTS = (
    f"SELECT {codec.POINT_COLS} FROM rating_history WHERE player_id = $1"
    " ORDER BY at DESC, match_id DESC LIMIT $2"
)
_PLACES = (
    f"SELECT {codec.PLACE_COLS} FROM player_places WHERE player_id = $1"
    " ORDER BY at DESC, tournament_id DESC LIMIT $2"
)
_PLACE_COUNTS = "SELECT place, count(*) FROM player_places WHERE player_id = $1 GROUP BY place"
_UNREVEALED = (  # along player_daily's key
    f"SELECT {codec.DAILY_PART_SUMS} FROM player_daily WHERE player_id = $1 AND day >= $2"
)
# Every query behind a board or a profile, with example arguments (the tests read their plans).
PROFILE_QUERIES: dict[str, tuple[str, tuple[Any, ...]]] = {
    "board": (RATING_BOARD, (20, 0)),
    "count": (_RATING_COUNT, ()),
    "rating_of": (_RATING_OF, ("p",)),
    "rank": (_RANK, (90.0, "p")),
    "stats": (_STATS, ("p",)),
    "matches": (_LINES, ("p", 20, 0)),
    "ratings": (_POINTS, ("p", 20)),
    "places": (_PLACES, ("p", 20)),
    "place_counts": (_PLACE_COUNTS, ("p",)),
    "unrevealed": (_UNREVEALED, ("p", "2027-01-15")),
}
# A match's players' rating rows, made if missing (placeholders: matches 0, replaced in the
# same transaction), so that every one of them can be locked; then locked in id order.
_RATING_ROWS = (
    "INSERT INTO ratings (player_id, mu, sigma, matches, conservative)"
    ' SELECT t.id, 0, 0, 0, 0 FROM unnest($1::text[]) AS t(id) ORDER BY t.id COLLATE "C"'
    " ON CONFLICT DO NOTHING"
)
_LOCK_RATINGS = (
    "SELECT player_id, mu, sigma, matches FROM ratings WHERE player_id = ANY($1::text[])"
    ' ORDER BY player_id COLLATE "C" FOR UPDATE'
)
_SET_RATING = (
    "UPDATE ratings SET mu = $2, sigma = $3, matches = matches + 1, conservative = $4"
    " WHERE player_id = $1"
)
_ADD_POINT = (
    f"INSERT INTO rating_history (player_id, {codec.POINT_COLS}) VALUES ($1, $2, $3, $4, $5, $6)"
)
_ADD_STATS = (
    f"INSERT INTO player_stats (player_id, {codec.STATS_COLS})"
    " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)"
    " ON CONFLICT (player_id) DO UPDATE SET matches = player_stats.matches + 1,"
    " wins = player_stats.wins + excluded.wins, deals = player_stats.deals + excluded.deals,"
    " points = player_stats.points + excluded.points,"
    " chooser = player_stats.chooser + excluded.chooser, nat = player_stats.nat + excluded.nat,"
    " pits = player_stats.pits + excluded.pits, roem = player_stats.roem + excluded.roem"
)
_ADD_LINE = (
    f"INSERT INTO player_matches (player_id, {codec.LINE_COLS})"
    " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) ON CONFLICT DO NOTHING"
)
_ADD_DAILY_PART = (
    f"INSERT INTO player_daily (player_id, {codec.DAILY_PART_COLS})"
    " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT DO NOTHING"
)
_RETRIES = 3  # a recording that deadlocks with another (PostgreSQL breaks it) is run again

# Everything asyncpg or the network may raise.  (OSError covers ConnectionError and, since
# Python 3.11, TimeoutError / asyncio.TimeoutError.)
_DB_ERRORS: tuple[type[BaseException], ...] = (
    asyncpg.PostgresError,
    asyncpg.InterfaceError,
    asyncpg.InternalClientError,
    OSError,
)

_T = TypeVar("_T")
_Conn = Any  # asyncpg.Connection or a pool proxy of one


def migration_lock_key(schema: str) -> int:
    """The ``pg_advisory_lock`` key guarding migrations of ``schema`` (a signed int64)."""
    digest = hashlib.blake2b(f"klaverjas:migrations:{schema}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


@dataclass(slots=True)
class _Turn:
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    users: int = 0


class PostgresStore:
    """A :class:`~server.store.base.Store` in a PostgreSQL database.

    ``url`` is a libpq-style URL (``postgresql://user:password@host:port/dbname``).
    ``schema``, if given, is the (existing) schema to use: it becomes the connections'
    ``search_path``.
    """

    def __init__(
        self,
        url: str,
        *,
        schema: str | None = None,
        min_size: int = 1,
        max_size: int = 10,
        connect_timeout: float = CONNECT_TIMEOUT_S,
        command_timeout: float = COMMAND_TIMEOUT_S,
    ) -> None:
        self._url = url
        self._schema = schema
        self._min_size = min_size
        self._max_size = max_size
        self._connect_timeout = connect_timeout
        self._command_timeout = command_timeout
        self._where = _redact(url) + (f" (schema {schema!r})" if schema else "")
        self._pool: asyncpg.Pool | None = None
        self._closed = False
        self._closing: asyncio.Future[None] | None = None
        self._open_lock = asyncio.Lock()
        self._inflight = 0  # operations started and not finished
        self._idle = asyncio.Event()
        self._turns: dict[str, _Turn] = {}
        self.failing_since: float | None = None  # see Store.failing_since
        self._answered_at = 0.0  # when the latest call that reached the server began

    # ----------------------------------------------------------------- lifecycle

    async def open(self) -> None:
        """Create the connection pool and apply pending migrations (no-op if open)."""
        if self._closed:
            raise StoreError("store is closed")
        async with self._open_lock:
            if self._closed:
                raise StoreError("store is closed")
            if self._pool is None:
                self._pool = await self._connect()

    async def close(self) -> None:
        """Finish started operations, then close every connection; idempotent."""
        if self._closing is None:
            self._closed = True
            self._closing = asyncio.ensure_future(self._shutdown())
        await asyncio.shield(self._closing)

    async def _shutdown(self) -> None:
        async with self._open_lock:  # an open() in progress finishes first
            while self._inflight:
                self._idle.clear()
                await self._idle.wait()
            pool, self._pool = self._pool, None
            if pool is None:
                return
            try:
                async with asyncio.timeout(self._connect_timeout + self._command_timeout):
                    await pool.close()
            except _DB_ERRORS:
                # Everything is committed already; just drop the connections.
                pool.terminate()

    async def _connect(self) -> asyncpg.Pool:
        try:
            pool = await self._create_pool({})
            try:
                async with pool.acquire(timeout=self._connect_timeout) as conn:
                    await self._migrate(conn)
                    sync = await conn.fetchval("SELECT current_setting('synchronous_commit')")
                if sync == "off":  # acknowledged writes must be durable: override for us
                    await pool.close()
                    pool = await self._create_pool({"synchronous_commit": "on"})
            except BaseException:
                pool.terminate()
                raise
        except StoreError as exc:
            raise StoreError(f"cannot open PostgreSQL store at {self._where}: {exc}") from exc
        except (*_DB_ERRORS, ValueError) as exc:
            raise StoreError(
                f"cannot open PostgreSQL store at {self._where}: {self._describe(exc, where=False)}"
            ) from exc
        return pool

    async def _create_pool(self, settings: dict[str, str]) -> asyncpg.Pool:
        server_settings = dict(settings)
        if self._schema is not None:
            server_settings["search_path"] = _quote_ident(self._schema)
        pool = await asyncpg.create_pool(
            self._url,
            min_size=self._min_size,
            max_size=self._max_size,
            timeout=self._connect_timeout,
            command_timeout=self._command_timeout,
            server_settings=server_settings or None,
        )
        assert pool is not None
        return pool

    async def _migrate(self, conn: _Conn) -> None:
        """Apply pending migrations in order, each in its own transaction, each exactly once.

        The whole check-and-apply runs under a session advisory lock keyed by the schema, so
        concurrent openers wait for each other and then see the migrations as applied.
        """
        try:
            migrations = list_migrations("postgres")
        except ValueError as exc:
            raise StoreError(f"bad migrations: {exc}") from exc
        schema = await conn.fetchval("SELECT current_schema()")
        if schema is None:
            wanted = f"schema {self._schema!r}" if self._schema else "a schema on the search_path"
            raise StoreError(f"{wanted} does not exist")
        key = migration_lock_key(schema)
        await conn.execute("SELECT pg_advisory_lock($1)", key, timeout=MIGRATION_TIMEOUT_S)
        try:
            await conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations"
                " (version INTEGER PRIMARY KEY, applied_at DOUBLE PRECISION NOT NULL)"
            )
            applied = {v for (v,) in await conn.fetch("SELECT version FROM schema_migrations")}
            check_newer(applied, migrations)
            for version, sql in migrations:
                if version in applied:
                    continue
                async with conn.transaction():
                    await conn.execute(sql, timeout=MIGRATION_TIMEOUT_S)
                    await conn.execute(
                        "INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)",
                        version,
                        time.time(),
                    )
        finally:
            # If the connection broke the lock went with its session; keep the first error.
            with suppress(*_DB_ERRORS):
                await conn.execute("SELECT pg_advisory_unlock($1)", key)

    # ----------------------------------------------------------------- players

    async def add_player(self, player: PlayerRow) -> None:
        row = (player.id, player.nickname, bytes(player.token_hash), float(player.created_at))

        async def run(conn: _Conn) -> None:
            sql = f"INSERT INTO players ({_PLAYER_COLS}) VALUES ($1, $2, $3, $4)"
            try:
                await conn.execute(sql, *row)
            except asyncpg.UniqueViolationError as exc:
                raise StoreError(f"cannot add player {player.id!r}: {exc}") from exc

        await self._submit(f"add player {player.id!r}", run)

    async def accept_rematch(self, room_id: str, player_id: str) -> list[str]:
        async def run(conn: _Conn) -> list[str]:
            await conn.execute(
                "INSERT INTO rematch_accepts (room_id, player_id) VALUES ($1, $2)"
                " ON CONFLICT DO NOTHING",
                room_id, player_id,
            )  # fmt: skip
            sql = (
                "SELECT player_id FROM rematch_accepts WHERE room_id = $1"
                ' ORDER BY player_id COLLATE "C"'
            )
            return [row[0] for row in await conn.fetch(sql, room_id)]

        return await self._submit(f"accept rematch of {room_id!r}", run)

    async def claim_rematch(self, room_id: str, new_room_id: str) -> str:
        async def run(conn: _Conn) -> str:
            await conn.execute(
                "INSERT INTO rematches (room_id, new_room_id) VALUES ($1, $2)"
                " ON CONFLICT DO NOTHING",
                room_id, new_room_id,
            )  # fmt: skip
            # a statement of its own: it sees a row another node committed meanwhile
            sql = "SELECT new_room_id FROM rematches WHERE room_id = $1"
            return await conn.fetchval(sql, room_id)

        return await self._submit(f"claim rematch of {room_id!r}", run)

    async def claim_nickname(self, player_id: str, nickname: str, key: str) -> bool:
        sql = "UPDATE players SET nickname = $1, nickname_key = $2 WHERE id = $3"

        async def run(conn: _Conn) -> bool:
            try:
                return await conn.execute(sql, nickname, key, player_id) == "UPDATE 1"
            except asyncpg.UniqueViolationError:
                return False  # the key is another player's

        return await self._submit(f"claim nickname for {player_id!r}", run)

    async def nickname_claimed(self, key: str) -> bool:
        sql = "SELECT 1 FROM players WHERE nickname_key = $1"
        return await self._submit("nickname claimed", _fetchval(sql, key)) is not None

    async def player_by_token_hash(self, token_hash: bytes) -> PlayerRow | None:
        sql = f"SELECT {_PLAYER_COLS} FROM players WHERE token_hash = $1"
        row = await self._submit("player by token hash", _fetchrow(sql, bytes(token_hash)))
        return None if row is None else codec.player(row)

    async def player(self, player_id: str) -> PlayerRow | None:
        sql = f"SELECT {_PLAYER_COLS} FROM players WHERE id = $1"
        row = await self._submit(f"player {player_id!r}", _fetchrow(sql, player_id))
        return None if row is None else codec.player(row)

    # ----------------------------------------------------------------- rooms

    async def add_room(self, room: RoomRow, first: dict[str, Any]) -> None:
        """Create a room with its log entry version 1, atomically."""
        row = (room.id, room.owner, room.invite_code, room.status, float(room.created_at))
        text = codec.dumps(first, f"room {room.id!r} log entry 1")

        async def run(conn: _Conn) -> None:
            try:
                async with conn.transaction():
                    sql = f"INSERT INTO rooms ({_ROOM_COLS}) VALUES ($1, $2, $3, $4, $5)"
                    await conn.execute(sql, *row)
                    await conn.execute(_INSERT_LOG, room.id, 1, text)
            except asyncpg.UniqueViolationError as exc:
                if exc.constraint_name == "room_log_pkey":
                    raise VersionConflict(f"room {room.id!r} already has log version 1") from exc
                raise StoreError(f"cannot add room {room.id!r}: {exc}") from exc

        await self._submit(f"add room {room.id!r}", run, turn=room.id)

    async def set_room_status(self, room_id: str, status: str) -> None:
        async def run(conn: _Conn) -> None:
            done = await conn.execute("UPDATE rooms SET status = $1 WHERE id = $2", status, room_id)
            if _rowcount(done) == 0:
                raise StoreError(f"cannot set status of room {room_id!r}: no such room")

        await self._submit(f"set status of room {room_id!r}", run)

    async def room(self, room_id: str) -> RoomRow | None:
        sql = f"SELECT {_ROOM_COLS} FROM rooms WHERE id = $1"
        row = await self._submit(f"room {room_id!r}", _fetchrow(sql, room_id))
        return None if row is None else codec.room(row)

    async def room_by_invite(self, invite_code: str) -> RoomRow | None:
        sql = f"SELECT {_ROOM_COLS} FROM rooms WHERE invite_code = $1"
        row = await self._submit("room by invite code", _fetchrow(sql, invite_code))
        return None if row is None else codec.room(row)

    async def add_sheet(self, sheet: SheetRow, first: dict[str, Any]) -> None:
        row = (sheet.id, sheet.edit_code, sheet.view_code, float(sheet.created_at))
        text = codec.dumps(first, f"sheet {sheet.id!r} log entry 1")

        async def run(conn: _Conn) -> None:
            try:
                async with conn.transaction():
                    sql = f"INSERT INTO sheets ({codec.SHEET_COLS}) VALUES ($1, $2, $3, $4)"
                    await conn.execute(sql, *row)
                    await conn.execute(_INSERT_LOG, sheet.id, 1, text)
            except asyncpg.UniqueViolationError as exc:
                raise StoreError(f"cannot add sheet {sheet.id!r}: {exc}") from exc

        await self._submit(f"add sheet {sheet.id!r}", run, turn=sheet.id)

    async def sheet(self, sheet_id: str) -> SheetRow | None:
        sql = f"SELECT {codec.SHEET_COLS} FROM sheets WHERE id = $1"
        row = await self._submit(f"sheet {sheet_id!r}", _fetchrow(sql, sheet_id))
        return None if row is None else codec.sheet(row)

    async def sheet_by_code(self, code: str) -> SheetRow | None:
        sql = f"SELECT {codec.SHEET_COLS} FROM sheets WHERE edit_code = $1 OR view_code = $1"
        row = await self._submit("sheet by code", _fetchrow(sql, code))
        return None if row is None else codec.sheet(row)

    async def rooms_with_status(self, *statuses: str) -> list[RoomRow]:
        """Rooms whose status is any of ``statuses``, oldest first."""
        if not statuses:
            return []
        # COLLATE "C": order ids by code point, as SQLite does, whatever the database locale.
        sql = (
            f"SELECT {_ROOM_COLS} FROM rooms WHERE status = ANY($1::text[])"
            ' ORDER BY created_at, id COLLATE "C"'
        )
        rows = await self._submit(f"rooms with status {statuses!r}", _fetch(sql, list(statuses)))
        return [codec.room(row) for row in rows]

    # ----------------------------------------------------------------- tournaments

    async def add_tournament(self, tournament: TournamentRow, first: dict[str, Any]) -> None:
        t = tournament
        row = (t.id, t.format, t.status, float(t.start_at), float(t.created_at))
        text = codec.dumps(first, f"tournament {t.id!r} log entry 1")

        sql = f"INSERT INTO tournaments ({_TOURNAMENT_COLS}) VALUES ($1, $2, $3, $4, $5)"

        async def run(conn: _Conn) -> None:
            try:
                async with conn.transaction():
                    await conn.execute(sql, *row)
                    await conn.execute(_INSERT_LOG, t.id, 1, text)
            except asyncpg.UniqueViolationError as exc:
                raise StoreError(f"cannot add tournament {t.id!r}: {exc}") from exc

        await self._submit(f"add tournament {t.id!r}", run, turn=t.id)

    async def set_tournament_status(self, tournament_id: str, status: str) -> None:
        async def run(conn: _Conn) -> None:
            sql = "UPDATE tournaments SET status = $1 WHERE id = $2"
            if _rowcount(await conn.execute(sql, status, tournament_id)) == 0:
                raise StoreError(f"cannot set status of tournament {tournament_id!r}: no such")

        await self._submit(f"set status of tournament {tournament_id!r}", run)

    async def tournament(self, tournament_id: str) -> TournamentRow | None:
        sql = f"SELECT {_TOURNAMENT_COLS} FROM tournaments WHERE id = $1"
        row = await self._submit(f"tournament {tournament_id!r}", _fetchrow(sql, tournament_id))
        return None if row is None else codec.tournament(row)

    async def tournaments_with_status(self, *statuses: str) -> list[TournamentRow]:
        if not statuses:
            return []
        sql = (
            f"SELECT {_TOURNAMENT_COLS} FROM tournaments WHERE status = ANY($1::text[])"
            ' ORDER BY start_at, id COLLATE "C"'
        )
        what = f"tournaments with status {statuses!r}"
        return [
            codec.tournament(row) for row in await self._submit(what, _fetch(sql, list(statuses)))
        ]

    # ----------------------------------------------------------------- room logs

    async def append(
        self, room_id: str, version: int, entry: dict[str, Any], epoch: int | None = None
    ) -> None:
        """Durably append one log entry; raises :class:`VersionConflict` on a duplicate.

        With ``epoch``, writes only if ``room_id``'s fencing epoch is exactly ``epoch``, else
        raises :class:`Fenced`.  Returns once the INSERT is committed.  Appends to one room
        run in call order.
        """
        self._check_open()
        codec.check_append(room_id, version, epoch)
        text = codec.dumps(entry, f"room {room_id!r} log entry {version}")

        async def run(conn: _Conn) -> None:
            try:
                if epoch is None:
                    await conn.execute(_INSERT_LOG, room_id, version, text)
                    return
                done = await conn.execute(_INSERT_LOG_FENCED, room_id, version, text, epoch)
            except asyncpg.UniqueViolationError as exc:
                raise VersionConflict(
                    f"room {room_id!r} already has log version {version}"
                ) from exc
            if _rowcount(done) == 0:
                raise Fenced.refused(room_id, version, epoch, await _epoch(conn, room_id))

        await self._submit(f"append to room {room_id!r} version {version}", run, turn=room_id)

    async def fence(self, key: str) -> int:
        """Atomically increment and return ``key``'s fencing epoch (1 the first time).

        Waits for in-flight fenced appends to ``key`` (from any process) to commit; once it
        returns, appends with an older epoch are refused.
        """
        epoch = await self._submit(f"fence {key!r}", _fetchval(_FENCE, key), turn=key)
        return int(epoch)

    async def epoch(self, key: str) -> int | None:
        sql = "SELECT epoch FROM fences WHERE id = $1"
        epoch = await self._submit(f"epoch of {key!r}", _fetchval(sql, key))
        return None if epoch is None else int(epoch)

    async def log(self, room_id: str, after: int = 0) -> list[LogEntry]:
        """The room's log entries with version > ``after``, in order."""
        sql = (
            "SELECT version, entry FROM room_log WHERE room_id = $1 AND version > $2"
            " ORDER BY version"
        )
        rows = await self._submit(f"log of room {room_id!r}", _fetch(sql, room_id, after))
        return [
            LogEntry(room_id, version, codec.loads(text, f"room {room_id!r} log entry {version}"))
            for version, text in rows
        ]

    # ----------------------------------------------------------------- matches

    async def save_match(self, match_id: str, room_id: str, record: dict[str, Any]) -> None:
        row = (match_id, room_id, codec.dumps(record, f"match {match_id!r} record"), time.time())

        async def run(conn: _Conn) -> None:
            sql = "INSERT INTO matches (id, room_id, record, created_at) VALUES ($1, $2, $3, $4)"
            try:
                await conn.execute(sql, *row)
            except asyncpg.UniqueViolationError as exc:
                raise StoreError(f"cannot save match {match_id!r}: {exc}") from exc

        await self._submit(f"save match {match_id!r}", run)

    async def match(self, match_id: str) -> dict[str, Any] | None:
        sql = "SELECT record FROM matches WHERE id = $1"
        row = await self._submit(f"match {match_id!r}", _fetchrow(sql, match_id))
        return None if row is None else codec.loads(row[0], f"match {match_id!r} record")

    # ----------------------------------------------------------------- the daily game

    async def secret(self, name: str, fresh: str) -> str:
        async def run(conn: _Conn) -> str:
            # DO NOTHING waits for a concurrent insert of the name to commit; the SELECT, a
            # statement of its own (READ COMMITTED), then sees the winner.
            insert = "INSERT INTO secrets (name, value) VALUES ($1, $2) ON CONFLICT DO NOTHING"
            await conn.execute(insert, name, fresh)
            return await conn.fetchval("SELECT value FROM secrets WHERE name = $1", name)

        return await self._submit(f"secret {name!r}", run)

    async def start_daily(self, attempt: DailyAttempt) -> DailyAttempt:
        a = attempt

        async def run(conn: _Conn) -> DailyAttempt:
            async with conn.transaction():
                await conn.execute(
                    f"INSERT INTO daily_attempts ({_ATTEMPT_COLS})"
                    " VALUES ($1, $2, $3, $4, NULL, NULL) ON CONFLICT (day, player_id) DO NOTHING",
                    a.day,
                    a.player_id,
                    a.room_id,
                    float(a.started_at),
                )
                await conn.execute(
                    "INSERT INTO daily_days (day, closed) VALUES ($1, 0) ON CONFLICT DO NOTHING",
                    a.day,
                )
                return codec.daily_attempt(await conn.fetchrow(_ATTEMPT, a.day, a.player_id))

        return await self._submit(f"start daily {a.day} of {a.player_id!r}", run)

    async def daily_attempt(self, day: str, player_id: str) -> DailyAttempt | None:
        row = await self._submit(
            f"daily {day} of {player_id!r}", _fetchrow(_ATTEMPT, day, player_id)
        )
        return None if row is None else codec.daily_attempt(row)

    async def finish_daily(
        self, day: str, player_id: str, total: int, points: list[int], at: float
    ) -> bool:
        """Exactly once across processes: a concurrent finish of the same attempt waits for
        this one's row lock and then finds it finished (READ COMMITTED re-checks the row)."""
        points = list(points)

        async def run(conn: _Conn) -> bool:
            async with conn.transaction():
                done = await conn.execute(
                    "UPDATE daily_attempts SET total = $1, finished_at = $2"
                    " WHERE day = $3 AND player_id = $4 AND total IS NULL",
                    total,
                    float(at),
                    day,
                    player_id,
                )
                if _rowcount(done) == 0:
                    return False
                await conn.execute(_INSERT_DEALS, day, player_id, points)
                await conn.execute(_ADD_TO_FIELD, day, points)
            return True

        return await self._submit(f"finish daily {day} of {player_id!r}", run)

    async def daily_board(self, day: str, offset: int, limit: int) -> list[DailyRow]:
        rows = await self._submit(f"daily board {day}", _fetch(DAILY_BOARD, day, limit, offset))
        return [codec.daily_row(row) for row in rows]

    async def daily_finished(self, day: str) -> int:
        return int(await self._submit(f"daily finished {day}", _fetchval(_DAILY_FINISHED, day)))

    async def daily_rank(self, day: str, total: int) -> int:
        return int(await self._submit(f"daily rank {day}", _fetchval(_DAILY_RANK, day, total)))

    async def daily_field(self, day: str) -> list[tuple[int, int, int]]:
        rows = await self._submit(f"daily field {day}", _fetch(_DAILY_FIELD, day))
        return [(n, players, p) for n, players, p in rows]

    async def daily_points(self, day: str, player_ids: list[str]) -> dict[str, list[int]]:
        if not player_ids:
            return {}
        fetch = _fetch(_DAILY_POINTS, day, list(player_ids))
        return codec.daily_points(await self._submit(f"daily points {day}", fetch))

    async def daily_days(self, player_id: str, limit: int) -> list[str]:
        fetch = _fetch(_DAILY_DAYS, player_id, limit)
        rows = await self._submit(f"daily days of {player_id!r}", fetch)
        return [day for (day,) in rows]

    async def close_daily_days(self, before: str) -> list[str]:
        """Each day is closed in a transaction of its own that first flips its ``closed``
        flag: a node racing it waits for that row lock, then finds the day closed."""

        async def run(conn: _Conn) -> list[str]:
            sql = "SELECT day FROM daily_days WHERE closed = 0 AND day < $1 ORDER BY day"
            closed: list[str] = []
            for (day,) in await conn.fetch(sql, before):
                async with conn.transaction():
                    flip = "UPDATE daily_days SET closed = 1 WHERE day = $1 AND closed = 0"
                    if _rowcount(await conn.execute(flip, day)) == 0:
                        continue
                    await conn.execute(_CLOSE_DAY, day)
                closed.append(day)
            return closed

        return await self._submit(f"close daily days before {before}", run)

    async def alltime_board(self, min_days: int, offset: int, limit: int) -> list[AlltimeRow]:
        fetch = _fetch(_ALLTIME_BOARD, min_days, limit, offset)
        return [codec.alltime_row(row) for row in await self._submit("all-time board", fetch)]

    async def alltime_count(self, min_days: int) -> int:
        return int(await self._submit("all-time count", _fetchval(_ALLTIME_COUNT, min_days)))

    # ----------------------------------------------------------------- profiles and ratings

    async def record_match(self, result: MatchResult, rate: Rater | None) -> bool:
        """Exactly once across processes: a concurrent recording of the same match waits
        for this one's ``recorded_matches`` row, then inserts nothing and writes nothing.
        Rating rows are locked in player-id order before they are read."""

        async def once(conn: _Conn) -> bool:
            async with conn.transaction():
                first = "INSERT INTO recorded_matches (match_id, at) VALUES ($1, $2)"
                done = await conn.execute(
                    f"{first} ON CONFLICT DO NOTHING", result.match_id, float(result.at)
                )
                if _rowcount(done) == 0:
                    return False
                changes: dict[str, float] = {}
                if rate is not None:
                    changes = await _rate(conn, result, rate)
                await conn.executemany(_ADD_STATS, codec.stats_rows(result))
                await conn.executemany(_ADD_LINE, codec.line_rows(result, changes))
                await conn.executemany(_ADD_DAILY_PART, codec.daily_part_rows(result))
            return True

        async def run(conn: _Conn) -> bool:
            for attempt in range(_RETRIES):
                try:
                    return await once(conn)
                except asyncpg.DeadlockDetectedError:
                    if attempt == _RETRIES - 1:
                        raise
            raise AssertionError("unreachable")

        return await self._submit(f"record match {result.match_id!r}", run)

    async def record_places(
        self, tournament_id: str, at: float, places: list[tuple[str, int, str | None]]
    ) -> bool:
        sql = (
            "INSERT INTO player_places (player_id, tournament_id, place, prize, at)"
            " SELECT t.player, $1::text, t.place, t.prize, $2::double precision"
            " FROM unnest($3::text[], $4::int[], $5::text[]) AS t(player, place, prize)"
            " ON CONFLICT DO NOTHING"
        )
        players = [player for player, _, _ in places]
        ranks = [place for _, place, _ in places]
        prizes = [prize for _, _, prize in places]

        async def run(conn: _Conn) -> bool:
            done = await conn.execute(sql, tournament_id, float(at), players, ranks, prizes)
            return _rowcount(done) > 0

        return await self._submit(f"record places of {tournament_id!r}", run)

    async def rating_board(self, offset: int, limit: int) -> tuple[int, list[RatingRow]]:
        async def run(conn: _Conn) -> tuple[int, list[RatingRow]]:
            count = await conn.fetchval(_RATING_COUNT)
            rows = await conn.fetch(RATING_BOARD, limit, offset)
            return int(count), [codec.rating_row(row) for row in rows]

        return await self._submit("rating board", run)

    async def rating_of(self, player_id: str) -> tuple[RatingRow, int | None] | None:
        return await self._submit(
            f"rating of {player_id!r}", lambda conn: _rating_of(conn, player_id)
        )

    async def profile(
        self, player_id: str, offset: int, limit: int, recent: int, hidden_from: str | None = None
    ) -> Profile | None:
        async def run(conn: _Conn) -> Profile | None:
            async with conn.transaction(isolation="repeatable_read", readonly=True):
                return await read(conn)  # one snapshot: a match recorded whole or not at all

        async def read(conn: _Conn) -> Profile | None:
            sql = "SELECT nickname FROM players WHERE id = $1"
            nickname = await conn.fetchval(sql, player_id)
            if nickname is None:
                return None
            rated = await _rating_of(conn, player_id)
            places = await conn.fetch(_PLACE_COUNTS, player_id)
            unrevealed = PlayerStats()
            if hidden_from is not None:
                unrevealed = codec.stats(await conn.fetchrow(_UNREVEALED, player_id, hidden_from))
            return Profile(
                player_id, nickname, codec.stats(await conn.fetchrow(_STATS, player_id)),
                None if rated is None else rated[0], None if rated is None else rated[1],
                [codec.rating_point(r) for r in await conn.fetch(_POINTS, player_id, recent)],
                [codec.match_line(r) for r in await conn.fetch(_LINES, player_id, limit, offset)],
                [codec.place_row(r) for r in await conn.fetch(_PLACES, player_id, recent)],
                {place: int(n) for place, n in places}, unrevealed,
            )  # fmt: skip

        return await self._submit(f"profile of {player_id!r}", run)

    # ----------------------------------------------------------------- machinery

    def _check_open(self) -> asyncpg.Pool:
        if self._closed:
            raise StoreError("store is closed")
        if self._pool is None:
            raise StoreError("store is not open")
        return self._pool

    async def _submit(
        self, what: str, fn: Callable[[_Conn], Awaitable[_T]], *, turn: str | None = None
    ) -> _T:
        """Run ``fn(connection)`` in a task of its own and return its result.

        The task counts as in flight from this call on (``close`` waits for it), and is
        shielded: cancelling the caller does not withdraw a started operation.  With
        ``turn``, it runs after earlier operations with the same ``turn`` key.
        """
        pool = self._check_open()
        self._inflight += 1
        task = asyncio.ensure_future(self._execute(pool, what, fn, turn))
        task.add_done_callback(_consume)
        return await asyncio.shield(task)

    async def _execute(
        self,
        pool: asyncpg.Pool,
        what: str,
        fn: Callable[[_Conn], Awaitable[_T]],
        turn: str | None,
    ) -> _T:
        try:
            if turn is None:
                async with self._connection(pool, what) as conn:
                    return await fn(conn)
            async with self._turn(turn), self._connection(pool, what) as conn:
                return await fn(conn)
        finally:
            self._inflight -= 1
            if self._inflight == 0:
                self._idle.set()

    @asynccontextmanager
    async def _turn(self, key: str) -> AsyncIterator[None]:
        """FIFO turns per key (``asyncio.Lock`` wakes waiters in order)."""
        turn = self._turns.get(key)
        if turn is None:
            turn = self._turns[key] = _Turn()
        turn.users += 1
        try:
            async with turn.lock:
                yield
        finally:
            turn.users -= 1
            if turn.users == 0:
                del self._turns[key]

    @asynccontextmanager
    async def _connection(self, pool: asyncpg.Pool, what: str) -> AsyncIterator[_Conn]:
        """A pooled connection; any database or network failure becomes a StoreError."""
        began = time.monotonic()
        try:
            async with pool.acquire(timeout=self._connect_timeout) as conn:
                try:
                    yield conn
                except _DB_ERRORS as exc:
                    if _connection_failed(exc):
                        # Timed out or broken: its state is unknown.  Drop it now rather than
                        # let the pool wait (up to the timeout again) to reset it.
                        conn.terminate()
                    raise
        except StoreError:
            self._answered(began)  # the server answered (a conflict, a fenced append)
            raise
        except _DB_ERRORS as exc:
            if _connection_failed(exc):
                # The server went away or stopped answering: drop every pooled connection so
                # the next calls reconnect instead of trying stale ones one by one.
                with suppress(*_DB_ERRORS):
                    await pool.expire_connections()
                if self.failing_since is None and began > self._answered_at:
                    self.failing_since = began  # (a call begun before an answer is old news)
            else:
                self._answered(began)
            raise StoreError(f"{what} failed: {self._describe(exc)}") from exc
        else:
            self._answered(began)

    def _answered(self, began: float) -> None:
        self._answered_at = max(self._answered_at, began)
        self.failing_since = None

    def _describe(self, exc: BaseException, *, where: bool = True) -> str:
        at = f" at {self._where}" if where else ""
        if isinstance(exc, TimeoutError):
            return f"PostgreSQL{at} did not answer in time"
        if isinstance(exc, OSError):
            return f"cannot reach PostgreSQL{at}: {exc}"
        if _connection_failed(exc):
            return f"lost the connection to PostgreSQL{at}: {exc}"
        return f"{type(exc).__name__}: {exc}"


# --------------------------------------------------------------------- helpers


def _fetchrow(sql: str, *args: Any) -> Callable[[_Conn], Awaitable[Any]]:
    return lambda conn: conn.fetchrow(sql, *args)


def _fetch(sql: str, *args: Any) -> Callable[[_Conn], Awaitable[Any]]:
    return lambda conn: conn.fetch(sql, *args)


def _fetchval(sql: str, *args: Any) -> Callable[[_Conn], Awaitable[Any]]:
    return lambda conn: conn.fetchval(sql, *args)


async def _rate(conn: _Conn, result: MatchResult, rate: Rater) -> dict[str, float]:
    """Rate a match's players inside its recording transaction; each one's change."""
    ids = sorted(r.player_id for r in result.players)
    await conn.execute(_RATING_ROWS, ids)
    rows = await conn.fetch(_LOCK_RATINGS, ids)
    current = {pid: (mu, sigma) for pid, mu, sigma, matches in rows if matches > 0}
    new = rate(current)
    if reached := sum(matches == BOARD_MIN_MATCHES - 1 for *_, matches in rows):
        await conn.execute(_BOARD_GREW, reached)
    at = float(result.at)
    await conn.executemany(_SET_RATING, [(pid, *new[pid][:3]) for pid in ids])
    await conn.executemany(_ADD_POINT, [(pid, result.match_id, at, *new[pid][:3]) for pid in ids])
    return {pid: new[pid].change for pid in ids}


async def _rating_of(conn: _Conn, player_id: str) -> tuple[RatingRow, int | None] | None:
    row = await conn.fetchrow(_RATING_OF, player_id)
    if row is None:
        return None
    rating = codec.rating_row(row)
    if rating.matches < BOARD_MIN_MATCHES:
        return rating, None
    return rating, int(await conn.fetchval(_RANK, rating.conservative, player_id))


async def _epoch(conn: _Conn, key: str) -> int | BaseException | None:
    """``key``'s fencing epoch, for a :class:`Fenced` message only (its failure is returned)."""
    try:
        return await conn.fetchval("SELECT epoch FROM fences WHERE id = $1", key)
    except _DB_ERRORS as exc:
        return exc


def _consume(task: asyncio.Task[Any]) -> None:
    """Mark a task's exception as retrieved (its caller may have been cancelled)."""
    if not task.cancelled():
        task.exception()


def _connection_failed(exc: BaseException) -> bool:
    """Whether ``exc`` means the connection (not the statement) is unusable."""
    if isinstance(exc, OSError | asyncpg.PostgresConnectionError):
        return True
    # 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now, ...
    sqlstate = getattr(exc, "sqlstate", None) or ""
    return isinstance(exc, asyncpg.PostgresError) and sqlstate.startswith("57P")


def _rowcount(status: str) -> int:
    """Rows affected, from a command status such as ``"UPDATE 1"``."""
    try:
        return int(status.rsplit(" ", 1)[-1])
    except ValueError:
        return 0


def _redact(url: str) -> str:
    """``url`` without its password, for messages."""
    try:
        parts = urlsplit(url)
        if parts.password is None:
            return url
        netloc = parts.netloc.rsplit("@", 1)[-1]
        user = parts.username or ""
        return urlunsplit(parts._replace(netloc=f"{user}:***@{netloc}"))
    except ValueError:
        return "<unparseable database URL>"


def _quote_ident(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'
