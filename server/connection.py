"""One websocket connection: identity, a bounded outbox, rate limits, strikes.

The server never awaits a client: :meth:`Client.send` queues a frame or, when the outbox is
full, drops the client (it can resume with its token).  One writer task per connection
sends the outbox in order, sleeping on its :class:`~server.mailbox.Mailbox` while it is
empty.  :class:`Peer` is what actors see of a connection: this one, or a stand-in for a
connection to another node.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed

from .errors import Refused, Unavailable, storage_unavailable
from .ids import new_id
from .logs import log
from .mailbox import Mailbox
from .store.base import StoreError

if TYPE_CHECKING:
    from .actor import Actor
    from .config import Settings
    from .metrics import Metrics

CLOSE_POLICY = 1008
CLOSE_ERROR = 1011
CLOSE_RESTART = 1012
CLOSE_TRY_LATER = 1013


def encode(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"))


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


class Peer:
    """Whoever a room or tournament talks to: a connection here (:class:`Client`), or one on
    another node that the cluster stands in for (``server.cluster.RemoteClient``)."""

    forwarded = False  # True for a connection of another node: its commands are never re-routed

    def __init__(self, player_id: str = "", nickname: str = "") -> None:
        self.player_id = player_id
        self.nickname = nickname
        self.memberships: dict[str, Actor] = {}  # the actors it follows, by key

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

    def left(self, key: str) -> None:
        """No longer follows the actor of ``key``."""
        self.memberships.pop(key, None)

    def following(self, room_id: str) -> int | None:
        """The last version of ``room_id`` this connection saw, while it follows the room
        (through a move between nodes, too); None otherwise."""
        return None

    def close(self, code: int, reason: str) -> None:
        raise NotImplementedError

    # -- answering a command -----------------------------------------------------------

    async def attempt(self, work: Awaitable[None], ref: str | None, what: str) -> None:
        """Run a command of this peer's and answer how it went: a refusal is an error
        frame and a strike, an outage an error frame with a retry hint and no strike, our
        own bug is logged and closes the connection with 1011."""
        try:
            await work
        except Refused as err:
            self.refused(err.code, err.message, ref)
        except (Unavailable, StoreError) as err:
            if isinstance(err, StoreError):  # one the command did not turn into its outage
                err = storage_unavailable()
            log.warning("unavailable", code=err.code, player_id=self.player_id, type=what)
            self.unavailable(err.code, err.message, err.retry_after, ref)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("client_message_failed", player_id=self.player_id, type=what)
            self.close(CLOSE_ERROR, "internal error")
        else:
            self.succeeded()

    def refused(self, code: str, message: str, ref: str | None) -> None:
        self.send(error_frame(code, message, ref))

    def unavailable(self, code: str, message: str, retry_after: float, ref: str | None) -> None:
        self.send(error_frame(code, message, ref, retry_after))

    def succeeded(self) -> None:
        """A command went through (a connection's strikes start again)."""


def error_frame(
    code: str, message: str, ref: str | None, retry_after: float | None = None
) -> dict[str, Any]:
    frame: dict[str, Any] = {"type": "error", "code": code, "message": message}
    if retry_after is not None:
        frame["retry_after"] = retry_after
    if ref is not None:
        frame["ref"] = ref
    return frame


class Client(Peer):
    """A websocket connection to this node."""

    def __init__(
        self, ws: ServerConnection, settings: Settings, now: Callable[[], float], metrics: Metrics
    ) -> None:
        super().__init__()
        self.ws = ws
        self.conn_id = new_id("c")
        self.versions: dict[str, int] = {}  # room id -> the last version sent here
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
        self.writer = asyncio.create_task(self._write(), name="client-writer")

    def deliver(self, room_id: str, version: int, frame: str, snapshot: bool = False) -> None:
        self.versions[room_id] = version
        self.send_text(frame)

    def left(self, key: str) -> None:
        self.memberships.pop(key, None)
        self.versions.pop(key, None)

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
        if len(self.outbox) >= self._outbox_limit:
            self.metrics.dropped.inc()
            self.close(CLOSE_TRY_LATER, "too slow to keep up: reconnect and resume")
            return
        self.outbox.put(frame)

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
                await self.ws.send(frame)
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
