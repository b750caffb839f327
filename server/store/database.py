"""A database: the connection and transaction primitives every feature's store runs on.

Two dialects: :class:`~server.store.sqlite.SqliteDatabase` (one file, the embedded default)
and :class:`~server.store.postgres.PostgresDatabase` (shared by the nodes of a cluster).
Each keeps its own way of writing a log entry durably, the journal's hot path: SQLite's
group commit on one writer thread, PostgreSQL's fenced insert.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from .sql import Conn, Row, Sql

if TYPE_CHECKING:
    from server.core.config import Settings

_T = TypeVar("_T")


class Database(Protocol):
    dialect: str  # "sqlite" | "postgres"

    # Since when calls have failed for want of the database (``time.monotonic()``: the start
    # of the first failing call after the latest answer), or None while it answers.  A node
    # that cannot store hands what it runs to the others (``server/cluster/node.py``).
    failing_since: float | None

    async def open(self) -> None:
        """Connect and apply pending migrations."""

    async def close(self) -> None:
        """Finish pending writes and release the connection; idempotent."""

    async def append(
        self, room_id: str, version: int, entry: dict[str, Any], epoch: int | None = None
    ) -> None:
        """Durably append one log entry (see :meth:`server.store.logs.LogStore.append`)."""

    async def run(
        self, what: str, fn: Callable[[Conn], Awaitable[_T]], *, turn: str | None = None
    ) -> _T:
        """``fn`` on a connection, and its result; with ``turn``, after the operations of
        that key queued before it (its appends among them).  A failure of the database is
        a :class:`~server.store.errors.StoreError` saying ``what`` failed."""


def open_database(settings: Settings) -> Database:
    """The configured database, not yet opened (``await database.open()`` before use).

    PostgreSQL when ``settings.database_url`` is set, otherwise the SQLite file
    ``settings.db``.  Dialects are imported lazily, so ``asyncpg`` is needed only for
    PostgreSQL.
    """
    if settings.database_url:
        from .postgres import PostgresDatabase

        return PostgresDatabase(settings.database_url, schema=settings.database_schema)
    from .sqlite import SqliteDatabase

    return SqliteDatabase(settings.db, settings.commit_pace)


class Store:
    """A feature's store: its operations, each run on the database it was given."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def _execute(self, what: str, q: Sql, *args: Any) -> int:
        """One statement; the rows it changed."""
        return await self.db.run(what, lambda conn: conn.execute(q, *args))

    async def _fetch(self, what: str, q: Sql, *args: Any) -> list[Row]:
        return await self.db.run(what, lambda conn: conn.fetch(q, *args))

    async def _fetchrow(self, what: str, q: Sql, *args: Any) -> Row | None:
        return await self.db.run(what, lambda conn: conn.fetchrow(q, *args))

    async def _fetchval(self, what: str, q: Sql, *args: Any, turn: str | None = None) -> Any:
        return await self.db.run(what, lambda conn: conn.fetchval(q, *args), turn=turn)
