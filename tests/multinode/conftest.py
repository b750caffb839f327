"""Several real server processes ("nodes") on one PostgreSQL schema and one Redis prefix.

Each test gets a fresh schema (dropped afterwards), a Redis key prefix of its own (its keys
deleted afterwards) and a :class:`Cluster` that starts nodes as child processes
(``python -m commands serve``), kills them (``SIGKILL``) or stops them (``SIGTERM``),
and asks them who owns what (``GET /cluster``).  Players are bots (``players.py``) that
reconnect to another node when theirs goes away; ``audit.py`` reads what was stored.

PostgreSQL comes from ``KLAVERJAS_TEST_DATABASE_URL`` (default
``postgresql://postgres@127.0.0.1:5432/test``) and Redis from ``KLAVERJAS_TEST_REDIS_URL``
(default ``redis://127.0.0.1:6379/0``).  If either is unreachable the tests fail; they
never skip.  Every wait has a short timeout, and a failing test prints what each node and
bot was doing (with the tail of each node's log); ``KLAVERJAS_MULTINODE_VERBOSE=1`` prints
that for passing tests too.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
import shutil
import signal
import socket
import sys
import time
from collections.abc import AsyncIterator, Callable
from contextlib import suppress
from datetime import datetime
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any
from urllib.parse import urlsplit

import asyncpg
import pytest
import redis.asyncio as aioredis

from tests.commands import scheduled_id
from tests.postgres import PG_URL, Proxy, fresh_schema, pg_connect
from tests.processes import end_with_parent

if TYPE_CHECKING:
    from tests.multinode.players import Bot, LobbyView

ROOT = Path(__file__).resolve().parents[2]
REDIS_URL = os.environ.get("KLAVERJAS_TEST_REDIS_URL") or "redis://127.0.0.1:6379/0"
LEASE_SECONDS = 2.0  # the nodes' lease: a dead owner's tables move after about this + 2 s
TAKEOVER_SECONDS = LEASE_SECONDS + 2.0 + 2.0  # lease, sweep, and some slack

# What every node gets unless a test says otherwise (see ``Cluster.start``).
NODE_DEFAULTS = {
    "KLAVERJAS_LEASE_SECONDS": str(LEASE_SECONDS),
    "KLAVERJAS_CPU_DELAY": "0.05",
    "KLAVERJAS_DEAL_PAUSE": "0",  # the bots never look at a deal's result
    "KLAVERJAS_MAX_PER_ADDRESS": "1000",  # every bot comes from 127.0.0.1
    "KLAVERJAS_BOT_BUDGET": "2",  # strong CPUs search little
    "KLAVERJAS_QUICK_WHEN_FULL": "0",
    "KLAVERJAS_QUICK_SCHEDULE": "off",  # (on in test_default_schedule.py)
    "KLAVERJAS_TOURNAMENT_POLL": "0.5",
    "KLAVERJAS_LOG_LEVEL": "warning",
    "KLAVERJAS_RATE": "1000",  # bots act far faster than people
    "KLAVERJAS_BURST": "1000",
}


# --------------------------------------------------------------------------- PostgreSQL


async def pg_rows(schema: str, query: str, *args: Any) -> list[asyncpg.Record]:
    """Run ``query`` in ``schema`` on a direct connection (never through a test proxy)."""
    conn = await pg_connect(schema)
    try:
        return await conn.fetch(query, *args, timeout=10)
    finally:
        await conn.close()


# --------------------------------------------------------------------------- Redis


async def redis_ping(url: str) -> None:
    """Fail the test (never skip) if Redis at ``url`` does not answer."""
    client = aioredis.from_url(url, socket_timeout=3, socket_connect_timeout=3)
    try:
        await client.ping()
    except (OSError, aioredis.RedisError) as exc:
        pytest.fail(
            f"Redis for the multinode tests is unreachable at {url}: {type(exc).__name__}: "
            f"{exc}\nStart it, or point KLAVERJAS_TEST_REDIS_URL at one (these tests never "
            "skip).",
            pytrace=False,
        )
    finally:
        await client.aclose()


async def redis_purge(url: str, prefix: str) -> int:
    """Delete every key that starts with ``prefix``; how many there were."""
    client = aioredis.from_url(url, socket_timeout=5, socket_connect_timeout=5)
    try:
        keys = [key async for key in client.scan_iter(match=f"{prefix}*", count=500)]
        if keys:
            await client.delete(*keys)
        return len(keys)
    finally:
        await client.aclose()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class RedisServer:
    """A private ``redis-server`` (no persistence) that a test may kill and start again on
    the same port."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.port = free_port()
        self.process: asyncio.subprocess.Process | None = None
        binary = shutil.which("redis-server") or "/usr/bin/redis-server"
        if not Path(binary).exists():
            pytest.fail("redis-server is not installed (the multinode tests need it)")
        self.binary = binary

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    async def start(self) -> None:
        log = open(self.directory / f"redis-{self.port}.log", "ab")  # noqa: SIM115
        try:
            self.process = await asyncio.create_subprocess_exec(
                self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                "--appendonly", "no", "--dir", str(self.directory),
                stdout=log, stderr=log, preexec_fn=end_with_parent,
            )  # fmt: skip
        finally:
            log.close()
        deadline = time.monotonic() + 10
        while True:
            client = aioredis.from_url(self.url, socket_timeout=1, socket_connect_timeout=1)
            try:
                await client.ping()
                return
            except (OSError, aioredis.RedisError):
                if time.monotonic() > deadline or self.process.returncode is not None:
                    pytest.fail(f"private redis-server on port {self.port} did not start")
                await asyncio.sleep(0.05)
            finally:
                await client.aclose()

    async def kill(self) -> None:
        if self.process is not None and self.process.returncode is None:
            self.process.kill()
            await asyncio.wait_for(self.process.wait(), 5)
        self.process = None


