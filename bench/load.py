"""Load generator: many four-player tables against a running server, one card a second each.

Usage::

    python bench/load.py --spawn --tables 50,100,250,500,1000      # a fresh server per run
    python bench/load.py ws://127.0.0.1:8765/ --tables 100 --server-pid 1234
    python bench/load.py --spawn --tables 500 --server-profile /tmp/server.prof
    python bench/load.py --tables 30 --callgrind /tmp/server.cg   # instructions an action
    python bench/load.py --spawn --tables 1000 --server-root /tmp/old   # another commit's server
    python bench/load.py --spawn --nodes 2 --tables 500    # two nodes: PostgreSQL and Redis
    python bench/load.py --spawn --nodes 2 --tables 500 --no-route   # every update crossing
    python bench/load.py --spawn --nodes 1 --database-url postgresql://postgres@127.0.0.1/test
    python bench/load.py ws://127.0.0.1:8765/ ws://127.0.0.1:8766/ --tables 100   # a cluster
    python bench/load.py --solo --tables 10,25,50,100   # solo games vs strong CPUs: bench/solo.py

Method
------
``--tables T`` tables of four simulated human players each: 4*T websocket connections,
all in this one process and one asyncio loop (no uvloop), separate from the server.  The
clients offer permessage-deflate as browsers do (``--no-compression`` to compare) and
send no keepalive pings of their own (they answer the server's).

* Ramp-up, in batches of ``--batch`` tables: connect the four clients and say hello, the
  first creates a room (``rules: {"deals": D}``, ``move_seconds`` 120 so no server timer
  fires), the others take seats 1-3.  When every table is seated the server's RSS is read
  ("seated"); then, again in batches, the four send ``ready`` and the match starts.
* Pace: each table has its own schedule of slots ``1/--rate`` seconds apart (random
  phase).  The client whose turn it is (its update carries ``legal``) waits for the
  table's next slot, then sends ``act`` with the version it saw.  A table never catches up
  in bursts: a turn that comes after its slot waits for the next slot of the same
  schedule, so every table keeps its phase.  (``--drift`` moves a late table's schedule
  to the moment its turn came, as before 4 December: tables held up by the same pause
  then stay together, and the whole load can lock into one wave a second.)  The action is
  a **uniformly random legal action** (seeded per table): the engine's heuristic policy
  needs a full :class:`engine.views.View`, which the protocol's client state does not
  rebuild cheaply.  A finished match makes that table create a new room with the same
  four clients.
* Measure, after ``--warmup`` seconds, for ``--duration`` seconds:

  - *actions/s*: our actions whose ``update`` (kind ``act``, the expected next version)
    reached the acting client inside the window, divided by the window;
  - *latency*: for each action sent inside the window, the time from just before its
    ``act`` frame is written until the last of the table's four clients has received the
    update with the table's new version (all clients share one ``perf_counter``).  This
    includes the server's durable write (SQLite group commit), its fan-out, both
    directions of loopback TCP, and this process's own event-loop delay, which is
    reported as "generator loop lag" so a saturated generator can be told apart from a
    slow server (``--timeline`` prints both per second of the window).  After the ramp-up
    the generator freezes and disables its own garbage collector, so its full
    collections do not stall the measurement;
  - error frames (by code), unexpected disconnects, and actions the server played for a
    seat (``by`` timeout/cpu), all expected to be 0;
  - the server's RSS (``VmRSS`` in ``/proc/<pid>/status``) idle, seated, started, at the
    end and after the clients left, and KiB per client = (RSS - RSS idle) / connections;
  - CPU of the server process (all threads, ``/proc/<pid>/stat``) and of this process,
    as a share of one core, and of the whole machine (``/proc/stat``, steal included:
    other work on the box shows here), over the window;
  - the server's own ``klaverjas_action_latency_seconds`` histogram (arrival of ``act`` to
    updates queued, durable write included) from ``/metrics``, as bucket bounds.

* Stop: the pacing stops, in-flight actions get ``--drain`` seconds to arrive, every
  connection is closed cleanly; a spawned server gets SIGTERM and is waited for.

The server's pid comes from ``--spawn`` (a fresh ``python -m commands serve --port 0`` on a
temporary database, inheriting this environment, so ``KLAVERJAS_*`` settings apply),
``--server-pid``, or ``ss -ltnp`` on the URL's port.  ``--server-root DIR`` spawns the
server of another checkout (a worktree of an older commit, with the built
``engine/*.so`` copied in), so two commits can be measured side by side by the same
generator.  Against an
external server the rooms stay behind after a run (their seats time out and the server
plays them): restart it between runs.  ``--server-profile FILE`` spawns the server under
``cProfile`` (main thread only: the SQLite worker thread is not profiled; the overhead
roughly doubles server CPU, so read its latency figures as a profile, not a benchmark)
and prints the top functions by cumulative and by own time.

``--callgrind FILE`` spawns the server under valgrind's callgrind with its counting off,
counts from just before the window's first ``/metrics`` reading to just after its last
(``callgrind_control -i on/off``), and prints the server's **instructions an action**: the
instructions it ran in user space (every thread; the kernel's work, such as the system
calls that send, is not counted) over the actions its ``klaverjas_actions_total`` counted
meanwhile.  Unlike CPU time on a shared VM, the count repeats within a fraction of a
percent, so a change of a few percent shows in one run of each side (use a few dozen
tables: the server runs some fifty times slower, and per-second work such as the young
collections weighs more than at full load).

Several nodes
-------------
Several URLs (a running cluster), or ``--spawn --nodes N``: client ``k`` of table ``t``
connects to node ``(t + k) % N``, so with two nodes every table has two players on each.
Spawned nodes route (``KLAVERJAS_ROUTE=/n/{node}/``): a player seated at a room that runs
on another node gets a ``route`` frame and moves there before the match starts (a new
connection to the node the frame names, by the ``node`` of each URL's ``welcome``;
``hello`` with its token, ``resume``; then the old connection closes), so all four play
on the room's node and no update crosses Redis.  ``--no-route`` spawns nodes without it:
every update of a table crosses from one node to the other, as before routing.  A running
cluster routes if its nodes do (their ``welcome`` names them).  Spawned nodes of one run share
PostgreSQL (``--database-url``, default ``postgresql://postgres@127.0.0.1:5432/test``) in a
fresh schema ``load_<random>`` (``KLAVERJAS_DATABASE_SCHEMA``, created here before the
nodes start and dropped with CASCADE after the run) and Redis (``--redis-url``, default
``redis://127.0.0.1:6379/0``) under a fresh ``KLAVERJAS_REDIS_PREFIX`` (its keys are
deleted after the run); they are named ``node1``..``nodeN`` (``KLAVERJAS_NODE_ID``).
``--nodes 1 --database-url URL`` runs one node on the same storage, to compare with.
Server CPU is the sum of the nodes' shares of a core (and CPU per action, actions per
CPU-second, of all of them together), RSS the sum of theirs (so KiB per client is the sum
of their growth over the connections), the server-side latency histogram and what crossed
Redis (``klaverjas_cluster_forwarded_total``) are summed over the nodes; ``nodes`` in the
JSON has each node's own figures.
An error frame ``room_unavailable`` (the room is moving between nodes) counts as an error
like any other, and the client tries its action again after 0.2 s.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import math
import os
import pstats
import random
import re
import resource
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol, TypeVar
from urllib.parse import urlparse

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from client import GameClient, TableState

ROOT = Path(__file__).resolve().parent.parent
SETUP_TIMEOUT = 60.0  # seconds for one request while seating or starting a table
RETRY_DELAY = 0.2  # seconds before trying again after ``room_unavailable``
DEFAULT_DATABASE_URL = "postgresql://postgres@127.0.0.1:5432/test"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"
ROUTE = "/n/{node}/"  # KLAVERJAS_ROUTE of spawned nodes (unless --no-route)
perf = time.perf_counter


# -- configuration and results --------------------------------------------------------


@dataclass(frozen=True)
class Config:
    urls: tuple[str, ...]  # client k of table t connects to urls[(t + k) % len(urls)]
    tables: int
    rate: float
    warmup: float
    duration: float
    drain: float
    batch: int
    deals: int
    move_seconds: int
    seed: int
    compression: bool
    server_pids: tuple[int, ...]
    spawn: bool
    nodes: int  # spawned nodes
    database_url: str | None  # spawned nodes on PostgreSQL and Redis (else SQLite, one node)
    redis_url: str | None
    profile: str | None
    profile_top: int
    timeline: bool
    route: bool = True  # follow ``route`` frames (and spawn nodes that send them)
    server_root: Path = ROOT  # the checkout whose server is spawned
    callgrind: str | None = None  # spawn the server under callgrind, counting the window
    drift: bool = False  # a late turn moves its table's schedule (the pace before 4 Dec)


@dataclass
class Stats:
    """Raw observations of one run, filtered by the measurement window afterwards."""

    sends: list[float] = field(default_factory=list)  # perf time of each act written
    done: list[tuple[float, float]] = field(default_factory=list)  # (sent, latency)
    acks: list[float] = field(default_factory=list)  # acting client received its update
    lag: list[tuple[float, float]] = field(default_factory=list)  # (when, loop lag)
    errors: Counter[str] = field(default_factory=Counter)
    mismatched: int = 0  # the expected version arrived but was not our action
    server_played: int = 0  # acts the server made for a seat (timeout or cpu)
    disconnects: Counter[str] = field(default_factory=Counter)
    rematches: int = 0
    setup_failures: int = 0
    client_bugs: int = 0
    moves: int = 0  # players that followed a ``route`` frame to their room's node
    stopping: bool = False
    frames: dict[int, list[str]] | None = None  # each client's frames as read, when kept


@dataclass
class Pending:
    sent: float
    seat: int
    waiting: int = 4
    last: float = 0.0


# -- clients and tables ---------------------------------------------------------------


class Reporter(GameClient):
    """A :class:`GameClient` that hands every snapshot, update and error to its owner as it
    is read (:meth:`on_state`, :meth:`on_error`); ``stats`` counts its bugs and disconnects.

    Frames go to the ``frames`` queue (for ``request``/``next``) only while a table is being
    set up; during play nobody reads that queue, so nothing accumulates.
    """

    def __init__(self, ws: ClientConnection, stats: Any) -> None:
        self.stats = stats
        self.queueing = True
        self.moving = False  # closed on purpose: it follows a ``route`` to another node
        super().__init__(ws)

    def on_state(self, frame: dict[str, Any], state: TableState, now: float) -> None:
        """A snapshot or update, absorbed into ``state``, read at ``now``."""

    def on_error(self, frame: dict[str, Any]) -> None:
        """An error frame."""

    async def _read(self) -> None:
        try:
            kept = None if self.stats.frames is None else self.stats.frames.setdefault(id(self), [])
            async for raw in self.ws:
                now = perf()
                if kept is not None:
                    kept.append(raw)
                frame = json.loads(raw)
                kind = frame["type"]
                if kind in ("snapshot", "update"):
                    room_id = frame["room_id"]
                    state = self.tables.get(room_id)
                    if state is None:
                        state = self.tables[room_id] = TableState(room_id)
                    state.absorb(frame)
                    self.on_state(frame, state, now)
                elif kind == "error":
                    self.on_error(frame)
                if self.queueing:
                    self.frames.put_nowait(frame)
        except ConnectionClosed:
            pass
        except Exception:
            self.stats.client_bugs += 1
            traceback.print_exc()
        if not self.stats.stopping and not self.moving:
            self.stats.disconnects[str(self.ws.close_code)] += 1

    def frames_off(self) -> None:
        self.queueing = False
        while not self.frames.empty():
            self.frames.get_nowait()


class Player(Reporter):
    """One of a table's four players: its updates and errors go to the table."""

    def __init__(self, ws: ClientConnection, table: Table, index: int, url: str) -> None:
        self.table = table
        self.index = index
        self.url = url
        self.node: str | None = None  # the node's id, when its welcome says (routing on)
        super().__init__(ws, table.stats)

    def on_state(self, frame: dict[str, Any], state: TableState, now: float) -> None:
        if frame["type"] == "update":
            self.table.on_update(self, frame, state, now)

    def on_error(self, frame: dict[str, Any]) -> None:
        self.errors.append(frame)
        self.table.on_error(self, frame)


