"""Match review: a finished match, deal by deal, with all hands shown and the reviewer's
own plays solved against the best open-card play (:mod:`engine.review`).

Only finished matches have a record, so a running match cannot be reviewed, nor one whose
record is not shown yet (:class:`~server.runtime.features.Reveals`: a daily game's, which
holds its day's seed, until its day is over).  The reviewer's seat is the
one it held when the match started; the solving runs in the bot workers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..table.room import Room
from ..table.room_entries import Started, decode
from ..wire.protocol import ProtocolError

if TYPE_CHECKING:
    from ..runtime.bots import Bots
    from ..runtime.features import Reveals
    from ..store.logs import LogEntry
    from ..store.rooms import RoomStore


def starting_seats(room_id: str, log: list[LogEntry]) -> list[str | None]:
    """Who sat where when the room's match started (None: a CPU or nobody)."""
    entries = []
    for item in log:
        entries.append(decode(item.entry))
        if isinstance(entries[-1], Started):
            break
    return [seat.player for seat in Room.from_log(room_id, entries).seats]


class Reviews:
    def __init__(self, store: RoomStore, bots: Bots, reveals: Reveals) -> None:
        self.store = store
        self.bots = bots
        self.reveals = reveals  # records not shown yet

    async def review(self, player_id: str, match_id: str, number: int) -> dict[str, Any]:
        """Deal ``number`` of finished match ``match_id``, reviewed for ``player_id``'s seat
        (no plays solved for a player who did not play it)."""
        record = await self.store.match(match_id)
        if record is None:
            raise ProtocolError("no_such_match", f"no finished match {match_id!r}")
        if self.reveals.hidden(record):
            raise ProtocolError("daily_not_over", "a daily game's review opens after its day")
        seats = starting_seats(match_id, await self.store.log(match_id, 0))
        seat = seats.index(player_id) if player_id in seats else None
        try:
            answer = await self.bots.review(record, number, seat)
        except IndexError as err:
            raise ProtocolError("no_such_deal", str(err)) from None
        return {"match_id": match_id, "seat": seat, **answer}
