"""One task per tournament: the only writer of its state.

It wakes at the start time, seats each round in rooms of its own, hears when those rooms
finish, advances the winners, and tells its players and watchers every change.  All of it
goes through the durable log first, so a restart resumes a tournament where it stood.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..actor import Actor
from ..connection import encode
from ..logs import log
from .state import CANCELLED, FINISHED, RUNNING, SCHEDULED, Tournament, TournamentError

if TYPE_CHECKING:
    from ..app import Services
    from ..connection import Peer

PERIODS = {"hourly": 3600.0, "daily": 86400.0}


class TournamentActor(Actor):
    closed_code = "tournament_closed"

    def __init__(self, tournament: Tournament, services: Services) -> None:
        super().__init__(services.clock, f"tournament {tournament.id}", log.bind(tid=tournament.id))
        self.t = tournament
        self.s = services
        self.watchers: set[Peer] = set()

    @property
    def key(self) -> str:
        return self.t.id

    def start(self) -> None:
        self._schedule()
        super().start()

    def finished(self) -> bool:
        return self.t.status in (FINISHED, CANCELLED)

    def on_exit(self) -> None:
        if self.finished():
            self.s.retire_tournament(self)

    def on_failure(self) -> None:
        self.deadline = self.clock.now() + 1.0

    def _schedule(self) -> None:
        """Wake at the start time (a scheduled tournament that does not wait to be full)."""
        t = self.t
        if t.status == SCHEDULED and not t.start_when_full:
            self.deadline = self.clock.now() + max(0.0, t.start_at - self.clock.wall())
        else:
            self.deadline = None

    async def on_deadline(self) -> None:
        await self._advance()

    # -- committing ----------------------------------------------------------------------

    async def commit(self, entry: dict[str, Any]) -> None:
        """Durable first, then folded in, then told to everyone concerned."""
        version = self.t.version + 1
        await self.s.store_append(self, version, entry)
        status = self.t.status
        self.t.apply(entry)
        if status != self.t.status:
            await self.s.store.set_tournament_status(self.t.id, self.t.status)
            self.log.info("tournament_status", status=self.t.status)
        self._schedule()
        self.publish()

    def publish(self) -> None:
        summary = self.summary()
        self.s.tournament_changed(summary)
        frame = encode({"type": "tournament", "tournament": summary})
        players = {*self.t.registered, *self.t.left}
        self.s.to_players(players, frame)
        for client in self.watchers:
            if client.player_id not in players:
                client.send_text(frame)

    def summary(self) -> dict[str, Any]:
        return self.t.summary(self.s.nicknames)

    async def _advance(self) -> None:
        """Take every step now due: the start (or cancellation), rooms, next rounds."""
        t = self.t
        start = t.start_entry(self.clock.wall())
        if start is not None:
            await self.commit(start)
        if t.repeat and t.status != SCHEDULED:
            await self.s.schedule_next(t, t.start_at + PERIODS[t.repeat])
        while t.status == RUNNING:
            for index, table in enumerate(t.current):
                if table.room_id is None:
                    room_id = await self.s.open_tournament_room(t, index)
                    await self.commit({"t": "table_room", "table": index, "room_id": room_id})
            step = t.next_entry()
            if step is None:
                return
            await self.commit(step)
        if t.status == FINISHED and t.start_when_full:
            await self.s.ensure_open_quick()

    # -- commands (run inside the actor via ``call``) -----------------------------------

    async def register(self, client: Peer) -> None:
        await self.commit(self.t.check_register(client.player_id))
        if self.t.start_when_full:
            await self._advance()

    async def unregister(self, client: Peer) -> None:
        await self.commit(self.t.check_unregister(client.player_id))

    async def leave(self, client: Peer) -> None:
        entry = self.t.check_leave(client.player_id)
        if entry["t"] == "unregistered":
            await self.commit(entry)
            return
        table = self.t.table_of(client.player_id)
        await self.commit(entry)
        if table is not None and table.room_id is not None and table.winner is None:
            await self.s.replace_with_cpu(table.room_id, client.player_id)

    async def watch(self, client: Peer) -> None:
        self.watchers.add(client)
        client.tournaments[self.t.id] = self
        client.send({"type": "tournament", "tournament": self.summary()})

    def unwatch(self, client: Peer) -> None:
        self.watchers.discard(client)
        client.tournaments.pop(self.t.id, None)

    async def table_finished(self, room_id: str, winner: int, totals: list[int]) -> None:
        for index, table in enumerate(self.t.current):
            if table.room_id == room_id and table.winner is None:
                entry = {"t": "table_finished", "table": index, "winner": winner, "totals": totals}
                await self.commit(entry)
                await self._advance()
                return

    async def table_progress(self, room_id: str, totals: list[int]) -> None:
        """Live scores of a running table (not durable: the room's log has them)."""
        for table in self.t.current:
            if table.room_id == room_id and table.winner is None:
                table.totals = list(totals)
                self.publish()

    async def resume(self) -> None:
        """After a restart: rooms that finished while the log did not hear of it."""
        for table in self.t.current if self.t.status == RUNNING else []:
            if table.room_id is not None and table.winner is None:
                result = await self.s.finished_room_result(table.room_id)
                if result is not None:
                    await self.table_finished(table.room_id, *result)
        await self._advance()


__all__ = ["TournamentActor", "TournamentError"]
