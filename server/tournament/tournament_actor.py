"""One task per tournament: the only writer of its state.

The actor commits and sends; the :class:`~server.tournament.state.Tournament` decides.  It
wakes at the start time, opens a room for every table of a round, hears (as messages) how
those tables go, and tells its players and watchers every change.  All of it goes through
the durable log first, so a restart resumes a tournament where it stood.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from engine import Match, preset

from ..core.logs import log
from ..runtime.actor import Actor
from ..runtime.actor_messages import Message, ReplaceWithCpu, TableFinished, TableProgress
from ..runtime.domain_events import TournamentChanged, TournamentEnded
from ..runtime.peer import encode
from ..runtime.router import ROOM, TOURNAMENT, Ref
from ..wire import protocol as p
from ..wire.frames import frame as make
from .state import FINISHED, SCHEDULED, Tournament, TournamentError, is_cpu, table_name
from .tournament_entries import Entry

if TYPE_CHECKING:
    from ..runtime.peer import Peer
    from ..runtime.ports import Ports


class Tables(Protocol):
    """Where a tournament's tables are played (the room kind)."""

    async def open_table(
        self, tournament: str, name: str, rules: Any, move_seconds: int, seats: list[str | None],
        cpu_names: tuple[str | None, ...],
    ) -> str: ...  # fmt: skip


class Series(Protocol):
    """Tournaments that follow one another (the tournament kind)."""

    async def schedule_next(self, t: Tournament, start_at: float) -> None: ...

    async def ensure_open_quick(self) -> None: ...


class TournamentActor(Actor):
    kind = TOURNAMENT
    closed_code = "tournament_closed"

    def __init__(self, tournament: Tournament, ports: Ports, tables: Tables, series: Series):
        super().__init__(ports.clock, f"tournament {tournament.id}", log.bind(tid=tournament.id))
        self.t = tournament
        self.ports = ports
        self.tables = tables
        self.series = series
        self.watchers: set[Peer] = set()

    @property
    def key(self) -> str:
        return self.t.id

    def start(self) -> None:
        self._schedule()
        super().start()

    def finished(self) -> bool:
        return not self.t.live

    def on_exit(self) -> None:
        for watcher in list(self.watchers):
            watcher.memberships.pop(self.key, None)

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
        self._schedule()  # woken before the start by the wall clock (it moved): wait again

    # -- committing ----------------------------------------------------------------------

    async def commit_all(self, entries: list[Entry]) -> None:
        for entry in entries:
            await self.commit(entry)

    async def commit(self, entry: Entry) -> None:
        """Durable first, then folded in, then told to everyone concerned."""
        t = self.t
        await self.ports.journal.append(t.id, t.version + 1, entry.to_dict(), self.epoch)
        status = t.status
        t.apply(entry)
        if status != t.status:
            if t.status == FINISHED:  # heard before the status is stored (else again)
                await self.ports.events.publish(ending(t))
            await self.ports.journal.set_tournament_status(t.id, t.status)
            self.log.info("tournament_status", status=t.status)
        self._schedule()
        await self.publish()

    async def publish(self) -> None:
        summary = self.summary()
        players = frozenset({*self.t.registered, *self.t.left})
        await self.ports.events.publish(TournamentChanged(summary, players))
        frame = encode(make(p.TournamentStatus, tournament=summary))
        for peer in self.watchers:
            if peer.player_id not in players:
                peer.send_text(frame)

    def summary(self) -> dict[str, Any]:
        return self.t.summary(self.ports.names)

    async def relist(self) -> None:
        """Listed in the lobby (its players hear of changes, not of a listing)."""
        await self.ports.events.publish(TournamentChanged(self.summary(), frozenset()))

    async def _advance(self) -> None:
        """Take every step now due: the start (or cancellation), rooms, next rounds."""
        t = self.t
        begun = t.start(self.clock.wall())
        await self.commit_all(begun)
        if begun and t.start_when_full:  # no longer open: the next one opens now
            await self.series.ensure_open_quick()
        if (start_at := t.next_start(self.clock.wall())) is not None:
            await self.series.schedule_next(t, start_at)
        while t.live:
            for index in t.unhosted():
                room_id = await self._open_room(index)
                await self.commit_all(t.table_room(index, room_id))
            step = t.advance()
            if not step:
                return
            await self.commit_all(step)

    async def _open_room(self, index: int) -> str:
        t, spec = self.t, self.t.spec
        table = t.current[index]
        name = table_name(t.format, len(t.rounds), index + 1)
        return await self.tables.open_table(
            t.id, name, preset(spec.preset), spec.move_seconds, table.players, table.cpu_names
        )

    # -- commands (run inside the actor via ``call``) -----------------------------------

    async def register(self, peer: Peer) -> None:
        await self.commit_all(self.t.register(peer.player_id))
        if self.t.start_when_full:
            await self._advance()

    async def unregister(self, peer: Peer) -> None:
        await self.commit_all(self.t.unregister(peer.player_id))

    async def leave(self, peer: Peer) -> None:
        room_id = self.t.playing_at(peer.player_id)
        entries = self.t.leave(peer.player_id)
        await self.commit_all(entries)
        if room_id is not None and self.t.status != SCHEDULED:
            await self.ports.router.tell(Ref(ROOM, room_id), ReplaceWithCpu(peer.player_id))

    async def watch(self, peer: Peer) -> None:
        self.watchers.add(peer)
        peer.follow(self)
        peer.send(make(p.TournamentStatus, tournament=self.summary()))

    def detach(self, peer: Peer) -> None:
        self.watchers.discard(peer)
        peer.left(self.t.id)

    async def on_message(self, message: Message) -> None:
        if isinstance(message, TableFinished):
            entries = self.t.table_finished(message.room_id, message.winner, message.totals)
            if entries:
                await self.commit_all(entries)
                await self._advance()
        elif isinstance(message, TableProgress) and self.t.progress(
            message.room_id, message.totals
        ):
            await self.publish()

    async def resume(self) -> None:
        """After a restart: tables whose rooms finished while the log did not hear of it."""
        for table in list(self.t.current):
            if table.room_id is not None and table.winner is None:
                record = await self.ports.journal.record(table.room_id)
                if record is not None:
                    match = Match.from_record(record)
                    if match.winner is not None:
                        totals = (match.totals[0], match.totals[1])
                        await self.on_message(TableFinished(table.room_id, match.winner, totals))
        await self._advance()


def ending(t: Tournament) -> TournamentEnded:
    """The places of a finished tournament's players."""
    places = tuple(
        (e["entrant"], e["place"], e.get("prize")) for e in t.places() if not is_cpu(e["entrant"])
    )
    return TournamentEnded(t.id, places)


__all__ = ["TournamentActor", "TournamentError", "ending"]
