"""SQLite implementation of :class:`~server.store.base.Store` (standard library ``sqlite3``).

One dedicated worker thread owns the connection and does all sqlite3 work, so the event loop
never blocks on the database.  Coroutines queue operations to it and await a future; the
worker runs them strictly in queue order.  Consecutive queued ``append`` calls are written in
one transaction (group commit): one fsync for the whole batch, after which every caller's
future resolves, or fails on its own if its ``(room_id, version)`` already exists or its
fencing epoch is stale.  ``fence`` runs in queue order too: appends queued before it are
checked against the old epoch, appends queued after it against the new one.

Under load the worker paces its commits: an append that comes within ``pace`` seconds of
the last commit waits for the rest of that time, and whatever queues meanwhile shares its
commit.  A lone append is written at once, so the pace costs latency only when commits
come close together; it saves a commit's system calls (locks, page writes, ``fdatasync``)
and a wake-up on each side for every append it batches.

The database uses WAL journaling with ``synchronous=FULL``: once ``append`` (or any write)
has returned, the data survives a process kill or a power loss.
"""

from __future__ import annotations

import asyncio
import os
import queue
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from typing import Any

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

__all__ = ["DAILY_BOARD", "DAILY_QUERIES", "PROFILE_QUERIES", "RATING_BOARD", "SqliteStore"]

MAX_BATCH = 2048  # most operations taken off the queue per worker round
ROWS_PER_INSERT = 256  # log entries written by one statement (3 parameters each)
BUSY_TIMEOUT_S = 10.0  # wait this long for another connection's write lock

_PLAYER_COLS = "id, nickname, token_hash, created_at"
_ROOM_COLS = "id, owner, invite_code, status, created_at"
_TOURNAMENT_COLS = "id, format, status, start_at, created_at"
_ATTEMPT_COLS = "day, player_id, room_id, started_at, total, finished_at"
_ATTEMPT = f"SELECT {_ATTEMPT_COLS} FROM daily_attempts WHERE day = ? AND player_id = ?"
_INSERT_LOG = "INSERT INTO room_log (room_id, version, entry) VALUES (?, ?, ?)"
# Writes the entry only while the room's fence row holds the given epoch (0 rows otherwise).
_INSERT_LOG_FENCED = (
    "INSERT INTO room_log (room_id, version, entry, epoch)"
    " SELECT ?, ?, ?, epoch FROM fences WHERE id = ? AND epoch = ?"
)
_FENCE = (
    "INSERT INTO fences (id, epoch) VALUES (?, 1)"
    " ON CONFLICT (id) DO UPDATE SET epoch = fences.epoch + 1 RETURNING epoch"
)

# A day's board, read through the partial index daily_attempts_board (its WHERE must stay).
DAILY_BOARD = (  # the page first, along the board's index; then its nicknames
    "SELECT a.player_id, p.nickname, a.total, a.finished_at FROM ("
    "SELECT player_id, total, finished_at FROM daily_attempts"
    " WHERE day = ? AND total IS NOT NULL"
    " ORDER BY total DESC, finished_at, player_id LIMIT ? OFFSET ?"
    ") a JOIN players p ON p.id = a.player_id ORDER BY a.total DESC, a.finished_at, a.player_id"
)
_DAILY_FINISHED = "SELECT count(*) FROM daily_attempts WHERE day = ? AND total IS NOT NULL"
_DAILY_RANK = (
    "SELECT 1 + count(*) FROM daily_attempts WHERE day = ? AND total IS NOT NULL AND total > ?"
)
_DAILY_FIELD = "SELECT number, players, points FROM daily_field WHERE day = ? ORDER BY number"
_DAILY_DAYS = (  # a player's days played, along daily_attempts_player (its WHERE must stay)
    "SELECT day FROM daily_attempts WHERE player_id = ? AND total IS NOT NULL"
    " ORDER BY day DESC LIMIT ?"
)
_ALLTIME_BOARD = (  # the page first, along the average's index; then its nicknames
    "SELECT t.player_id, p.nickname, t.days, t.average FROM ("
    "SELECT player_id, days, average FROM daily_alltime WHERE days >= ?"
    " ORDER BY average DESC, player_id LIMIT ? OFFSET ?"
    ") t JOIN players p ON p.id = t.player_id ORDER BY t.average DESC, t.player_id"
)
_ALLTIME_COUNT = "SELECT count(*) FROM daily_alltime WHERE days >= ?"


def _daily_points(count: int) -> str:
    """The deal scores of ``count`` players' games of a day, along daily_deals' key."""
    return (
        "SELECT player_id, number, points FROM daily_deals WHERE day = ?"
        f" AND player_id IN ({', '.join('?' * count)}) ORDER BY player_id, number"
    )


# Every query behind a daily board, with example arguments (the tests read their plans).
DAILY_QUERIES: dict[str, tuple[str, tuple[Any, ...]]] = {
    "attempt": (_ATTEMPT, ("2024-01-10", "p01")),
    "board": (DAILY_BOARD, ("2024-01-10", 20, 0)),
    "count": (_DAILY_FINISHED, ("2024-01-10",)),
    "rank": (_DAILY_RANK, ("2024-01-10", 800)),
    "field": (_DAILY_FIELD, ("2024-01-10",)),
    "points": (_daily_points(3), ("2024-01-10", "p01", "p02", "p03")),
    "streak_days": (_DAILY_DAYS, ("p01", 1000)),
    "alltime_board": (_ALLTIME_BOARD, (5, 20, 0)),
    "alltime_count": (_ALLTIME_COUNT, (5,)),
}
# A closed day's finished attempts added to the all-time board: each its total minus the
# field's sum of deal means (one scalar subquery, evaluated once).  Rows in player order.
_CLOSE_DAY = (
    "INSERT INTO daily_alltime (player_id, days, diff_sum, average)"
    " SELECT a.player_id, 1, a.total - s.field, a.total - s.field FROM daily_attempts a,"
    " (SELECT COALESCE(SUM(CAST(points AS REAL) / players), 0.0) AS field"
    " FROM daily_field WHERE day = ?1) s"
    " WHERE a.day = ?1 AND a.total IS NOT NULL ORDER BY a.player_id"
    " ON CONFLICT (player_id) DO UPDATE SET days = daily_alltime.days + 1,"
    " diff_sum = daily_alltime.diff_sum + excluded.diff_sum,"
    " average = (daily_alltime.diff_sum + excluded.diff_sum) / (daily_alltime.days + 1)"
)

