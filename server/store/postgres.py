"""The PostgreSQL database (``asyncpg``): a pool of connections, shared by several nodes.

Same semantics as :mod:`server.store.sqlite`:

* Every write is one committed transaction when its coroutine returns.  Connections run with
  ``synchronous_commit`` on (forced on if the server's default is ``off``), so an
  acknowledged ``append`` survives a crash of this process or of PostgreSQL.
* Operations with a ``turn`` (a key's ``append``, its creation, its ``fence``) run in call
  order for that key, one at a time, like the SQLite worker's queue; different keys run
  concurrently on a pool of connections.
* Fencing across processes: an ``append`` with an epoch is one ``INSERT ... SELECT`` that
  reads the room's fence row ``FOR SHARE``, and ``fence`` updates that row.  So a ``fence``
  waits for any in-flight fenced append of the row to commit, and an append racing a
  ``fence`` waits for it and then sees the new epoch (READ COMMITTED re-checks the locked
  row) and inserts nothing: once ``fence`` has returned, no append with an older epoch can
  commit.
* A started operation is not withdrawn when its caller is cancelled; it completes in the
  background and :meth:`PostgresDatabase.close` waits for it.
* Migrations are applied at :meth:`PostgresDatabase.open` under a PostgreSQL advisory lock,
  so several server processes starting together apply each exactly once.
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
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager, suppress
from dataclasses import dataclass, field
from typing import Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from .codec import check_append, dumps
from .errors import Deadlock, Duplicate, Fenced, StoreError, VersionConflict
from .migrations import migrate
from .sql import Conn, Row, Sql

__all__ = ["PostgresDatabase", "migration_lock_key"]

CONNECT_TIMEOUT_S = 5.0  # establishing a connection, or waiting for a free one
COMMAND_TIMEOUT_S = 5.0  # one statement
MIGRATION_TIMEOUT_S = 120.0  # waiting for another process's migrations, and each migration

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


class PostgresDatabase:
    """A :class:`~server.store.database.Database` in a PostgreSQL database.

    ``url`` is a libpq-style URL (``postgresql://user:password@host:port/dbname``).
    ``schema``, if given, is the (existing) schema to use: it becomes the connections'
    ``search_path``.
    """

    dialect = "postgres"

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
        self.failing_since: float | None = None  # see Database.failing_since
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
        """Apply pending migrations under a session advisory lock keyed by the schema, so
        concurrent openers wait for each other and then see the migrations as applied."""
        schema = await conn.fetchval("SELECT current_schema()")
        if schema is None:
            wanted = f"schema {self._schema!r}" if self._schema else "a schema on the search_path"
            raise StoreError(f"{wanted} does not exist")
        key = migration_lock_key(schema)
        await conn.execute("SELECT pg_advisory_lock($1)", key, timeout=MIGRATION_TIMEOUT_S)
        try:
            await migrate(PgConn(conn), self.dialect)
        finally:
            # If the connection broke the lock went with its session; keep the first error.
            with suppress(*_DB_ERRORS):
                await conn.execute("SELECT pg_advisory_unlock($1)", key)

    # ----------------------------------------------------------------- operations

    async def append(
        self, room_id: str, version: int, entry: dict[str, Any], epoch: int | None = None
    ) -> None:
        """Durably append one log entry; raises :class:`VersionConflict` on a duplicate.

        With ``epoch``, writes only if ``room_id``'s fencing epoch is exactly ``epoch``, else
        raises :class:`Fenced`.  Returns once the INSERT is committed.  Appends to one room
        run in call order.
        """
        self._check_open()
        check_append(room_id, version, epoch)
        text = dumps(entry, f"room {room_id!r} log entry {version}")

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

    async def run(
        self, what: str, fn: Callable[[Conn], Awaitable[_T]], *, turn: str | None = None
    ) -> _T:
        """``fn(connection)`` on a pooled connection, after earlier operations of the same
        ``turn`` key; its result.  Cancelling the caller does not withdraw it."""
        return await self._submit(what, lambda conn: fn(PgConn(conn)), turn=turn)

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


class PgConn:
    """A :class:`~server.store.sql.Conn` on a pooled asyncpg connection."""

    __slots__ = ("_conn",)

    def __init__(self, conn: _Conn) -> None:
        self._conn = conn

    async def execute(self, q: Sql, *args: Any) -> int:
        with _mapped():
            return _rowcount(await self._conn.execute(q.postgres, *args))

    async def executemany(self, q: Sql, rows: Iterable[Sequence[Any]]) -> None:
        with _mapped():
            await self._conn.executemany(q.postgres, rows)

    async def fetch(self, q: Sql, *args: Any) -> list[Row]:
        with _mapped():
            return await self._conn.fetch(q.postgres, *args)

    async def fetchrow(self, q: Sql, *args: Any) -> Row | None:
        with _mapped():
            return await self._conn.fetchrow(q.postgres, *args)

    async def fetchval(self, q: Sql, *args: Any) -> Any:
        with _mapped():
            return await self._conn.fetchval(q.postgres, *args)

    async def script(self, text: str) -> None:
        await self._conn.execute(text, timeout=MIGRATION_TIMEOUT_S)

    def transaction(self, *, snapshot: bool = False) -> Any:
        if snapshot:
            return self._conn.transaction(isolation="repeatable_read", readonly=True)
        return self._conn.transaction()


# --------------------------------------------------------------------- helpers


@contextmanager
def _mapped() -> Iterator[None]:
    """asyncpg's errors that an operation may handle, as the store's own."""
    try:
        yield
    except asyncpg.UniqueViolationError as exc:
        raise Duplicate(str(exc), exc.table_name) from exc
    except asyncpg.DeadlockDetectedError as exc:
        raise Deadlock(str(exc)) from exc


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