# --------------------------------------------------------------------------- nodes


async def http_get(port: int, path: str, timeout: float = 2.0) -> tuple[int, bytes]:
    """A plain HTTP GET on a node's port: its status and body."""
    async with asyncio.timeout(timeout):
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        try:
            writer.write(
                f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n"
                .encode()
            )  # fmt: skip
            head = await reader.readuntil(b"\r\n\r\n")
            lines = head.decode("latin-1").split("\r\n")
            status = int(lines[0].split()[1])
            length = next(
                (int(line.split(":", 1)[1]) for line in lines
                 if line.lower().startswith("content-length:")),
                None,
            )  # fmt: skip
            body = await (reader.readexactly(length) if length is not None else reader.read())
            return status, body
        finally:
            writer.transport.abort()


SERVING = b"klaverjas serving on ws://"  # what ``klaverjas serve`` prints once it serves


class Node:
    """One server process of the cluster."""

    def __init__(self, node_id: str, env: dict[str, str], log_path: Path) -> None:
        self.node_id = node_id
        self.env = env
        self.first_log = log_path
        self.logs: list[Path] = []  # one file for each start, in order
        self.process: asyncio.subprocess.Process | None = None
        self.port = 0
        self.stopping = False  # killed or terminated by the test: bots go elsewhere
        self.pg: Proxy | None = None  # this node's own relays (``Cluster.start_linked``)
        self.redis: Proxy | None = None

    def __repr__(self) -> str:
        return f"<node {self.node_id} :{self.port} {'alive' if self.alive else 'down'}>"

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/"

    @property
    def alive(self) -> bool:
        return not self.stopping and self.process is not None and self.process.returncode is None

    @property
    def log_path(self) -> Path:
        """The log of the node's latest start."""
        return self.logs[-1] if self.logs else self.first_log

    async def start(self, timeout: float = 20.0) -> None:
        """Start the node and read its port from the line it prints once it serves.  Its
        output goes to its log, not through a pipe: a pipe's transport outlives a killed
        process until the loop reads its end, and one left so at the end of a test is
        closed by the collector after the loop, which raises.  Each start writes a fresh
        log (``n1-0.log``, then ``n1-0-r1.log``...), so the port read is this start's,
        never the one an earlier start of the node printed."""
        first, n = self.first_log, len(self.logs)
        self.logs.append(first.with_name(f"{first.stem}-r{n}{first.suffix}") if n else first)
        log: IO[bytes] = open(self.log_path, "xb")  # noqa: SIM115
        try:
            self.process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "commands", "serve", "--host", "127.0.0.1",
                "--port", "0",
                cwd=ROOT, env=self.env, stdout=log, stderr=log, preexec_fn=end_with_parent,
            )  # fmt: skip
        finally:
            log.close()
        line, deadline = None, time.monotonic() + timeout
        while line is None and self.process.returncode is None and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
            with open(self.log_path, "rb") as f:
                line = next((ln.decode() for ln in f if ln.startswith(SERVING)), None)
        if line is None:
            await self.kill()
            pytest.fail(
                f"node {self.node_id} did not start; its log:\n{self.log_tail(40)}",
                pytrace=False,
            )
        self.port = int(line.rsplit(":", 1)[1].strip(" /\n"))
        self.stopping = False  # a restarted node: clients may come now that its port is known

    async def kill(self) -> None:
        """``kill -9``: no goodbye to anyone."""
        self.stopping = True
        if self.process is not None and self.process.returncode is None:
            with suppress(ProcessLookupError):
                self.process.send_signal(signal.SIGKILL)
            await asyncio.wait_for(self.process.wait(), 10)

    def terminate(self) -> None:
        """``SIGTERM``: an orderly shutdown; ``wait()`` for its exit status."""
        self.stopping = True
        assert self.process is not None
        self.process.send_signal(signal.SIGTERM)

    async def wait(self, timeout: float = 15.0) -> int:
        assert self.process is not None
        return await asyncio.wait_for(self.process.wait(), timeout)

    async def cluster(self) -> dict[str, Any]:
        """``GET /cluster``: ``{"node", "rooms", "tournaments"}`` this node owns."""
        status, body = await http_get(self.port, "/cluster")
        if status != 200:
            raise AssertionError(f"GET /cluster on {self.node_id} answered {status}: {body!r}")
        return json.loads(body)

    def log_tail(self, lines: int = 20) -> str:
        """The last ``lines`` of the node's logs, all its starts in order."""
        text: list[str] = []
        for path in self.logs:
            try:
                text += [f"--- {path.name}", *path.read_text(errors="replace").splitlines()]
            except OSError:
                text.append(f"--- {path.name} (unreadable)")
        return "\n".join(text[-lines:]) or "(no log)"


