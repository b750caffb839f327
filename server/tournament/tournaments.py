"""Tournaments as a kind of actor: scheduling them, loading them from their logs, running a
client's tournament commands in them, and hearing how their tables go."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..runtime.actor_messages import TableFinished, TableProgress
from ..runtime.domain_events import DealEnded, Events, MatchEnded
from ..runtime.router import TOURNAMENT, Ref
from ..store.errors import StoreError
from ..wire import protocol as p
from ..wire.frames import frame
from . import tournament_entries as entries
from .schedule import first_start, new_tournament, parse_schedule, series_id
from .state import FINISHED, LIVE, SCHEDULED, Tournament, TournamentError
from .tournament_actor import Tables, TournamentActor, ending

if TYPE_CHECKING:
    from ..lobby import Identity
    from ..runtime.peer import Peer
    from ..runtime.ports import Ports
    from ..store.tournaments import TournamentStore


class Tournaments:
    """The tournament kind: what the router, the session and the server ask of them."""

    name = TOURNAMENT

    def __init__(
        self, ports: Ports, store: TournamentStore, identity: Identity, tables: Tables
    ) -> None:
        self.ports = ports
        self.store = store
        self.identity = identity
        self.tables = tables

    def subscribe(self, events: Events) -> None:
        """Hear how tournament tables go (rooms publish it; the tournament may run on
        another node, so it is told through the router)."""
        events.subscribe(DealEnded, self._deal_ended)
        events.subscribe(MatchEnded, self._match_ended)

    async def _deal_ended(self, e: DealEnded) -> None:
        if e.tournament is not None:
            message = TableProgress(e.room_id, e.totals)
            await self.ports.router.tell(Ref(TOURNAMENT, e.tournament), message)

    async def _match_ended(self, e: MatchEnded) -> None:
        if e.tournament is not None:
            message = TableFinished(e.room_id, e.winner, e.totals)
            await self.ports.router.tell(Ref(TOURNAMENT, e.tournament), message)

    # -- scheduling ----------------------------------------------------------------------

    async def schedule(
        self, fmt: str, start_at: float, fill_with_cpu: bool, start_when_full: bool,
        repeat: str | None, tid: str | None = None, auto: bool = False,
    ) -> None:  # fmt: skip
        """A new tournament, stored, then run here: adopted as any stored one is, so the
        poll for tournaments scheduled elsewhere, finding it meanwhile, runs the same one."""
        tid, _ = await new_tournament(
            self.store, fmt, start_at, fill_with_cpu, start_when_full, repeat,
            self.ports.clock.wall(), tid=tid, auto=auto,
        )  # fmt: skip
        await self.ports.router.adopt(Ref(TOURNAMENT, tid))

    async def schedule_next(self, t: Tournament, start_at: float) -> None:
        """The next of a repeating series (of the server's own schedule: while it is still
        configured so)."""
        if t.repeat is None or (t.auto and self._own_schedule() != t.repeat):
            return
        await self._schedule_series(t.format, t.repeat, t.fill_with_cpu, start_at, t.auto)

    async def ensure_series(self) -> None:
        """The server's own schedule (``quick_schedule``): the next Quick tournament of the
        series announced, CPUs filling its empty places; one for the whole lobby."""
        plan = parse_schedule(self.ports.settings.quick_schedule)
        if plan is None:
            return
        repeat, offset = plan
        start_at = first_start(repeat, offset, self.ports.clock.wall())
        async with self.ports.router.lock("quick-series"):
            await self._schedule_series("quick", repeat, True, start_at, True)

    def _own_schedule(self) -> str | None:
        plan = parse_schedule(self.ports.settings.quick_schedule)
        return None if plan is None else plan[0]

    async def _schedule_series(
        self, fmt: str, repeat: str, fill_with_cpu: bool, start_at: float, auto: bool
    ) -> None:
        """A series' tournament at ``start_at``, once: its id follows from what it is, so
        whoever schedules it (after a restart, or on another node) finds it made."""
        tid = series_id(fmt, repeat, fill_with_cpu, start_at)
        if tid in self.ports.router.actors or await self.store.tournament(tid) is not None:
            return
        try:
            await self.schedule(fmt, start_at, fill_with_cpu, False, repeat, tid=tid, auto=auto)
        except StoreError:
            if await self.store.tournament(tid) is None:
                raise  # (else another node made it a moment ago)

    async def ensure_open_quick(self) -> None:
        """Keep one "start when full" Quick tournament open (an operator setting), one for
        the whole lobby whichever process makes it."""
        if not self.ports.settings.quick_when_full:
            return
        async with self.ports.router.lock("quick"):
            rows = await self.store.tournaments_with_status(SCHEDULED)
            if not any(row.start_at == 0 for row in rows):
                await self.schedule("quick", 0.0, False, True, None)

    # -- the actor kind ------------------------------------------------------------------

    async def live(self) -> list[str]:
        return [row.id for row in await self.store.tournaments_with_status(*LIVE)]

    async def load(self, key: str, epoch: int | None) -> TournamentActor | None:
        row = await self.store.tournament(key)
        if row is None or row.status not in LIVE:
            return None
        tournament = await self._replay(key)
        if not tournament.live:
            if tournament.status == FINISHED:  # its node stopped before storing that
                await self.ports.events.publish(ending(tournament))
            await self.ports.journal.set_tournament_status(key, tournament.status)
            return None
        actor = TournamentActor(tournament, self.ports, self.tables, self)
        actor.epoch = epoch
        self.ports.router.hold(actor)
        await actor.relist()
        actor.tell(actor.resume)
        return actor

    async def _replay(self, key: str) -> Tournament:
        log = [entries.decode(e.entry) for e in await self.store.log(key)]
        tournament = Tournament.from_log(key, log)
        for player in {*tournament.registered, *tournament.left}:
            await self.identity.nickname(player)
        return tournament

    async def handle(self, actor: TournamentActor, peer: Peer, m: Any) -> None:
        match m:
            case p.TournamentRegister():
                await actor.call(lambda: actor.register(peer))
            case p.TournamentUnregister():
                await actor.call(lambda: actor.unregister(peer))
            case p.TournamentLeave():
                await actor.call(lambda: actor.leave(peer))
            case p.TournamentWatch():
                await actor.call(lambda: actor.watch(peer))
            case _:
                raise TypeError(f"not a tournament command: {type(m).__name__}")

    async def absent(self, key: str, peer: Peer, m: Any) -> None:
        """No actor runs it: one scheduled from the command line a moment ago is loaded
        here; an ended one is shown as it ended (to a watcher) or refuses."""
        row = await self.store.tournament(key)
        if row is None:
            raise p.ProtocolError("no_such_tournament", f"no tournament {key!r}")
        if row.status in LIVE:
            actor = await self.ports.router.adopt(Ref(TOURNAMENT, key))
            if actor is not None:
                await self.handle(actor, peer, m)
                return
        if isinstance(m, p.TournamentWatch):
            final = await self._replay(key)
            summary = final.summary(self.ports.names)
            peer.send(frame(p.TournamentStatus, tournament=summary))
            return
        raise TournamentError("registration_closed", f"the tournament is {row.status}")

    def rejoin(self, actor: TournamentActor, peer: Peer, since: int) -> None:
        actor.tell(lambda: actor.watch(peer))

    async def ended(self, key: str, peer: Peer, since: int) -> bool:
        return False  # (an ended tournament's last frame reaches its players by the lobby)
