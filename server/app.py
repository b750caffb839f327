"""The server process: it composes the parts, then runs them in order.

``Server.__init__`` wires storage, the router (one process, or a node of a cluster), the
fenced journal, the lobby, the room and tournament kinds and their domain-event
subscriptions; nothing else in the server knows all of them.  ``Server.start`` opens
storage, resumes every live room and tournament from its log, then listens;
``Server.stop`` is the ordered, idempotent shutdown: stop accepting, stop the actors (every
accepted action is already durable), hand them to other nodes, close sockets with 1012,
stop the bot workers, close storage.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from websockets.asyncio.server import Server as WsServer
from websockets.asyncio.server import ServerConnection, serve

from .club.clubs import Clubs
from .club.clubs import handlers as clubs_handlers
from .club.evenings import Evenings
from .club.evenings import handlers as club_handlers
from .cluster import ClusterRouter
from .core.clock import Clock, RealClock
from .core.config import Settings
from .core.logs import log
from .core.lru import Lru
from .core.metrics import Metrics
from .core.tidy import Tidy
from .daily import Daily
from .daily import handlers as daily_handlers
from .daily import routes as daily_routes
from .edge.connection import Client
from .edge.keepalive import Keepalive
from .edge.limits import Connections, FailedAttempts
from .edge.session import Session
from .http.endpoints import Endpoints
from .lobby import Identity, Lobby
from .lobby.identity import NICKNAMES_CACHED
from .lobby.invites import Invites
from .players.service import Players
from .records.review import Reviews
from .runtime.bots import Bots
from .runtime.domain_events import Events
from .runtime.journal import Journal
from .runtime.peer import CLOSE_POLICY, CLOSE_RESTART, CLOSE_TRY_LATER
from .runtime.ports import Ports
from .runtime.router import ROOM, TOURNAMENT, Ref, Router
from .scoresheet.sheets import Sheets
from .store import StoreError, Stores, open_stores
from .table.rematch import Rematches
from .table.room import PLAYING
from .table.rooms import Rooms
from .tournament.tournaments import Tournaments
from .wire.frames import check_frames

HARD_FRAME_LIMIT = 64 * 1024  # beyond this websockets closes with 1009; up to it, an error frame

T = TypeVar("T")


class Server:
    def __init__(
        self, settings: Settings, stores: Stores | None = None, clock: Clock | None = None
    ) -> None:
        self.settings = settings
        check_frames(settings.check_frames)
        self.stores = stores = stores if stores is not None else open_stores(settings)
        self.clock = clock = clock or RealClock()
        self.metrics = Metrics()
        self.lobby = Lobby(clock.now)
        self.events = Events()
        self.identity = Identity(stores.identities, Lru(NICKNAMES_CACHED), clock.wall)
        self.cluster: ClusterRouter | None = None
        if settings.redis_url:  # a cluster: the nodes share out the live actors
            self.cluster = ClusterRouter(
                settings, stores.logs, self.lobby, self.identity.nicknames, self.metrics
            )
        self.router: Router = self.cluster or Router()
        journal = Journal(stores.logs, stores.rooms, stores.tournaments, self._fenced, self._behind)
        self.bots = Bots(
            settings.bot_workers, settings.bot_queue, settings.bot_budget, self.metrics,
            settings.cpu_delay,
        )  # this node's own pool of search processes  # fmt: skip
        ports = Ports(
            settings, clock, journal, self.router, self.events, self.identity.nicknames,
            self.metrics, self.bots,
        )  # fmt: skip
        self.rooms = Rooms(ports, stores.rooms, self.identity)
        self.tournaments = Tournaments(ports, stores.tournaments, self.identity, self.rooms)
        self.sheets = Sheets(ports, stores.sheets, self.identity)
        self.router.register(self.rooms)
        self.router.register(self.tournaments)
        self.router.register(self.sheets)
        self.evenings = Evenings(ports, stores.evenings, self.sheets)
        self.router.register(self.evenings)
        self.clubs = Clubs(ports, stores.clubs, self.evenings, self.sheets)
        self.router.register(self.clubs)
        self.daily = Daily(ports, stores.daily, stores.rooms, self.rooms)
        self.lobby.subscribe(self.events)
        self.tournaments.subscribe(self.events)
        self.daily.subscribe(self.events)
        self.players = Players(ports, stores.players, self.daily)
        self.players.subscribe(self.events)
        reviews = Reviews(stores.rooms, self.bots, self.daily)
        rematches = Rematches(stores.rooms, self.rooms, self.lobby)
        attempts = FailedAttempts(settings.attempts, settings.attempts_window, clock.now)
        self.keepalive = Keepalive(settings.ping_interval, settings.ping_timeout)
        coded = _coded(attempts)  # a club's evening_create is the club's to run
        clubs = clubs_handlers(self.clubs, coded, club_handlers(self.evenings, coded))
        self.session = Session(
            self.router, self.lobby, self.identity, self.rooms, stores.rooms, self.daily, reviews,
            rematches, self.players, self.sheets, attempts, self.keepalive,
            {**daily_handlers(self.daily), **clubs},
        )  # fmt: skip
        self.http = Endpoints(
            self.router, self.metrics, stores.rooms, stores.identities, self.daily,
            self.players, self.sheets, self.evenings, Invites(stores.rooms, self.lobby.directory),
            attempts, self.cluster.node if self.cluster else None, daily_routes(self.daily),
            frozenset(o.strip() for o in settings.allowed_origins.split(",") if o.strip()),
            settings.trust_forwarded, clubs=self.clubs,
        )  # fmt: skip
        self.metrics.rooms.set_function(lambda: len(self.router.held(ROOM)))
        self.metrics.tables.set_function(
            lambda: sum(a.room.status == PLAYING for a in self.router.held(ROOM))  # type: ignore[attr-defined]
        )
        self.ws: WsServer | None = None
        self.clients: set[Client] = set()
        self.connections = Connections(settings.max_per_address, settings.max_connections)
        self._stopped = False
        self._poller: asyncio.Task[None] | None = None
        self._unwatch_gc: Callable[[], None] | None = None  # the timing of collections
        self.tidy = Tidy(
            lambda: len(self.clients) + len(self.router.actors), settings.tidy_every,
            self.metrics.tidied,
        )  # fmt: skip

    @property
    def port(self) -> int:
        assert self.ws is not None
        return self.ws.sockets[0].getsockname()[1]

    def _fenced(self, key: str) -> None:
        """An append of ``key`` was fenced off: another node took it over; let it go."""
        actor = self.router.actors.get(key)
        if actor is not None:
            asyncio.get_running_loop().create_task(self.router.relinquish(actor))

    def _behind(self, key: str) -> None:
        """``key``'s log holds an entry its actor never folded in (a write reported as
        failed went in): load it again from the log, its followers re-attached."""
        actor = self.router.actors.get(key)
        if actor is not None:
            followers = [c for c in self.clients if c.following(key) is not None]
            asyncio.get_running_loop().create_task(self.router.reload(actor, followers))

    async def start(self) -> None:
        await self.stores.open()
        if self.settings.redis_url and not self.settings.database_url:
            raise RuntimeError("a cluster (KLAVERJAS_REDIS_URL) needs a shared PostgreSQL")
        if self.cluster is not None:
            await self.cluster.start()  # adopts the live actors nobody holds
        else:
            await self.router.load_all()
            self._poller = asyncio.create_task(self._poll_tournaments(), name="tournament-poller")
        await self.tournaments.ensure_open_quick()
        await self.tournaments.ensure_series()
        self.ws = await serve(
            self._handler,
            self.settings.host,
            self.settings.port,
            process_request=self.http,
            max_size=HARD_FRAME_LIMIT,
            compression=None,  # frames are small JSON: deflate would cost a zlib state each
            max_queue=64,
            ping_interval=None,  # our Keepalive pings only the quiet connections
            ping_timeout=None,
        )
        self.keepalive.start()
        self._unwatch_gc = self.metrics.watch_gc()
        self.tidy.start()
        loop = type(asyncio.get_running_loop()).__module__.partition(".")[0]  # asyncio, uvloop
        log.info("server_started", port=self.port, resumed=len(self.router.actors), loop=loop)

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
        held = [Ref(a.kind, a.key) for a in self.router.actors.values()]
        for kind in (TOURNAMENT, ROOM):  # tournaments first: they open rooms
            for actor in self.router.held(kind):
                await actor.stop()
        if self.cluster is not None:  # hand every actor to the other nodes now
            await self.cluster.stop(held)
        for client in list(self.clients):
            client.close(CLOSE_RESTART, "server restarting: resume shortly")
        if self.ws is not None:
            try:  # a client that never completes its close must not hold the shutdown up
                await asyncio.wait_for(self.ws.wait_closed(), timeout=5)
            except TimeoutError:
                log.warning("connections_not_closed", open=len(self.clients))
        await self.keepalive.stop()
        await self.bots.close()  # the actors are stopped: no search is waited for
        await self.tidy.stop()
        await self.stores.close()
        if self._unwatch_gc is not None:
            self._unwatch_gc()
        log.info("server_stopped")

    async def _poll_tournaments(self) -> None:
        """Pick up tournaments scheduled from the command line while we run."""
        while True:
            await asyncio.sleep(self.settings.tournament_poll)
            try:
                await self.router.load_all(TOURNAMENT)
            except StoreError as err:
                log.warning("tournament_poll_failed", error=str(err))

    async def _handler(self, ws: ServerConnection) -> None:
        client = Client(ws, self.settings, self.clock.now, self.metrics)
        if not self.connections.admit(client.address):
            client.close(CLOSE_TRY_LATER, "too many connections: try again later")
            await client.finish()
            return
        if self.cluster is not None:
            self.cluster.connected(client)
        self.clients.add(client)
        self.keepalive.add(client)
        self.metrics.connections.inc()
        deadline = self.clock.sleep_until(self.clock.now() + self.settings.hello_timeout)
        deadline.add_done_callback(lambda _: self._hello_late(client))
        try:
            await self.session.serve(client)
        finally:
            deadline.cancel()
            self.connections.release(client.address)
            self.clients.discard(client)
            self.keepalive.forget(client)
            self.metrics.connections.dec()
            if self.cluster is not None:
                self.cluster.disconnected(client)

    def _hello_late(self, client: Client) -> None:
        """A connection that has not said hello in time is let go."""
        if not client.identified and client in self.clients:
            client.close(CLOSE_POLICY, "no hello in time")


def _coded(attempts: FailedAttempts) -> Callable[[Any, Awaitable[T]], Awaitable[T]]:
    """A feature's check of a secret code, counted against its connection's address."""
    return lambda client, work: attempts.coded(client.address, work)