# Profiles and ratings.  The board's queries repeat the partial index's WHERE (ratings_board).
_LISTED = f"matches >= {BOARD_MIN_MATCHES}"
RATING_BOARD = (  # the page along the board's index; each nickname by its key
    "SELECT player_id, (SELECT nickname FROM players WHERE id = player_id),"
    f" mu, sigma, matches, conservative FROM ratings WHERE {_LISTED}"
    " ORDER BY conservative DESC, player_id LIMIT ? OFFSET ?"
)
_RATING_COUNT = "SELECT players FROM rating_board WHERE id = 1"
_BOARD_GREW = "UPDATE rating_board SET players = players + ? WHERE id = 1"
_RATING_OF = (
    "SELECT r.player_id, p.nickname, r.mu, r.sigma, r.matches, r.conservative"
    " FROM ratings r JOIN players p ON p.id = r.player_id WHERE r.player_id = ?"
)
_RANK_ABOVE = f"SELECT count(*) FROM ratings WHERE {_LISTED} AND conservative > ?"
_RANK_TIED = f"SELECT count(*) FROM ratings WHERE {_LISTED} AND conservative = ? AND player_id < ?"
_STATS = f"SELECT {codec.STATS_COLS} FROM player_stats WHERE player_id = ?"
_LINES = (
    f"SELECT {codec.LINE_COLS} FROM player_matches WHERE player_id = ?"
    " ORDER BY at DESC, match_id DESC LIMIT ? OFFSET ?"
)
_POINTS = (
    f"SELECT {codec.POINT_COLS} FROM rating_history WHERE player_id = ?"
    " ORDER BY at DESC, match_id DESC LIMIT ?"
)
_PLACES = (
    f"SELECT {codec.PLACE_COLS} FROM player_places WHERE player_id = ?"
    " ORDER BY at DESC, tournament_id DESC LIMIT ?"
)
_PLACE_COUNTS = "SELECT place, count(*) FROM player_places WHERE player_id = ? GROUP BY place"
_UNREVEALED = (  # along player_daily's key
    f"SELECT {codec.DAILY_PART_SUMS} FROM player_daily WHERE player_id = ? AND day >= ?"
)
# Every query behind a board or a profile, with example arguments (the tests read their plans).
PROFILE_QUERIES: dict[str, tuple[str, tuple[Any, ...]]] = {
    "board": (RATING_BOARD, (20, 0)),
    "count": (_RATING_COUNT, ()),
    "rating_of": (_RATING_OF, ("p",)),
    "rank_above": (_RANK_ABOVE, (90.0,)),
    "rank_tied": (_RANK_TIED, (90.0, "p")),
    "stats": (_STATS, ("p",)),
    "matches": (_LINES, ("p", 20, 0)),
    "ratings": (_POINTS, ("p", 20)),
    "places": (_PLACES, ("p", 20)),
    "place_counts": (_PLACE_COUNTS, ("p",)),
    "unrevealed": (_UNREVEALED, ("p", "2027-01-15")),
}
_ADD_STATS = (
    f"INSERT INTO player_stats (player_id, {codec.STATS_COLS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
    " ON CONFLICT (player_id) DO UPDATE SET matches = player_stats.matches + 1,"
    " wins = player_stats.wins + excluded.wins, deals = player_stats.deals + excluded.deals,"
    " points = player_stats.points + excluded.points,"
    " chooser = player_stats.chooser + excluded.chooser, nat = player_stats.nat + excluded.nat,"
    " pits = player_stats.pits + excluded.pits, roem = player_stats.roem + excluded.roem"
)
_ADD_LINE = (
    f"INSERT INTO player_matches (player_id, {codec.LINE_COLS})"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING"
)
_SET_RATING = (
    f"INSERT INTO ratings ({codec.RATING_COLS}) VALUES (?, ?, ?, 1, ?)"
    " ON CONFLICT (player_id) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma,"
    " matches = ratings.matches + 1, conservative = excluded.conservative"
)
_ADD_POINT = f"INSERT INTO rating_history (player_id, {codec.POINT_COLS}) VALUES (?, ?, ?, ?, ?, ?)"
_ADD_DAILY_PART = (
    f"INSERT INTO player_daily (player_id, {codec.DAILY_PART_COLS})"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING"
)

_Future = asyncio.Future[Any]
_Result = tuple[_Future, BaseException | None, Any]


@dataclass(slots=True)
class _Append:
    room_id: str
    version: int
    text: str
    epoch: int | None
    fut: _Future


@dataclass(slots=True)
class _Call:
    what: str
    fn: Callable[[], Any]
    fut: _Future


@dataclass(slots=True)
class _Stop:
    fut: _Future


_Op = _Append | _Call | _Stop


