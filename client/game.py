"""A small asyncio client for the protocol: tests, the load generator and bots use it.

It keeps, per room, the latest snapshot view and applies updates, so a bot can ask
``client.tables[room_id]`` for its hand, the turn and its legal actions.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import ClientConnection, connect


@dataclass
class TableState:
    """What one client knows of one room, kept up to date from its frames."""

    room_id: str
    seat: int | None = None
    version: int = 0
    room: dict[str, Any] = field(default_factory=dict)
    hand: list[str] = field(default_factory=list)
    turn: int | None = None
    legal: list[str] = field(default_factory=list)
    deadline: float | None = None
    over: bool = False
    winner: int | None = None
    trick: list[str] = field(default_factory=list)

    def absorb(self, frame: dict[str, Any]) -> None:
        self.version = frame["version"]
        if frame.get("room"):
            self.room = frame["room"]
            self.over = self.room.get("status") == "finished"
        if frame["type"] == "snapshot":
            self.seat = frame["seat"]
            view = frame.get("view") or {}
            self.hand = list(view.get("hand", []))
            self.turn = view.get("turn")
            self.legal = list(view.get("legal", []))
            self.trick = list(view.get("trick", []))
            self.winner = view.get("winner")
            self.over = self.over or self.winner is not None
        else:
            self.turn = frame.get("turn")
            self.legal = list(frame.get("legal", []))
            for event in frame.get("events", []):
                kind = event["type"]
                if kind == "deal_started":
                    self.hand = list(event["hand"])
                    self.trick = []
                elif kind == "card_played":
                    if event["seat"] == self.seat and event["card"] in self.hand:
                        self.hand.remove(event["card"])
                    self.trick.append(event["card"])
                elif kind == "trick_taken":
                    self.trick = []
                elif kind == "match_ended":
                    self.over, self.winner = True, event["winner"]
        self.deadline = frame.get("deadline")


class GameClient:
    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.frames: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.tables: dict[str, TableState] = {}
        self.tournaments: dict[str, dict[str, Any]] = {}
        self.player_id = ""
        self.token = ""
        self.errors: list[dict[str, Any]] = []
        self.seen: list[dict[str, Any]] = []
        self.keep = False  # keep every frame in ``seen`` (audits)
        self._reader = asyncio.create_task(self._read())

    @classmethod
    async def connect(cls, url: str, **kwargs: Any) -> GameClient:
        return cls(await connect(url, max_size=2**22, **kwargs))

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                frame = json.loads(raw)
                if self.keep:
                    self.seen.append(frame)
                if frame["type"] in ("snapshot", "update"):
                    table = self.tables.setdefault(frame["room_id"], TableState(frame["room_id"]))
                    table.absorb(frame)
                elif frame["type"] in ("tournament", "lobby_tournament"):
                    tournament = frame["tournament"]
                    self.tournaments[tournament["id"]] = tournament
                elif frame["type"] == "error":
                    self.errors.append(frame)
                await self.frames.put(frame)
        except Exception:  # the connection ended; waiters time out or see the close
            pass

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(message))

    async def next(self, frame_type: str | None = None, timeout: float = 10, **match: Any) -> dict:
        """The next frame of ``frame_type`` whose fields equal ``match`` (others are skipped)."""
        async with asyncio.timeout(timeout):
            while True:
                frame = await self.frames.get()
                if (frame_type is None or frame["type"] == frame_type) and all(
                    frame.get(k) == v for k, v in match.items()
                ):
                    return frame

    async def request(self, message: dict[str, Any], reply: str, timeout: float = 10) -> dict:
        """Send and wait for the reply of type ``reply`` or an error, whichever is first."""
        await self.send(message)
        async with asyncio.timeout(timeout):
            while True:
                frame = await self.frames.get()
                if frame["type"] in (reply, "error"):
                    return frame

    async def hello(self, nickname: str | None = None, token: str | None = None) -> dict:
        message: dict[str, Any] = {"type": "hello"}
        if nickname:
            message["nickname"] = nickname
        if token:
            message["token"] = token
        welcome = await self.request(message, "welcome")
        if welcome["type"] == "welcome":
            self.player_id = welcome["player_id"]
            self.token = welcome.get("token") or token or ""
        return welcome

    async def close(self) -> None:
        await self.ws.close()
        self._reader.cancel()
