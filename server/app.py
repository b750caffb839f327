"""The server process: storage, lobby, room actors, websockets and HTTP, in order.

``Server.start`` opens storage, resumes every unfinished room from its log, then listens;
``Server.stop`` is the ordered, idempotent shutdown: stop accepting, stop the rooms
(every accepted action is already durable), close sockets with 1012, close storage.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time
from http import HTTPStatus
from typing import Any

from websockets.asyncio.server import Server as WsServer
from websockets.asyncio.server import ServerConnection, serve
from websockets.datastructures import Headers
from websockets.http11 import Request, Response

from engine import Match, Rules, preset
from engine.errors import NotationError

from . import protocol as p
from . import static
from .actor import Actor
from .clock import Clock, RealClock
from .cluster import Cluster
from .config import Settings
from .connection import CLOSE_RESTART, Client
from .ids import new_id, new_invite_code
from .lobby import Directory, Identity
from .logs import log
from .metrics import Metrics
from .session import serve_client
from .store.base import Fenced, RoomRow, Store, StoreError
from .store.factory import open_store
from .table.actor import RoomActor
from .table.room import FINISHED, OPEN, PLAYING, Room, RoomError
from .tournament import Tournament, TournamentActor
from .tournament.schedule import new_tournament, next_id
from .tournament.state import MOVE_SECONDS

HARD_FRAME_LIMIT = 64 * 1024  # beyond this websockets closes with 1009; up to it, an error frame


class Services:
    """What room actors and sessions share inside one process."""

    def __init__(self, settings: Settings, store: Store, clock: Clock) -> None:
        self.settings = settings
        self.store = store
        self.clock = clock
        self.metrics = Metrics()
        self.nicknames: dict[str, str] = {}
        self.actors: dict[str, RoomActor] = {}
        self.tournaments: dict[str, TournamentActor] = {}
        self.sessions: dict[str, set[Client]] = {}  # player id -> its open connections
        self.directory = Directory()
        self.cluster: Cluster | None = None  # set when Redis is configured
        self._adopting: dict[str, asyncio.Future[Actor | None]] = {}
        self.identity = Identity(store, self.nicknames, clock.wall)
        self.clock_perf = time.perf_counter
        self.metrics.rooms.set_function(lambda: len(self.actors))
        self.metrics.tables.set_function(
            lambda: sum(a.room.status == PLAYING for a in self.actors.values())
        )

    async def store_append(self, actor: Actor, version: int, entry: dict[str, Any]) -> None:
        """Make an actor's entry durable; refused if another node has taken the actor over."""
        try:
            await self.store.append(actor.key, version, entry, epoch=actor.epoch)
        except Fenced:
            log.warning("fenced", key=actor.key, epoch=actor.epoch)
            asyncio.get_running_loop().create_task(self.relinquish(actor))
            raise RoomError(
                "room_unavailable", "the table is moving to another server: try again"
            ) from None
        except StoreError as err:
            log.error("store_append_failed", key=actor.key, error=str(err))
            raise RoomError("storage_unavailable", "storage is unavailable: try again") from None

    async def room_changed(self, actor: RoomActor) -> None:
        """Mirror a room's status into the store and the lobby (the log is the truth).

        A finished match's record is saved before its room is marked finished, so a crash
        in between is repaired when the room is resumed from its log.
        """
        room = actor.room
        if room.status == FINISHED:
            await self.save_record(room)
        row = await self.store.room(room.id)
        if row is not None and row.status != room.status:
            await self.store.set_room_status(room.id, room.status)
        self.room_listed(actor.summary())
        if room.tournament and room.status == FINISHED and room.match is not None:
            winner, totals = room.match.winner, list(room.match.totals)
            if winner is not None:
                await self.tell(room.tournament, "table_finished", room.id, winner, totals)

    async def save_record(self, room: Room) -> None:
        """Store a finished match's record once (idempotent)."""
        if room.match is not None and await self.store.match(room.id) is None:
            await self.store.save_match(room.id, room.id, room.match.to_record())

    async def tournament_progress(self, room: Room) -> None:
        if room.tournament and room.match is not None:
            await self.tell(room.tournament, "table_progress", room.id, list(room.match.totals))

    async def tell(self, key: str, op: str, *args: Any) -> None:
        """Ask the actor of ``key`` (here, or on the node that owns it) to run ``op``."""
        if not self.tell_here(key, op, list(args)) and self.cluster is not None:
            await self.cluster.tell(key, op, list(args))

    def tell_here(self, key: str, op: str, args: list[Any]) -> bool:
        """Queue ``op`` in the actor of ``key`` if it runs on this node."""
        actor = self.actors.get(key) or self.tournaments.get(key)
        if actor is None:
            return False
        command = getattr(actor, op)
        actor.tell(lambda: command(*args))
        return True

    def room_listed(self, summary: dict[str, Any]) -> None:
        """A room's summary changed: the lobby of every node hears of it."""
        if self.cluster is not None:
            self.cluster.publish_room(summary)
        else:
            self.directory.update(summary)

    def tournament_changed(self, summary: dict[str, Any]) -> None:
        if self.cluster is not None:
            self.cluster.publish_tournament(summary)
        else:
            self.directory.update_tournament(summary)

    def online_here(self) -> int:
        return sum(1 for clients in self.sessions.values() if clients)

    def presence_changed(self) -> None:
        """A player came or went: the lobby's count (a cluster counts on its sweep)."""
        if self.cluster is None:
            self.directory.set_online(self.online_here())

    def to_players(self, players: set[str], frame: str, everywhere: bool = True) -> None:
        """Send ``frame`` to every connection of these players (on every node)."""
        for player in players:
            for client in self.sessions.get(player, ()):
                client.send_text(frame)
        if everywhere and self.cluster is not None:
            self.cluster.to_players(players, frame)

    def retire(self, actor: RoomActor) -> None:
        self.actors.pop(actor.room.id, None)

    def launch(self, room: Room, epoch: int | None = None) -> RoomActor:
        actor = RoomActor(room, self)
        actor.epoch = epoch
        self.actors[room.id] = actor
        actor.start()
        self.room_listed(actor.summary())
        return actor

    async def own(self, key: str) -> int | None:
        """Take the lease of a new room or tournament (a cluster): its fencing epoch."""
        if self.cluster is None:
            return None
        if not await self.cluster.claim(key):
            raise RoomError("room_unavailable", "could not take the new table: try again")
        return await self.store.fence(key)

    async def create_room(self, client: Client, m: p.CreateRoom) -> None:
        options = {k: v for k, v in m.rules.model_dump().items() if v is not None}
        try:
            rules = Rules.from_dict(options)
        except NotationError as err:
            raise p.ProtocolError("invalid_field", f"rules: {err}") from None
        room_id = new_id("r")
        code = new_invite_code() if m.private else None
        name = m.name or f"{client.nickname}'s table"
        first = Room.created_entry(
            client.player_id, name, rules, m.move_seconds, m.private, code, secrets.randbits(62)
        )
        try:
            await self.store.add_room(
                RoomRow(room_id, client.player_id, code, OPEN, self.clock.wall()), first
            )
        except StoreError:
            raise RoomError("storage_unavailable", "storage is unavailable: try again") from None
        actor = self.launch(Room.from_log(room_id, [first]), await self.own(room_id))
        if m.seat is not None:
            await actor.call(lambda: actor.take_seat(client, m.seat))  # type: ignore[arg-type]
        else:
            await actor.call(lambda: actor.watch(client))

    async def locate(self, key: str) -> Actor | str | None:
        """The actor of a room or tournament on this node, else the node that owns it; a
        live one that nobody owns is taken over here.  None: no such live room."""
        actor = self.actors.get(key) or self.tournaments.get(key)
        if actor is not None or self.cluster is None:
            return actor
        node = await self.cluster.owner(key)
        if node is not None and node != self.cluster.node:
            return node
        return await self.adopt(key)

    async def adopt(self, key: str) -> Actor | None:
        """Take over a live room or tournament that no node owns: lease, fence, replay."""
        assert self.cluster is not None
        if key in self._adopting:
            return await asyncio.shield(self._adopting[key])
        future: asyncio.Future[Actor | None] = asyncio.get_running_loop().create_future()
        self._adopting[key] = future
        try:
            actor = await self._adopt(self.cluster, key)
            future.set_result(actor)
            return actor
        except BaseException as err:
            future.set_exception(err)
            future.exception()  # retrieved: callers waiting on it get it too
            raise
        finally:
            del self._adopting[key]

    async def _adopt(self, cluster: Cluster, key: str) -> Actor | None:
        existing = self.actors.get(key) or self.tournaments.get(key)
        if existing is not None or cluster.stopping or not await cluster.claim(key):
            return existing
        try:
            epoch = await self.store.fence(key)
            actor: Actor | None
            if key.startswith("t_"):
                trow = await self.store.tournament(key)
                live = trow is not None and trow.status in ("scheduled", "running")
                actor = await self._load_tournament(key, epoch) if live else None
            else:
                row = await self.store.room(key)
                live = row is not None and row.status in (OPEN, PLAYING)
                actor = await self._load_room(key, epoch) if live else None
        except BaseException:
            await cluster.release([key])
            raise
        if actor is None or not actor.running:
            await cluster.release([key])
            return None
        log.info("adopted", key=key, epoch=epoch)
        cluster.announce(key)
        return actor

    async def relinquish(self, actor: Actor) -> None:
        """This node lost the lease of ``actor``: stop it; its members follow the new owner."""
        if self.actors.get(actor.key) is actor:
            del self.actors[actor.key]
        if self.tournaments.get(actor.key) is actor:
            del self.tournaments[actor.key]
        log.warning("relinquished", key=actor.key)
        await actor.stop()
        if isinstance(actor, RoomActor):
            for member in list(actor.members):
                member.rooms.pop(actor.key, None)  # keeps its version: it resumes from there
        elif isinstance(actor, TournamentActor):
            for watcher in list(actor.watchers):
                watcher.tournaments.pop(actor.key, None)
        if self.cluster is not None:
            self.cluster.moved_away(actor.key)

    # -- tournaments ---------------------------------------------------------------------

    async def schedule_tournament(
        self, fmt: str, start_at: float, fill_with_cpu: bool, start_when_full: bool,
        repeat: str | None,
    ) -> TournamentActor:  # fmt: skip
        tid, first = await new_tournament(
            self.store, fmt, start_at, fill_with_cpu, start_when_full, repeat, self.clock.wall()
        )
        return self.launch_tournament(Tournament.from_log(tid, [first]), await self.own(tid))

    async def schedule_next(self, t: Tournament, start_at: float) -> None:
        """The next of a repeating series, once: its id follows from the previous one, so a
        restart between a start and this call still schedules it, and never twice."""
        tid = next_id(t.id)
        if tid in self.tournaments or await self.store.tournament(tid) is not None:
            return
        _, first = await new_tournament(
            self.store, t.format, start_at, t.fill_with_cpu, False, t.repeat,
            self.clock.wall(), tid=tid,
        )  # fmt: skip
        self.launch_tournament(Tournament.from_log(tid, [first]), await self.own(tid))

    def launch_tournament(
        self, tournament: Tournament, epoch: int | None = None
    ) -> TournamentActor:
        actor = TournamentActor(tournament, self)
        actor.epoch = epoch
        self.tournaments[tournament.id] = actor
        actor.start()
        self.tournament_changed(actor.summary())
        return actor

    def retire_tournament(self, actor: TournamentActor) -> None:
        self.tournaments.pop(actor.t.id, None)

    async def ensure_open_quick(self) -> None:
        """Keep one "start when full" Quick tournament open (an operator setting)."""
        if not self.settings.quick_when_full:
            return
        if self.cluster is not None:  # one for the whole cluster, whichever node makes it
            async with self.cluster.lock("quick"):
                rows = await self.store.tournaments_with_status("scheduled")
                if not any(row.start_at == 0 for row in rows):
                    await self.schedule_tournament("quick", 0.0, False, True, None)
            return
        if not any(
            a.t.start_when_full and a.t.status == "scheduled" for a in self.tournaments.values()
        ):
            await self.schedule_tournament("quick", 0.0, False, True, None)

    async def open_tournament_room(self, tournament: Tournament, index: int) -> str:
        """A room for table ``index`` of the current round, seated and started."""
        room_id = new_id("r")
        seats = tournament.current[index].seats
        name = f"{tournament.format} round {len(tournament.rounds)} table {index + 1}"
        first = Room.created_entry(
            "system", name, preset("tournament"), MOVE_SECONDS, False, None,
            secrets.randbits(62), tournament=tournament.id, seats=list(seats),
        )  # fmt: skip
        await self.store.add_room(RoomRow(room_id, "system", None, OPEN, self.clock.wall()), first)
        for entrant in seats:
            if not entrant.startswith("cpu:"):
                await self.identity.nickname(entrant)
        actor = self.launch(Room.from_log(room_id, [first]), await self.own(room_id))
        await actor.call(actor.begin)
        return room_id

    async def replace_with_cpu(self, room_id: str, player: str) -> None:
        await self.tell(room_id, "replace_with_cpu", player)

    async def finished_room_result(self, room_id: str) -> tuple[int, list[int]] | None:
        record = await self.store.match(room_id)
        if record is None:
            return None
        match = Match.from_record(record)
        return (match.winner, list(match.totals)) if match.winner is not None else None

    async def load_tournaments(self) -> int:
        """Start an actor for every scheduled or running tournament not yet held here."""
        rows = await self.store.tournaments_with_status("scheduled", "running")
        fresh = [row for row in rows if row.id not in self.tournaments]
        for row in fresh:
            await self._load_tournament(row.id, None)
        return len(fresh)

    async def resume_rooms(self) -> int:
        rows = await self.store.rooms_with_status(OPEN, PLAYING)
        for row in rows:
            await self._load_room(row.id, None)
        return len(rows)

    async def _load_tournament(self, tid: str, epoch: int | None) -> TournamentActor:
        entries = [e.entry for e in await self.store.log(tid)]
        tournament = Tournament.from_log(tid, entries)
        for player in tournament.registered:
            await self.identity.nickname(player)
        actor = self.launch_tournament(tournament, epoch)
        actor.tell(actor.resume)
        return actor

    async def _load_room(self, room_id: str, epoch: int | None) -> RoomActor:
        """Replay a room's log and run it (repairing a finished one's status and record)."""
        entries = [e.entry for e in await self.store.log(room_id)]
        room = Room.from_log(room_id, entries)
        for seat in room.seats:
            if seat.player:
                await self.identity.nickname(seat.player)
        actor = self.launch(room, epoch)
        if room.status not in (OPEN, PLAYING):
            await self.room_changed(actor)
        return actor


