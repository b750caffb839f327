"""One websocket connection: identity, a bounded outbox, rate limits.

The server never awaits a client: :meth:`Client.send` queues a frame or, when the outbox is
full, drops the client (it can resume with its token).  One writer task per connection
sends the outbox in order, sleeping on a plain future while it is empty.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections import deque
from typing import TYPE_CHECKING, Any

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed

from .ids import new_id

if TYPE_CHECKING:
    from .app import Services
    from .table.actor import RoomActor
    from .tournament import TournamentActor

CLOSE_POLICY = 1008
CLOSE_ERROR = 1011
CLOSE_RESTART = 1012
CLOSE_TRY_LATER = 1013


def encode(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"))


class TokenBucket:
    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, float(burst)
        self.tokens, self.at = float(burst), time.monotonic()

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


class Peer:
    """Whoever a room or tournament talks to: a connection here (:class:`Client`), or one on
    another node that the cluster stands in for (``server.cluster.RemoteClient``)."""

    forwarded = False  # True for a connection of another node: its commands are never re-routed

    def __init__(self, services: Services) -> None:
        self.s = services
        self.player_id = ""
        self.nickname = ""
        self.rooms: dict[str, RoomActor] = {}
        self.tournaments: dict[str, TournamentActor] = {}
        self.bucket = TokenBucket(services.settings.rate, services.settings.burst)
        self.chat_bucket = TokenBucket(services.settings.chat_rate, services.settings.chat_burst)
        self.strikes = 0
        self.closing = False

    @property
    def identified(self) -> bool:
        return bool(self.player_id)

    def send(self, message: dict[str, Any]) -> None:
        """Queue a frame; never blocks."""
        self.send_text(encode(message))

    def send_text(self, frame: str) -> None:
        raise NotImplementedError

    def deliver(self, room_id: str, version: int, frame: str, snapshot: bool = False) -> None:
        """A room's update (or ``snapshot``) as of ``version``: where resuming starts."""
        self.send_text(frame)

    def left(self, room_id: str) -> None:
        """No longer a member of ``room_id``."""
        self.rooms.pop(room_id, None)

    def error(self, code: str, message: str, ref: str | None = None) -> None:
        self.s.metrics.errors.labels(code).inc()
        frame: dict[str, Any] = {"type": "error", "code": code, "message": message}
        if ref is not None:
            frame["ref"] = ref
        self.send(frame)

    def close(self, code: int, reason: str) -> None:
        raise NotImplementedError


class Client(Peer):
    """A websocket connection to this node."""

    def __init__(self, ws: ServerConnection, services: Services) -> None:
        super().__init__(services)
        self.ws = ws
        self.conn_id = new_id("c")
        self.versions: dict[str, int] = {}  # room id -> the last version sent here
        self.watching: set[str] = set()  # tournaments watched on other nodes (a cluster)
        self.forwarded_any = False  # some frame went to another node (a cluster)
        self.lobby = False
        self.outbox: deque[str | None] = deque()  # None: close after the frames before it
        self._outbox_limit = services.settings.outbox
        self._closer: asyncio.Task[None] | None = None
        self._wake: asyncio.Future[None] | None = None  # set while the writer waits
        self.writer = asyncio.create_task(self._write(), name="client-writer")

    def deliver(self, room_id: str, version: int, frame: str, snapshot: bool = False) -> None:
        self.versions[room_id] = version
        self.send_text(frame)

    def left(self, room_id: str) -> None:
        self.rooms.pop(room_id, None)
        self.versions.pop(room_id, None)

    def send_text(self, frame: str) -> None:
        """Queue an encoded frame (one encoding can serve many recipients)."""
        if self.closing:
            return
        if len(self.outbox) >= self._outbox_limit:
            self.s.metrics.dropped.inc()
            self.close(CLOSE_TRY_LATER, "too slow to keep up: reconnect and resume")
            return
        self.outbox.append(frame)
        self._notify()

    def _notify(self) -> None:
        if self._wake is not None and not self._wake.done():
            self._wake.set_result(None)

    def close(self, code: int, reason: str) -> None:
        """Close after the frames already queued (idempotent)."""
        if self.closing:
            return
        self.closing = True
        if len(self.outbox) >= self._outbox_limit:
            self.outbox.clear()  # too far behind to flush first
            self.writer.cancel()
        else:
            self.outbox.append(None)
            self._notify()
        self._closer = asyncio.create_task(self._close(code, reason))

    async def _close(self, code: int, reason: str) -> None:
        with contextlib.suppress(TimeoutError, asyncio.CancelledError):
            await asyncio.wait_for(asyncio.shield(self.writer), timeout=2)
        await self.ws.close(code, reason)

    async def _write(self) -> None:
        """Send the outbox in order until its ``None`` (the close) or the connection ends."""
        loop = asyncio.get_running_loop()
        try:
            while True:
                while self.outbox:
                    frame = self.outbox.popleft()
                    if frame is None:
                        return
                    await self.ws.send(frame)
                self._wake = loop.create_future()
                try:
                    await self._wake
                finally:
                    self._wake = None
        except ConnectionClosed:
            pass

    async def finish(self) -> None:
        """After the receive loop ended: let a close we started complete, stop the writer."""
        if self._closer is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.shield(self._closer), timeout=5)
        self.closing = True
        self.writer.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.writer
