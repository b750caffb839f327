"""A real server on a loopback port, with an injected clock, and real websocket clients.

The ``harness`` fixture runs each test once per database (the ``database`` fixture of
``tests/conftest.py``): a fresh SQLite file, and a fresh schema in the test PostgreSQL.  A
test that gains nothing from running twice is marked ``SQLITE_ONLY`` (a direct
parametrisation of ``database``); a module, by overriding the ``database`` fixture.

Barriers instead of sleeps: a connection's messages are handled one at a time, in order, and
a command's effects on every connection are queued before the next message of the
commanding connection is handled (``server/edge/session.py`` awaits each command's
``actor.call``; ``server/runtime/actor.py`` resolves it once the command, broadcasts included, has
run).  So a ``ping`` answered by its ``pong`` proves that everything the server queued for
that connection before it has arrived (:func:`sync`), and pinging every connection twice
settles a group of them (:func:`settle`).  Effects of the clock are not ordered with a ping:
see :func:`room_now`.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import urllib.error
import urllib.request
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from client import GameClient
from server.app import Server
from server.core.clock import ManualClock
from server.core.config import Settings
from server.store import Stores, open_stores
from tests.postgres import PG_URL, fresh_schema

SQLITE_ONLY = pytest.mark.parametrize("database", ["sqlite"])
POSTGRES_ONLY = pytest.mark.parametrize("database", ["postgres"])

_refs = itertools.count()

# CPUs act at once, and search little (strong CPUs think in worker processes); and since
# the rate limits run on the injected clock, which a test moves only when it means to, a
# test's own pace is never limited unless it sets limits.
TEST_DEFAULTS: dict[str, Any] = {
    "cpu_delay": 0.0, "rate": 10_000.0, "burst": 10_000, "bot_budget": 2, "deal_pause": 0.0,
    "max_per_address": 1000,  # every test client comes from 127.0.0.1
    "quick_schedule": "off",  # no hourly tournament (tests/tournament/test_schedule_default.py)
    "check_frames": True,  # every frame sent matches the published schema
}  # fmt: skip


@dataclass
class Harness:
    """A running server plus what a test needs to drive it: its clock, its database, and
    a way to restart it on the same database."""

    database: dict[str, Any]  # the Settings fields naming the database
    clock: ManualClock
    overrides: dict[str, Any]
    server: Server | None = None
    clients: list[GameClient] = field(default_factory=list)
    _stores: Stores | None = None

    @property
    def url(self) -> str:
        assert self.server is not None
        return f"ws://127.0.0.1:{self.server.port}/"

    @property
    def settings(self) -> Settings:
        return Settings(port=0, **self.database, **{**TEST_DEFAULTS, **self.overrides})

    @property
    def schema(self) -> str | None:
        """The PostgreSQL schema of the database (None on SQLite)."""
        return self.database.get("database_schema")

    async def start(self) -> Server:
        self.server = Server(self.settings, clock=self.clock)
        await self.server.start()
        return self.server

    async def stop(self) -> None:
        if self.server is not None:
            await self.server.stop()
            self.server = None

    async def restart(self) -> Server:
        await self.stop()
        return await self.start()

    async def stores(self) -> Stores:
        """Stores of the test's own on the server's database, as an operator opens them
        (``klaverjas tournament schedule``): for scheduling and for durability checks."""
        if self._stores is None:
            self._stores = open_stores(self.settings)
            await self._stores.open()
        return self._stores

    async def close(self) -> None:
        for client in self.clients:
            await client.close()
        await self.stop()
        if self._stores is not None:
            await self._stores.close()

    async def client(self, nickname: str | None = None, token: str | None = None) -> GameClient:
        client = await GameClient.connect(self.url)
        self.clients.append(client)
        if nickname or token:
            welcome = await client.hello(nickname, token)
            assert welcome["type"] == "welcome", welcome
        return client

    def advance(self, seconds: float) -> None:
        """Move the injected clock: the timers it passes fire now.  Their effects follow
        without any message: wait for the frames they send, or use :func:`room_now`."""
        self.clock.advance(seconds)

    async def http_get(self, path: str) -> tuple[int, bytes, str]:
        """Status, body and content type of a plain HTTP GET on the server's port."""
        assert self.server is not None
        url = f"http://127.0.0.1:{self.server.port}{path}"

        def get() -> tuple[int, bytes, str]:
            direct = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # loopback
            try:
                with direct.open(url, timeout=10) as response:
                    return response.status, response.read(), response.headers["Content-Type"]
            except urllib.error.HTTPError as err:
                return err.code, err.read(), err.headers["Content-Type"]

        return await asyncio.to_thread(get)

    async def running(self) -> dict[str, list[str]]:
        """The rooms, tournaments and sheets this server runs now (``GET /cluster``)."""
        status, body, _ = await self.http_get("/cluster")
        assert status == 200, body
        listed = json.loads(body)
        return {k: listed[k] for k in ("rooms", "tournaments", "sheets")}

    async def table(self, *nicknames: str, **room: Any) -> tuple[str, list[GameClient]]:
        """Four players (or fewer plus CPUs: pass ``cpu=[seats]``) seated, ready, started."""
        cpus: list[int] = room.pop("cpu", [])
        players = [await self.client(n) for n in nicknames]
        created = await players[0].request({"type": "create_room", **room}, "snapshot")
        assert created["type"] == "snapshot", created
        room_id = created["room_id"]
        code = created.get("invite_code")
        humans = [s for s in range(4) if s not in cpus][: len(players)]
        for player, seat in zip(players[1:], humans[1:], strict=True):
            where = {"invite_code": code} if room.get("private") else {"room_id": room_id}
            reply = await player.request({"type": "take_seat", "seat": seat, **where}, "snapshot")
            assert reply["type"] == "snapshot", reply
        for seat in cpus:
            await players[0].send({"type": "add_cpu", "room_id": room_id, "seat": seat})
        for player in players:
            await player.send({"type": "ready", "room_id": room_id})
        await players[0].next("update", kind="start", room_id=room_id)
        return room_id, players