class Server:
    def __init__(
        self, settings: Settings, store: Store | None = None, clock: Clock | None = None
    ) -> None:
        if store is None:
            store = open_store(settings)
        self.settings = settings
        self.services = Services(settings, store, clock or RealClock())
        self.ws: WsServer | None = None
        self.clients: set[Client] = set()
        self._stopped = False
        self._poller: asyncio.Task[None] | None = None
        self.static = static.load()  # the browser client

    @property
    def port(self) -> int:
        assert self.ws is not None
        return self.ws.sockets[0].getsockname()[1]

    async def start(self) -> None:
        services = self.services
        await services.store.open()
        if self.settings.redis_url and not self.settings.database_url:
            raise RuntimeError("a cluster (KLAVERJAS_REDIS_URL) needs a shared PostgreSQL")
        if self.settings.redis_url:  # a cluster: the nodes share out the live tables
            services.cluster = Cluster(self.settings, services)
            await services.cluster.start()
            resumed = len(services.actors)
        else:
            resumed = await services.resume_rooms()
            await services.load_tournaments()
            self._poller = asyncio.create_task(self._poll_tournaments(), name="tournament-poller")
        await services.ensure_open_quick()
        self.ws = await serve(
            self._handler,
            self.settings.host,
            self.settings.port,
            process_request=self._http,
            max_size=HARD_FRAME_LIMIT,
            compression=None,  # frames are small JSON: deflate would cost a zlib state each
            max_queue=64,
            ping_interval=self.settings.ping_interval,
            ping_timeout=self.settings.ping_timeout,
        )
        log.info("server_started", port=self.port, resumed_rooms=resumed)

    async def stop(self) -> None:
        """Ordered, idempotent shutdown."""
        if self._stopped:
            return
        self._stopped = True
        if self.ws is not None:
            self.ws.close(close_connections=False)  # stop accepting
        if self._poller is not None:
            self._poller.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._poller
        held = [*self.services.tournaments, *self.services.actors]
        for tournament in list(self.services.tournaments.values()):
            await tournament.stop()
        for actor in list(self.services.actors.values()):
            await actor.stop()
        if self.services.cluster is not None:  # hand every table to the other nodes now
            await self.services.cluster.stop(held)
        for client in list(self.clients):
            client.close(CLOSE_RESTART, "server restarting: resume shortly")
        if self.ws is not None:
            await asyncio.wait_for(self.ws.wait_closed(), timeout=5)
        await self.services.store.close()
        log.info("server_stopped")

    async def _poll_tournaments(self) -> None:
        """Pick up tournaments scheduled from the command line while we run."""
        while True:
            await asyncio.sleep(self.settings.tournament_poll)
            try:
                await self.services.load_tournaments()
            except StoreError as err:
                log.warning("tournament_poll_failed", error=str(err))

    async def _handler(self, ws: ServerConnection) -> None:
        client = Client(ws, self.services)
        if self.services.cluster is not None:
            self.services.cluster.connected(client)
        self.clients.add(client)
        self.services.metrics.connections.inc()
        try:
            await serve_client(client, self.services)
        finally:
            self.clients.discard(client)
            self.services.metrics.connections.dec()

    async def _http(self, connection: ServerConnection, request: Request) -> Response | None:
        path = request.path.split("?")[0]
        if request.headers.get("Upgrade", "").lower() == "websocket":
            return None
        if path == "/cluster":
            cluster = self.services.cluster
            body = {
                "node": cluster.node if cluster else None,
                "rooms": sorted(self.services.actors),
                "tournaments": sorted(self.services.tournaments),
            }
            return _response(HTTPStatus.OK, json.dumps(body).encode(), "application/json")
        if path == "/healthz":
            return _response(HTTPStatus.OK, b"ok\n", "text/plain")
        if path == "/metrics":
            return _response(
                HTTPStatus.OK, self.services.metrics.render(), "text/plain; version=0.0.4"
            )
        if path in self.static:
            body, kind = self.static[path]
            return _response(HTTPStatus.OK, body, kind, cache="no-cache")
        if path.startswith("/matches/"):
            record = await self.services.store.match(path.removeprefix("/matches/"))
            if record is None:
                return _response(HTTPStatus.NOT_FOUND, b"no such match\n", "text/plain")
            return _response(HTTPStatus.OK, json.dumps(record).encode(), "application/json")
        return _response(HTTPStatus.NOT_FOUND, b"not found\n", "text/plain")


def _response(status: HTTPStatus, body: bytes, kind: str, cache: str | None = None) -> Response:
    headers = Headers([("Content-Type", kind), ("Content-Length", str(len(body)))])
    if cache is not None:
        headers["Cache-Control"] = cache
    return Response(status.value, status.phrase, headers, body)
