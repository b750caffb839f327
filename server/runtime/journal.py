"""The fenced log: how an actor makes its changes durable, over the store.

Each method returns once the write is committed.  A failure of ours never reaches the
client as a refusal: a store that is down is :func:`~server.errors.storage_unavailable`,
and an append whose fencing epoch is stale (another node took the actor over) is
:func:`~server.errors.room_unavailable` and tells the router this node lost the key.  An
append whose version the log holds already means an earlier append reported as failed
went in after all (its connection was lost as it committed): the actor is behind its own
log, so it is ``room_unavailable`` too, and the actor is loaded again from the log.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..core.errors import room_unavailable, storage_unavailable
from ..core.logs import log
from ..store.errors import Fenced, StoreError, VersionConflict
from ..store.logs import LogStore
from ..store.rooms import RoomStore
from ..store.tournaments import TournamentStore


class Journal:
    def __init__(
        self, logs: LogStore, rooms: RoomStore, tournaments: TournamentStore,
        lost: Callable[[str], None], behind: Callable[[str], None],
    ) -> None:  # fmt: skip
        self.logs = logs
        self.rooms = rooms
        self.tournaments = tournaments
        self._lost = lost  # called with a key whose append was fenced off
        self._behind = behind  # called with a key whose log is ahead of its actor

    async def append(self, key: str, version: int, entry: dict[str, Any], epoch: int | None):
        try:
            await self.logs.append(key, version, entry, epoch=epoch)
        except Fenced:
            log.warning("fenced", key=key, epoch=epoch)
            self._lost(key)
            raise room_unavailable() from None
        except VersionConflict:
            log.warning("log_ahead", key=key, version=version)
            self._behind(key)
            raise room_unavailable() from None
        except StoreError as err:
            log.error("store_append_failed", key=key, error=str(err))
            raise storage_unavailable() from None

    async def save_match(self, room_id: str, record: dict[str, Any]) -> None:
        """Store a finished match's record once (idempotent)."""
        try:
            if await self.rooms.match(room_id) is None:
                await self.rooms.save_match(room_id, room_id, record)
        except StoreError as err:
            log.error("save_match_failed", room_id=room_id, error=str(err))
            raise storage_unavailable() from None

    async def set_room_status(self, room_id: str, status: str) -> None:
        try:
            row = await self.rooms.room(room_id)
            if row is not None and row.status != status:
                await self.rooms.set_room_status(room_id, status)
        except StoreError as err:
            raise storage_unavailable() from err

    async def set_tournament_status(self, tournament_id: str, status: str) -> None:
        try:
            await self.tournaments.set_tournament_status(tournament_id, status)
        except StoreError as err:
            raise storage_unavailable() from err

    async def record(self, match_id: str) -> dict[str, Any] | None:
        """A finished match's record, if it is stored."""
        try:
            return await self.rooms.match(match_id)
        except StoreError as err:
            raise storage_unavailable() from err
