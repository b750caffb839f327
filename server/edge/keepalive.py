"""Keepalive pings for every connection from one task, sent only to the quiet ones.

websockets' own keepalive runs a task per connection that pings every ``interval`` whether
or not the client has spoken: at 4,000 players, 4,000 sleeping tasks with a timer each,
and 200 pings and pongs a second that tell nothing a player's moves had not told already.
Here a frame from the client is proof enough that it is there.  Connections are kept in
the order they were last heard from; every quarter of the shorter period one task pings
those quiet for ``interval`` and closes, with 1011 ``keepalive ping timeout`` as websockets
does, those whose ping has gone unanswered for ``timeout``.  A frame costs a move to the
end of an ordered dict; a sweep looks only at the connections it acts on.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
from collections import OrderedDict
from collections.abc import Coroutine
from typing import TYPE_CHECKING

from websockets.exceptions import ConnectionClosed
from websockets.frames import CloseCode

if TYPE_CHECKING:
    from websockets.asyncio.server import ServerConnection

    from .connection import Client


class Keepalive:
    """Pings what has been quiet for ``interval`` s; lets go what stays so ``timeout`` s more."""

    def __init__(self, interval: float, timeout: float) -> None:
        if not (interval > 0 and timeout > 0):
            raise ValueError("ping_interval and ping_timeout must be positive")
        self.period = min(interval, timeout) / 4  # seconds a tick
        self._quiet = math.ceil(interval / self.period - 1e-9)  # ticks before a ping
        self._late = math.ceil(timeout / self.period - 1e-9)  # ticks before a ping fails
        self.tick = 0
        self._heard: OrderedDict[Client, int] = OrderedDict()  # the tick last heard, oldest first
        self._pinged: OrderedDict[Client, int] = OrderedDict()  # the tick pinged, oldest first
        self._tasks: set[asyncio.Task[None]] = set()  # pings awaiting their pong, closes
        self._runner: asyncio.Task[None] | None = None

    def add(self, client: Client) -> None:
        self._heard[client] = self.tick

    def forget(self, client: Client) -> None:
        self._heard.pop(client, None)
        self._pinged.pop(client, None)

    def heard(self, client: Client) -> None:
        """A frame (or a pong) from ``client``: it is there."""
        heard = self._heard
        if heard.pop(client, None) is None and self._pinged.pop(client, None) is None:
            return  # forgotten: let it be
        heard[client] = self.tick

    def sweep(self) -> None:
        """One tick: ping the connections quiet for long enough, fail the unanswered."""
        self.tick += 1
        for client in _due(self._heard, self.tick - self._quiet):
            self._pinged[client] = self.tick
            self._spawn(self._ping(client))
        for client in _due(self._pinged, self.tick - self._late):
            self._spawn(_fail(client.ws))

    def start(self) -> None:
        self._runner = asyncio.create_task(self._run(), name="keepalive")

    async def stop(self) -> None:
        tasks = [t for t in (self._runner, *self._tasks) if t is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.period)
            self.sweep()

    def _spawn(self, job: Coroutine[object, object, None]) -> None:
        task = asyncio.create_task(job)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _ping(self, client: Client) -> None:
        try:
            pong = await client.ws.ping()
            await pong
        except ConnectionClosed:
            return
        if client in self._pinged:  # not heard since, not failed, not forgotten
            self.heard(client)


def _due(entries: OrderedDict[Client, int], since: int) -> list[Client]:
    """Take out the oldest ``entries``, those of tick ``since`` or earlier."""
    due = []
    while entries:
        client, tick = next(iter(entries.items()))
        if tick > since:
            break
        del entries[client]
        due.append(client)
    return due


async def _fail(ws: ServerConnection) -> None:
    """Close with 1011 at once, without waiting for a closing handshake the peer will not
    answer (what websockets' own keepalive does)."""
    with contextlib.suppress(ConnectionClosed):
        async with ws.send_context():
            ws.protocol.fail(CloseCode.INTERNAL_ERROR, "keepalive ping timeout")
