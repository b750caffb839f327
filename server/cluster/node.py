"""One node of a cluster: the router over Redis, leases, and the shared lobby.

* **Ownership.**  Each live room and tournament runs on one node, which holds its lease
  (``<prefix>:lease:<key>``, this node's id, expiring after ``lease_seconds`` unless
  renewed) and a fencing epoch from the store: a node that lost its lease can no longer
  append to the log, whatever it believes.  Every node sweeps the store for the live keys
  of every registered kind; one whose lease lapsed (its node died) is adopted by replaying
  its log.  A node that stops hands its leases back and says so, and the others adopt at
  once.
* **Routing.**  A client's command for an actor on another node is forwarded there as a
  typed :class:`~server.cluster.messages.Forward`; a :class:`RemoteClient` runs it and
  sends back what the actor sends, and how the command went, in order.  When an actor
  moves, the new owner announces it and every node re-attaches its connections from the
  last version each one saw, so nobody misses an update.  With ``route`` set
  (``KLAVERJAS_ROUTE``, e.g. ``/n/{node}/``) a connection that starts following an actor
  here from another node is told this node's path (a ``route`` frame): a client that
  reconnects there and resumes is then served here, and nothing crosses Redis for it.
* **Lobby.**  Room and tournament summaries live in Redis hashes and every change is
  broadcast; each node mirrors them in its lobby's :class:`~server.lobby.Directory`.
* **Partitions.**  A node cut from Redis cannot renew its leases: each failed renewal it
  asks the store whether the fence of each actor it runs has moved on (another node took
  it over), and lets those go; once cut off for two leases (or as soon as a fence moved)
  it closes the connections that follow an actor it does not run (``1013``: they reconnect
  to another node and resume), since it can neither forward their commands nor hear the
  updates.  A node cut from the database (its store failing for a lease) hands every actor
  it runs to the others (stopped, leases released, ``Released``) and adopts nothing until
  the store answers again; its connections stay, their commands forwarded to the new
  owners.  Fencing keeps the log right whatever a node believes; these keep play going.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from collections.abc import AsyncIterator, MutableMapping
from typing import TYPE_CHECKING, Any

from redis.exceptions import RedisError

from ..core.config import Settings
from ..core.errors import Refused, Unavailable, room_unavailable
from ..core.ids import new_id
from ..core.logs import log
from ..core.metrics import Metrics
from ..core.status import LIVE_ROOM, LIVE_TOURNAMENT
from ..edge.connection import Client
from ..runtime.actor import Actor
from ..runtime.actor_messages import Message
from ..runtime.peer import CLOSE_TRY_LATER, Peer
from ..runtime.router import FORWARDED, ROOM, TOURNAMENT, Ref, Route, Router
from ..store.errors import StoreError
from .bus import Bus
from .envelope import (
    Batch,
    Close,
    Following,
    Forward,
    Frame,
    Gone,
    Left,
    Outcome,
    Owner,
    Rejoin,
    Released,
    RoomListed,
    Tell,
    ToPlayers,
    TournamentListed,
    Update,
)
from .remote import RemoteClient

if TYPE_CHECKING:
    from ..lobby import Lobby
    from ..store.logs import LogStore

# Renew every lease that is ours (or take it back after Redis lost it); return the lost.
_RENEW = """
local lost = {}
for i, key in ipairs(KEYS) do
  local holder = redis.call('GET', key)
  if holder == ARGV[1] then
    redis.call('PEXPIRE', key, ARGV[2])
  elseif holder or not redis.call('SET', key, ARGV[1], 'NX', 'PX', ARGV[2]) then
    table.insert(lost, key)
  end
