"""Rematches: after a finished match, the same four players (CPUs at their levels and with
their names) at a new table with new deals and every seat moved one to the left, once every
human has accepted.  The new table keeps the old one's rules, timer, privacy and rating: a
rematch of a rated match of four humans is rated too (and gives no hints).

Acceptances and the new table's id are kept in the store, so the players may accept on
different nodes and the table is made once; each acceptance is told to the match's
players wherever they are connected (a ``rematch`` frame), the last one with the new
table's id, which they ``resume``.
"""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING

from ..core.ids import new_id, new_invite_code
from ..store.errors import StoreError
from ..wire import protocol as p
from ..wire.frames import frame
from . import room_entries as entries
from .room import Room

if TYPE_CHECKING:
    from ..lobby import Lobby
    from ..runtime.peer import Peer
    from ..store.rooms import RoomStore
    from .rooms import Rooms


def at_start(room_id: str, log: list[entries.Entry]) -> Room:
    """The room as it stood when its match started (its seats then)."""
    started = next(i for i, e in enumerate(log) if isinstance(e, entries.Started))
    return Room.from_log(room_id, log[: started + 1])


def cpu_names(room: Room) -> tuple[str | None, ...]:
    """The names of ``room``'s CPUs at the seats they move to (None: a human's seat)."""
    names: list[str | None] = [None] * 4
    for index, seat in enumerate(room.seats):
        if seat.cpu:
            names[(index + 1) % 4] = room.cpu_nickname(index)
    return tuple(names)


def rotated(room: Room) -> list[entries.Entry]:
    """The seats of ``room`` one to the left, as the new table's entries: who sits where,
    every player ready."""
    seated: list[entries.Entry] = []
    ready: list[entries.Entry] = []
    for index, seat in enumerate(room.seats):
        to = (index + 1) % 4
        seated.append(entries.Seated(to, seat.player, seat.cpu, seat.level if seat.cpu else None))
        if seat.player is not None:
            ready.append(entries.Readied(to, True))
    return seated + ready


class Rematches:
    def __init__(self, store: RoomStore, rooms: Rooms, lobby: Lobby) -> None:
        self.store = store
        self.rooms = rooms
        self.lobby = lobby

    async def accept(self, peer: Peer, room_id: str) -> None:
        """``peer``'s player accepts a rematch of finished room ``room_id``."""
        if await self.store.match(room_id) is None:
            raise p.ProtocolError("no_such_match", f"no finished match {room_id!r}")
        log = [entries.decode(e.entry) for e in await self.store.log(room_id)]
        room = at_start(room_id, log)
        if room.tournament is not None or room.mode == entries.DAILY:
            where = "a tournament table" if room.tournament else "the daily game"
            raise p.ProtocolError("rematch_not_allowed", f"no rematch of {where}")
        humans = sorted({s.player for s in room.seats if s.player is not None})
        if peer.player_id not in humans:
            raise p.ProtocolError("not_seated", "you did not play this match")
        accepted = await self.store.accept_rematch(room_id, peer.player_id)
        table = None
        if set(humans) <= set(accepted):
            table = await self.store.claim_rematch(room_id, new_id("r"))
            if await self.store.room(table) is None:
                await self._open(room, table)
        waiting = [h for h in humans if h not in accepted]
        message = frame(p.RematchOut, room_id=room_id, accepted=accepted, waiting=waiting,
                        new_room_id=table)  # fmt: skip
        self.lobby.tell(frozenset(humans), message)

    async def _open(self, room: Room, table: str) -> None:
        first = entries.Created(
            room.owner, room.name, room.rules, room.move_seconds, room.private,
            new_invite_code() if room.private else None, secrets.randbits(62), mode=room.mode,
            rated=room.rated, cpu_names=cpu_names(room),
        )  # fmt: skip
        try:
            await self.rooms.open_seated(room.owner, first, table, rotated(room))
        except StoreError:  # another node made it meanwhile
            if await self.store.room(table) is None:
                raise