class SqliteStore:
    """A :class:`~server.store.base.Store` in one SQLite file (``":memory:"`` also works)."""

    def __init__(self, path: str | os.PathLike[str], pace: float = 0.0) -> None:
        self._path = os.fspath(path)
        self._pace = pace  # least seconds between two append commits under load
        self._queue: queue.SimpleQueue[_Op] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._conn: sqlite3.Connection | None = None  # touched only by the worker thread
        self._closed = False
        self._closing: asyncio.Future[None] | None = None
        self.append_batches = 0  # statistic: append transactions committed so far
        self.failing_since: float | None = None  # a local file: never out of reach

    # ----------------------------------------------------------------- lifecycle

    async def open(self) -> None:
        """Start the worker thread, connect and apply pending migrations (no-op if open)."""
        if self._closed:
            raise StoreError("store is closed")
        if self._thread is not None:
            return
        self._thread = threading.Thread(
            target=self._run, name=f"sqlite-store {os.path.basename(self._path)}", daemon=True
        )
        self._thread.start()
        try:
            await self._submit(f"open {self._path}", self._connect)
        except BaseException:
            await self._shutdown()
            raise

    async def close(self) -> None:
        """Write pending appends, close the connection and stop the worker; idempotent."""
        if self._closing is None:
            self._closed = True
            if self._thread is None:
                return
            self._closing = asyncio.ensure_future(self._shutdown())
        await asyncio.shield(self._closing)

    async def _shutdown(self) -> None:
        thread, self._thread = self._thread, None
        if thread is None:
            return
        fut = asyncio.get_running_loop().create_future()
        self._queue.put(_Stop(fut))
        await fut
        thread.join()  # the worker returns right after resolving ``fut``

    # ----------------------------------------------------------------- players

    async def add_player(self, player: PlayerRow) -> None:
        row = (player.id, player.nickname, bytes(player.token_hash), float(player.created_at))

        def run() -> None:
            try:
                self._db().execute(f"INSERT INTO players ({_PLAYER_COLS}) VALUES (?, ?, ?, ?)", row)
            except sqlite3.IntegrityError as exc:
                raise StoreError(f"cannot add player {player.id!r}: {exc}") from exc

        await self._submit(f"add player {player.id!r}", run)

    async def accept_rematch(self, room_id: str, player_id: str) -> list[str]:
        def run() -> list[str]:
            conn = self._db()
            conn.execute(
                "INSERT INTO rematch_accepts (room_id, player_id) VALUES (?, ?)"
                " ON CONFLICT DO NOTHING",
                (room_id, player_id),
            )
            sql = "SELECT player_id FROM rematch_accepts WHERE room_id = ? ORDER BY player_id"
            return [row[0] for row in conn.execute(sql, (room_id,))]

        return await self._submit(f"accept rematch of {room_id!r}", run)

    async def claim_rematch(self, room_id: str, new_room_id: str) -> str:
        def run() -> str:
            conn = self._db()
            conn.execute(
                "INSERT INTO rematches (room_id, new_room_id) VALUES (?, ?) ON CONFLICT DO NOTHING",
                (room_id, new_room_id),
            )
            sql = "SELECT new_room_id FROM rematches WHERE room_id = ?"
            return conn.execute(sql, (room_id,)).fetchone()[0]

        return await self._submit(f"claim rematch of {room_id!r}", run)

    async def claim_nickname(self, player_id: str, nickname: str, key: str) -> bool:
        def run() -> bool:
            sql = "UPDATE players SET nickname = ?, nickname_key = ? WHERE id = ?"
            try:
                return self._db().execute(sql, (nickname, key, player_id)).rowcount == 1
            except sqlite3.IntegrityError:
                return False  # the key is another player's

        return await self._submit(f"claim nickname for {player_id!r}", run)

    async def nickname_claimed(self, key: str) -> bool:
        sql = "SELECT 1 FROM players WHERE nickname_key = ?"
        return bool(await self._submit("nickname claimed", self._one, sql, key, bool))

    async def player_by_token_hash(self, token_hash: bytes) -> PlayerRow | None:
        sql = f"SELECT {_PLAYER_COLS} FROM players WHERE token_hash = ?"
        return await self._submit(
            "player by token hash", self._one, sql, bytes(token_hash), codec.player
        )

    async def player(self, player_id: str) -> PlayerRow | None:
        sql = f"SELECT {_PLAYER_COLS} FROM players WHERE id = ?"
        return await self._submit(f"player {player_id!r}", self._one, sql, player_id, codec.player)

    # ----------------------------------------------------------------- rooms

    async def add_room(self, room: RoomRow, first: dict[str, Any]) -> None:
        """Create a room with its log entry version 1, atomically."""
        row = (room.id, room.owner, room.invite_code, room.status, float(room.created_at))
        text = codec.dumps(first, f"room {room.id!r} log entry 1")

        def run() -> None:
            conn = self._db()
            try:
                with _transaction(conn):
                    conn.execute(f"INSERT INTO rooms ({_ROOM_COLS}) VALUES (?, ?, ?, ?, ?)", row)
                    conn.execute(_INSERT_LOG, (room.id, 1, text))
            except sqlite3.IntegrityError as exc:
                if "room_log" in str(exc):
                    raise VersionConflict(f"room {room.id!r} already has log version 1") from exc
                raise StoreError(f"cannot add room {room.id!r}: {exc}") from exc

        await self._submit(f"add room {room.id!r}", run)

    async def set_room_status(self, room_id: str, status: str) -> None:
        def run() -> None:
            cur = self._db().execute("UPDATE rooms SET status = ? WHERE id = ?", (status, room_id))
            if cur.rowcount == 0:
                raise StoreError(f"cannot set status of room {room_id!r}: no such room")

        await self._submit(f"set status of room {room_id!r}", run)

    async def room(self, room_id: str) -> RoomRow | None:
        sql = f"SELECT {_ROOM_COLS} FROM rooms WHERE id = ?"
        return await self._submit(f"room {room_id!r}", self._one, sql, room_id, codec.room)

    async def room_by_invite(self, invite_code: str) -> RoomRow | None:
        sql = f"SELECT {_ROOM_COLS} FROM rooms WHERE invite_code = ?"
        return await self._submit("room by invite code", self._one, sql, invite_code, codec.room)

    async def rooms_with_status(self, *statuses: str) -> list[RoomRow]:
        """Rooms whose status is any of ``statuses``, oldest first."""
        if not statuses:
            return []
        marks = ", ".join("?" * len(statuses))
        sql = f"SELECT {_ROOM_COLS} FROM rooms WHERE status IN ({marks}) ORDER BY created_at, id"

        def run() -> list[RoomRow]:
            return [codec.room(row) for row in self._db().execute(sql, statuses)]

        return await self._submit(f"rooms with status {statuses!r}", run)

    # ----------------------------------------------------------------- score sheets

    async def add_sheet(self, sheet: SheetRow, first: dict[str, Any]) -> None:
        row = (sheet.id, sheet.edit_code, sheet.view_code, float(sheet.created_at))
        text = codec.dumps(first, f"sheet {sheet.id!r} log entry 1")

        def run() -> None:
            conn = self._db()
            try:
                with _transaction(conn):
                    conn.execute(
                        f"INSERT INTO sheets ({codec.SHEET_COLS}) VALUES (?, ?, ?, ?)", row
                    )
                    conn.execute(_INSERT_LOG, (sheet.id, 1, text))
            except sqlite3.IntegrityError as exc:
                raise StoreError(f"cannot add sheet {sheet.id!r}: {exc}") from exc

        await self._submit(f"add sheet {sheet.id!r}", run)

    async def sheet(self, sheet_id: str) -> SheetRow | None:
        sql = f"SELECT {codec.SHEET_COLS} FROM sheets WHERE id = ?"
        return await self._submit(f"sheet {sheet_id!r}", self._one, sql, sheet_id, codec.sheet)

    async def sheet_by_code(self, code: str) -> SheetRow | None:
        sql = f"SELECT {codec.SHEET_COLS} FROM sheets WHERE edit_code = ?1 OR view_code = ?1"
        return await self._submit("sheet by code", self._one, sql, code, codec.sheet)

    # ----------------------------------------------------------------- tournaments

    async def add_tournament(self, tournament: TournamentRow, first: dict[str, Any]) -> None:
        t = tournament
        row = (t.id, t.format, t.status, float(t.start_at), float(t.created_at))
        text = codec.dumps(first, f"tournament {t.id!r} log entry 1")

        def run() -> None:
            conn = self._db()
            try:
                with _transaction(conn):
                    sql = f"INSERT INTO tournaments ({_TOURNAMENT_COLS}) VALUES (?, ?, ?, ?, ?)"
                    conn.execute(sql, row)
                    conn.execute(_INSERT_LOG, (t.id, 1, text))
            except sqlite3.IntegrityError as exc:
                raise StoreError(f"cannot add tournament {t.id!r}: {exc}") from exc

        await self._submit(f"add tournament {t.id!r}", run)

    async def set_tournament_status(self, tournament_id: str, status: str) -> None:
        def run() -> None:
            sql = "UPDATE tournaments SET status = ? WHERE id = ?"
            if self._db().execute(sql, (status, tournament_id)).rowcount == 0:
                raise StoreError(f"cannot set status of tournament {tournament_id!r}: no such")

        await self._submit(f"set status of tournament {tournament_id!r}", run)

    async def tournament(self, tournament_id: str) -> TournamentRow | None:
        sql = f"SELECT {_TOURNAMENT_COLS} FROM tournaments WHERE id = ?"
        return await self._submit(
            f"tournament {tournament_id!r}", self._one, sql, tournament_id, codec.tournament
        )

    async def tournaments_with_status(self, *statuses: str) -> list[TournamentRow]:
        if not statuses:
            return []
        marks = ", ".join("?" * len(statuses))
        sql = (
            f"SELECT {_TOURNAMENT_COLS} FROM tournaments WHERE status IN ({marks})"
            " ORDER BY start_at, id"
        )

        def run() -> list[TournamentRow]:
            return [codec.tournament(row) for row in self._db().execute(sql, statuses)]

        return await self._submit(f"tournaments with status {statuses!r}", run)

    # ----------------------------------------------------------------- room logs

    async def append(
        self, room_id: str, version: int, entry: dict[str, Any], epoch: int | None = None
    ) -> None:
        """Durably append one log entry; raises :class:`VersionConflict` on a duplicate.

        With ``epoch``, writes only if ``room_id``'s fencing epoch is exactly ``epoch``, else
        raises :class:`Fenced`.  Returns once the entry's batch is committed.  Cancelling the
        caller does not withdraw an append that is already queued.
        """
        self._check_open()
        codec.check_append(room_id, version, epoch)
        text = codec.dumps(entry, f"room {room_id!r} log entry {version}")
        fut = asyncio.get_running_loop().create_future()
        self._queue.put(_Append(room_id, version, text, epoch, fut))
        await fut

    async def epoch(self, key: str) -> int | None:
        sql = "SELECT epoch FROM fences WHERE id = ?"
        return await self._submit(f"epoch of {key!r}", self._one, sql, key, lambda r: int(r[0]))

    async def fence(self, key: str) -> int:
        """Atomically increment and return ``key``'s fencing epoch (1 the first time).

        Runs in queue order: appends queued before it were checked against the old epoch.
        """

        def run() -> int:
            conn = self._db()
            with _transaction(conn):
                ((epoch,),) = conn.execute(_FENCE, (key,)).fetchall()
            return int(epoch)

        return await self._submit(f"fence {key!r}", run)

    async def log(self, room_id: str, after: int = 0) -> list[LogEntry]:
        """The room's log entries with version > ``after``, in order."""
        sql = (
            "SELECT version, entry FROM room_log WHERE room_id = ? AND version > ? ORDER BY version"
        )

        def run() -> list[LogEntry]:
            rows = self._db().execute(sql, (room_id, after)).fetchall()
            return [
                LogEntry(
                    room_id, version, codec.loads(text, f"room {room_id!r} log entry {version}")
                )
                for version, text in rows
            ]

        return await self._submit(f"log of room {room_id!r}", run)

    # ----------------------------------------------------------------- matches

    async def save_match(self, match_id: str, room_id: str, record: dict[str, Any]) -> None:
        row = (match_id, room_id, codec.dumps(record, f"match {match_id!r} record"), time.time())

        def run() -> None:
            sql = "INSERT INTO matches (id, room_id, record, created_at) VALUES (?, ?, ?, ?)"
            try:
                self._db().execute(sql, row)
            except sqlite3.IntegrityError as exc:
                raise StoreError(f"cannot save match {match_id!r}: {exc}") from exc

        await self._submit(f"save match {match_id!r}", run)

    async def match(self, match_id: str) -> dict[str, Any] | None:
        def run() -> dict[str, Any] | None:
            sql = "SELECT record FROM matches WHERE id = ?"
            row = self._db().execute(sql, (match_id,)).fetchone()
            return None if row is None else codec.loads(row[0], f"match {match_id!r} record")

        return await self._submit(f"match {match_id!r}", run)

    # ----------------------------------------------------------------- the daily game

    async def secret(self, name: str, fresh: str) -> str:
        insert = "INSERT INTO secrets (name, value) VALUES (?, ?) ON CONFLICT DO NOTHING"
        select = "SELECT value FROM secrets WHERE name = ?"

        def run() -> str:
            conn = self._db()
            with _transaction(conn):
                conn.execute(insert, (name, fresh))
                (value,) = conn.execute(select, (name,)).fetchone()
            return str(value)

        return await self._submit(f"secret {name!r}", run)

    async def start_daily(self, attempt: DailyAttempt) -> DailyAttempt:
        a = attempt
        row = (a.day, a.player_id, a.room_id, float(a.started_at))
        key = (a.day, a.player_id)

        def run() -> DailyAttempt:
            conn = self._db()
            with _transaction(conn):
                conn.execute(
                    f"INSERT INTO daily_attempts ({_ATTEMPT_COLS}) VALUES (?, ?, ?, ?, NULL, NULL)"
                    " ON CONFLICT (day, player_id) DO NOTHING",
                    row,
                )
                conn.execute(
                    "INSERT INTO daily_days (day, closed) VALUES (?, 0) ON CONFLICT DO NOTHING",
                    (a.day,),
                )
                return codec.daily_attempt(conn.execute(_ATTEMPT, key).fetchone())

        return await self._submit(f"start daily {a.day} of {a.player_id!r}", run)

    async def daily_attempt(self, day: str, player_id: str) -> DailyAttempt | None:
        def run() -> DailyAttempt | None:
            row = self._db().execute(_ATTEMPT, (day, player_id)).fetchone()
            return None if row is None else codec.daily_attempt(row)

        return await self._submit(f"daily {day} of {player_id!r}", run)

    async def finish_daily(
        self, day: str, player_id: str, total: int, points: list[int], at: float
    ) -> bool:
        deals = [(day, player_id, number, p) for number, p in enumerate(points)]
        field = [(day, number, p) for number, p in enumerate(points)]

        def run() -> bool:
            conn = self._db()
            with _transaction(conn):
                cur = conn.execute(
                    "UPDATE daily_attempts SET total = ?, finished_at = ?"
                    " WHERE day = ? AND player_id = ? AND total IS NULL",
                    (total, float(at), day, player_id),
                )
                if cur.rowcount == 0:
                    return False
                conn.executemany(
                    "INSERT INTO daily_deals (day, player_id, number, points) VALUES (?, ?, ?, ?)",
                    deals,
                )
                conn.executemany(
                    "INSERT INTO daily_field (day, number, players, points) VALUES (?, ?, 1, ?)"
                    " ON CONFLICT (day, number) DO UPDATE SET players = daily_field.players + 1,"
                    " points = daily_field.points + excluded.points",
                    field,
                )
            return True

        return await self._submit(f"finish daily {day} of {player_id!r}", run)

    async def daily_board(self, day: str, offset: int, limit: int) -> list[DailyRow]:
        def run() -> list[DailyRow]:
            rows = self._db().execute(DAILY_BOARD, (day, limit, offset))
            return [codec.daily_row(row) for row in rows]

        return await self._submit(f"daily board {day}", run)

    async def daily_finished(self, day: str) -> int:
        return await self._submit(f"daily finished {day}", self._one, _DAILY_FINISHED, day, _first)

    async def daily_rank(self, day: str, total: int) -> int:
        def run() -> int:
            return int(self._db().execute(_DAILY_RANK, (day, total)).fetchone()[0])

        return await self._submit(f"daily rank {day}", run)

    async def daily_field(self, day: str) -> list[tuple[int, int, int]]:
        def run() -> list[tuple[int, int, int]]:
            return [(n, players, p) for n, players, p in self._db().execute(_DAILY_FIELD, (day,))]

        return await self._submit(f"daily field {day}", run)

    async def daily_points(self, day: str, player_ids: list[str]) -> dict[str, list[int]]:
        if not player_ids:
            return {}
        sql = _daily_points(len(player_ids))

        def run() -> dict[str, list[int]]:
            return codec.daily_points(self._db().execute(sql, (day, *player_ids)))

        return await self._submit(f"daily points {day}", run)

    async def daily_days(self, player_id: str, limit: int) -> list[str]:
        def run() -> list[str]:
            return [day for (day,) in self._db().execute(_DAILY_DAYS, (player_id, limit))]

        return await self._submit(f"daily days of {player_id!r}", run)

    async def close_daily_days(self, before: str) -> list[str]:
        """Each day is closed in a transaction of its own that first flips its ``closed``
        flag: a node that finds it flipped already leaves the day alone."""

        def run() -> list[str]:
            conn = self._db()
            sql = "SELECT day FROM daily_days WHERE closed = 0 AND day < ? ORDER BY day"
            closed: list[str] = []
            for (day,) in conn.execute(sql, (before,)).fetchall():
                with _transaction(conn):
                    flip = "UPDATE daily_days SET closed = 1 WHERE day = ? AND closed = 0"
                    if conn.execute(flip, (day,)).rowcount == 0:
                        continue
                    conn.execute(_CLOSE_DAY, (day,))
                closed.append(day)
            return closed

        return await self._submit(f"close daily days before {before}", run)

    async def alltime_board(self, min_days: int, offset: int, limit: int) -> list[AlltimeRow]:
        def run() -> list[AlltimeRow]:
            rows = self._db().execute(_ALLTIME_BOARD, (min_days, limit, offset))
            return [codec.alltime_row(row) for row in rows]

        return await self._submit("all-time board", run)

    async def alltime_count(self, min_days: int) -> int:
        return await self._submit("all-time count", self._one, _ALLTIME_COUNT, min_days, _first)

    # ----------------------------------------------------------------- profiles and ratings

    async def record_match(self, result: MatchResult, rate: Rater | None) -> bool:
        def run() -> bool:
            conn = self._db()
            with _transaction(conn):
                first = "INSERT INTO recorded_matches (match_id, at) VALUES (?, ?)"
                first += " ON CONFLICT DO NOTHING"
                if conn.execute(first, (result.match_id, float(result.at))).rowcount == 0:
                    return False
                changes: dict[str, float] = {}
                if rate is not None:
                    changes = _rate(conn, result, rate)
                conn.executemany(_ADD_STATS, codec.stats_rows(result))
                conn.executemany(_ADD_LINE, codec.line_rows(result, changes))
                conn.executemany(_ADD_DAILY_PART, codec.daily_part_rows(result))
            return True

        return await self._submit(f"record match {result.match_id!r}", run)

    async def record_places(
        self, tournament_id: str, at: float, places: list[tuple[str, int, str | None]]
    ) -> bool:
        rows = [(player, tournament_id, place, prize, float(at)) for player, place, prize in places]
        sql = (
            "INSERT INTO player_places (player_id, tournament_id, place, prize, at)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING"
        )

        def run() -> bool:
            conn = self._db()
            with _transaction(conn):
                before = conn.total_changes
                conn.executemany(sql, rows)
                return conn.total_changes > before

        return await self._submit(f"record places of {tournament_id!r}", run)

    async def rating_board(self, offset: int, limit: int) -> tuple[int, list[RatingRow]]:
        def run() -> tuple[int, list[RatingRow]]:
            conn = self._db()
            (count,) = conn.execute(_RATING_COUNT).fetchone()
            rows = conn.execute(RATING_BOARD, (limit, offset))
            return int(count), [codec.rating_row(row) for row in rows]

        return await self._submit("rating board", run)

    async def rating_of(self, player_id: str) -> tuple[RatingRow, int | None] | None:
        return await self._submit(f"rating of {player_id!r}", self._rating_of, player_id)

    def _rating_of(self, player_id: str) -> tuple[RatingRow, int | None] | None:
        conn = self._db()
        row = conn.execute(_RATING_OF, (player_id,)).fetchone()
        if row is None:
            return None
        rating = codec.rating_row(row)
        if rating.matches < BOARD_MIN_MATCHES:
            return rating, None
        (above,) = conn.execute(_RANK_ABOVE, (rating.conservative,)).fetchone()
        (tied,) = conn.execute(_RANK_TIED, (rating.conservative, player_id)).fetchone()
        return rating, 1 + above + tied

    async def profile(
        self, player_id: str, offset: int, limit: int, recent: int, hidden_from: str | None = None
    ) -> Profile | None:
        def run() -> Profile | None:
            conn = self._db()
            sql = "SELECT nickname FROM players WHERE id = ?"
            player = conn.execute(sql, (player_id,)).fetchone()
            if player is None:
                return None
            rated = self._rating_of(player_id)
            one = (player_id,)
            return Profile(
                player_id, player[0], codec.stats(conn.execute(_STATS, one).fetchone()),
                None if rated is None else rated[0], None if rated is None else rated[1],
                [codec.rating_point(r) for r in conn.execute(_POINTS, (player_id, recent))],
                [codec.match_line(r) for r in conn.execute(_LINES, (player_id, limit, offset))],
                [codec.place_row(r) for r in conn.execute(_PLACES, (player_id, recent))],
                {place: n for place, n in conn.execute(_PLACE_COUNTS, one)},
                PlayerStats() if hidden_from is None
                else codec.stats(conn.execute(_UNREVEALED, (player_id, hidden_from)).fetchone()),
            )  # fmt: skip

        return await self._submit(f"profile of {player_id!r}", run)

    # ----------------------------------------------------------------- event-loop side

    def _check_open(self) -> None:
        if self._closed:
            raise StoreError("store is closed")
        if self._thread is None:
            raise StoreError("store is not open")

    async def _submit(self, what: str, fn: Callable[..., Any], *args: Any) -> Any:
        """Run ``fn(*args)`` on the worker thread, in queue order, and return its result."""
        self._check_open()
        fut = asyncio.get_running_loop().create_future()
        self._queue.put(_Call(what, (lambda: fn(*args)) if args else fn, fut))
        return await fut

    # ----------------------------------------------------------------- worker thread

    def _run(self) -> None:
        """The worker: take everything queued, run it in order, batching adjacent appends."""
        get = self._queue.get
        get_nowait = self._queue.get_nowait
        committed = float("-inf")  # time.monotonic() when the last batch of appends committed
        while True:
            ops = [get()]
            if isinstance(ops[0], _Append) and self._pace > 0:
                wait = committed + self._pace - time.monotonic()
                if wait > 0:  # commits are coming close together: let this one gather more
                    time.sleep(wait)
            while len(ops) < MAX_BATCH:
                try:
                    ops.append(get_nowait())
                except queue.Empty:
                    break
            i, n = 0, len(ops)
            while i < n:
                op = ops[i]
                if isinstance(op, _Append):
                    j = i + 1
                    while j < n and isinstance(ops[j], _Append):
                        j += 1
                    _deliver(self._write_appends(ops[i:j]))
                    committed = time.monotonic()
                    i = j
                elif isinstance(op, _Call):
                    _deliver([self._run_call(op)])
                    i += 1
                else:
                    self._finish(op, ops[i + 1 :])
                    return

    def _run_call(self, op: _Call) -> _Result:
        try:
            return (op.fut, None, op.fn())
        except StoreError as exc:
            return (op.fut, exc, None)
        except sqlite3.Error as exc:
            return (op.fut, StoreError(f"{op.what} failed: {exc}"), None)
        except BaseException as exc:
            return (op.fut, exc, None)

    def _write_appends(self, items: list[_Append]) -> list[_Result]:
        """Insert ``items`` in one transaction; a duplicate or a stale fencing epoch fails
        only its own caller.

        The usual batch (unfenced, one statement's worth, nothing refused) is one statement
        in autocommit, a transaction of its own: one step of SQLite's where ``BEGIN`` and
        ``COMMIT`` would make three, and each step gives the GIL up; under load the event
        loop holds it, and taking it back can wait a switch interval (5 ms) each time."""
        results: list[_Result] = []
        try:
            conn = self._db()
            single = len(items) <= ROWS_PER_INSERT and all(item.epoch is None for item in items)
            if single and _insert_rows(conn, items):
                self.append_batches += 1
                return [(item.fut, None, None) for item in items]
            conn.execute("BEGIN IMMEDIATE")
            try:
                i = 0
                while i < len(items):
                    j = i + 1  # items[i:j]: a run of unfenced entries, or one fenced entry
                    if items[i].epoch is None:
                        while j < len(items) and j - i < ROWS_PER_INSERT and items[j].epoch is None:
                            j += 1
                    run, i = items[i:j], j
                    # (a single batch's statement was just refused: row by row)
                    if len(run) > 1 and not single and _insert_rows(conn, run):
                        results.extend((item.fut, None, None) for item in run)
                    else:
                        results.extend(_insert_one(conn, item) for item in run)
                conn.execute("COMMIT")
            except BaseException:
                _rollback(conn)
                raise
        except StoreError as exc:
            return [(item.fut, StoreError(str(exc)), None) for item in items]
        except sqlite3.Error as exc:
            msg = f"append failed, batch of {len(items)} rolled back: {exc}"
            return [(item.fut, StoreError(msg), None) for item in items]
        except BaseException as exc:
            return [(item.fut, exc, None) for item in items]
        self.append_batches += 1
        return results

    def _finish(self, stop: _Stop, rest: list[_Op]) -> None:
        """Close the connection; fail anything queued after the stop."""
        results: list[_Result] = []
        conn, self._conn = self._conn, None
        try:
            if conn is not None:
                conn.close()
            results.append((stop.fut, None, None))
        except sqlite3.Error as exc:
            results.append((stop.fut, StoreError(f"closing {self._path} failed: {exc}"), None))
        while True:
            try:
                rest.append(self._queue.get_nowait())
            except queue.Empty:
                break
        results.extend((op.fut, StoreError("store is closed"), None) for op in rest)
        _deliver(results)

    def _db(self) -> sqlite3.Connection:
        if self._conn is None:
            raise StoreError("store is not open")
        return self._conn

    def _one(self, sql: str, key: Any, convert: Callable[[tuple[Any, ...]], Any]) -> Any:
        row = self._db().execute(sql, (key,)).fetchone()
        return None if row is None else convert(row)

    def _connect(self) -> None:
        conn = sqlite3.connect(self._path, timeout=BUSY_TIMEOUT_S, isolation_level=None)
        try:
            mode = conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            if mode.lower() != "wal" and self._path != ":memory:":
                raise StoreError(f"cannot use WAL journal mode on {self._path} (got {mode!r})")
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute("PRAGMA cache_size=-512")  # KiB: writes append; reads are rare
            _migrate(conn)
        except BaseException:
            conn.close()
            raise
        self._conn = conn