class Cluster:
    """The nodes of one test, on its schema and Redis prefix, and the clients it made.

    ``redis_url`` and ``database_url`` may be changed before the nodes start (a private
    Redis, a proxy in front of PostgreSQL); ``redis_url = None`` runs nodes without Redis
    (a single-node server, useful to check the harness itself).
    """

    def __init__(self, tmp_path: Path, schema: str, prefix: str) -> None:
        self.tmp_path = tmp_path
        self.schema = schema
        self.prefix = prefix
        self.database_url = PG_URL
        self.redis_url: str | None = REDIS_URL
        self.nodes: list[Node] = []
        self.bots: list[Bot] = []
        self.lobbies: list[LobbyView] = []
        self.events: list[str] = []  # what the test did, with times, for the diagnosis
        self.relays: list[Proxy] = []  # stopped with the cluster
        self._t0 = time.monotonic()

    # -- nodes -----------------------------------------------------------------------

    def env(self, node_id: str | None = None, **extra: str) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("KLAVERJAS_")}
        env.update(NODE_DEFAULTS)
        env["KLAVERJAS_DATABASE_URL"] = self.database_url
        env["KLAVERJAS_DATABASE_SCHEMA"] = self.schema
        env["KLAVERJAS_DB"] = str(self.tmp_path / "unused.sqlite3")
        if self.redis_url is not None:
            env["KLAVERJAS_REDIS_URL"] = self.redis_url
            env["KLAVERJAS_REDIS_PREFIX"] = self.prefix
        if node_id is not None:
            env["KLAVERJAS_NODE_ID"] = node_id
        env.update(extra)
        return env

    async def start(self, *node_ids: str, **extra: str) -> list[Node]:
        """Start these nodes together; ``extra`` adds or overrides ``KLAVERJAS_*`` settings."""
        nodes = [
            Node(n, self.env(n, **extra), self.tmp_path / f"{n}-{len(self.nodes) + i}.log")
            for i, n in enumerate(node_ids)
        ]
        self.nodes.extend(nodes)
        await asyncio.gather(*(node.start() for node in nodes))
        self.note(f"started {', '.join(f'{n.node_id}:{n.port}' for n in nodes)}")
        return nodes

    async def start_linked(self, *node_ids: str, **extra: str) -> list[Node]:
        """Start these nodes, each reaching PostgreSQL and Redis through relays of its own
        (``node.pg``, ``node.redis``): a test cuts one node from either, the others not."""
        relays: dict[str, tuple[Proxy, Proxy]] = {}
        redis = urlsplit(self.redis_url or REDIS_URL)
        for node_id in node_ids:
            pg, rd = Proxy.to_postgres(), Proxy(redis.hostname or "127.0.0.1", redis.port or 6379)
            await pg.start()
            await rd.start()
            self.relays.extend((pg, rd))
            relays[node_id] = (pg, rd)
        nodes = []
        for node_id in node_ids:
            pg, rd = relays[node_id]
            redis_url = f"redis://127.0.0.1:{rd.port}{redis.path or '/0'}"
            linked = {"KLAVERJAS_DATABASE_URL": pg.url(self.database_url),
                      "KLAVERJAS_REDIS_URL": redis_url}  # fmt: skip
            (node,) = await self.start(node_id, **linked, **extra)
            node.pg, node.redis = pg, rd
            nodes.append(node)
        return nodes

    def alive(self) -> list[Node]:
        return [n for n in self.nodes if n.alive]

    def node(self, node_id: str) -> Node:
        return next(n for n in reversed(self.nodes) if n.node_id == node_id)

    async def kill(self, node: Node) -> None:
        self.note(f"kill -9 {node.node_id}")
        await node.kill()

    def terminate(self, node: Node) -> None:
        self.note(f"SIGTERM {node.node_id}")
        node.terminate()

    async def ownership(self) -> dict[str, dict[str, Any]]:
        """``GET /cluster`` of every live node, by node id."""
        nodes = self.alive()
        answers = await asyncio.gather(*(n.cluster() for n in nodes), return_exceptions=True)
        out: dict[str, dict[str, Any]] = {}
        for node, answer in zip(nodes, answers, strict=True):
            if isinstance(answer, AssertionError):
                raise answer
            if isinstance(answer, dict):
                out[node.node_id] = answer
        return out

    async def owner(
        self, key: str, kind: str = "rooms", timeout: float = 5.0, exclude: tuple[Node, ...] = ()
    ) -> Node:
        """The live node that owns room (or, with ``kind="tournaments"``, tournament) ``key``:
        waits until exactly one node other than ``exclude`` lists it."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        seen: dict[str, dict[str, Any]] = {}
        while loop.time() < end:
            seen = await self.ownership()
            owners = [n for n, answer in seen.items() if key in answer.get(kind, [])]
            candidates = [self.node(n) for n in owners]
            if len(candidates) == 1 and candidates[0] not in exclude:
                return candidates[0]
            await asyncio.sleep(0.05)
        raise AssertionError(
            f"no single live node owns {kind[:-1]} {key} after {timeout}s "
            f"(excluding {[n.node_id for n in exclude]}); /cluster said {seen}\n{self.diagnose()}"
        )

    async def schedule_tournament(self, fmt: str, at: datetime, fill_with_cpu: bool) -> str:
        """``klaverjas tournament schedule`` into this cluster's database; the new id."""
        args = ["tournament", "schedule", "--format", fmt, "--at", at.isoformat()]
        if fill_with_cpu:
            args.append("--fill-with-cpu")
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "commands", *args, cwd=ROOT, env=self.env(),
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        try:
            out, err = await asyncio.wait_for(process.communicate(), 20)
        finally:
            if process.returncode is None:
                process.kill()
                await process.wait()
        assert process.returncode == 0, f"tournament schedule failed: {err.decode()}"
        tid = scheduled_id(out.decode())
        self.note(f"scheduled {fmt} tournament {tid} at {at.isoformat()}")
        return tid

    # -- clients ---------------------------------------------------------------------

    async def bot(self, node: Node, nickname: str, **kwargs: Any) -> Bot:
        """A connected, identified bot (not yet playing: ``bot.start()``)."""
        from tests.multinode.players import Bot

        bot = Bot(self, node, nickname, **kwargs)
        self.bots.append(bot)
        await bot.connect()
        return bot

    async def lobby(self, node: Node, nickname: str = "watcher") -> LobbyView:
        """A client on ``node`` subscribed to the lobby, its view kept up to date."""
        from tests.multinode.players import LobbyView

        view = LobbyView(node, nickname)
        self.lobbies.append(view)
        await view.start()
        return view

    # -- waiting ---------------------------------------------------------------------

    def note(self, text: str) -> None:
        self.events.append(f"{time.monotonic() - self._t0:7.2f}s {text}")

    async def until(self, predicate: Callable[[], bool], timeout: float, what: str) -> float:
        """Wait for ``predicate()``; fail with a diagnosis after ``timeout`` seconds.
        Returns the seconds it took."""
        loop = asyncio.get_running_loop()
        start = loop.time()
        while not predicate():
            if loop.time() - start > timeout:
                raise AssertionError(
                    f"timed out after {timeout}s waiting for {what}\n{self.diagnose()}"
                )
            await asyncio.sleep(0.02)
        return loop.time() - start

    def diagnose(self, log_lines: int = 0) -> str:
        out = ["--- test events", *self.events, "--- nodes"]
        for node in self.nodes:
            code = node.process.returncode if node.process else None
            out.append(f"{node!r} returncode={code}")
            if log_lines:
                out.append(node.log_tail(log_lines))
        out.append("--- bots")
        out.extend(bot.describe() for bot in self.bots)
        for view in self.lobbies:
            out.append(view.describe())
        return "\n".join(out)

    async def close(self) -> None:
        for bot in self.bots:
            await bot.stop()
        for view in self.lobbies:
            await view.stop()
        await asyncio.gather(*(node.kill() for node in self.nodes), return_exceptions=True)
        for relay in self.relays:
            relay.resume()
            await relay.stop()
        for bot in self.bots:
            await bot.close()
        for view in self.lobbies:
            await view.close()


