"""One websocket connection: identity, a bounded outbox, rate limits, strikes.

The server never awaits a client.  A client that keeps up (nothing queued, nothing left in
its transport's write buffer) gets a frame written at once (websockets' ``broadcast``, the
synchronous send: no task switch, no flow-control wait); otherwise the frame is queued in
its bounded outbox, which a writer task per connection sends in order with flow control,
sleeping on its :class:`~server.mailbox.Mailbox` while it is empty.  A full outbox drops
the client (it can resume with its token).  Actors see it as a :class:`~server.peer.Peer`.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import TYPE_CHECKING

from websockets.asyncio.server import ServerConnection, broadcast
from websockets.exceptions import ConnectionClosed

from ..core.ids import new_id
from ..runtime.mailbox import Mailbox
from ..runtime.peer import CLOSE_POLICY, CLOSE_TRY_LATER, Followed, Peer
from .limits import client_address

if TYPE_CHECKING:
    from ..core.config import Settings
    from ..core.metrics import Metrics


class TokenBucket:
    """``rate`` messages a second, in bursts of ``burst``, on the injected clock."""

    __slots__ = ("at", "burst", "now", "rate", "tokens")

    def __init__(self, rate: float, burst: int, now: Callable[[], float]) -> None:
        self.rate, self.burst, self.now = rate, float(burst), now
        self.tokens, self.at = float(burst), now()

    def allow(self) -> bool:
        now = self.now()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


class Client(Peer):
    """A websocket connection to this node."""

    def __init__(
        self, ws: ServerConnection, settings: Settings, now: Callable[[], float], metrics: Metrics
    ) -> None:
        super().__init__()
        self.ws = ws
        self.address = client_address(ws, settings.trust_forwarded)
        self.conn_id = new_id("c")
        self.versions: dict[str, int] = {}  # room or sheet id -> the last version sent here
        self.kinds: dict[str, str] = {}  # the kind of each actor it follows (a room, a sheet)
        self.watching: set[str] = set()  # tournaments watched on other nodes (a cluster)
        self.forwarded_any = False  # some command went to another node (a cluster)
        self.bucket = TokenBucket(settings.rate, settings.burst, now)
        self.chat_bucket = TokenBucket(settings.chat_rate, settings.chat_burst, now)
        self.strikes = 0
        self._strike_limit = settings.strikes
        self.metrics = metrics
        self.closing = False
        self.outbox: Mailbox[str | None] = Mailbox()  # None: close after the frames before it
        self._outbox_limit = settings.outbox
        self._closer: asyncio.Task[None] | None = None
        self._writing = False  # the writer holds a frame it has not finished sending
        self.writer = asyncio.create_task(self._write(), name="client-writer")

    def deliver(self, room_id: str, version: int, frame: str, snapshot: bool = False) -> None:
        """A room's update, once: one this connection already has (a re-attachment after a
        move may overlap what came before it) is not sent again."""
        if not snapshot and version <= self.versions.get(room_id, -1):
            return
        self.versions[room_id] = version
        self.send_text(frame)

    def caught_up(self, room_id: str, version: int) -> None:
        if version > self.versions.get(room_id, -1):
            self.versions[room_id] = version

    def follow(self, actor: Followed) -> None:
        super().follow(actor)
        self.kinds[actor.key] = actor.kind

    def left(self, key: str) -> None:
        self.memberships.pop(key, None)
        self.versions.pop(key, None)
        self.kinds.pop(key, None)

    def following(self, room_id: str) -> int | None:
        return self.versions.get(room_id)

    def refused(self, code: str, message: str, ref: str | None) -> None:
        """A refusal: an error frame and a strike; too many in a row close with 1008."""
        self.metrics.errors.labels(code).inc()
        super().refused(code, message, ref)
        self.strikes += 1
        if self.strikes >= self._strike_limit:
            self.close(CLOSE_POLICY, "too many refused messages")

    def unavailable(self, code: str, message: str, retry_after: float, ref: str | None) -> None:
        """Our outage: an error frame with a retry hint, never a strike."""
        self.metrics.errors.labels(code).inc()
        super().unavailable(code, message, retry_after, ref)

    def succeeded(self) -> None:
        self.strikes = 0

    def send_text(self, frame: str) -> None:
        """Queue an encoded frame (one encoding can serve many recipients)."""
        if self.closing:
            return
        if not self.outbox and not self._writing and self._keeps_up():
            broadcast((self.ws,), frame)  # written now: nothing is ahead of it
            return
        if len(self.outbox) >= self._outbox_limit:
            self.metrics.dropped.inc()
            self.close(CLOSE_TRY_LATER, "too slow to keep up: reconnect and resume")
            return
        self.outbox.put(frame)

    def _keeps_up(self) -> bool:
        """Everything written to the client so far has left for the network."""
        transport = self.ws.transport
        return transport is not None and transport.get_write_buffer_size() == 0

    def close(self, code: int, reason: str) -> None:
        """Close after the frames already queued (idempotent)."""
        if self.closing:
            return
        self.closing = True
        if len(self.outbox) >= self._outbox_limit:
            self.outbox.clear()  # too far behind to flush first
            self.writer.cancel()
        else:
            self.outbox.put(None)
        self._closer = asyncio.create_task(self._close(code, reason))

    async def _close(self, code: int, reason: str) -> None:
        with contextlib.suppress(TimeoutError, asyncio.CancelledError):
            await asyncio.wait_for(asyncio.shield(self.writer), timeout=2)
        await self.ws.close(code, reason)

    async def _write(self) -> None:
        """Send the outbox in order until its ``None`` (the close) or the connection ends."""
        outbox = self.outbox
        try:
            while True:
                await outbox.wait()
                frame = outbox.take()
                if frame is None:
                    return
                self._writing = True
                await self.ws.send(frame)
                self._writing = False
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
