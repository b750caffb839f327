"""Rooms' rows (their logs are :mod:`server.store.logs`'), their finished matches' records,
and rematches."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from .codec import dumps, loads
from .errors import Duplicate, StoreError
from .logs import Logged
from .sql import Conn, Row, sql

_COLS = "id, owner, invite_code, status, created_at"
_ADD = sql(f"INSERT INTO rooms ({_COLS}) VALUES ($1, $2, $3, $4, $5)")
_ROOM = sql(f"SELECT {_COLS} FROM rooms WHERE id = $1")
_BY_INVITE = sql(f"SELECT {_COLS} FROM rooms WHERE invite_code = $1")
_WITH_STATUS = sql(  # oldest first; ids in code-point order whatever the database's locale
    f'SELECT {_COLS} FROM rooms WHERE status = ANY($1::text[]) ORDER BY created_at, id COLLATE "C"',
    sqlite=f"SELECT {_COLS} FROM rooms WHERE status IN (SELECT value FROM json_each(?1))"
    " ORDER BY created_at, id",
)
_SET_STATUS = sql("UPDATE rooms SET status = $1 WHERE id = $2")
_SAVE_MATCH = sql("INSERT INTO matches (id, room_id, record, created_at) VALUES ($1, $2, $3, $4)")
_MATCH = sql("SELECT record FROM matches WHERE id = $1")
_ACCEPT = sql(
    "INSERT INTO rematch_accepts (room_id, player_id) VALUES ($1, $2) ON CONFLICT DO NOTHING"
)
_ACCEPTED = sql(
    'SELECT player_id FROM rematch_accepts WHERE room_id = $1 ORDER BY player_id COLLATE "C"'
)
_CLAIM = sql("INSERT INTO rematches (room_id, new_room_id) VALUES ($1, $2) ON CONFLICT DO NOTHING")
_CLAIMED = sql("SELECT new_room_id FROM rematches WHERE room_id = $1")


@dataclass(frozen=True, slots=True)
class RoomRow:
    id: str
    owner: str
    invite_code: str | None  # private rooms only
    status: str  # "open" | "playing" | "finished" | "closed"
    created_at: float


def _room(row: Row | None) -> RoomRow | None:
    return None if row is None else RoomRow(*row)


class RoomStore(Logged):
    async def add_room(self, room: RoomRow, first: dict[str, Any]) -> None:
        """Create a room with its log entry version 1, atomically."""
        row = (room.id, room.owner, room.invite_code, room.status, float(room.created_at))
        await self.create("room", room.id, _ADD, row, first)

    async def set_room_status(self, room_id: str, status: str) -> None:
        what = f"set status of room {room_id!r}"
        if await self._execute(what, _SET_STATUS, status, room_id) == 0:
            raise StoreError(f"cannot set status of room {room_id!r}: no such room")

    async def room(self, room_id: str) -> RoomRow | None:
        return _room(await self._fetchrow(f"room {room_id!r}", _ROOM, room_id))

    async def room_by_invite(self, invite_code: str) -> RoomRow | None:
        return _room(await self._fetchrow("room by invite code", _BY_INVITE, invite_code))

    async def rooms_with_status(self, *statuses: str) -> list[RoomRow]:
        """Rooms whose status is any of ``statuses``, oldest first."""
        if not statuses:
            return []
        rows = await self._fetch(f"rooms with status {statuses!r}", _WITH_STATUS, list(statuses))
        return [RoomRow(*row) for row in rows]

    # -- finished matches ------------------------------------------------------------------

    async def save_match(self, match_id: str, room_id: str, record: dict[str, Any]) -> None:
        row = (match_id, room_id, dumps(record, f"match {match_id!r} record"), time.time())
        try:
            await self._execute(f"save match {match_id!r}", _SAVE_MATCH, *row)
        except Duplicate as exc:
            raise StoreError(f"cannot save match {match_id!r}: {exc}") from exc

    async def match(self, match_id: str) -> dict[str, Any] | None:
        text = await self._fetchval(f"match {match_id!r}", _MATCH, match_id)
        return None if text is None else loads(text, f"match {match_id!r} record")

    # -- rematches -------------------------------------------------------------------------

    async def accept_rematch(self, room_id: str, player_id: str) -> list[str]:
        """Note that ``player_id`` accepts a rematch of finished room ``room_id``; every
        player who has, in id order."""

        async def run(conn: Conn) -> list[str]:
            await conn.execute(_ACCEPT, room_id, player_id)
            return [row[0] for row in await conn.fetch(_ACCEPTED, room_id)]

        return await self.db.run(f"accept rematch of {room_id!r}", run)

    async def claim_rematch(self, room_id: str, new_room_id: str) -> str:
        """The room of ``room_id``'s rematch: ``new_room_id`` if none was named before (the
        first caller wins, on every node), else the one named."""

        async def run(conn: Conn) -> str:
            await conn.execute(_CLAIM, room_id, new_room_id)
            # a statement of its own: it sees a row another node committed meanwhile
            return await conn.fetchval(_CLAIMED, room_id)

        return await self.db.run(f"claim rematch of {room_id!r}", run)