# --------------------------------------------------------------------------- fixtures


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> Any:
    report = yield
    setattr(item, f"report_{report.when}", report)
    return report


@pytest.fixture
async def schema() -> AsyncIterator[str]:
    async with fresh_schema("kj_mn") as name:
        yield name


@pytest.fixture
async def redis_prefix() -> AsyncIterator[str]:
    """A Redis key prefix for this test alone; its keys are deleted afterwards."""
    await redis_ping(REDIS_URL)
    prefix = "t" + secrets.token_hex(6)
    yield prefix
    with contextlib.suppress(OSError, aioredis.RedisError):
        await redis_purge(REDIS_URL, prefix)


@pytest.fixture
async def cluster(
    request: pytest.FixtureRequest, tmp_path: Path, schema: str, redis_prefix: str
) -> AsyncIterator[Cluster]:
    c = Cluster(tmp_path, schema, redis_prefix)
    try:
        yield c
    finally:
        report = getattr(request.node, "report_call", None)
        if (report is not None and report.failed) or os.environ.get("KLAVERJAS_MULTINODE_VERBOSE"):
            print(c.diagnose(log_lines=30))
        await c.close()


@pytest.fixture
async def private_redis(tmp_path: Path) -> AsyncIterator[RedisServer]:
    """A redis-server of this test's own, started; killed afterwards."""
    server = RedisServer(tmp_path)
    await server.start()
    try:
        yield server
    finally:
        await server.kill()


@pytest.fixture
async def pg_proxy() -> AsyncIterator[Proxy]:
    """A TCP relay to PostgreSQL that the test can cut and restore."""
    await (await pg_connect()).close()  # fail now if PostgreSQL itself is down
    proxy = Proxy.to_postgres()
    await proxy.start()
    try:
        yield proxy
    finally:
        await proxy.stop()