# --------------------------------------------------------------------- helpers


def _migrate(conn: sqlite3.Connection) -> None:
    """Apply pending migrations in order, each in its own transaction, each exactly once."""
    try:
        migrations = list_migrations("sqlite")
    except ValueError as exc:
        raise StoreError(f"bad migrations: {exc}") from exc
    conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations"
        " (version INTEGER PRIMARY KEY, applied_at REAL NOT NULL)"
    )
    applied = {v for (v,) in conn.execute("SELECT version FROM schema_migrations")}
    check_newer(applied, migrations)
    for version, sql in migrations:
        if version in applied:
            continue
        with _transaction(conn):
            # Re-check under the write lock: another process may have just applied it.
            done = "SELECT 1 FROM schema_migrations WHERE version = ?"
            if conn.execute(done, (version,)).fetchone() is not None:
                continue
            for statement in _statements(sql):
                conn.execute(statement)
            conn.execute(
                "INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)",
                (version, time.time()),
            )


def _statements(sql: str) -> list[str]:
    """Split a migration script into single statements (``execute`` runs one at a time)."""
    statements: list[str] = []
    buf = ""
    for line in sql.splitlines(keepends=True):
        buf += line
        if sqlite3.complete_statement(buf):
            statements.append(buf.strip())
            buf = ""
    if any(ln.strip() and not ln.strip().startswith("--") for ln in buf.splitlines()):
        raise StoreError(f"migration ends with an incomplete statement: {buf.strip()[:80]!r}")
    return statements


