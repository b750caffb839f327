"""One node of a cluster: leases, routing between nodes, the shared lobby.

* **Ownership.**  Each live room and tournament runs on one node, which holds its lease
  (``<prefix>:lease:<id>``, this node's id, expiring after ``lease_seconds`` unless
  renewed) and a fencing epoch from the store: a node that lost its lease can no longer
  append to the log, whatever it believes.  Every node sweeps the store's live rooms and
  tournaments; one whose lease lapsed (its node died) is taken over by replaying its log.
  A node that stops hands its leases back and says so, and the others take over at once.
* **Routing.**  A client's frame for an actor on another node is forwarded there; a
  :class:`RemoteClient` runs it and sends back what the actor sends, in order.  When an
  actor moves, the new owner announces it and every node re-attaches its connections
  from the last version each one saw, so nobody misses an update.
* **Lobby.**  Room and tournament summaries live in Redis hashes and every change is
  broadcast; each node mirrors them in its :class:`~server.lobby.Directory`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

from redis.exceptions import RedisError

from ..config import Settings
from ..connection import Client
from ..errors import Refused
from ..ids import new_id
from ..logs import log
from ..store.base import StoreError
from .bus import Bus
from .remote import RemoteClient

if TYPE_CHECKING:
    from ..app import Services

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
UNAVAILABLE = "the table is moving to another server: try again"
LIVE_TOURNAMENTS = ("scheduled", "running")


class Cluster:
    def __init__(self, settings: Settings, services: Services) -> None:
        self.s = services
        self.node = settings.node_id or new_id("n")
        self.lease_ms = max(1000, int(settings.lease_seconds * 1000))
        self.bus = Bus(
            settings.redis_url or "", settings.redis_prefix, self.node, self._on_message,
            self._recover,
        )  # fmt: skip
        self.stopping = False
        self.local: dict[str, Client] = {}  # connection id -> a connection to this node
        self.remotes: dict[tuple[str, str], RemoteClient] = {}  # (node, conn) -> stand-in
        self._out: dict[str, list[list[Any]]] = {}  # node -> items to send it this turn
        self._moved: set[str] = set()  # actors announced as moved, re-attached this turn
        self._catching_up: set[tuple[str, str]] = set()  # (conn, room) re-attaching
        self._missing: dict[str, float] = {}  # node -> since when its heartbeat is missing
        self._tasks: list[asyncio.Task[None]] = []
        self._renew = self.bus.redis.register_script(_RENEW)
        self._release = self.bus.redis.register_script(_RELEASE)

    def lease(self, key: str) -> str:
        return self.bus.key(f"lease:{key}")

    # -- life ----------------------------------------------------------------------------

    async def start(self) -> None:
        await self.bus.start()
        await self._load_lobby()
        await self._beat()
        await self.sweep()
        self._tasks = [
            asyncio.create_task(self._every(self.lease_ms / 3000, self.keep_leases), name="leases"),
            asyncio.create_task(self._every(self.lease_ms / 2500, self.sweep), name="sweeper"),
        ]
        log.info("cluster_joined", node=self.node, adopted=len(self.s.actors))

    async def stop(self, held: list[str]) -> None:
        """Hand ``held`` (the actors just stopped) to the other nodes now."""
        self.stopping = True
        for task in self._tasks:
            task.cancel()
        with contextlib.suppress(RedisError, OSError):
            await self.release(held)
            self.bus.publish(self.bus.everyone, {"k": "released", "keys": held})
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
            except (RedisError, OSError, StoreError) as err:
                log.warning("cluster_job_failed", job=job.__name__, error=str(err))

    # -- leases --------------------------------------------------------------------------

    async def claim(self, key: str) -> bool:
        try:
            return bool(
                await self.bus.redis.set(self.lease(key), self.node, nx=True, px=self.lease_ms)
            )
        except (RedisError, OSError):
            return False

    async def release(self, keys: list[str]) -> None:
        if keys:
            await self._release(keys=[self.lease(k) for k in keys], args=[self.node])

    async def owner(self, key: str) -> str | None:
        try:
            return await self.bus.redis.get(self.lease(key))
        except (RedisError, OSError):
            raise Refused("room_unavailable", UNAVAILABLE) from None

    async def keep_leases(self) -> None:
        await self._beat()
        held = [*self.s.actors, *self.s.tournaments]
        if not held:
            return
        lost = await self._renew(
            keys=[self.lease(k) for k in held], args=[self.node, self.lease_ms]
        )
        prefix = len(self.lease(""))
        for key in lost:
            actor = self.s.actors.get(key[prefix:]) or self.s.tournaments.get(key[prefix:])
            if actor is not None:
                await self.s.relinquish(actor)

    async def _beat(self) -> None:
        """This node is alive (the others drop its connections' stand-ins when it is not),
        with its count of connected players; the lobby shows the sum over live nodes."""
        online = self.bus.key("online")
        pipe = self.bus.redis.pipeline(transaction=False)
        pipe.set(self.bus.key(f"node:{self.node}"), "1", px=self.lease_ms)
        pipe.hset(online, self.node, self.s.online_here())
        pipe.hgetall(online)
        *_, counts = await pipe.execute()
        nodes = sorted(counts)
        alive = await self.bus.redis.mget([self.bus.key(f"node:{n}") for n in nodes])
        gone = [n for n, beat in zip(nodes, alive, strict=True) if beat is None]
        if gone:
            await self.bus.redis.hdel(online, *gone)
        self.s.directory.set_online(
            sum(int(counts[n]) for n, beat in zip(nodes, alive, strict=True) if beat)
        )

    async def sweep(self) -> None:
        """Take over every live room and tournament that nobody holds; forget the
        connections of nodes that died."""
        if self.stopping:
            return
        rooms = await self.s.store.rooms_with_status("open", "playing")
        tournaments = await self.s.store.tournaments_with_status(*LIVE_TOURNAMENTS)
        keys = [r.id for r in rooms] + [t.id for t in tournaments]
        keys = [k for k in keys if k not in self.s.actors and k not in self.s.tournaments]
        if keys:
            holders = await self.bus.redis.mget([self.lease(k) for k in keys])
            orphans = [k for k, holder in zip(keys, holders, strict=True) if holder is None]
            random.shuffle(orphans)  # nodes sweeping at once share the work out
            for key in orphans:
                await self._adopt(key)
        nodes = sorted({node for node, _ in self.remotes})
        if nodes:
            alive = await self.bus.redis.mget([self.bus.key(f"node:{n}") for n in nodes])
            now = asyncio.get_running_loop().time()
            for node, beat in zip(nodes, alive, strict=True):
                if beat is not None:
                    self._missing.pop(node, None)
                elif now - self._missing.setdefault(node, now) > self.lease_ms / 1000:
                    self._forget_node(node)  # silent for a whole lease: it died

    async def _adopt(self, key: str) -> None:
        try:
            await self.s.adopt(key)
        except (StoreError, RedisError, OSError, Refused) as err:
            log.warning("adopt_failed", key=key, error=str(err))

    def announce(self, key: str) -> None:
        self.bus.publish(self.bus.everyone, {"k": "owner", "key": key, "node": self.node})

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

    # -- routing -------------------------------------------------------------------------

    def connected(self, client: Client) -> None:
        self.local[client.conn_id] = client

    def disconnected(self, client: Client) -> None:
        self.local.pop(client.conn_id, None)
        if client.forwarded_any:
            self.bus.publish(
                self.bus.everyone, {"k": "gone", "node": self.node, "conn": client.conn_id}
            )

    async def forward(
        self, client: Client, node: str, key: str, frame: str | bytes, rejoin: bool = False
    ) -> None:
        """Send a frame of ``client`` (a connection here) to the node that owns ``key``."""
        client.forwarded_any = True
        if isinstance(frame, bytes):
            frame = frame.decode()
        message = {
            "k": "fwd", "from": self.node, "conn": client.conn_id, "player": client.player_id,
            "nick": client.nickname, "frame": frame, "rejoin": rejoin,
        }  # fmt: skip
        if key.startswith("t_") and not rejoin:
            client.watching.add(key)
        try:
            received = await self.bus.publish_counted(self.bus.channel(f"node:{node}"), message)
        except (RedisError, OSError):
            received = 0
        if not received:
            raise Refused("room_unavailable", UNAVAILABLE)

    def out(self, node: str, item: list[Any]) -> None:
        """Queue an item for a connection on ``node``; one message per node per turn."""
        pending = self._out.get(node)
        if pending is None:
            pending = self._out[node] = []
            if len(self._out) == 1:
                asyncio.get_running_loop().call_soon(self._flush)
        pending.append(item)

    def _flush(self) -> None:
        out, self._out = self._out, {}
        for node, items in out.items():
            self.bus.publish(self.bus.channel(f"node:{node}"), {"k": "out", "items": items})

    async def tell(self, key: str, op: str, args: list[Any]) -> None:
        node = await self.owner(key)
        if node is not None:  # else nobody holds it: whoever takes it over catches up
            message = {"k": "tell", "key": key, "op": op, "args": args}
            self.bus.publish(self.bus.channel(f"node:{node}"), message)

    # -- lobby ---------------------------------------------------------------------------

    def publish_room(self, summary: dict[str, Any]) -> None:
        self._publish_summary("rooms", summary, summary["status"] in ("open", "playing"))

    def publish_tournament(self, summary: dict[str, Any]) -> None:
        self._publish_summary("tournaments", summary, summary["status"] in LIVE_TOURNAMENTS)

    def _publish_summary(self, kind: str, summary: dict[str, Any], live: bool) -> None:
        key, data = self.bus.key(kind), json.dumps(summary, separators=(",", ":"))
        if live:
            self.bus.submit(lambda pipe: pipe.hset(key, summary["id"], data))
        else:
            self.bus.submit(lambda pipe: pipe.hdel(key, summary["id"]))
        self.bus.publish(self.bus.everyone, {"k": kind, "summary": summary})

    async def _load_lobby(self) -> None:
        rooms = await self.bus.redis.hgetall(self.bus.key("rooms"))
        tournaments = await self.bus.redis.hgetall(self.bus.key("tournaments"))
        for data in rooms.values():
            self.s.directory.update(json.loads(data))
        for data in tournaments.values():
            self.s.directory.update_tournament(json.loads(data))

    def to_players(self, players: set[str], frame: str) -> None:
        message = {"k": "players", "from": self.node, "players": sorted(players), "frame": frame}
        self.bus.publish(self.bus.everyone, message)

    # -- receiving -----------------------------------------------------------------------

    def _on_message(self, channel: str, m: dict[str, Any]) -> None:
        kind = m["k"]
        if kind == "out":
            for item in m["items"]:
                self._take(item)
        elif kind == "fwd":
            remote = self.remotes.get((m["from"], m["conn"]))
            if remote is None:
                remote = RemoteClient(self.s, self, m["from"], m["conn"], m["player"], m["nick"])
                self.remotes[(m["from"], m["conn"])] = remote
                self.s.nicknames.setdefault(m["player"], m["nick"])
            remote.push(m["frame"], m["rejoin"])
        elif kind == "rooms":
            self.s.directory.update(m["summary"])
        elif kind == "tournaments":
            self.s.directory.update_tournament(m["summary"])
        elif kind == "players" and m["from"] != self.node:
            self.s.to_players(set(m["players"]), m["frame"], everywhere=False)
        elif kind == "tell":
            self.s.tell_here(m["key"], m["op"], m["args"])
        elif kind == "owner":
            self._moved.add(m["key"])
            if len(self._moved) == 1:
                asyncio.get_running_loop().call_soon(self._rejoin_moved)
        elif kind == "gone":
            remote = self.remotes.pop((m["node"], m["conn"]), None)
            if remote is not None:
                remote.gone()
        elif kind == "released" and not self.stopping:
            for key in m["keys"]:
                asyncio.get_running_loop().create_task(self._adopt(key))

    def _take(self, item: list[Any]) -> None:
        """An item from an owner for one of our connections."""
        client = self.local.get(item[1])
        if client is None:
            return
        match item[0]:
            case "f":
                client.send_text(item[2])
            case "s":
                client.deliver(item[2], item[3], item[4], snapshot=True)
            case "v":
                room_id, version = item[2], item[3]
                last = client.versions.get(room_id)
                if last is None or version == last + 1:
                    client.deliver(room_id, version, item[4])
                elif version > last + 1:  # some went missing (Redis lost them): catch up
                    self._catch_up(client, room_id, last)
            case "u":
                client.left(item[2])
            case "c":
                client.close(item[2], item[3])

    def _catch_up(self, client: Client, room_id: str, last: int) -> None:
        if (client.conn_id, room_id) not in self._catching_up:
            self._catching_up.add((client.conn_id, room_id))
            message = {"room_id": room_id, "version": last}
            task = self._send_rejoin(client, room_id, message)
            asyncio.get_running_loop().create_task(task).add_done_callback(
                lambda _: self._catching_up.discard((client.conn_id, room_id))
            )

    def _rejoin_moved(self) -> None:
        moved, self._moved = self._moved, set()
        asyncio.get_running_loop().create_task(self._rejoin(moved))

    async def _rejoin(self, keys: set[str] | None) -> None:
        """Re-attach our connections to actors that moved (``None``: all), each from the
        last version it saw; an actor elsewhere replays what the connection missed."""
        jobs = [
            self._send_rejoin(client, key, {"room_id": key, "version": version})
            for client in list(self.local.values())
            for key, version in list(client.versions.items())
            if keys is None or key in keys
        ] + [
            self._send_rejoin(client, key, {"room_id": key, "version": 0})
            for client in list(self.local.values())
            for key in list(client.watching)
            if keys is None or key in keys
        ]
        await asyncio.gather(*jobs)

    async def _send_rejoin(self, client: Client, key: str, message: dict[str, Any]) -> None:
        """Re-attach ``client`` to ``key`` wherever it runs now, trying for two leases
        while it is between owners."""
        for _ in range(int(2 * self.lease_ms / 250)):
            if client.conn_id not in self.local or (
                key not in client.versions and key not in client.watching
            ):
                return  # gone, or left it meanwhile
            if (room := self.s.actors.get(key)) is not None:
                if client.rooms.get(key) is not room:
                    since = client.versions.get(key, 0)
                    room.tell(lambda room=room, since=since: room.rejoin(client, since))
                return
            if (t := self.s.tournaments.get(key)) is not None:
                t.tell(lambda t=t: t.watch(client))
                return
            try:
                node = await self.owner(key)
                if node is not None and node != self.node:
                    await self.forward(client, node, key, json.dumps(message), rejoin=True)
                    return
            except Refused:
                pass
            await asyncio.sleep(0.25)
        log.warning("rejoin_failed", key=key, conn=client.conn_id)

    def moved_away(self, key: str) -> None:
        """We lost ``key``: our connections follow it to its new owner."""
        asyncio.get_running_loop().create_task(self._rejoin({key}))

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
        for actor in list(self.s.actors.values()):
            self.publish_room(actor.summary())
        for tournament in list(self.s.tournaments.values()):
            self.publish_tournament(tournament.summary())
        await self._load_lobby()
        await self._rejoin(None)
        await asyncio.sleep(self.lease_ms / 1000)
        await self._rejoin(None)
