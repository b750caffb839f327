"""A real server on a loopback port, with an injected clock, and real websocket clients."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from server.app import Server
from server.client import GameClient
from server.clock import ManualClock
from server.config import Settings


@dataclass
class Harness:
    """A running server plus what a test needs to drive it: its clock, its database, and
    a way to restart it on the same database."""

    db: Path
    clock: ManualClock
    overrides: dict[str, Any]
    server: Server | None = None
    clients: list[GameClient] = field(default_factory=list)

    @property
    def url(self) -> str:
        assert self.server is not None
        return f"ws://127.0.0.1:{self.server.port}/"

    async def start(self) -> Server:
        settings = Settings(port=0, db=str(self.db), **{"cpu_delay": 0.0, **self.overrides})
        self.server = Server(settings, clock=self.clock)
        await self.server.start()
        return self.server

    async def stop(self) -> None:
        if self.server is not None:
            await self.server.stop()
            self.server = None

    async def restart(self) -> Server:
        await self.stop()
        return await self.start()

    async def client(self, nickname: str | None = None, token: str | None = None) -> GameClient:
        client = await GameClient.connect(self.url)
        self.clients.append(client)
        if nickname or token:
            welcome = await client.hello(nickname, token)
            assert welcome["type"] == "welcome", welcome
        return client

    async def advance(self, seconds: float) -> None:
        """Move the injected clock and let the server react."""
        self.clock.advance(seconds)
        await asyncio.sleep(0.05)

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
async def running_harness(db: Path, **overrides: Any) -> AsyncIterator[Harness]:
    """A started server on ``db`` with these Settings overrides; stopped afterwards."""
    h = Harness(db, ManualClock(), overrides)
    await h.start()
    try:
        yield h
    finally:
        for client in h.clients:
            await client.close()
        await h.stop()


@pytest.fixture
async def harness(tmp_path: Path) -> AsyncIterator[Harness]:
    async with running_harness(tmp_path / "klaverjas.sqlite3") as h:
        yield h


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
