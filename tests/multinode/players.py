"""Bots for the multinode suite: players and spectators that survive their node going away.

A :class:`Bot` is one identity on one node.  Before ``start()`` a test drives it with
``request`` (create a room, take a seat, watch); after ``start()`` its own task reads every
frame and

- plays a legal action (``TableState.legal``, seeded choice) whenever it is its turn, with
  ``act.version`` so that a repeated command can never be applied twice;
- retries a command refused with ``room_unavailable`` or ``storage_unavailable`` after
  0.2 s, and resynchronises (``resume`` at its version) after ``stale_version`` or
  ``not_your_turn`` (noted) or ``not_a_member`` (a problem: members keep their membership);
- when its connection closes, connects to another live node, says ``hello`` with its token
  and, once welcomed (no act before: the new connection follows nothing yet), ``resume``s
  every room it knows at its last version (and re-watches its tournaments);
- joins the tables a tournament seats it at;
- with ``follow_routes``, follows a ``route`` frame: connects to the node it names, says
  ``hello`` and resumes there as after a lost connection, then closes the old connection.

Anything else the server says that a correct cluster should not say goes to
``bot.problems``; tests assert that list is empty.  Each connection keeps every frame
(``GameClient.keep``), so a test can audit exactly what the bot saw.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.protocol import State

from client import GameClient, TableState

if TYPE_CHECKING:
    from tests.multinode.conftest import Cluster, Node

RETRY = {"room_unavailable", "storage_unavailable"}  # the cluster's "try again shortly"
RESYNC = {"stale_version", "not_your_turn"}  # our view is behind: noted, and resumed
RETRY_AFTER = 0.2
RESEND_AFTER = 3.0  # an act unanswered this long is sent again (same version: harmless)


async def open_client(node: Node, url: str | None = None, **kwargs: Any) -> GameClient:
    client = await GameClient.connect(
        url or node.url, proxy=None, open_timeout=3, close_timeout=1, **kwargs
    )
    client.keep = True
    return client


class Bot:
    def __init__(
        self, cluster: Cluster, node: Node, nickname: str, seed: int = 0, pace: float = 0.0,
        via: dict[str, int] | None = None, keepalive: float | None = None,
        follow_routes: bool = False,
    ) -> None:  # fmt: skip
        self.cluster = cluster
        self.node = node
        self.nickname = nickname
        self.rng = random.Random(f"{nickname}/{seed}")
        self.pace = pace  # seconds to wait after a turn arrives before acting
        self.token = ""
        self.player_id = ""
        self.client: GameClient | None = None
        self.connections: list[tuple[str, GameClient]] = []  # (node id, client), in order
        self.tables: dict[str, TableState] = {}  # shared by every connection of this bot
        self.tournaments: dict[str, dict[str, Any]] = {}
        self.autoplay = True
        self.hold: Callable[[TableState], bool] | None = None  # True: do not act now
        self.errors: list[dict[str, Any]] = []
        self.retried: Counter[str] = Counter()
        self.problems: list[str] = []  # what a correct cluster does not do: tests assert none
        self.notes: list[str] = []  # refusals a bot recovers from that a test may look at
        self.welcomes: list[dict[str, Any]] = []
        self.closes: list[tuple[str, int | None]] = []  # (node id, close code) of lost links
        self.acts: list[tuple[str, int, str]] = []  # (room, version, action) sent
        self._task: asyncio.Task[None] | None = None
        self._pending: dict[str, tuple[int, float]] = {}  # room -> (version, sent at)
        self._act_at: dict[str, float] = {}  # room -> not before
        self._turn_at: dict[str, tuple[int, float]] = {}  # room -> (version, first seen)
        self._resume_at: dict[str, float] = {}  # room -> when to send ``resume``
        self._resuming: dict[str, float] = {}  # room -> when ``resume`` went (until its pong)
        self._watch_at: dict[str, float] = {}  # tournament -> when to (re)watch
        self._register_at: dict[str, float] = {}  # tournament -> when to (re)register
        self._hello_at: float | None = None
        self._welcomed = True  # False from a reconnect until its welcome: no acts meanwhile
        self.via = via or {}  # node id -> the port of a relay to reach it through
        self.keepalive = keepalive  # seconds between pings (and to answer them)
        self.follow_routes = follow_routes
        self._move_to: str | None = None  # the node a route frame named, to move to
        self.moves: list[str] = []  # node ids it moved to, following route frames

    # -- set-up, before start() -----------------------------------------------------

    async def connect(self) -> dict[str, Any]:
        client = await self._open(self.node)
        welcome = await client.hello(self.nickname)
        assert welcome["type"] == "welcome", f"{self.nickname}: {welcome}"
        self.token, self.player_id = client.token, client.player_id
        return welcome

    async def request(self, message: dict[str, Any], reply: str, timeout: float = 5.0) -> dict:
        """Send and wait for ``reply`` (set-up only); retried while the room is moving."""
        assert self._task is None and self.client is not None, "request() is for set-up"
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            answer = await self.client.request(message, reply, timeout)
            if answer["type"] == "error" and answer["code"] in RETRY and loop.time() < end:
                self.retried[answer["code"]] += 1
                await asyncio.sleep(RETRY_AFTER)
                continue
            return answer

    # -- running --------------------------------------------------------------------

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name=f"bot {self.nickname}")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    async def close(self) -> None:
        for _, client in self.connections:
            with_timeout = asyncio.wait_for(client.close(), 2)
            await asyncio.gather(with_timeout, return_exceptions=True)

    async def send(self, message: dict[str, Any]) -> None:
        """Send on the current connection (lost frames are the caller's business)."""
        assert self.client is not None
        with contextlib.suppress(ConnectionClosed):
            await self.client.send(message)

    def table(self, room_id: str) -> TableState:
        return self.tables.setdefault(room_id, TableState(room_id))

    def register(self, tournament_id: str) -> None:
        """Register for a tournament (retried until its node has it)."""
        self._register_at[tournament_id] = 0.0

    def registered(self, tournament_id: str) -> bool:
        summary = self.tournaments.get(tournament_id, {})
        return any(e["id"] == self.player_id for e in summary.get("registered", []))

    def seen(self, room_id: str | None = None) -> list[dict[str, Any]]:
        """Every frame this bot received, over all its connections, in order."""
        frames = [f for _, client in self.connections for f in client.seen]
        if room_id is None:
            return frames
        return [f for f in frames if f.get("room_id") == room_id]

    async def wait_frame(
        self, predicate: Callable[[dict[str, Any]], bool], timeout: float, after: int = 0
    ) -> dict[str, Any]:
        """The first frame (from index ``after`` of ``seen()``) that satisfies ``predicate``."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            for frame in self.seen()[after:]:
                if predicate(frame):
                    return frame
            if loop.time() > end:
                raise AssertionError(
                    f"{self.nickname}: no such frame in {timeout}s\n{self.cluster.diagnose()}"
                )
            await asyncio.sleep(0.02)

    async def _open(self, node: Node) -> GameClient:
        relay = self.via.get(node.node_id)
        url = None if relay is None else f"ws://127.0.0.1:{relay}/"
        kwargs = {} if self.keepalive is None else {
            "ping_interval": self.keepalive, "ping_timeout": self.keepalive
        }  # fmt: skip
        client = await open_client(node, url, **kwargs)
        client.tables = self.tables  # one view of each room across reconnects
        client.tournaments = self.tournaments
        self.connections.append((node.node_id, client))
        self.client, self.node = client, node
        return client

    async def _run(self) -> None:
        try:
            await self._loop()
        except asyncio.CancelledError:
            raise
        except Exception as err:  # a harness bug, or no node left: say so in the diagnosis
            self._problem(f"bot stopped: {type(err).__name__}: {err}")
            raise

    async def _loop(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            client = self.client
            assert client is not None
            if client.ws.state is State.CLOSED:
                while not client.frames.empty():
                    self._on_frame(client.frames.get_nowait())
                await self._reconnect()
                continue
            frame: dict[str, Any] | None = None
            with contextlib.suppress(TimeoutError):  # (3.11's wait_for can swallow a cancel)
                async with asyncio.timeout(0.02):
                    frame = await client.frames.get()
            while frame is not None:
                self._on_frame(frame)
                frame = None if client.frames.empty() else client.frames.get_nowait()
            await self._due(loop.time())

    # -- frames ---------------------------------------------------------------------

    def _on_frame(self, frame: dict[str, Any]) -> None:
        kind = frame["type"]
        if kind == "pong" and frame.get("ref", "").startswith("resumed:"):
            self._resuming.pop(frame["ref"].removeprefix("resumed:"), None)
        elif kind == "error":
            self._on_error(frame)
        elif kind == "welcome":
            self._on_welcome(frame)
        elif kind == "tournament":
            self._join_tables(frame["tournament"])
        elif kind == "route" and self.follow_routes and frame["node"] != self.node.node_id:
            self._move_to = frame["node"]

    def _problem(self, text: str) -> None:
        self.problems.append(text)
        self.cluster.note(f"{self.nickname} problem: {text}")

    def _on_error(self, frame: dict[str, Any]) -> None:
        now = asyncio.get_running_loop().time()
        self.errors.append(frame)
        code, ref = frame["code"], frame.get("ref") or ""
        what, _, target = ref.partition(":")
        if what == "act":
            room_id, _, sent = target.rpartition(":")
            table = self.tables.get(room_id)
            if table is not None and table.version != int(sent) and code in RETRY | RESYNC:
                return  # the answer to an act the table has already moved past
            self._pending.pop(room_id, None)
            if code in RETRY:
                self.retried[code] += 1
                self._act_at[room_id] = now + RETRY_AFTER
            elif code in RESYNC or code == "not_a_member":
                self._resume_at.setdefault(room_id, now)
                if code == "not_a_member":
                    self._problem(f"lost its membership: {frame}")
                else:
                    self.notes.append(f"{code} at v{sent}")
            elif not (table and table.over and code in ("room_closed", "not_playing")):
                self._problem(f"act refused: {frame}")
        elif what == "resume":
            self._resuming.pop(target, None)
            if code in RETRY:
                self.retried[code] += 1
                self._resume_at[target] = now + RETRY_AFTER
            elif not self.table(target).over:
                self._problem(f"resume refused: {frame}")
        elif what == "hello":
            if code in RETRY:
                self.retried[code] += 1
                self._hello_at = now + RETRY_AFTER
            else:
                self._problem(f"hello refused: {frame}")
        elif what in ("register", "twatch"):
            # the tournament may not be loaded by any node yet, or it is moving
            if code in RETRY or code == "no_such_tournament":
                self.retried[code] += 1
                when = self._register_at if what == "register" else self._watch_at
                when[target] = now + RETRY_AFTER
            elif what == "register" and code == "already_registered":
                pass
            elif not (what == "twatch" and code in ("registration_closed", "tournament_closed")):
                self._problem(f"{what} refused: {frame}")
        else:
            self._problem(f"unexpected error: {frame}")

    def _on_welcome(self, frame: dict[str, Any]) -> None:
        now = asyncio.get_running_loop().time()
        self.welcomes.append(frame)
        self._welcomed = True
        for room in frame.get("rooms", []):
            self.table(room["room_id"])
        for room_id, table in self.tables.items():
            if not table.over:
                self._resume_at[room_id] = now
        for tid, summary in self.tournaments.items():
            if summary.get("status") in ("scheduled", "running"):
                self._watch_at[tid] = now

    def _join_tables(self, summary: dict[str, Any]) -> None:
        now = asyncio.get_running_loop().time()
        for tables in summary.get("rounds", []):
            for table in tables:
                room_id = table.get("room_id")
                seated = any(s["id"] == self.player_id for s in table["seats"])
                if room_id and seated and room_id not in self.tables:
                    self.table(room_id)
                    self._resume_at[room_id] = now

    # -- what is due ----------------------------------------------------------------

    async def _due(self, now: float) -> None:
        if self._move_to is not None:
            await self._move(self._move_to)
        if self._hello_at is not None and now >= self._hello_at:
            self._hello_at = None
            await self.send({"type": "hello", "token": self.token, "ref": "hello"})
        for room_id, at in list(self._resuming.items()):
            if now - at > RESEND_AFTER:  # neither refused nor confirmed: ask again
                del self._resuming[room_id]
                self._resume_at[room_id] = now
        for room_id, at in list(self._resume_at.items()):
            if now >= at:
                del self._resume_at[room_id]
                version = self.tables[room_id].version
                await self.send(
                    {"type": "resume", "room_id": room_id, "version": version,
                     "ref": f"resume:{room_id}"}
                )  # fmt: skip
                # commands are handled in order: the pong says the resume was handled
                await self.send({"type": "ping", "ref": f"resumed:{room_id}"})
                self._resuming[room_id] = now
        for tid, at in list(self._register_at.items()):
            if now >= at:
                del self._register_at[tid]
                await self.send(
                    {"type": "tournament_register", "tournament_id": tid, "ref": f"register:{tid}"}
                )
        for tid, at in list(self._watch_at.items()):
            if now >= at:
                del self._watch_at[tid]
                await self.send(
                    {"type": "tournament_watch", "tournament_id": tid, "ref": f"twatch:{tid}"}
                )
        if self.autoplay:
            for room_id, table in list(self.tables.items()):
                await self._maybe_act(room_id, table, now)

    async def _maybe_act(self, room_id: str, table: TableState, now: float) -> None:
        if table.over or table.seat is None or table.turn != table.seat or not table.legal:
            return
        if not self._welcomed or room_id in self._resume_at or room_id in self._resuming:
            return
        if self.hold is not None and self.hold(table):
            return
        pending = self._pending.get(room_id)
        if pending is not None and pending[0] == table.version and now - pending[1] < RESEND_AFTER:
            return
        if now < self._act_at.get(room_id, 0.0):
            return
        seen = self._turn_at.get(room_id)
        if seen is None or seen[0] != table.version:
            self._turn_at[room_id] = seen = (table.version, now)
        if now - seen[1] < self.pace:
            return
        action = self.rng.choice(table.legal)
        await self.send(
            {"type": "act", "room_id": room_id, "action": action, "version": table.version,
             "ref": f"act:{room_id}:{table.version}"}
        )  # fmt: skip
        self._pending[room_id] = (table.version, now)
        self.acts.append((room_id, table.version, action))

    def resumed_on(self, node: Node) -> bool:
        """Connected to ``node``, welcomed, and every room it follows resumed there."""
        return self.node is node and self._welcomed and not (self._resume_at or self._resuming)

    async def _move(self, node_id: str) -> None:
        """Follow a route frame: a new connection to ``node_id`` (hello; the welcome
        resumes every room), then the old one closes (nothing lost: it resumes from its
        versions)."""
        self._move_to = None
        node = self.cluster.node(node_id)
        old = self.client
        if node is self.node or not node.alive or old is None:
            return
        try:
            await self._open(node)
        except (OSError, InvalidHandshake, TimeoutError):
            self.client = old
            return
        self.moves.append(node_id)
        self.cluster.note(f"{self.nickname} follows a route to {node_id}")
        self._welcomed = False
        await self.send({"type": "hello", "token": self.token, "ref": "hello"})
        while not old.frames.empty():
            self._on_frame(old.frames.get_nowait())
        await asyncio.gather(asyncio.wait_for(old.close(), 2), return_exceptions=True)

    async def _reconnect(self) -> None:
        assert self.client is not None
        self.closes.append((self.node.node_id, self.client.ws.close_code))
        self.cluster.note(
            f"{self.nickname} lost {self.node.node_id} (close {self.client.ws.close_code})"
        )
        loop = asyncio.get_running_loop()
        end = loop.time() + 20
        attempt = 0
        while True:
            alive = self.cluster.alive()
            others = [n for n in alive if n is not self.node] or alive
            if others:
                node = others[(len(self.closes) + attempt) % len(others)]
                try:
                    await self._open(node)
                except (OSError, InvalidHandshake, TimeoutError):
                    pass
                else:
                    self.cluster.note(f"{self.nickname} reconnected to {node.node_id}")
                    self._welcomed = False  # a new connection follows nothing until resumed
                    await self.send({"type": "hello", "token": self.token, "ref": "hello"})
                    return
            if loop.time() > end:
                self._problem("could not reconnect to any node in 20 s")
                raise AssertionError(f"{self.nickname} could not reconnect")
            attempt += 1
            await asyncio.sleep(RETRY_AFTER)

    # -- reporting ------------------------------------------------------------------

    def describe(self) -> str:
        lines = [
            f"{self.nickname} ({self.player_id}) on {self.node.node_id}"
            f"{' (stopped)' if self._task and self._task.done() else ''}: "
            f"reconnects={len(self.closes)} closes={self.closes} retried={dict(self.retried)} "
            f"acts={len(self.acts)} notes={self.notes[-3:]} problems={self.problems[-3:]}"
        ]
        for room_id, t in self.tables.items():
            lines.append(
                f"    {room_id} v{t.version} seat={t.seat} turn={t.turn} over={t.over} "
                f"trick={t.trick} legal={t.legal} status={t.room.get('status')} "
                f"pending={self._pending.get(room_id)}"
            )
        lines.extend(f"    error {e}" for e in self.errors[-4:])
        for tid, s in self.tournaments.items():
            rounds = [[(t["room_id"], t["winner"]) for t in r] for r in s.get("rounds", [])]
            lines.append(f"    {tid} {s.get('status')} v{s.get('version')} rounds={rounds}")
        return "\n".join(lines)


class LobbyView:
    """A client on one node subscribed to the lobby, with the list as its pushes build it."""

    def __init__(self, node: Node, nickname: str) -> None:
        self.node = node
        self.nickname = nickname
        self.rooms: dict[str, dict[str, Any]] = {}
        self.lists = 0  # ``lobby`` frames received
        self.client: GameClient | None = None
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self.client = await open_client(self.node)
        welcome = await self.client.hello(self.nickname)
        assert welcome["type"] == "welcome", welcome
        self._task = asyncio.create_task(self._read(), name=f"lobby {self.nickname}")
        await self.subscribe()

    async def subscribe(self, timeout: float = 5.0) -> dict[str, dict[str, Any]]:
        """(Re)subscribe; the fresh list the node answers with."""
        assert self.client is not None
        before = self.lists
        await self.client.send({"type": "lobby_subscribe"})
        async with asyncio.timeout(timeout):
            while self.lists == before:
                await asyncio.sleep(0.01)
        return dict(self.rooms)

    async def _read(self) -> None:
        assert self.client is not None
        while True:
            frame = await self.client.frames.get()
            if frame["type"] == "lobby":
                self.rooms = {room["id"]: room for room in frame["rooms"]}
                self.lists += 1
            elif frame["type"] == "lobby_room":
                self.rooms[frame["room"]["id"]] = frame["room"]
            elif frame["type"] == "lobby_room_gone":
                self.rooms.pop(frame["room_id"], None)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    async def close(self) -> None:
        if self.client is not None:
            await asyncio.gather(asyncio.wait_for(self.client.close(), 2), return_exceptions=True)

    def describe(self) -> str:
        rooms = {
            i: (r["status"], [s["player_id"] for s in r["seats"]]) for i, r in self.rooms.items()
        }
        return f"lobby {self.nickname} on {self.node.node_id}: lists={self.lists} rooms={rooms}"


@dataclass
class Table:
    """Four seated bots (and maybe a spectator) at one room."""

    room_id: str
    players: list[Bot]
    spectator: Bot | None = None

    @property
    def bots(self) -> list[Bot]:
        return self.players + ([self.spectator] if self.spectator else [])

    def views(self) -> list[TableState]:
        return [bot.table(self.room_id) for bot in self.bots]

    def over(self) -> bool:
        return all(view.over for view in self.views())

    def hold(self, predicate: Callable[[TableState], bool] | None) -> None:
        for bot in self.players:
            bot.hold = predicate

    def settled(self) -> bool:
        """Every bot sees the same version and none is about to act."""
        views = self.views()
        if len({v.version for v in views}) != 1:
            return False
        return not any(
            v.turn == v.seat and v.legal and not v.over and not (b.hold and b.hold(v))
            for b, v in zip(self.players, views, strict=False)
        )

    def problems(self) -> list[str]:
        return [f"{bot.nickname}: {p}" for bot in self.bots for p in bot.problems]


async def seat_table(
    cluster: Cluster,
    nodes: list[Node],
    rules: dict[str, Any],
    *,
    spectator: bool = False,
    pace: float = 0.0,
    seed: int = 0,
    options: dict[int, dict[str, Any]] | None = None,
    made: list[Bot] | None = None,
) -> Table:
    """Four bots, seat ``i`` connected to ``nodes[i % len(nodes)]`` (``options[i]``: more
    arguments of its :class:`Bot`), in a room created by seat 0; with ``spectator`` a fifth
    bot watches from a node that does not own the room.  Every bot made is added to
    ``made`` as it is (so a caller can let them go if seating fails).
    Everyone is ready and the bots are playing when this returns."""
    options = options or {}
    made = [] if made is None else made
    players = []
    for i in range(4):
        node = nodes[i % len(nodes)]
        made.append(await cluster.bot(node, f"p{i}", seed=seed, pace=pace, **options.get(i, {})))
        players.append(made[-1])
    created = await players[0].request(
        {"type": "create_room", "name": "multinode", "rules": rules}, "snapshot"
    )
    assert created["type"] == "snapshot", created
    room_id = created["room_id"]
    cluster.note(f"room {room_id} created on {players[0].node.node_id}")
    table = Table(room_id, players)
    if spectator:
        owner = await cluster.owner(room_id)
        elsewhere = [n for n in nodes if n is not owner] or [owner]
        table.spectator = await cluster.bot(elsewhere[0], "spectator")
        made.append(table.spectator)
        watched = await table.spectator.request({"type": "watch", "room_id": room_id}, "snapshot")
        assert watched["type"] == "snapshot" and watched["seat"] is None, watched
    for seat, player in enumerate(players[1:], 1):
        taken = await player.request(
            {"type": "take_seat", "room_id": room_id, "seat": seat}, "snapshot"
        )
        assert taken["type"] == "snapshot" and taken["seat"] == seat, taken
    for player in players:
        await player.send({"type": "ready", "room_id": room_id})
    for bot in table.bots:
        bot.start()
    await cluster.until(
        lambda: all(v.room.get("status") == "playing" or v.over for v in table.views()),
        10,
        f"room {room_id} to start",
    )
    return table
