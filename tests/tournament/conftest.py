"""Tournament fixtures and helpers: a server with an injected clock and many real websocket
players.

Tests never reach into the server.  A tournament is scheduled the way an operator does it
(``klaverjas tournament schedule``: :func:`new_tournament` on a store of its own, opened on
the server's database); the running server picks it up when someone registers for it or
watches it.  What happens is observed through the protocol (``tournament`` and lobby frames,
room snapshots and updates), HTTP (``GET /cluster``, ``GET /matches/<id>``) and the store's
public reads (``tournaments.tournament``, ``logs.log``) for durability.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from client import GameClient, TableState
from engine import Match
from server.tournament.schedule import new_tournament
from tests.server.conftest import Harness, running_harness, sync

# Bots act far faster than people: lift the per-connection rate limit for them.  The CPUs
# that fill places do not search (a budget of 0: strong plays as heuristic): these tests
# are about tournaments, and whole ones are played here (tests/server/test_bots.py has the
# strong CPUs at tournament tables).
BOT_SETTINGS: dict[str, Any] = {"quick_when_full": False, "quick_schedule": "off", "bot_budget": 0}

_refs = itertools.count()


@pytest.fixture
async def harness(tmp_path: Path, database: str) -> AsyncIterator[Harness]:
    async with running_harness(tmp_path, database, **BOT_SETTINGS) as h:
        yield h


# -- scheduling and registering ---------------------------------------------------------------


async def schedule(
    harness: Harness,
    fmt: str = "quick",
    start_at: float = 0.0,
    fill_with_cpu: bool = False,
    start_when_full: bool = False,
    repeat: str | None = None,
) -> str:
    """A new tournament stored as ``klaverjas tournament schedule`` stores one; its id."""
    store = (await harness.stores()).tournaments
    tid, _ = await new_tournament(
        store, fmt, start_at, fill_with_cpu, start_when_full, repeat, harness.clock.wall()
    )
    return tid


async def register(players: list[GameClient], tid: str) -> None:
    """Each player registers; its reply (a ``tournament`` frame naming it) has come by the
    ``pong`` that follows."""
    for player in players:
        ref = f"reg-{next(_refs)}"
        await player.send({"type": "tournament_register", "tournament_id": tid, "ref": ref})
        frames = await sync(player)
        assert not [f for f in frames if f["type"] == "error"], frames
        assert player.player_id in [e["id"] for e in status(player, tid)["registered"]]


async def quick(
    harness: Harness, humans: int, fill: bool = False, prefix: str = "p", **kw: Any
) -> tuple[str, float, list[GameClient]]:
    """A Quick tournament starting in a minute with ``humans`` registered players."""
    start = harness.clock.wall() + 60
    tid = await schedule(harness, "quick", start, fill, False, kw.get("repeat"))
    players = [await harness.client(f"{prefix}{i}") for i in range(humans)]
    await register(players, tid)
    return tid, start, players


# -- looking at it ------------------------------------------------------------------------------


def status(player: GameClient, tid: str) -> dict[str, Any]:
    """The tournament as the latest ``tournament`` or lobby frame told ``player``."""
    return player.tournaments.get(tid, {})


async def tournament_now(client: GameClient, tid: str) -> dict[str, Any]:
    """The tournament as it is now: ``client`` watches it (from now on it is told every
    change) and has every frame sent before the ``pong`` that follows."""
    await client.send({"type": "tournament_watch", "tournament_id": tid})
    frames = await sync(client)
    assert not [f for f in frames if f["type"] == "error"], frames
    assert any(f["type"] == "tournament" and f["tournament"]["id"] == tid for f in frames)
    return status(client, tid)


async def log_length(harness: Harness, tid: str) -> int:
    """How many entries the tournament's durable log holds."""
    return len(await (await harness.stores()).logs.log(tid))


async def wait_for(condition: Callable[[], bool], timeout: float = 10.0) -> None:
    """Until ``condition`` holds: it reads clients' state, which their frames update as
    they arrive (frames that are coming, not a race being waited out)."""
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.005)


def rooms_open(player: GameClient, tid: str, round_number: int = 1) -> bool:
    rounds = status(player, tid).get("rounds", [])
    return len(rounds) >= round_number and all(t["room_id"] for t in rounds[round_number - 1])


async def started(harness: Harness, tid: str, players: list[GameClient]) -> list[dict]:
    """Past the start: round 1 seated and every table in a room; round 1's tables."""
    harness.advance(61)
    await wait_for(lambda: all(rooms_open(p, tid) for p in players))
    return status(players[0], tid)["rounds"][0]


def finished(player: GameClient, tid: str) -> Callable[[], bool]:
    return lambda: status(player, tid).get("status") == "finished"


def seen_version(client: GameClient, room_id: str) -> int:
    """The version of ``room_id`` that ``client`` last saw (0: none yet)."""
    table = client.tables.get(room_id)
    return table.version if table is not None else 0


async def record_of(client: GameClient, room_id: str) -> Match:
    """The finished match of ``room_id``, over the websocket (``get_record``)."""
    await sync(client)
    reply = await client.request({"type": "get_record", "match_id": room_id}, "record")
    assert reply["type"] == "record", reply
    return Match.from_record(reply["record"])


# -- playing ------------------------------------------------------------------------------------


class Bots:
    """Players that act as soon as it is their turn, at every table they sit at."""

    def __init__(self, players: list[GameClient]) -> None:
        self.players = players
        self.sent = 0

    async def play_until(self, done, limit: float = 60.0) -> None:
        async with asyncio.timeout(limit):
            while not done():
                acted = False
                for player in self.players:
                    for room_id, table in list(player.tables.items()):
                        if table.legal and table.turn == table.seat and not table.over:
                            action = table.legal[0]
                            table.legal = []
                            await player.send({"type": "act", "room_id": room_id, "action": action})
                            self.sent += 1
                            acted = True
                    await self.join_new_tables(player)
                await asyncio.sleep(0 if acted else 0.005)

    async def join_new_tables(self, player: GameClient) -> None:
        """Resume (join) the rooms the tournament seated this player at."""
        for tournament in list(player.tournaments.values()):
            for tables in tournament["rounds"]:
                for table in tables:
                    room_id = table["room_id"]
                    seated = any(s["id"] == player.player_id for s in table["seats"])
                    if room_id and seated and room_id not in player.tables:
                        player.tables[room_id] = TableState(room_id)
                        await player.send({"type": "resume", "room_id": room_id, "version": 0})