@contextmanager
def _transaction(conn: sqlite3.Connection) -> Iterator[None]:
    """``BEGIN IMMEDIATE`` ... ``COMMIT``, rolled back on any exception."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
        conn.execute("COMMIT")
    except BaseException:
        _rollback(conn)
        raise


def _rollback(conn: sqlite3.Connection) -> None:
    if conn.in_transaction:
        # If this fails SQLite has already rolled back; the original error is the one to report.
        with suppress(sqlite3.Error):
            conn.execute("ROLLBACK")


def _insert_rows(conn: sqlite3.Connection, items: list[_Append]) -> bool:
    """Insert unfenced ``items`` in one statement: one step of SQLite's, so the worker takes
    the GIL back once for them all rather than once a row (under load the event loop holds
    it, and each taking back can wait a switch interval).  False, and nothing written, if a
    row breaks a constraint: then each is inserted alone to fail only its own caller.  In a
    transaction, or alone in autocommit (then it is its own, durable when it returns)."""
    sql = _INSERT_LOG + ", (?, ?, ?)" * (len(items) - 1)
    try:
        conn.execute(sql, [v for item in items for v in (item.room_id, item.version, item.text)])
    except sqlite3.IntegrityError:  # a statement that breaks a constraint undoes only itself
        return False
    return True


def _insert_one(conn: sqlite3.Connection, item: _Append) -> _Result:
    try:
        if item.epoch is None:
            conn.execute(_INSERT_LOG, (item.room_id, item.version, item.text))
        else:
            args = (item.room_id, item.version, item.text, item.room_id, item.epoch)
            if conn.execute(_INSERT_LOG_FENCED, args).rowcount == 0:
                return (item.fut, _fenced(conn, item, item.epoch), None)
    except sqlite3.IntegrityError as exc:  # (a single-row INSERT undoes only itself)
        return (item.fut, _append_refused(item, exc), None)
    return (item.fut, None, None)


def _append_refused(item: _Append, exc: sqlite3.IntegrityError) -> StoreError:
    if getattr(exc, "sqlite_errorname", "") == "SQLITE_CONSTRAINT_PRIMARYKEY":
        return VersionConflict(f"room {item.room_id!r} already has log version {item.version}")
    return StoreError(f"cannot append room {item.room_id!r} version {item.version}: {exc}")


def _fenced(conn: sqlite3.Connection, item: _Append, epoch: int) -> Fenced:
    """The refusal of ``item``, naming its room's current epoch (read in the same transaction)."""
    row = conn.execute("SELECT epoch FROM fences WHERE id = ?", (item.room_id,)).fetchone()
    return Fenced.refused(item.room_id, item.version, epoch, None if row is None else row[0])


