"""The durable logs of rooms, tournaments and sheets (one table, ``room_log``, by key) and
their fencing epochs: the journal's store.

A key's log holds versions 1, 2, 3, ... without gaps; an entry is a JSON object.  Version 1
is written with the key's row (:meth:`Logged.create`), the others by :meth:`LogStore.append`,
which returns only once the entry is durable, so a caller may broadcast after it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .codec import dumps, loads
from .database import Database, Store
from .errors import Duplicate, StoreError, VersionConflict
from .sql import Conn, Sql, sql

_INSERT_LOG = sql("INSERT INTO room_log (room_id, version, entry) VALUES ($1, $2, $3)")
_LOG = sql(
    "SELECT version, entry FROM room_log WHERE room_id = $1 AND version > $2 ORDER BY version"
)
_LOGS = sql(  # several keys' whole logs at once
    "SELECT room_id, version, entry FROM room_log WHERE room_id = ANY($1::text[])"
    " ORDER BY room_id, version",
    sqlite="SELECT room_id, version, entry FROM room_log"
    " WHERE room_id IN (SELECT value FROM json_each(?1)) ORDER BY room_id, version",
)
_FENCE = sql(
    "INSERT INTO fences (id, epoch) VALUES ($1, 1)"
    " ON CONFLICT (id) DO UPDATE SET epoch = fences.epoch + 1 RETURNING epoch"
)
_EPOCH = sql("SELECT epoch FROM fences WHERE id = $1")


@dataclass(frozen=True, slots=True)
class LogEntry:
    room_id: str
    version: int  # 1, 2, 3, ... without gaps
    entry: dict[str, Any]  # JSON-serialisable


class Logged(Store):
    """A store of things kept as a log (rooms, tournaments, sheets): it reads their logs,
    and makes one's row together with its first entry."""

    async def log(self, room_id: str, after: int = 0) -> list[LogEntry]:
        """The key's log entries with version > ``after``, in order."""
        rows = await self._fetch(f"log of room {room_id!r}", _LOG, room_id, after)
        return [
            LogEntry(room_id, version, loads(text, f"room {room_id!r} log entry {version}"))
            for version, text in rows
        ]

    async def logs(self, keys: list[str]) -> dict[str, list[LogEntry]]:
        """Each key's whole log, in order, read at once (a key without one is left out)."""
        found: dict[str, list[LogEntry]] = {}
        for key, version, text in await self._fetch(f"logs of {len(keys)} keys", _LOGS, keys):
            entry = loads(text, f"room {key!r} log entry {version}")
            found.setdefault(key, []).append(LogEntry(key, version, entry))
        return found

    async def create(
        self, what: str, key: str, insert: Sql, row: tuple[Any, ...], first: dict[str, Any]
    ) -> None:
        """Add ``row`` (with ``insert``) and ``key``'s log entry version 1, atomically; a
        :class:`VersionConflict` if the log has one, a :class:`StoreError` if the row's
        key or a unique value of it is taken."""
        text = dumps(first, f"{what} {key!r} log entry 1")

        async def run(conn: Conn) -> None:
            async with conn.transaction():
                await conn.execute(insert, *row)
                await conn.execute(_INSERT_LOG, key, 1, text)

        try:
            await self.db.run(f"add {what} {key!r}", run, turn=key)
        except Duplicate as exc:
            if exc.table == "room_log":
                raise VersionConflict(f"{what} {key!r} already has log version 1") from exc
            raise StoreError(f"cannot add {what} {key!r}: {exc}") from exc


class LogStore(Logged):
    """Appends and fencing: what an actor writes as it runs, and who may write."""

    def __init__(self, db: Database) -> None:
        super().__init__(db)
        # The database's own append, with nothing in between: the hot path.  It returns once
        # the entry is durable; raises VersionConflict on a duplicate, and with ``epoch``
        # writes only if the key's fencing epoch is exactly ``epoch`` when it commits,
        # otherwise raises Fenced (``epoch=None`` skips the check).
        self.append = db.append

    @property
    def failing_since(self) -> float | None:
        """See :attr:`server.store.database.Database.failing_since`."""
        return self.db.failing_since

    async def fence(self, key: str) -> int:
        """Atomically increment and return ``key``'s fencing epoch (1 the first time).

        Once this returns, no ``append`` to ``key`` with an older epoch can commit, from any
        process sharing the database: an append already holding the old epoch commits
        before the increment does, and any later one is refused with ``Fenced``.  A new
        owner of a room or tournament calls this once and appends with the result.
        """
        return int(await self._fetchval(f"fence {key!r}", _FENCE, key, turn=key))

    async def epoch(self, key: str) -> int | None:
        """``key``'s fencing epoch now (None: never fenced)."""
        epoch = await self._fetchval(f"epoch of {key!r}", _EPOCH, key)
        return None if epoch is None else int(epoch)
