"""The storage interface: players, rooms and tournaments with their durable logs, and
finished match records.

Two implementations: :mod:`server.store.sqlite` (the embedded default) and, later,
PostgreSQL.  Every method is a coroutine; ``append`` returns only once the entry is
durable (committed), so a caller may broadcast after it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol


class StoreError(Exception):
    """The store refused or could not complete an operation (nothing was written)."""


class VersionConflict(StoreError):
    """A log entry with this room and version already exists."""


class Fenced(StoreError):
    """An ``append`` presented a fencing epoch that is not the key's current one.

    Another process has called :meth:`Store.fence` for the key since (or never called it):
    the caller no longer owns the room or tournament and must stop writing to it.
    """

    @classmethod
    def refused(
        cls, room_id: str, version: int, epoch: int, current: int | BaseException | None
    ) -> Fenced:
        """The error for an append of ``version`` with ``epoch``.  ``current`` is the key's
        epoch as read afterwards, for the message: ``None`` if it was never fenced, an
        exception if it could not be read."""
        if current is None:
            why = "it was never fenced"
        elif isinstance(current, BaseException):
            why = f"its current epoch could not be read ({type(current).__name__})"
        elif current > epoch:
            why = f"its epoch is now {current}: another owner took over"
        else:
            why = f"its epoch is {current}"
        return cls(
            f"room {room_id!r}: append of version {version} with fencing epoch {epoch} "
            f"refused: {why}"
        )


@dataclass(frozen=True, slots=True)
class PlayerRow:
    id: str
    nickname: str
    token_hash: bytes
    created_at: float


@dataclass(frozen=True, slots=True)
class RoomRow:
    id: str
    owner: str
    invite_code: str | None  # private rooms only
    status: str  # "open" | "playing" | "finished" | "closed"
    created_at: float


@dataclass(frozen=True, slots=True)
class TournamentRow:
    id: str
    format: str  # "classic" | "quick"
    status: str  # "scheduled" | "running" | "finished" | "cancelled"
    start_at: float  # epoch seconds; 0 for "start when full"
    created_at: float


@dataclass(frozen=True, slots=True)
class LogEntry:
    room_id: str
    version: int  # 1, 2, 3, ... without gaps
    entry: dict[str, Any]  # JSON-serialisable


class Store(Protocol):
    async def open(self) -> None:
        """Connect and apply pending migrations."""

    async def close(self) -> None:
        """Finish pending writes and release the connection; idempotent."""

    async def add_player(self, player: PlayerRow) -> None: ...

    async def player_by_token_hash(self, token_hash: bytes) -> PlayerRow | None: ...

    async def player(self, player_id: str) -> PlayerRow | None: ...

    async def add_room(self, room: RoomRow, first: dict[str, Any]) -> None:
        """Create a room with its log entry version 1, atomically."""

    async def set_room_status(self, room_id: str, status: str) -> None: ...

    async def room(self, room_id: str) -> RoomRow | None: ...

    async def room_by_invite(self, invite_code: str) -> RoomRow | None: ...

    async def rooms_with_status(self, *statuses: str) -> list[RoomRow]: ...

    async def append(
        self, room_id: str, version: int, entry: dict[str, Any], epoch: int | None = None
    ) -> None:
        """Durably append one log entry; raises :class:`VersionConflict` on a duplicate.

        With ``epoch``, the entry is written only if ``room_id``'s fencing epoch (see
        :meth:`fence`) is exactly ``epoch`` when it commits; otherwise nothing is written and
        :class:`Fenced` is raised.  ``epoch=None`` skips the check.
        """

    async def fence(self, key: str) -> int:
        """Atomically increment and return ``key``'s fencing epoch (1 the first time).

        Once this returns, no ``append`` to ``key`` with an older epoch can commit, from any
        process sharing the database: an append already holding the old epoch commits
        before the increment does, and any later one is refused with :class:`Fenced`.
        A new owner of a room or tournament calls this once and appends with the result.
        """

    async def log(self, room_id: str, after: int = 0) -> list[LogEntry]:
        """The room's log entries with version > ``after``, in order."""

    async def save_match(self, match_id: str, room_id: str, record: dict[str, Any]) -> None: ...

    async def add_tournament(self, tournament: TournamentRow, first: dict[str, Any]) -> None:
        """Create a tournament with its log entry version 1 (the log shares ``append``)."""

    async def set_tournament_status(self, tournament_id: str, status: str) -> None: ...

    async def tournament(self, tournament_id: str) -> TournamentRow | None: ...

    async def tournaments_with_status(self, *statuses: str) -> list[TournamentRow]: ...

    async def match(self, match_id: str) -> dict[str, Any] | None: ...