class Table:
    """Four players at one room, paced by one driver task."""

    def __init__(
        self, index: int, cfg: Config, stats: Stats, nodes: dict[str, str] | None = None
    ) -> None:
        self.index = index
        self.cfg = cfg
        self.stats = stats
        self.nodes = {} if nodes is None else nodes  # node id -> URL (shared by the tables)
        self.rng = random.Random(cfg.seed * 1_000_003 + index)
        self.players: list[Player] = []
        self.room_id = ""
        self.pending: dict[tuple[str, int], Pending] = {}  # by (room, version)
        self.todo: tuple[Player, int, list[str]] | None = None
        self.wake = asyncio.Event()
        self.over = False
        self.ended = ""  # the last room whose match ended (its late frames change nothing)
        self.interval = 1.0 / cfg.rate
        self.next_slot = 0.0
        self.task: asyncio.Task[None] | None = None
        self.finished: asyncio.Event | None = None  # set once a finishing match has ended

    # -- set-up ------------------------------------------------------------------------

    async def _open(self, url: str, seat: int) -> Player:
        ws = await connect(
            url,
            max_size=2**22,
            compression="deflate" if self.cfg.compression else None,
            ping_interval=None,  # like a browser: answer the server's pings, send none
            open_timeout=SETUP_TIMEOUT,
        )
        return Player(ws, self, seat, url)

    def _welcomed(self, player: Player, welcome: dict[str, Any]) -> None:
        _expect(welcome, "welcome")
        player.node = welcome.get("node")
        if player.node is not None:
            self.nodes.setdefault(player.node, player.url)

    async def connect(self) -> None:
        urls = self.cfg.urls
        for seat in range(4):
            self.players.append(await self._open(urls[(self.index + seat) % len(urls)], seat))
        async with asyncio.timeout(SETUP_TIMEOUT):
            for seat, player in enumerate(self.players):
                self._welcomed(player, await player.hello(f"load{self.index}s{seat}"))

    async def seat(self) -> None:
        """Create a room and fill it; the players' frame queues are on."""
        first = self.players[0]
        for player in self.players:
            player.queueing = True
        async with asyncio.timeout(SETUP_TIMEOUT):
            message = {
                "type": "create_room",
                "name": f"load {self.index}",
                "rules": {"deals": self.cfg.deals},
                "move_seconds": self.cfg.move_seconds,
                "seat": 0,
            }
            created = await _snapshot(first, message)
            self.room_id = created["room_id"]
            for seat in (1, 2, 3):
                message = {"type": "take_seat", "room_id": self.room_id, "seat": seat}
                await _snapshot(self.players[seat], message)
            if self.cfg.route:
                for seat in (1, 2, 3):
                    await self._follow_route(seat)

    async def _follow_route(self, seat: int) -> None:
        """A player on another node than the room's (whose welcome names it) gets a
        ``route`` frame after its snapshot: it moves to that node and resumes there."""
        player, owner = self.players[seat], self.players[0].node
        if player.node is None or player.node == owner:
            return
        hint = await player.next("route", timeout=SETUP_TIMEOUT, room_id=self.room_id)
        url = self.nodes.get(hint["node"])
        if url is None:  # a node none of our URLs reaches: stay, forwarded
            return
        moved = await self._open(url, seat)
        self._welcomed(moved, await moved.hello(token=player.token))
        message = {"type": "resume", "room_id": self.room_id, "version": 0}
        await _snapshot(moved, message)
        self.players[seat] = moved
        player.moving = True
        await player.close()
        self.stats.moves += 1

    async def start(self) -> None:
        """Everyone ready; the match starts and the driver begins pacing."""
        async with asyncio.timeout(SETUP_TIMEOUT):
            for player in self.players:
                await player.send({"type": "ready", "room_id": self.room_id})
            await self.players[0].next("update", timeout=SETUP_TIMEOUT, kind="start",
                                       room_id=self.room_id)  # fmt: skip
        for player in self.players:
            player.frames_off()
        self.next_slot = max(self.next_slot, perf() + self.rng.uniform(0, self.interval))
        if self.task is None:
            self.task = asyncio.create_task(self._drive(), name=f"table-{self.index}")

    async def _rematch(self) -> None:
        old = self.room_id
        self.over = False
        self.todo = None
        for player in self.players:
            player.tables.pop(old, None)
        self.stats.rematches += 1
        await self.seat()
        await self.start()

    # -- play ----------------------------------------------------------------------------

    def on_update(
        self, player: Player, frame: dict[str, Any], state: TableState, now: float
    ) -> None:
        key = (frame["room_id"], frame["version"])
        pending = self.pending.get(key)
        if pending is not None:
            if player.index == pending.seat:
                if frame["kind"] != "act" or frame.get("seat") != pending.seat:
                    self.stats.mismatched += 1
                self.stats.acks.append(now)
            pending.waiting -= 1
            pending.last = max(pending.last, now)
            if pending.waiting == 0:
                del self.pending[key]
                self.stats.done.append((pending.sent, pending.last - pending.sent))
        elif player.index == 0 and frame["kind"] == "act" and frame.get("by") != "player":
            self.stats.server_played += 1
        if key[0] != self.room_id:
            return
        if state.over:
            if self.ended != key[0]:
                self.ended, self.over = key[0], True
                self.wake.set()
        elif state.turn == state.seat and state.legal:
            self.todo = (player, key[1], state.legal)
            self.wake.set()

    def on_error(self, player: Player, frame: dict[str, Any]) -> None:
        code = frame.get("code", "?")
        self.stats.errors[code] += 1
        state = player.tables.get(self.room_id)
        self.pending = {k: p for k, p in self.pending.items() if p.seat != player.index}
        if state is not None and state.turn == state.seat and state.legal and not state.over:
            if code == "room_unavailable":  # moving between nodes: try again shortly
                self.next_slot = min(self.next_slot, perf() + RETRY_DELAY)
            self.todo = (player, state.version, state.legal)  # try again at the next slot
            self.wake.set()

    async def _drive(self) -> None:
        try:
            while True:
                await self.wake.wait()
                self.wake.clear()
                if self.stats.stopping:
                    return
                if self.over and self.finished is not None:
                    self.finished.set()
                    return
                if self.over:
                    await self._rematch()
                    continue
                todo, self.todo = self.todo, None
                if todo is None:
                    continue
                player, version, legal = todo
                now = perf()
                slot = self._slot(now)
                self.next_slot = slot + self.interval
                if slot > now:
                    await asyncio.sleep(slot - now)
                if self.stats.stopping:
                    return
                action = self.rng.choice(legal)
                message = {"type": "act", "room_id": self.room_id, "action": action,
                           "version": version}  # fmt: skip
                sent = perf()
                self.pending[self.room_id, version + 1] = Pending(sent, player.index)
                self.stats.sends.append(sent)
                await player.send(message)
        except (ConnectionClosed, TimeoutError) as err:
            if not self.stats.stopping:
                self.stats.setup_failures += 1
                print(f"table {self.index}: stopped: {err!r}", file=sys.stderr)
        except Exception:
            self.stats.client_bugs += 1
            traceback.print_exc()

    def _slot(self, now: float) -> float:
        """When to act on a turn that came at ``now``: the table's next slot, or if that
        has passed, the next one of the same schedule (``--drift``: at once)."""
        slot = self.next_slot
        if slot >= now or self.interval == 0.0:
            return max(slot, now)
        if self.cfg.drift:
            return now
        return slot + math.ceil((now - slot) / self.interval) * self.interval

    def finish(self) -> asyncio.Event:
        """Play the match to its end at once, with no new one after it; the event is set
        when it has ended (bench/memory.py: the rooms end before memory is read)."""
        self.finished = asyncio.Event()
        self.interval, self.next_slot = 0.0, perf()
        if self.task is None or self.task.done():
            self.finished.set()
        self.wake.set()
        return self.finished

    async def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
        for player in self.players:
            with contextlib.suppress(Exception):
                await player.close()


