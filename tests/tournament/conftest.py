"""Tournament fixtures: a server with an injected clock and many real websocket players."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from server.client import GameClient, TableState
from tests.server.conftest import Harness, running_harness

# Bots act far faster than people: lift the per-connection rate limit for them.
BOT_SETTINGS: dict[str, Any] = {"quick_when_full": False, "rate": 10_000.0, "burst": 10_000}


@pytest.fixture
async def harness(tmp_path: Path) -> AsyncIterator[Harness]:
    async with running_harness(tmp_path / "klaverjas.sqlite3", **BOT_SETTINGS) as h:
        yield h


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


def status(player: GameClient, tid: str) -> dict[str, Any]:
    return player.tournaments.get(tid, {})
