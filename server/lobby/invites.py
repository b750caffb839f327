"""What an invite code opens, told before its holder says hello (``GET /invites/<code>``):
the table's name, who made it, its rules and who sits where; never a card, a player's id or
the code's other holders' secrets.  That is no more than the holder sees by watching the
table with the code."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..core.errors import Refused
from ..core.ids import normalize_code

if TYPE_CHECKING:
    from ..store.rooms import RoomStore
    from .directory import Directory

# The fields of a room's summary an invite tells; of each seat, these.
ROOM_FIELDS = ("name", "owner_nickname", "mode", "status", "rules", "move_seconds", "rated")
SEAT_FIELDS = ("nickname", "cpu", "level", "cpu_name")


class Invites:
    def __init__(self, store: RoomStore, directory: Directory) -> None:
        self.store = store
        self.directory = directory  # every live room's summary, on every node

    async def room_of(self, code: str) -> str:
        """The id of the room ``code`` opens (``bad_invite``: a wrong code, which counts
        toward its address's wrong attempts)."""
        row = await self.store.room_by_invite(normalize_code(code))
        if row is None:
            raise Refused("bad_invite", "no room has that invite code")
        return row.id

    def describe(self, room_id: str) -> dict[str, Any]:
        """The live room ``room_id`` as its invite tells it (``no_such_room`` once it ended)."""
        summary = self.directory.live.get(room_id)
        if summary is None:
            raise Refused("no_such_room", "the table of that invite has ended")
        told = {key: summary[key] for key in ROOM_FIELDS}
        told["seats"] = [{key: seat[key] for key in SEAT_FIELDS} for seat in summary["seats"]]
        return told