@contextlib.asynccontextmanager
async def database_of(kind: str, tmp_path: Path) -> AsyncIterator[dict[str, Any]]:
    """The Settings fields for a fresh database of ``kind``: a SQLite file in ``tmp_path``,
    or a new PostgreSQL schema (dropped afterwards)."""
    if kind == "sqlite":
        yield {"db": str(tmp_path / "klaverjas.sqlite3")}
    elif kind == "postgres":
        async with fresh_schema() as schema:
            yield {"database_url": PG_URL, "database_schema": schema}
    else:
        raise ValueError(f"no database {kind!r}")


@contextlib.asynccontextmanager
async def running_harness(
    tmp_path: Path, database: str = "sqlite", **overrides: Any
) -> AsyncIterator[Harness]:
    """A started server on a fresh ``database`` with these Settings overrides; stopped
    afterwards."""
    async with database_of(database, tmp_path) as where:
        h = Harness(where, ManualClock(), overrides)
        try:
            await h.start()
            yield h
        finally:
            await h.close()


@pytest.fixture
async def harness(tmp_path: Path, database: str) -> AsyncIterator[Harness]:
    async with running_harness(tmp_path, database) as h:
        yield h


# -- barriers ----------------------------------------------------------------------------


async def sync(client: GameClient, timeout: float = 10.0) -> list[dict[str, Any]]:
    """Every frame the server had queued for ``client`` before it answered a fresh ping
    (taken off ``client.frames``; the client's tables and tournaments have absorbed them)."""
    ref = f"sync-{next(_refs)}"
    await client.send({"type": "ping", "ref": ref})
    frames: list[dict[str, Any]] = []
    async with asyncio.timeout(timeout):
        while True:
            frame = await client.frames.get()
            if frame["type"] == "pong" and frame.get("ref") == ref:
                return frames
            frames.append(frame)


async def settle(clients: list[GameClient]) -> None:
    """Every command these clients sent has been handled, and every frame it sent has
    reached each of them: the first round of pings proves the former, the second the
    latter (each pong follows whatever the other connections' commands queued for it).
    What a command only set in motion (a CPU's move, a note to another actor) may follow."""
    for _ in range(2):
        for client in clients:
            await sync(client)


async def room_now(client: GameClient, room_id: str) -> dict[str, Any]:
    """A snapshot of public room ``room_id`` taken by its actor (a ``watch``).

    A ping does not wait for the clock's effects, but the room's actor does:
    ``Harness.advance`` fires the timers it passes at once, and an idle actor runs the
    deadline that came due before any command that reaches it afterwards
    (``server/runtime/actor.py``).  So a ``room_now`` after an ``advance`` reflects the action taken
    at that deadline, provided the room was idle when the clock moved (take a ``room_now``
    before the ``advance`` too).
    """
    await sync(client)  # what came before it
    await client.send({"type": "watch", "room_id": room_id})
    frames = await sync(client)
    errors = [f for f in frames if f["type"] == "error"]
    assert not errors, errors
    (snapshot,) = [f for f in frames if f["type"] == "snapshot" and f["room_id"] == room_id]
    return snapshot


# -- playing ------------------------------------------------------------------------------


async def play_until(
    players: list[GameClient], room_id: str, done, pick=lambda legal: legal[0], limit: int = 4000
) -> int:
    """Let each seated client act when it is its turn until ``done()``; the actions sent."""
    sent = 0
    for _ in range(limit * 20):
        if done():
            return sent
        acted = False
        for player in players:
            table = player.tables.get(room_id)
            if table and table.legal and table.turn == table.seat:
                action = pick(table.legal)
                table.legal = []
                await player.send({"type": "act", "room_id": room_id, "action": action})
                sent += 1
                acted = True
        await asyncio.sleep(0 if acted else 0.002)
    raise AssertionError("play_until: the condition never came")


async def wait_version(players: list[GameClient], room_id: str, version: int) -> None:
    """Until every client has seen ``room_id`` at ``version`` or later."""
    async with asyncio.timeout(10):
        while any(p.tables[room_id].version < version for p in players):
            await asyncio.sleep(0.002)


async def act_once(players: list[GameClient], room_id: str) -> int:
    """The client whose turn it is plays its first legal action; the seat that acted."""
    ref = players[0].tables[room_id]
    await wait_version(players, room_id, ref.version)
    actor = next(p for p in players if p.tables[room_id].seat == ref.turn)
    table = actor.tables[room_id]
    await actor.send({"type": "act", "room_id": room_id, "action": table.legal[0]})
    await wait_version(players, room_id, ref.version + 1)
    return table.seat  # type: ignore[return-value]
