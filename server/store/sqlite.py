"""The SQLite database (standard library ``sqlite3``): one file, one writer thread.

One dedicated worker thread owns the connection and does all sqlite3 work, so the event loop
never blocks on the database.  Coroutines queue operations to it and await a future; the
worker runs them strictly in queue order.  Consecutive queued ``append`` calls are written in
one transaction (group commit): one fsync for the whole batch, after which every caller's
future resolves, or fails on its own if its ``(room_id, version)`` already exists or its
fencing epoch is stale.  Any other operation (:meth:`SqliteDatabase.run`) runs in queue order
too: a ``fence`` queued after appends takes effect after them.

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
import json
import os
import queue
import sqlite3
import threading
import time
from collections.abc import Awaitable, Callable, Coroutine, Iterable, Sequence
from contextlib import suppress
from dataclasses import dataclass
from typing import Any, TypeVar

from .codec import check_append, dumps
from .errors import Duplicate, Fenced, StoreError, VersionConflict
from .migrations import migrate
from .sql import Conn, Row, Sql

__all__ = ["SqliteDatabase", "sqlite_args"]

MAX_BATCH = 2048  # most operations taken off the queue per worker round
ROWS_PER_INSERT = 256  # log entries written by one statement (3 parameters each)
BUSY_TIMEOUT_S = 10.0  # wait this long for another connection's write lock

_INSERT_LOG = "INSERT INTO room_log (room_id, version, entry) VALUES (?, ?, ?)"
# Writes the entry only while the room's fence row holds the given epoch (0 rows otherwise).
_INSERT_LOG_FENCED = (
    "INSERT INTO room_log (room_id, version, entry, epoch)"
    " SELECT ?, ?, ?, epoch FROM fences WHERE id = ? AND epoch = ?"
)
_UNIQUE = ("SQLITE_CONSTRAINT_PRIMARYKEY", "SQLITE_CONSTRAINT_UNIQUE")

_T = TypeVar("_T")
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


class SqliteDatabase:
    """A :class:`~server.store.database.Database` in one SQLite file (``":memory:"`` also
    works)."""

    dialect = "sqlite"

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

    # ----------------------------------------------------------------- operations

    async def append(
        self, room_id: str, version: int, entry: dict[str, Any], epoch: int | None = None
    ) -> None:
        """Durably append one log entry; raises :class:`VersionConflict` on a duplicate.

        With ``epoch``, writes only if ``room_id``'s fencing epoch is exactly ``epoch``, else
        raises :class:`Fenced`.  Returns once the entry's batch is committed.  Cancelling the
        caller does not withdraw an append that is already queued.
        """
        self._check_open()
        check_append(room_id, version, epoch)
        text = dumps(entry, f"room {room_id!r} log entry {version}")
        fut = asyncio.get_running_loop().create_future()
        self._queue.put(_Append(room_id, version, text, epoch, fut))
        await fut

    async def run(
        self, what: str, fn: Callable[[Conn], Awaitable[_T]], *, turn: str | None = None
    ) -> _T:
        """``fn(connection)`` on the worker thread, in queue order (which keeps every
        ``turn`` as well), and its result."""
        return await self._submit(what, lambda: _drive(fn(SqliteConn(self._db()))))

    # ----------------------------------------------------------------- event-loop side

    def _check_open(self) -> None:
        if self._closed:
            raise StoreError("store is closed")
        if self._thread is None:
            raise StoreError("store is not open")

    async def _submit(self, what: str, fn: Callable[[], Any]) -> Any:
        """Run ``fn()`` on the worker thread, in queue order, and return its result."""
        self._check_open()
        fut = asyncio.get_running_loop().create_future()
        self._queue.put(_Call(what, fn, fut))
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

    def _connect(self) -> None:
        conn = sqlite3.connect(self._path, timeout=BUSY_TIMEOUT_S, isolation_level=None)
        try:
            mode = conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            if mode.lower() != "wal" and self._path != ":memory:":
                raise StoreError(f"cannot use WAL journal mode on {self._path} (got {mode!r})")
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute("PRAGMA cache_size=-512")  # KiB: writes append; reads are rare
            _drive(migrate(SqliteConn(conn), self.dialect))
        except BaseException:
            conn.close()
            raise
        self._conn = conn


class SqliteConn:
    """A :class:`~server.store.sql.Conn` on the worker thread's connection: every method
    does its work at once (an operation on it never suspends)."""

    __slots__ = ("_conn",)

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    def _cursor(self, q: Sql, args: tuple[Any, ...]) -> sqlite3.Cursor:
        try:
            return self._conn.execute(q.sqlite, sqlite_args(args))
        except sqlite3.IntegrityError as exc:
            raise _duplicate(exc) from exc

    async def execute(self, q: Sql, *args: Any) -> int:
        return self._cursor(q, args).rowcount

    async def executemany(self, q: Sql, rows: Iterable[Sequence[Any]]) -> None:
        try:
            self._conn.executemany(q.sqlite, rows)
        except sqlite3.IntegrityError as exc:
            raise _duplicate(exc) from exc

    async def fetch(self, q: Sql, *args: Any) -> list[Row]:
        return self._cursor(q, args).fetchall()

    async def fetchrow(self, q: Sql, *args: Any) -> Row | None:
        rows = self._cursor(q, args).fetchall()  # (to the end: a write's statement completes)
        return rows[0] if rows else None

    async def fetchval(self, q: Sql, *args: Any) -> Any:
        row = await self.fetchrow(q, *args)
        return None if row is None else row[0]

    async def script(self, text: str) -> None:
        for statement in _statements(text):
            self._conn.execute(statement)

    def transaction(self, *, snapshot: bool = False) -> _Transaction:
        return _Transaction(self._conn, "BEGIN" if snapshot else "BEGIN IMMEDIATE")


class _Transaction:
    """``BEGIN`` ... ``COMMIT``, rolled back on any exception."""

    __slots__ = ("_begin", "_conn")

    def __init__(self, conn: sqlite3.Connection, begin: str) -> None:
        self._conn = conn
        self._begin = begin

    async def __aenter__(self) -> None:
        self._conn.execute(self._begin)

    async def __aexit__(self, kind: type[BaseException] | None, *_: object) -> None:
        try:
            if kind is None:
                self._conn.execute("COMMIT")
        finally:
            _rollback(self._conn)  # (nothing left to roll back once committed)


# --------------------------------------------------------------------- helpers


def sqlite_args(args: Sequence[Any]) -> list[Any]:
    """Parameters as SQLite takes them: an array (a ``list``) as JSON text."""
    return [json.dumps(a) if isinstance(a, list) else a for a in args]


def _drive(coro: Coroutine[Any, Any, _T]) -> _T:
    """Run an operation on this thread to its end: on SQLite nothing it awaits suspends."""
    try:
        coro.send(None)
    except StopIteration as done:
        return done.value
    coro.close()
    raise StoreError("an operation on SQLite awaited something other than the database")


def _duplicate(exc: sqlite3.IntegrityError) -> BaseException:
    """A unique key taken as :class:`Duplicate` (naming its table); any other breach as is."""
    if getattr(exc, "sqlite_errorname", "") not in _UNIQUE:
        return exc
    # "UNIQUE constraint failed: room_log.room_id, room_log.version"
    column = str(exc).partition(": ")[2]
    return Duplicate(str(exc), column.partition(".")[0] or None)


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