end
return lost
"""
_RELEASE = """
for i, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then redis.call('DEL', key) end
end
return 0
"""


class ClusterRouter(Router):
    """The router of one node among several (see :class:`server.router.Router`)."""

    def __init__(
        self, settings: Settings, store: LogStore, lobby: Lobby, names: MutableMapping[str, str],
        metrics: Metrics,
    ) -> None:  # fmt: skip
        super().__init__()
        self.store = store
        self.lobby = lobby
        self.names = names  # player id -> nickname (a forwarded command brings its own)
        self.node = settings.node_id or new_id("n")
        self.route = route(settings.route, self.node)
        self._commands_out = metrics.crossed.labels("command")
        self._frames_out = metrics.crossed.labels("frame")
        metrics.remote_clients.set_function(lambda: len(self.remotes))
        self.lease_ms = max(1000, int(settings.lease_seconds * 1000))
        self.bus = Bus(
            settings.redis_url or "", settings.redis_prefix, self.node, self._on_message,
            self._recover,
        )  # fmt: skip
        self.stopping = False
        self.local: dict[str, Client] = {}  # connection id -> a connection to this node
        self.remotes: dict[tuple[str, str], RemoteClient] = {}  # (node, conn) -> stand-in
        self._out: dict[str, list[Any]] = {}  # node -> items to send it this turn
        self._moved: set[str] = set()  # keys announced as moved, re-attached this turn
        self._catching_up: set[tuple[str, str]] = set()  # (conn, room) re-attaching
        self._missing: dict[str, float] = {}  # node -> since when its heartbeat is missing
        self._tasks: list[asyncio.Task[None]] = []
        self._renew = self.bus.redis.register_script(_RENEW)
        self._release = self.bus.redis.register_script(_RELEASE)
        self._renewed_at = 0.0  # loop time of the latest renewal of our leases
        self.cut_off = False  # out of touch with Redis, and so with the other nodes
        self._handing_over: asyncio.Task[None] | None = None

    def lease(self, key: str) -> str:
        return self.bus.key(f"lease:{key}")

    # -- life ----------------------------------------------------------------------------

    async def start(self) -> None:
        self.lobby.relay = self
        await self.bus.start()
        await self._load_lobby()
        await self._beat()
        self._renewed_at = asyncio.get_running_loop().time()
        await self.sweep()
        self._tasks = [
            asyncio.create_task(self._every(self.lease_ms / 3000, self.keep_leases), name="leases"),
            asyncio.create_task(self._every(self.lease_ms / 2500, self.sweep), name="sweeper"),
        ]
        log.info("cluster_joined", node=self.node, adopted=len(self.actors))

    async def stop(self, held: list[Ref]) -> None:
        """Hand ``held`` (the actors just stopped) to the other nodes now."""
        self.stopping = True
        for task in self._tasks:
            task.cancel()
        with contextlib.suppress(RedisError, OSError):
            await self._release(keys=[self.lease(r.key) for r in held], args=[self.node])
            self.bus.publish(self.bus.everyone, Released(tuple(held)))
        with contextlib.suppress(RedisError, OSError):
            await self.bus.redis.delete(self.bus.key(f"node:{self.node}"))
            await self.bus.redis.hdel(self.bus.key("online"), self.node)
        await self.bus.close()
        log.info("cluster_left", node=self.node, handed_over=len(held))

    async def _every(self, seconds: float, job: Any) -> None:
        while True:
            await asyncio.sleep(seconds)
            try:
                await job()
            except (RedisError, OSError, StoreError, Unavailable) as err:
                log.warning("cluster_job_failed", job=job.__name__, error=str(err))

    # -- the router ----------------------------------------------------------------------

    async def own(self, ref: Ref) -> int | None:
        """Take the lease of a new actor: its fencing epoch."""
        if not await self._claim(ref.key):
            raise room_unavailable()
        try:
            return await self.store.fence(ref.key)
        except StoreError:
            with contextlib.suppress(RedisError, OSError):
                await self._release(keys=[self.lease(ref.key)], args=[self.node])
            raise

    async def locate(self, ref: Ref, peer: Peer, command: Any) -> Any:
        node = await self.owner(ref.key)
        if node is not None and node != self.node:
            if peer.forwarded:  # it moved on since its owner sent it here
                raise room_unavailable()
            assert isinstance(peer, Client)
            await self.forward(peer, node, ref, command)
            return FORWARDED
        if self.stopping:  # handing everything over: ask again once it runs elsewhere
            raise room_unavailable()
        actor = await self.adopt(ref)
        if actor is None and await self.owner(ref.key) not in (None, self.node):
            raise room_unavailable()  # another node took it first: ask again, it forwards
        return actor

    async def tell(self, ref: Ref, message: Message) -> None:
        if ref.key in self.actors:
            await super().tell(ref, message)
            return
        node = await self.owner(ref.key)
        if node is not None:  # else nobody holds it: whoever adopts it catches up
            self.bus.publish(self.bus.channel(f"node:{node}"), Tell(ref, message))

    async def _adopt(self, ref: Ref) -> Actor | None:
        """Take over a live actor that no node owns: lease, fence, replay."""
        existing = self.actors.get(ref.key)
        if existing is not None or self.stopping or self.store.failing_since is not None:
            return existing  # (a node that cannot store leaves it to the others)
        if not await self._claim(ref.key):
            return existing
        try:
            epoch = await self.store.fence(ref.key)
            actor = await self.kinds[ref.kind].load(ref.key, epoch)
        except BaseException:
            await self._release(keys=[self.lease(ref.key)], args=[self.node])
            raise
        if actor is None or not actor.running:
            await self._release(keys=[self.lease(ref.key)], args=[self.node])
            return None
        log.info("adopted", key=ref.key, epoch=epoch)
        self.bus.publish(self.bus.everyone, Owner(ref.key, self.node))
        return actor

    async def relinquish(self, actor: Actor) -> None:
        await super().relinquish(actor)
        self._follow({actor.key})  # our connections follow it to its new owner

    @contextlib.asynccontextmanager
    async def lock(self, name: str, seconds: float = 10.0) -> AsyncIterator[None]:
        """A short cluster-wide lock (one node does a job, not all of them)."""
        key, token = self.bus.key(f"lock:{name}"), new_id("l")
        for _ in range(int(seconds * 10)):
            if await self.bus.redis.set(key, token, nx=True, px=int(seconds * 1000)):
                break
            await asyncio.sleep(0.1)
        try:
            yield
        finally:
            with contextlib.suppress(RedisError, OSError):
                if await self.bus.redis.get(key) == token:
                    await self.bus.redis.delete(key)

    # -- leases --------------------------------------------------------------------------

    async def _claim(self, key: str) -> bool:
        try:
            return bool(
                await self.bus.redis.set(self.lease(key), self.node, nx=True, px=self.lease_ms)
            )
        except (RedisError, OSError):
            return False

    async def owner(self, key: str) -> str | None:
        try:
            return await self.bus.redis.get(self.lease(key))
        except (RedisError, OSError):
            raise room_unavailable() from None

    async def keep_leases(self) -> None:
        """Renew our leases (and let go of those we lost); see the module's "Partitions"
        for what a node does when it cannot, or when its store fails."""
        self._check_store()
        try:
            await self._beat()
            held = list(self.actors)
            lost = await self._renew(
                keys=[self.lease(k) for k in held], args=[self.node, self.lease_ms]
            ) if held else []  # fmt: skip
        except (RedisError, OSError):
            await self._out_of_touch()
            raise
        self._renewed_at = asyncio.get_running_loop().time()
        if self.cut_off:
            self.cut_off = False
            log.warning("cluster_rejoined", node=self.node)
            asyncio.get_running_loop().create_task(self.bus.recover())
        prefix = len(self.lease(""))
        for key in lost:
            actor = self.actors.get(key[prefix:])
            if actor is not None:
                await self.relinquish(actor)

    async def _out_of_touch(self) -> None:
        """Redis did not answer: let go of every actor another node took over meanwhile
        (its fence moved on); once cut off, send away the connections that follow an actor
        this node does not run (it can neither forward their commands nor hear updates)."""
        moved = False
        for actor in list(self.actors.values()):
            if actor.epoch is None:
                continue
            try:
                epoch = await self.store.epoch(actor.key)
            except StoreError:
                continue
            if epoch != actor.epoch and self.actors.get(actor.key) is actor:
                log.warning("fenced_off", key=actor.key, epoch=actor.epoch, now=epoch)
                await self.relinquish(actor)
                moved = True
        silent = asyncio.get_running_loop().time() - self._renewed_at
        if not self.cut_off and (moved or silent > 2 * self.lease_ms / 1000):
            self.cut_off = True
            log.warning("cluster_cut_off", node=self.node, silent=round(silent, 1))
        if not self.cut_off:
            return
        for client in list(self.local.values()):
            elsewhere = [k for k in (*client.versions, *client.watching) if k not in self.actors]
            if elsewhere:
                client.close(
                    CLOSE_TRY_LATER, "cut off from the other servers: reconnect and resume"
                )

    def _check_store(self) -> None:
        """A store failing for a lease: hand everything this node runs to the others."""
        since = self.store.failing_since
        if since is None or not self.actors or self.stopping or self._handing_over:
            return
        if time.monotonic() - since < self.lease_ms / 1000:
            return
        held = list(self.actors.values())
        log.warning("store_failing_handing_over", node=self.node, actors=len(held))
        self._handing_over = asyncio.get_running_loop().create_task(self._hand_over_all(held))

    async def _hand_over_all(self, held: list[Actor]) -> None:
        try:
            await self._hand_over(held)
        finally:
            self._handing_over = None

    async def reload(self, actor: Actor, followers: list[Peer]) -> None:
        """An actor behind its log is handed over like any: whoever adopts it first (this
        node, often) replays the log; every follower is re-attached there."""
        log.warning("reloading", key=actor.key)
        await self._hand_over([actor])

    async def _hand_over(self, held: list[Actor]) -> None:
        """Stop ``held``, release their leases and say so: the nodes adopt them at once."""
        for actor in held:
            self._forget(actor)
        await asyncio.gather(*(actor.stop() for actor in held))
        refs = tuple(Ref(a.kind, a.key) for a in held)
        with contextlib.suppress(RedisError, OSError):
            await self._release(keys=[self.lease(r.key) for r in refs], args=[self.node])
            self.bus.publish(self.bus.everyone, Released(refs))
        self._follow({r.key for r in refs})  # our connections follow them elsewhere

    async def _beat(self) -> None:
        """This node is alive (the others drop its connections' stand-ins when it is not),
        with its count of connected players; the lobby shows the sum over live nodes."""
        online = self.bus.key("online")
        pipe = self.bus.redis.pipeline(transaction=False)
        pipe.set(self.bus.key(f"node:{self.node}"), "1", px=self.lease_ms)
        pipe.hset(online, self.node, self.lobby.online_here())
        pipe.hgetall(online)
        *_, counts = await pipe.execute()
        nodes = sorted(counts)
        alive = await self.bus.redis.mget([self.bus.key(f"node:{n}") for n in nodes])
        gone = [n for n, beat in zip(nodes, alive, strict=True) if beat is None]
        if gone:
            await self.bus.redis.hdel(online, *gone)
        self.lobby.directory.set_online(
            sum(int(counts[n]) for n, beat in zip(nodes, alive, strict=True) if beat)
        )

    async def sweep(self) -> None:
        """Adopt every live actor that nobody holds, and every actor a connection here still
        follows (a score sheet is loaded only when asked for: its followers ask); forget the
        connections of nodes that died."""
        if self.stopping:
            return
        refs = [Ref(name, key) for name, kind in self.kinds.items() for key in await kind.live()]
        refs += [
            Ref(client.kinds.get(key, ROOM), key)
            for client in list(self.local.values())
            for key in client.versions
        ]
        refs = [r for r in dict.fromkeys(refs) if r.key not in self.actors]
        if refs:
            holders = await self.bus.redis.mget([self.lease(r.key) for r in refs])
            orphans = [r for r, holder in zip(refs, holders, strict=True) if holder is None]
            random.shuffle(orphans)  # nodes sweeping at once share the work out
            for ref in orphans:
                await self._try_adopt(ref)
        nodes = sorted({node for node, _ in self.remotes})
        if nodes:
            alive = await self.bus.redis.mget([self.bus.key(f"node:{n}") for n in nodes])
            now = asyncio.get_running_loop().time()
            for node, beat in zip(nodes, alive, strict=True):
                if beat is not None:
                    self._missing.pop(node, None)
                elif now - self._missing.setdefault(node, now) > self.lease_ms / 1000:
                    self._forget_node(node)  # silent for a whole lease: it died

    async def _try_adopt(self, ref: Ref) -> None:
        try:
            await self.adopt(ref)
        except (StoreError, RedisError, OSError, Refused, Unavailable) as err:
            log.warning("adopt_failed", key=ref.key, error=str(err))

    # -- connections here ----------------------------------------------------------------

    def connected(self, client: Client) -> None:
        self.local[client.conn_id] = client

    def disconnected(self, client: Client) -> None:
        self.local.pop(client.conn_id, None)
        if client.forwarded_any:
            self.bus.publish(self.bus.everyone, Gone(self.node, client.conn_id))

    async def forward(self, client: Client, node: str, ref: Ref, command: Any) -> None:
        """Send a command of ``client`` (a connection here) to the node that runs ``ref``."""
        client.forwarded_any = True
        if ref.kind == TOURNAMENT:
            client.watching.add(ref.key)
        else:
            client.kinds[ref.key] = ref.kind
        message = Forward(
            self.node, client.conn_id, client.player_id, client.nickname, ref,
            command.model_dump_json(), client.following(ref.key),
        )  # fmt: skip
        self._commands_out.inc()
        await self._send(node, message)

    async def _send(self, node: str, message: Forward | Rejoin) -> None:
        try:
            received = await self.bus.publish_counted(self.bus.channel(f"node:{node}"), message)
        except (RedisError, OSError):
            received = 0
        if not received:
            raise room_unavailable()

    def out(self, node: str, item: Any) -> None:
        """Queue an item for a connection on ``node``; one batch per node per turn."""
        if isinstance(item, Frame | Update):
            self._frames_out.inc()
        pending = self._out.get(node)
        if pending is None:
            pending = self._out[node] = []
            if len(self._out) == 1:
                asyncio.get_running_loop().call_soon(self._flush)
        pending.append(item)

    def _flush(self) -> None:
        out, self._out = self._out, {}
        for node, items in out.items():
            self.bus.publish(self.bus.channel(f"node:{node}"), Batch(tuple(items)))

    # -- the lobby's relay ---------------------------------------------------------------

    def publish_room(self, summary: dict[str, Any]) -> None:
        self._publish_summary("rooms", summary, summary["status"] in LIVE_ROOM)
        self.bus.publish(self.bus.everyone, RoomListed(summary))

    def publish_tournament(self, summary: dict[str, Any]) -> None:
        self._publish_summary("tournaments", summary, summary["status"] in LIVE_TOURNAMENT)
        self.bus.publish(self.bus.everyone, TournamentListed(summary))

    def _publish_summary(self, kind: str, summary: dict[str, Any], live: bool) -> None:
        key, data = self.bus.key(kind), json.dumps(summary, separators=(",", ":"))
        if live:
            self.bus.submit(lambda pipe: pipe.hset(key, summary["id"], data))
        else:
            self.bus.submit(lambda pipe: pipe.hdel(key, summary["id"]))

    async def _load_lobby(self) -> None:
        rooms = await self.bus.redis.hgetall(self.bus.key("rooms"))
        tournaments = await self.bus.redis.hgetall(self.bus.key("tournaments"))
        for data in rooms.values():
            self.lobby.directory.update(json.loads(data))
        for data in tournaments.values():
            self.lobby.directory.update_tournament(json.loads(data))

    def to_players(self, players: frozenset[str], frame: str) -> None:
        self.bus.publish(self.bus.everyone, ToPlayers(self.node, tuple(sorted(players)), frame))

    # -- receiving -----------------------------------------------------------------------

    def _on_message(self, m: Any) -> None:
        match m:
            case Batch(items=items):
                for item in items:
                    self._take(item)
            case Forward() | Rejoin():
                self._stand_in(m).push(m)
            case RoomListed(summary=summary):
                self.lobby.directory.update(summary)
            case TournamentListed(summary=summary):
                self.lobby.directory.update_tournament(summary)
            case ToPlayers(origin=origin, players=players, frame=frame) if origin != self.node:
                self.lobby.to_players(frozenset(players), frame)
            case Tell(to=ref, message=message):
                if (actor := self.actors.get(ref.key)) is not None:
                    actor.deliver(message)
            case Owner(key=key):
                self._follow({key})
            case Gone(node=node, conn=conn):
                if (remote := self.remotes.pop((node, conn), None)) is not None:
                    remote.gone()
            case Released(refs=refs) if not self.stopping:
                for ref in refs:
                    asyncio.get_running_loop().create_task(self._try_adopt(ref))

    def _stand_in(self, m: Forward | Rejoin) -> RemoteClient:
        remote = self.remotes.get((m.origin, m.conn))
        if remote is None:
            out = lambda item, node=m.origin: self.out(node, item)  # noqa: E731
            remote = RemoteClient(self, out, m.conn, m.player, m.nickname, self.route)
            self.remotes[(m.origin, m.conn)] = remote
            self.names.setdefault(m.player, m.nickname)
        return remote

    def _take(self, item: Any) -> None:
        """An item from an owner for one of our connections."""
        client = self.local.get(item.conn)
        if client is None:
            return
        match item:
            case Frame(text=text):
                client.send_text(text)
            case Update(snapshot=True):
                client.deliver(item.room_id, item.version, item.text, snapshot=True)
            case Update(room_id=room_id, version=version, text=text):
                last = client.versions.get(room_id)
                if last is None or version == last + 1:
                    client.deliver(room_id, version, text)
                elif version > last + 1:  # some went missing (Redis lost them): catch up
                    self._catch_up(client, room_id, last)
            case Following(room_id=room_id, version=version):
                client.caught_up(room_id, version)
            case Left(key=key):
                client.left(key)
            case Close(code=code, reason=reason):
                client.close(code, reason)
            case Outcome(code=None):
                client.succeeded()
            case Outcome(code=code, text=text, ref=ref, retry_after=None):
                client.refused(code, text, ref)  # type: ignore[arg-type]
            case Outcome(code=code, text=text, ref=ref, retry_after=retry_after):
                client.unavailable(code, text, retry_after, ref)  # type: ignore[arg-type]

    # -- following actors that move ------------------------------------------------------

    def _catch_up(self, client: Client, room_id: str, last: int) -> None:
        if (client.conn_id, room_id) not in self._catching_up:
            self._catching_up.add((client.conn_id, room_id))
            task = self._send_rejoin(client, Ref(client.kinds.get(room_id, ROOM), room_id), last)
            asyncio.get_running_loop().create_task(task).add_done_callback(
                lambda _: self._catching_up.discard((client.conn_id, room_id))
            )

    def _follow(self, keys: set[str]) -> None:
        """Actors moved: re-attach our connections to them (once per turn of the loop)."""
        if not self._moved:
            asyncio.get_running_loop().call_soon(self._rejoin_moved)
        self._moved |= keys

    def _rejoin_moved(self) -> None:
        moved, self._moved = self._moved, set()
        asyncio.get_running_loop().create_task(self._rejoin(moved))

    async def _rejoin(self, keys: set[str] | None) -> None:
        """Re-attach our connections to actors that moved (``None``: all), each from the
        last version it saw; an actor elsewhere replays what the connection missed."""
        jobs = [
            self._send_rejoin(client, Ref(client.kinds.get(key, ROOM), key), version)
            for client in list(self.local.values())
            for key, version in list(client.versions.items())
            if keys is None or key in keys
        ] + [
            self._send_rejoin(client, Ref(TOURNAMENT, key), 0)
            for client in list(self.local.values())
            for key in list(client.watching)
            if keys is None or key in keys
        ]
        await asyncio.gather(*jobs)

    async def _send_rejoin(self, client: Client, ref: Ref, since: int) -> None:
        """Re-attach ``client`` to ``ref`` wherever it runs now, trying for two leases
        while it is between owners."""
        key = ref.key
        for _ in range(int(2 * self.lease_ms / 250)):
            if client.conn_id not in self.local or (
                key not in client.versions and key not in client.watching
            ):
                return  # gone, or left it meanwhile
            if (actor := self.actors.get(key)) is not None:
                if client.memberships.get(key) is not actor:
                    self.kinds[ref.kind].rejoin(actor, client, since)
                return
            try:
                node = await self.owner(key)
                if node is not None and node != self.node:
                    rejoin = Rejoin(
                        self.node, client.conn_id, client.player_id, client.nickname, ref, since
                    )
                    await self._send(node, rejoin)
                    return
                if node is None and await self.kinds[ref.kind].ended(key, client, since):
                    return  # it ended meanwhile: the connection has heard how
            except (Unavailable, StoreError):
                pass
            await asyncio.sleep(0.25)
        log.warning("rejoin_failed", key=key, conn=client.conn_id)

    def _forget_node(self, node: str) -> None:
        for (n, conn), remote in list(self.remotes.items()):
            if n == node:
                del self.remotes[(n, conn)]
                remote.gone()

    async def _recover(self) -> None:
        """Redis came back (perhaps empty): leases, lobby, and what our connections missed
        while it was gone (again a lease later, once every node has settled who owns what)."""
        self._missing.clear()
        await self.keep_leases()
        for actor in list(self.actors.values()):
            await actor.relist()
        await self._load_lobby()
        await self._rejoin(None)
        await asyncio.sleep(self.lease_ms / 1000)
        await self._rejoin(None)


def route(template: str, node: str) -> Route | None:
    """This node's :class:`Route` from ``KLAVERJAS_ROUTE`` (None when it is empty)."""
    if not template:
        return None
    if not template.startswith("/") or template.count("{node}") != 1:
        raise ValueError(f"KLAVERJAS_ROUTE must be a path with one {{node}}: {template!r}")
    path = template.replace("{node}", node)
    if not all(c.isalnum() or c in "/-_." for c in path):
        raise ValueError(f"KLAVERJAS_ROUTE: {path!r} is not a plain path (the node id?)")
    return Route(node, path)