def _expect(frame: dict[str, Any], kind: str) -> dict[str, Any]:
    if frame["type"] != kind:
        raise RuntimeError(f"expected {kind}, got {frame}")
    return frame


async def _snapshot(player: Reporter, message: dict[str, Any]) -> dict[str, Any]:
    """Send a set-up request until its snapshot comes (again after ``room_unavailable``)."""
    while True:
        frame = await player.request(message, "snapshot", SETUP_TIMEOUT)
        if frame["type"] != "error" or frame.get("code") != "room_unavailable":
            return _expect(frame, "snapshot")
        await asyncio.sleep(RETRY_DELAY)


# -- the server process ---------------------------------------------------------------


class ServerHandle:
    """One server (node) under test: its URL and, when known, its pid (for RSS and CPU)."""

    def __init__(self, url: str, pid: int | None, name: str = "node1") -> None:
        self.url = url
        self.pid = pid
        self.name = name
        self.proc: asyncio.subprocess.Process | None = None
        self.tmp: str | None = None
        self.log_path: str | None = None
        self.profile: str | None = None
        self.callgrind: str | None = None
        self._log: Any = None

    @classmethod
    async def spawn(
        cls,
        profile: str | None,
        name: str = "node1",
        env: dict[str, str] | None = None,
        root: Path = ROOT,
        callgrind: str | None = None,
    ) -> ServerHandle:
        """A fresh server; on SQLite in a temporary file unless ``env`` names a database;
        under callgrind, not yet counting, with ``callgrind`` its output file."""
        tmp = tempfile.mkdtemp(prefix="klaverjas-load-")
        serve = ["-m", "commands", "serve", "--host", "127.0.0.1", "--port", "0"]
        if env is None:
            serve += ["--db", os.path.join(tmp, "load.sqlite3")]
        prefix = ["-m", "cProfile", "-o", profile] if profile else []
        command = [sys.executable, *prefix, *serve]
        if callgrind:
            valgrind = ["valgrind", "--tool=callgrind", "--instr-atstart=no"]
            command = [*valgrind, f"--callgrind-out-file={callgrind}", *command]
        log_path = os.path.join(tmp, "server.log")
        log_file = open(log_path, "w")  # noqa: SIM115 (closed in stop)
        # The simulated players never look at a deal's result: no pause between deals
        # (unless the environment sets one), so a table's pace is its players' alone.
        env = {
            "KLAVERJAS_DEAL_PAUSE": "0",
            "KLAVERJAS_MAX_PER_ADDRESS": "1000000",  # every simulated player is on loopback
            "KLAVERJAS_MAX_CONNECTIONS": "1000000",
            **(os.environ if env is None else env),
        }
        proc = await asyncio.create_subprocess_exec(
            *command, cwd=root, stdout=asyncio.subprocess.PIPE, stderr=log_file, env=env
        )
        assert proc.stdout is not None
        try:
            line = (await asyncio.wait_for(proc.stdout.readline(), 60)).decode()
        except TimeoutError:
            line = ""
        found = re.search(r"(ws://\S+)", line)
        if found is None:
            proc.kill()
            await proc.wait()
            log_file.close()
            raise SystemExit(f"the server did not start: {line!r}; see {log_path}")
        handle = cls(found.group(1), proc.pid, name)
        handle.proc, handle.tmp, handle.log_path, handle._log = proc, tmp, log_path, log_file
        handle.profile, handle.callgrind = profile, callgrind
        return handle

    async def count(self, on: bool) -> None:
        """Start or stop callgrind's counting (when the server runs under it)."""
        if self.callgrind is None:
            return
        control = await asyncio.create_subprocess_exec(
            "callgrind_control", "-i", "on" if on else "off", str(self.pid),
            stdout=asyncio.subprocess.DEVNULL,
        )  # fmt: skip
        if await control.wait() != 0:
            raise SystemExit(f"callgrind_control -i {'on' if on else 'off'} {self.pid} failed")

    def instructions(self) -> int | None:
        """The instructions callgrind counted (its file is written when the server exits)."""
        if self.callgrind is None:
            return None
        with open(self.callgrind) as out:
            for line in out:
                if line.startswith("totals:"):
                    return int(line.split()[1])
        return None

    def rss_kib(self, key: str = "VmRSS") -> int | None:
        return None if self.pid is None else status_kib(self.pid, key)

    def cpu_seconds(self) -> float | None:
        if self.pid is None:
            return None
        try:
            with open(f"/proc/{self.pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            return None
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    async def metrics(self) -> dict[str, float]:
        """``/metrics`` as ``{"name{labels}": value}``; empty if it cannot be read."""
        parts = urlparse(self.url)
        try:
            async with asyncio.timeout(10):
                reader, writer = await asyncio.open_connection(parts.hostname, parts.port)
                writer.write(b"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                body = await reader.read()
                writer.close()
        except (OSError, TimeoutError):
            return {}
        values: dict[str, float] = {}
        for line in body.decode(errors="replace").split("\r\n\r\n", 1)[-1].splitlines():
            if line and not line.startswith("#"):
                name, _, value = line.rpartition(" ")
                with contextlib.suppress(ValueError):
                    values[name] = float(value)
        return values

    def log_problems(self) -> list[str]:
        if self.log_path is None:
            return []
        with open(self.log_path, errors="replace") as log:
            return [ln.strip() for ln in log if '"level": "error"' in ln or "Traceback" in ln]

    async def stop(self) -> None:
        if self.proc is None:
            return
        if self.proc.returncode is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(self.proc.wait(), 60)
            except TimeoutError:
                print("server: no exit 60 s after SIGTERM; killing it", file=sys.stderr)
                self.proc.kill()
                await self.proc.wait()
        self._log.close()

    def keep_log(self) -> str:
        """Copy the log out of the directory :meth:`cleanup` removes; the copy's path."""
        fd, path = tempfile.mkstemp(prefix=f"klaverjas-{self.name}-", suffix=".log")
        with os.fdopen(fd, "wb") as out, open(str(self.log_path), "rb") as log:
            shutil.copyfileobj(log, out)
        return path

    def cleanup(self) -> None:
        if self.tmp is not None:
            shutil.rmtree(self.tmp, ignore_errors=True)


@dataclass(frozen=True)
class Storage:
    """What spawned nodes share for one run: a fresh PostgreSQL schema, a fresh Redis prefix."""

    database_url: str
    redis_url: str
    schema: str
    prefix: str

    @classmethod
    async def create(cls, database_url: str, redis_url: str) -> Storage:
        import asyncpg
        import redis.asyncio as aioredis
        from redis.exceptions import RedisError

        token = secrets.token_hex(4)
        storage = cls(database_url, redis_url, f"load_{token}", f"kj-load-{token}")
        client = aioredis.from_url(redis_url)
        try:
            await client.ping()
        except (OSError, RedisError) as err:
            raise SystemExit(f"cannot reach Redis at {redis_url}: {err}") from None
        finally:
            await client.aclose()
        try:
            conn = await asyncpg.connect(database_url, timeout=10)
        except (OSError, TimeoutError, asyncpg.PostgresError) as err:
            raise SystemExit(f"cannot reach PostgreSQL at {database_url}: {err}") from None
        try:
            await conn.execute(f'CREATE SCHEMA "{storage.schema}"')
        finally:
            await conn.close()
        return storage

    def env(self, node_id: str, route: bool = True) -> dict[str, str]:
        env = {
            **os.environ,
            "KLAVERJAS_DATABASE_URL": self.database_url,
            "KLAVERJAS_DATABASE_SCHEMA": self.schema,
            "KLAVERJAS_REDIS_URL": self.redis_url,
            "KLAVERJAS_REDIS_PREFIX": self.prefix,
            "KLAVERJAS_NODE_ID": node_id,
        }
        if route:
            env["KLAVERJAS_ROUTE"] = ROUTE
        else:
            env.pop("KLAVERJAS_ROUTE", None)
        return env

    async def drop(self) -> None:
        """Drop the schema and delete the prefix's Redis keys (warnings only on failure)."""
        import asyncpg
        import redis.asyncio as aioredis

        try:
            conn = await asyncpg.connect(self.database_url, timeout=10)
            try:
                await conn.execute(f'DROP SCHEMA IF EXISTS "{self.schema}" CASCADE')
            finally:
                await conn.close()
        except Exception as err:
            print(f"warning: schema {self.schema} not dropped: {err!r}", file=sys.stderr)
        client = aioredis.from_url(self.redis_url)
        try:
            keys = [key async for key in client.scan_iter(match=f"{self.prefix}*", count=1000)]
            for i in range(0, len(keys), 1000):
                await client.unlink(*keys[i : i + 1000])
        except Exception as err:
            print(f"warning: Redis keys {self.prefix}* not deleted: {err!r}", file=sys.stderr)
        finally:
            await client.aclose()


class Cluster:
    """The servers under test (one or more nodes) and, when spawned, their shared storage.

    CPU, RSS and ``/metrics`` are the sums over the nodes (``None`` if any node's is
    unknown), each process counted once (two URLs may reach one server); each node's own
    RSS readings are kept in ``rss`` by stage.
    """

    def __init__(self, nodes: list[ServerHandle], storage: Storage | None = None) -> None:
        self.nodes = nodes
        self.storage = storage
        self.rss: list[dict[str, int | None]] = [{} for _ in nodes]

    @classmethod
    async def spawn(cls, cfg: Config) -> Cluster:
        cluster = cls([])
        try:
            if cfg.database_url is not None:
                redis_url = cfg.redis_url or DEFAULT_REDIS_URL
                cluster.storage = await Storage.create(cfg.database_url, redis_url)
            for i in range(cfg.nodes):
                name = f"node{i + 1}"
                profile, callgrind = cfg.profile, cfg.callgrind
                if cfg.nodes > 1:
                    profile = profile and f"{profile}.{name}"
                    callgrind = callgrind and f"{callgrind}.{name}"
                env = cluster.storage.env(name, cfg.route) if cluster.storage else None
                node = await ServerHandle.spawn(profile, name, env, cfg.server_root, callgrind)
                cluster.nodes.append(node)
                cluster.rss.append({})
        except BaseException:
            await cluster.stop()
            raise
        return cluster

    @classmethod
    def attach(cls, cfg: Config) -> Cluster:
        """Running servers at ``cfg.urls``; pids from ``cfg.server_pids`` or ``ss``."""
        nodes = []
        for i, url in enumerate(cfg.urls):
            pid = cfg.server_pids[i] if i < len(cfg.server_pids) else None
            pid = pid or pid_listening_on(urlparse(url).port or 80)
            nodes.append(ServerHandle(url, pid, f"node{i + 1}"))
        return cls(nodes)

    @property
    def urls(self) -> tuple[str, ...]:
        return tuple(node.url for node in self.nodes)

    @property
    def spawned(self) -> bool:
        return any(node.proc is not None for node in self.nodes)

    def _distinct(self) -> list[int]:
        """Indexes of the nodes to add up: the first of each known pid, and unknown ones."""
        seen: set[int] = set()
        keep = []
        for i, node in enumerate(self.nodes):
            if node.pid is None or node.pid not in seen:
                keep.append(i)
            if node.pid is not None:
                seen.add(node.pid)
        return keep

    def read_rss(self, stage: str, key: str = "VmRSS") -> int | None:
        """Every node's RSS (``key`` of its status) as ``stage``; the sum."""
        for node, rss in zip(self.nodes, self.rss, strict=True):
            rss[stage] = node.rss_kib(key)
        return _sum(self.rss[i][stage] for i in self._distinct())

    def cpu_seconds(self) -> list[float | None]:
        """Each node's CPU seconds so far (add them up with :meth:`total`)."""
        return [node.cpu_seconds() for node in self.nodes]

    def total(self, values: list[float | None]) -> float | None:
        return _sum(values[i] for i in self._distinct())

    async def metrics(self) -> dict[str, float]:
        """Every node's ``/metrics``, summed by name (counters and histogram buckets add)."""
        total: dict[str, float] = {}
        nodes = [self.nodes[i] for i in self._distinct()]
        for values in await asyncio.gather(*(node.metrics() for node in nodes)):
            for name, value in values.items():
                total[name] = total.get(name, 0.0) + value
        return total

    async def count(self, on: bool) -> None:
        """Start or stop callgrind's counting on every node that runs under it."""
        await asyncio.gather(*(node.count(on) for node in self.nodes))

    def instructions(self) -> int | None:
        """What callgrind counted on all nodes (None: no node ran under it)."""
        counts = [node.instructions() for node in self.nodes if node.callgrind]
        return _sum(counts) if counts else None

    async def stop(self) -> None:
        """Stop the spawned nodes, report their logs' errors, then remove what they used."""
        await asyncio.gather(*(node.stop() for node in self.nodes))
        for node in self.nodes:
            problems = node.log_problems()
            if problems:
                label = "server" if len(self.nodes) == 1 else node.name
                kept = node.keep_log()
                print(
                    f"   {label} log: {len(problems)} error lines, first: {problems[0][:300]}"
                    f" (the whole log: {kept})"
                )
            node.cleanup()
        if self.storage is not None:
            await self.storage.drop()


def _sum(values: Any) -> Any:
    """The sum of ``values``, or None if there are none or any is None."""
    values = list(values)
    return None if not values or any(v is None for v in values) else sum(values)


def machine_cpu() -> tuple[float, float, float] | None:
    """Cumulative seconds of (busy, steal, total) over all cores, from ``/proc/stat``."""
    try:
        with open("/proc/stat") as stat:
            values = [int(v) for v in stat.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    tick = os.sysconf("SC_CLK_TCK")
    total = sum(values[:8])  # guest time is already counted in user
    idle = values[3] + values[4]
    return (total - idle) / tick, values[7] / tick, total / tick


def status_kib(pid: int | str, key: str = "VmRSS") -> int | None:
    """A ``kB`` line of ``/proc/<pid>/status`` (``VmRSS``, ``VmHWM``), or None."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith(key + ":"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return None


def source_version(root: Path = ROOT) -> str | None:
    """The checkout a spawned server runs (``git describe --always --dirty``)."""
    try:
        out = subprocess.run(
            ["git", "-C", str(root), "describe", "--always", "--dirty"],
            capture_output=True, text=True, timeout=10,
        )  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None


def pid_listening_on(port: int) -> int | None:
    """The pid listening on a local TCP port, from ``ss -ltnp`` (same user only)."""
    try:
        out = subprocess.run(
            ["ss", "-ltnpH", f"sport = :{port}"], capture_output=True, text=True, timeout=10
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    found = re.search(r"pid=(\d+)", out)
    return int(found.group(1)) if found else None


def raise_fd_limit(needed: int) -> int:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = max(soft, needed)
    if hard != resource.RLIM_INFINITY:
        want = min(want, hard)
    if want > soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    return want


# -- one run --------------------------------------------------------------------------


async def _lag_monitor(lag: list[tuple[float, float]], period: float = 0.01) -> None:
    """Append ``(when, how late)`` of a ``period`` sleep to ``lag``, forever."""
    while True:
        start = perf()
        await asyncio.sleep(period)
        now = perf()
        lag.append((now, now - start - period))


class _Unit(Protocol):
    """What :func:`_in_batches` sets up: a table here, a solo game in ``bench/solo.py``."""

    index: int

    async def close(self) -> None: ...


U = TypeVar("U", bound=_Unit)


async def _in_batches(
    tables: list[U], size: int, step: Callable[[U], Awaitable[None]], stats: Any
) -> list[U]:
    """Run ``step`` on every table, ``size`` tables at a time; the tables that made it
    (``stats.setup_failures`` counts the others)."""
    alive: list[U] = []
    for i in range(0, len(tables), size):
        batch = tables[i : i + size]
        results = await asyncio.gather(*(step(t) for t in batch), return_exceptions=True)
        for table, result in zip(batch, results, strict=True):
            if isinstance(result, BaseException):
                stats.setup_failures += 1
                print(f"table {table.index}: {step.__name__} failed: {result!r}", file=sys.stderr)
                await table.close()
            else:
                alive.append(table)
    return alive


async def run_once(cfg: Config) -> dict[str, Any]:
    source = source_version(cfg.server_root) if cfg.spawn else None
    server = await Cluster.spawn(cfg) if cfg.spawn else Cluster.attach(cfg)
    cfg = replace(cfg, urls=server.urls)
    stats = Stats()
    rss: dict[str, int | None] = {}
    times: dict[str, float] = {}
    tables: list[Table] = []
    monitor: asyncio.Task[None] | None = None
    try:
        await asyncio.sleep(1.0)
        rss["idle"] = server.read_rss("idle")
        print(_header(cfg.tables, server), flush=True)

        began = perf()
        nodes: dict[str, str] = {}
        tables = [Table(i, cfg, stats, nodes) for i in range(cfg.tables)]
        tables = await _in_batches(tables, cfg.batch, Table.connect, stats)
        tables = await _in_batches(tables, cfg.batch, Table.seat, stats)
        times["seat_s"] = perf() - began
        await asyncio.sleep(1.0)
        rss["seated"] = server.read_rss("seated")
        began = perf()
        tables = await _in_batches(tables, cfg.batch, Table.start, stats)
        times["start_s"] = perf() - began
        rss["started"] = server.read_rss("started")
        print(
            f"   seated {len(tables)} tables in {times['seat_s']:.1f} s, started them in"
            f" {times['start_s']:.1f} s; warm-up {cfg.warmup:g} s, measuring {cfg.duration:g} s",
            flush=True,
        )

        # The generator's own collector must not stall it mid-measurement (a full collection
        # of 4,000 connections' objects takes 100+ ms): freeze what exists, then pause it.
        gc.collect()
        gc.freeze()
        gc.disable()
        monitor = asyncio.create_task(_lag_monitor(stats.lag))
        await asyncio.sleep(cfg.warmup)
        await server.count(True)
        before = await server.metrics()
        t0, cpu0, own0, box0 = perf(), server.cpu_seconds(), time.process_time(), machine_cpu()
        await asyncio.sleep(cfg.duration)
        t1, cpu1, own1, box1 = perf(), server.cpu_seconds(), time.process_time(), machine_cpu()
        after = await server.metrics()
        await server.count(False)
        rss["end"] = server.read_rss("end")
        own_rss = status_kib("self")
        rss["peak"] = server.read_rss("peak", "VmHWM")

        stats.stopping = True
        for table in tables:
            table.wake.set()
        deadline = perf() + cfg.drain
        while perf() < deadline and any(t.pending for t in tables):
            await asyncio.sleep(0.05)
        in_flight = sum(len(t.pending) for t in tables)
    finally:
        stats.stopping = True
        gc.enable()
        gc.unfreeze()
        if monitor is not None:
            monitor.cancel()
        for i in range(0, len(tables), 250):
            await asyncio.gather(*(t.close() for t in tables[i : i + 250]))
        await asyncio.sleep(1.0)
        rss["after_close"] = server.read_rss("after_close")
        if server.spawned:
            await server.stop()

    window = t1 - t0
    acked = sum(t0 <= a < t1 for a in stats.acks)
    cpu_s = _delta_of(server.total(cpu0), server.total(cpu1))
    sent = sum(t0 <= s < t1 for s in stats.sends)
    latencies = sorted(lat for s, lat in stats.done if t0 <= s < t1)
    lags = sorted(lag for at, lag in stats.lag if t0 <= at < t1)
    connections = 4 * len(tables)
    result: dict[str, Any] = {
        "tables": len(tables),
        "connections": connections,
        "server_source": source,
        "rate_per_table": cfg.rate,
        "compression": cfg.compression,
        "window_s": round(window, 2),
        "seat_s": round(times["seat_s"], 2),
        "start_s": round(times["start_s"], 2),
        "actions_per_s": round(acked / window, 1),
        "target_actions_per_s": round(len(tables) * cfg.rate, 1),
        "sent": sent,
        "completed": len(latencies),
        "incomplete": sent - len(latencies),
        "in_flight_after_drain": in_flight,
        "latency_ms": {
            "p50": _ms(_quantile(latencies, 0.50)),
            "p90": _ms(_quantile(latencies, 0.90)),
            "p99": _ms(_quantile(latencies, 0.99)),
            "max": _ms(latencies[-1] if latencies else None),
            "count": len(latencies),
        },
        "server_latency_ms": _histogram(before, after, "klaverjas_action_latency_seconds"),
        "gc_pauses": _gc_pauses(before, after),
        "server_cpu_pct": _pct(server.total(cpu0), server.total(cpu1), window),
        "cpu_us_per_action": None if cpu_s is None or not acked else round(1e6 * cpu_s / acked),
        "actions_per_cpu_s": None if not cpu_s else round(acked / cpu_s),
        "route": cfg.route,
        "drift": cfg.drift,
        "moves": stats.moves,
        "crossed_redis": {
            what: _delta(before, after, f'klaverjas_cluster_forwarded_total{{what="{what}"}}')
            for what in ("command", "frame")
        },
        "generator_cpu_pct": _pct(own0, own1, window),
        "machine": _machine(box0, box1),
        "generator_lag_ms": {"p99": _ms(_quantile(lags, 0.99)), "max": _ms(max(lags, default=0))},
        "rss_kib": rss,
        "generator_rss_kib": own_rss,
        "kib_per_client_seated": _per_client(rss, "seated", connections),
        "kib_per_client_end": _per_client(rss, "end", connections),
        "errors": dict(stats.errors),
        "error_count": sum(stats.errors.values()),
        "server_dropped": _delta(before, after, "klaverjas_dropped_connections_total"),
        "disconnects": dict(stats.disconnects),
        "server_played_acts": stats.server_played,
        "mismatched": stats.mismatched,
        "rematches": stats.rematches,
        "setup_failures": stats.setup_failures,
        "client_bugs": stats.client_bugs,
        "storage": _storage(cfg, server),
        "nodes": [
            {
                "name": node.name,
                "url": node.url,
                "pid": node.pid,
                "connections": clients,
                "cpu_pct": _pct(a, b, window),
                "rss_kib": node_rss,
                "kib_per_client_seated": _per_client(node_rss, "seated", clients),
            }
            for node, node_rss, a, b, clients in zip(
                server.nodes, server.rss, cpu0, cpu1, _spread(tables, cfg.urls), strict=True
            )
        ],
    }
    if cfg.callgrind:
        result["callgrind"] = _instructions(server.instructions(), before, after)
    if cfg.timeline:
        result["timeline"] = _timeline(stats, t0, t1)
    print_run(result)
    for node in server.nodes:
        if node.profile:
            print_profile(node.profile, cfg.profile_top)
    return result


def _instructions(
    counted: int | None, before: dict[str, float], after: dict[str, float]
) -> dict[str, Any]:
    """Callgrind's count over the actions the servers accepted meanwhile."""
    names = {name for name in after if name.startswith("klaverjas_actions_total{")}
    actions = round(sum(after[name] - before.get(name, 0.0) for name in names))
    per_action = None if counted is None or not actions else round(counted / actions)
    return {"instructions": counted, "actions": actions, "per_action": per_action}


def _spread(tables: list[Table], urls: tuple[str, ...]) -> list[int]:
    """Connections per URL at the end (after the players that followed a route moved)."""
    where = Counter(player.url for table in tables for player in table.players)
    return [where[url] for url in urls]


def _delta_of(a: float | None, b: float | None) -> float | None:
    return None if a is None or b is None else b - a


def _header(tables: int, server: Cluster) -> str:
    if len(server.nodes) == 1 and server.storage is None:
        node = server.nodes[0]
        return f"-- {tables} tables against {node.url} (server pid {node.pid})"
    nodes = ", ".join(f"{n.name} {n.url} (pid {n.pid})" for n in server.nodes)
    line = f"-- {tables} tables against {len(server.nodes)} node(s): {nodes}"
    if server.storage is not None:
        line += (
            f"\n   storage: PostgreSQL schema {server.storage.schema}, Redis prefix"
            f" {server.storage.prefix}"
        )
    return line


def _storage(cfg: Config, server: Cluster) -> str | None:
    """What the spawned nodes stored in: "sqlite" or "postgresql+redis"; None if not ours."""
    if not cfg.spawn:
        return None
    return "sqlite" if server.storage is None else "postgresql+redis"


# -- figures --------------------------------------------------------------------------


def _timeline(stats: Stats, t0: float, t1: float) -> list[dict[str, Any]]:
    """Per second of the window: actions sent, their p50 and max latency, the loop lag."""
    seconds = math.ceil(t1 - t0)
    lat: list[list[float]] = [[] for _ in range(seconds)]
    lag = [0.0] * seconds
    for sent, latency in stats.done:
        if t0 <= sent < t1:
            lat[int(sent - t0)].append(latency)
    for at, value in stats.lag:
        if t0 <= at < t1:
            lag[int(at - t0)] = max(lag[int(at - t0)], value)
    rows = []
    for second, values in enumerate(lat):
        values.sort()
        rows.append(
            {
                "s": second,
                "n": len(values),
                "p50": _ms(_quantile(values, 0.5)),
                "max": _ms(values[-1] if values else None),
                "lag_max": _ms(lag[second]),
            }
        )
    return rows


def _quantile(values: list[float], q: float) -> float | None:
    """Nearest-rank quantile of sorted ``values``."""
    if not values:
        return None
    return values[max(0, math.ceil(q * len(values)) - 1)]


def _ms(seconds: float | None) -> float | None:
    return None if seconds is None else round(seconds * 1000, 2)


def _pct(a: float | None, b: float | None, window: float) -> float | None:
    return None if a is None or b is None else round(100 * (b - a) / window, 1)


def _machine(
    a: tuple[float, float, float] | None, b: tuple[float, float, float] | None
) -> dict[str, Any]:
    """All cores over the window: busy and stolen time as a share of their capacity."""
    cores = os.cpu_count() or 1
    if a is None or b is None or b[2] <= a[2]:
        return {"cores": cores, "busy_pct": None, "steal_pct": None}
    total = b[2] - a[2]
    return {
        "cores": cores,
        "busy_pct": round(100 * (b[0] - a[0]) / total, 1),
        "steal_pct": round(100 * (b[1] - a[1]) / total, 1),
    }


def _per_client(rss: dict[str, int | None], key: str, connections: int) -> float | None:
    idle, loaded = rss.get("idle"), rss.get(key)
    if idle is None or loaded is None or connections == 0:
        return None
    return round((loaded - idle) / connections, 1)


def _delta(before: dict[str, float], after: dict[str, float], name: str) -> float | None:
    if name not in after:
        return None
    return after[name] - before.get(name, 0.0)


def _histogram(
    before: dict[str, float], after: dict[str, float], name: str, labels: str = ""
) -> dict[str, Any]:
    """A Prometheus histogram over the window (its series with ``labels``, e.g.
    ``generation="0"``): count, mean and total in ms, and p50/p99/max as 'at most this
    bucket' bounds."""
    series = f"{{{labels}}}" if labels else ""
    prefix = f'{name}_bucket{{{labels + "," if labels else ""}le="'
    buckets = sorted(
        (float(key[len(prefix) : -2]), after[key] - before.get(key, 0.0))
        for key in after
        if key.startswith(prefix)
    )
    count = buckets[-1][1] if buckets else 0.0
    figures: dict[str, Any] = {"count": int(count)}
    for label, q in (("p50_le", 0.5), ("p99_le", 0.99), ("max_le", 1.0)):
        bound = next((le for le, n in buckets if count and n >= q * count), None)
        figures[label] = _le_ms(bound)
    total = _delta(before, after, f"{name}_sum{series}")
    figures["total"] = None if total is None else round(1000 * total, 1)
    figures["mean"] = round(1000 * total / count, 3) if total is not None and count else None
    return figures


def _le_ms(bound: float | None) -> float | str | None:
    """A histogram's bucket bound in ms."""
    return None if bound is None else "+Inf" if math.isinf(bound) else bound * 1000


def _gc_pauses(before: dict[str, float], after: dict[str, float]) -> dict[str, Any]:
    """The server's garbage collections over the window by generation (all nodes)."""
    return {
        generation: _histogram(
            before, after, "klaverjas_gc_pause_seconds", f'generation="{generation}"'
        )
        for generation in "012"
    }


def _fmt(value: Any, unit: str = "") -> str:
    if value is None:
        return "-"
    return f"{value}{unit}" if isinstance(value, str) else f"{value:g}{unit}"


def print_run(r: dict[str, Any]) -> None:
    lat, srv, lag = r["latency_ms"], r["server_latency_ms"], r["generator_lag_ms"]
    rss, box = r["rss_kib"], r["machine"]
    codes = f" {r['errors']}" if r["errors"] else ""

    def mib(key: str) -> str:
        return "-" if rss.get(key) is None else f"{rss[key] / 1024:.1f}"

    lines = [
        f"   actions/s      {r['actions_per_s']:g} (target {r['target_actions_per_s']:g});"
        f" sent {r['sent']}, completed {r['completed']}, incomplete {r['incomplete']}",
        f"   latency ms     p50 {_fmt(lat['p50'])}  p90 {_fmt(lat['p90'])}"
        f"  p99 {_fmt(lat['p99'])}  max {_fmt(lat['max'])}  (n={lat['count']})",
        f"   server-side ms p50 <= {_fmt(srv.get('p50_le'))}  p99 <= {_fmt(srv.get('p99_le'))}"
        f"  mean {_fmt(srv.get('mean'))}  (arrival to queued, /metrics, n={srv['count']})",
        f"   server CPU     {_fmt(r['cpu_us_per_action'])} µs per action,"
        f" {_fmt(r['actions_per_cpu_s'])} actions per CPU-second (all nodes together)",
        *(
            [
                f"   instructions   {_fmt(cg['per_action'])} per action in user space"
                f" (callgrind, {cg['actions']} actions)"
            ]
            if (cg := r.get("callgrind"))
            else []
        ),
        f"   routing        {'on' if r['route'] else 'off'}: {r['moves']} players moved to"
        f" their room's node; crossed Redis in the window:"
        f" {_fmt(r['crossed_redis']['command'])} commands,"
        f" {_fmt(r['crossed_redis']['frame'])} frames",
        f"   CPU            server {_fmt(r['server_cpu_pct'], '%')},"
        f" generator {_fmt(r['generator_cpu_pct'], '%')}"
        f" (generator loop lag p99 {_fmt(lag['p99'])} ms, max {_fmt(lag['max'])} ms);"
        f" machine {_fmt(box['busy_pct'], '%')} busy of {box['cores']} cores,"
        f" steal {_fmt(box['steal_pct'], '%')}",
        "   GC pauses      "
        + "; ".join(
            f"gen {g}: {_fmt(f['count'])} taking {_fmt(f['total'])} ms, each <= "
            f"{_fmt(f['max_le'])} ms"
            for g, f in r["gc_pauses"].items()
        ),
        f"   server RSS MiB idle {mib('idle')}, seated {mib('seated')}, started"
        f" {mib('started')}, end {mib('end')}, peak {mib('peak')}, after close"
        f" {mib('after_close')}",
        f"   KiB/client     {_fmt(r['kib_per_client_seated'])} seated,"
        f" {_fmt(r['kib_per_client_end'])} at the end ({r['connections']} connections)",
        f"   problems       errors {r['error_count']}{codes},"
        f" disconnects {sum(r['disconnects'].values())},"
        f" dropped by server {_fmt(r['server_dropped'])},"
        f" server-played {r['server_played_acts']}, mismatched {r['mismatched']},"
        f" setup failures {r['setup_failures']}, rematches {r['rematches']}",
    ]
    if len(r["nodes"]) > 1:
        for node in r["nodes"]:
            nrss = node["rss_kib"]
            seated, end = nrss.get("seated"), nrss.get("end")
            lines.append(
                f"   {node['name']:<14} CPU {_fmt(node['cpu_pct'], '%')},"
                f" RSS MiB seated {'-' if seated is None else f'{seated / 1024:.1f}'},"
                f" end {'-' if end is None else f'{end / 1024:.1f}'},"
                f" KiB/client seated {_fmt(node['kib_per_client_seated'])}"
                f" ({node['connections']} connections, pid {node['pid']})"
            )
    for row in r.get("timeline", []):
        lines.append(
            f"   t={row['s']:>3} s  n {row['n']:>5}  p50 {_fmt(row['p50']):>8}"
            f"  max {_fmt(row['max']):>8}  generator lag max {_fmt(row['lag_max'])} ms"
        )
    print("\n".join(lines), flush=True)


def print_summary(results: list[dict[str, Any]]) -> None:
    print()
    print(
        f"{'tables':>6} {'conns':>6} {'act/s':>7} {'p50 ms':>7} {'p99 ms':>7} {'max ms':>7}"
        f" {'srv CPU':>7} {'µs/act':>7} {'gen CPU':>7} {'RSS MiB':>8} {'KiB/cl':>7} {'errors':>6}"
    )
    for r in results:
        lat, end = r["latency_ms"], r["rss_kib"].get("end")
        print(
            f"{r['tables']:>6} {r['connections']:>6} {r['actions_per_s']:>7g}"
            f" {_fmt(lat['p50']):>7} {_fmt(lat['p99']):>7} {_fmt(lat['max']):>7}"
            f" {_fmt(r['server_cpu_pct'], '%'):>7} {_fmt(r['cpu_us_per_action']):>7}"
            f" {_fmt(r['generator_cpu_pct'], '%'):>7}"
            f" {'-' if end is None else f'{end / 1024:.0f}':>8}"
            f" {_fmt(r['kib_per_client_seated']):>7} {r['error_count']:>6}"
        )


def print_profile(path: str, top: int) -> None:
    if not os.path.exists(path):
        print(f"   no profile written to {path}")
        return
    for order in ("cumulative", "tottime"):
        print(f"\n-- server profile, top {top} by {order} ({path})")
        stats = pstats.Stats(path, stream=sys.stdout)
        stats.strip_dirs().sort_stats(order).print_stats(top)


# -- command line ---------------------------------------------------------------------


def parse_args(argv: list[str] | None = None) -> tuple[argparse.Namespace, list[int]]:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument(
        "url", nargs="*", help="server URL(s); several: a cluster (default ws://127.0.0.1:8765/)"
    )
    parser.add_argument("--tables", default="100", help="tables, or a comma list (with --spawn)")
    parser.add_argument("--rate", type=float, default=1.0, help="actions/s per table")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds before measuring")
    parser.add_argument("--duration", type=float, default=30.0, help="seconds measured")
    parser.add_argument("--drain", type=float, default=5.0, help="seconds for late updates")
    parser.add_argument("--batch", type=int, default=50, help="tables set up at once")
    parser.add_argument("--deals", type=int, default=16, help="deals per match")
    parser.add_argument("--move-seconds", type=int, default=120, help="the rooms' turn timer")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-compression", dest="compression", action="store_false",
                        help="do not offer permessage-deflate")  # fmt: skip
    parser.add_argument("--server-pid", type=int, action="append", default=[],
                        help="pid of the server, for RSS and CPU (once per URL)")  # fmt: skip
    parser.add_argument("--spawn", action="store_true", help="start a fresh server per run")
    parser.add_argument("--nodes", type=int, default=1, help="servers to spawn (one cluster)")
    parser.add_argument(
        "--database-url",
        help="spawned nodes on this PostgreSQL, and Redis\n(default with --nodes > 1: "
        f"{DEFAULT_DATABASE_URL})",
    )
    parser.add_argument(
        "--redis-url", help=f"Redis of spawned nodes on PostgreSQL (default {DEFAULT_REDIS_URL})"
    )
    parser.add_argument(
        "--server-profile", metavar="FILE", help="spawn the server under cProfile (implies --spawn)"
    )
    parser.add_argument("--profile-top", type=int, default=25)
    parser.add_argument(
        "--callgrind", metavar="FILE",
        help="spawn the server under callgrind: instructions an action (implies --spawn)",
    )  # fmt: skip
    parser.add_argument("--timeline", action="store_true", help="print per-second latency")
    parser.add_argument("--no-route", dest="route", action="store_false",
                        help="ignore route frames (spawned nodes: send none)")  # fmt: skip
    parser.add_argument(
        "--drift",
        action="store_true",
        help="a late turn moves its table's schedule (tables can lock into one wave)",
    )
    parser.add_argument(
        "--server-root",
        type=Path,
        default=ROOT,
        help="spawn the server of this checkout (another commit's worktree)",
    )
    args = parser.parse_args(argv)
    counts = [int(n) for n in args.tables.split(",")]
    if args.server_profile or args.callgrind:
        args.spawn = True
    if args.callgrind and args.server_profile:
        parser.error("--callgrind and --server-profile do not go together")
    if len(counts) > 1 and not args.spawn:
        parser.error("several table counts need --spawn (a fresh server per run)")
    if args.spawn and args.url:
        parser.error("give server URLs or --spawn, not both")
    if not args.spawn and (args.nodes != 1 or args.database_url or args.redis_url):
        parser.error("--nodes, --database-url and --redis-url need --spawn")
    if args.nodes < 1:
        parser.error("--nodes must be positive")
    args.url = args.url or ["ws://127.0.0.1:8765/"]
    if args.spawn and (args.nodes > 1 or args.database_url or args.redis_url):
        args.database_url = args.database_url or DEFAULT_DATABASE_URL
        args.redis_url = args.redis_url or DEFAULT_REDIS_URL
    if args.rate <= 0 or min(counts) < 1:
        parser.error("--rate and --tables must be positive")
    return args, counts


async def main_async(args: argparse.Namespace, counts: list[int]) -> list[dict[str, Any]]:
    results = []
    for tables in counts:
        profile = args.server_profile
        if profile and len(counts) > 1:
            profile = f"{profile}.{tables}"
        cfg = Config(
            urls=tuple(args.url), tables=tables, rate=args.rate, warmup=args.warmup,
            duration=args.duration, drain=args.drain, batch=args.batch, deals=args.deals,
            move_seconds=args.move_seconds, seed=args.seed, compression=args.compression,
            server_pids=tuple(args.server_pid), spawn=args.spawn, nodes=args.nodes,
            database_url=args.database_url, redis_url=args.redis_url, profile=profile,
            profile_top=args.profile_top, timeline=args.timeline, route=args.route,
            server_root=args.server_root, drift=args.drift,
            callgrind=None if args.callgrind is None
            else args.callgrind if len(counts) == 1 else f"{args.callgrind}.{tables}",
        )  # fmt: skip
        results.append(await run_once(cfg))
    return results


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if "--solo" in argv:  # solo games against strong CPUs: bench/solo.py
        import solo

        return solo.main([arg for arg in argv if arg != "--solo"])
    args, counts = parse_args(argv)
    limit = raise_fd_limit(4 * max(counts) + 1024)
    if limit < 4 * max(counts) + 64:
        print(f"warning: open-file limit {limit} is too low for the clients", file=sys.stderr)
    results = asyncio.run(main_async(args, counts))
    if len(results) > 1:
        print_summary(results)
    print(json.dumps(results[0] if len(results) == 1 else {"runs": results}))
    failed = any(r["error_count"] or r["client_bugs"] or r["setup_failures"] for r in results)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