def _rate(conn: sqlite3.Connection, result: MatchResult, rate: Rater) -> dict[str, float]:
    """Rate a match's players inside its recording transaction; each one's change."""
    ids = sorted(r.player_id for r in result.players)
    marks = ", ".join("?" * len(ids))
    sql = f"SELECT player_id, mu, sigma, matches FROM ratings WHERE player_id IN ({marks})"
    rows = conn.execute(sql, ids).fetchall()
    current = {pid: (mu, sigma) for pid, mu, sigma, _ in rows}
    new = rate(current)
    if reached := sum(matches == BOARD_MIN_MATCHES - 1 for *_, matches in rows):
        conn.execute(_BOARD_GREW, (reached,))
    at = float(result.at)
    conn.executemany(_SET_RATING, [(pid, *new[pid][:3]) for pid in ids])
    conn.executemany(_ADD_POINT, [(pid, result.match_id, at, *new[pid][:3]) for pid in ids])
    return {pid: new[pid].change for pid in ids}


def _first(row: tuple[Any, ...]) -> Any:
    return row[0]


def _deliver(results: list[_Result]) -> None:
    """Hand results to the futures' event loops: one wake-up per loop per call."""
    by_loop: dict[asyncio.AbstractEventLoop, list[_Result]] = {}
    for result in results:
        by_loop.setdefault(result[0].get_loop(), []).append(result)
    for loop, batch in by_loop.items():
        with suppress(RuntimeError):  # that loop is closed: nobody is waiting any more
            loop.call_soon_threadsafe(_settle, batch)


def _settle(results: list[_Result]) -> None:
    for fut, exc, value in results:
        if fut.done():  # the caller was cancelled
            continue
        if exc is not None:
            fut.set_exception(exc)
        else:
            fut.set_result(value)
