"""SQL written once for both dialects, and the connection a store's operation is handed.

A feature's store writes each statement once, in PostgreSQL's words (``$1`` placeholders);
SQLite's words are made from them mechanically.  Only where the dialects truly differ (an
array parameter, a row lock, a cast) does a statement give SQLite's words itself.  An
operation is an ``async`` function of a :class:`Conn`, run by the database
(:meth:`server.store.database.Database.run`): on PostgreSQL on a pooled connection, on
SQLite on its worker thread, where nothing it awaits ever suspends.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any, Protocol

_PARAM = re.compile(r"\$(\d+)")
_CODE_POINTS = ' COLLATE "C"'  # PostgreSQL's code-point order: SQLite's own (BINARY) already

Row = Sequence[Any]  # a tuple (SQLite) or an asyncpg Record: read by index or unpacked


@dataclass(frozen=True, slots=True)
class Sql:
    """One statement in each dialect's words."""

    postgres: str
    sqlite: str


def sql(text: str, *, sqlite: str | None = None) -> Sql:
    """A statement in PostgreSQL's words; SQLite's are ``text`` with ``$n`` made ``?n`` and
    ``COLLATE "C"`` dropped, unless given.  A cast (``::``) is PostgreSQL's alone, so a
    statement with one must give SQLite's words."""
    if sqlite is None:
        if "::" in text:
            raise ValueError(f"a cast is PostgreSQL's: give SQLite's words for {text[:60]!r}")
        sqlite = _PARAM.sub(r"?\1", text.replace(_CODE_POINTS, ""))
    return Sql(text, sqlite)


class Conn(Protocol):
    """A connection as an operation sees it.  Every method raises
    :class:`~server.store.errors.Duplicate` when a unique key is taken.  A ``list``
    argument is an array: PostgreSQL's ``$1::text[]``, and on SQLite a JSON text, read with
    ``json_each`` (where the dialects' statements differ anyway)."""

    async def execute(self, q: Sql, *args: Any) -> int:
        """Run ``q``; the rows it changed."""

    async def executemany(self, q: Sql, rows: Iterable[Sequence[Any]]) -> None: ...

    async def fetch(self, q: Sql, *args: Any) -> list[Row]: ...

    async def fetchrow(self, q: Sql, *args: Any) -> Row | None: ...

    async def fetchval(self, q: Sql, *args: Any) -> Any:
        """The first column of the first row (None without a row)."""

    async def script(self, text: str) -> None:
        """Run a migration's statements (this dialect's own text)."""

    def transaction(self, *, snapshot: bool = False) -> AbstractAsyncContextManager[Any]:
        """A transaction that writes (SQLite: holding the write lock from its start), or with
        ``snapshot`` one that only reads, all of it from one snapshot."""
