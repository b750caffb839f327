"""A connection to another node, as the rooms and tournaments of this node see it.

The node the client is connected to forwards the frames meant for actors owned here; a
:class:`RemoteClient` runs them one at a time, in order, exactly as a local connection's
frames run, and everything the actors send it goes back to that node in one batch per
turn of the event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections import deque
from typing import TYPE_CHECKING

from ..connection import Peer
from ..errors import Refused
from ..table.actor import RoomActor

if TYPE_CHECKING:
    from ..app import Services
    from .node import Cluster


class RemoteClient(Peer):
    forwarded = True

    def __init__(
        self, services: Services, cluster: Cluster, node: str, conn: str, player: str, nick: str
    ) -> None:
        super().__init__(services)
        self.cluster = cluster
        self.node = node
        self.conn = conn
        self.player_id = player
        self.nickname = nick
        self._frames: deque[tuple[str, bool]] = deque()
        self._wake: asyncio.Future[None] | None = None
        self._gone = False
        self.task = asyncio.create_task(self._run(), name=f"remote {conn}")

    # -- what actors send it -------------------------------------------------------------

    def send_text(self, frame: str) -> None:
        self.cluster.out(self.node, ["f", self.conn, frame])

    def deliver(self, room_id: str, version: int, frame: str, snapshot: bool = False) -> None:
        self.cluster.out(self.node, ["s" if snapshot else "v", self.conn, room_id, version, frame])

    def left(self, room_id: str) -> None:
        self.rooms.pop(room_id, None)
        if not self._gone:
            self.cluster.out(self.node, ["u", self.conn, room_id])

    def close(self, code: int, reason: str) -> None:
        self.cluster.out(self.node, ["c", self.conn, code, reason])

    # -- what its node forwards ----------------------------------------------------------

    def push(self, frame: str, rejoin: bool) -> None:
        self._frames.append((frame, rejoin))
        if self._wake is not None and not self._wake.done():
            self._wake.set_result(None)

    async def _run(self) -> None:
        from ..session import receive  # the session module imports the cluster's users

        loop = asyncio.get_running_loop()
        while True:
            while self._frames:
                frame, rejoin = self._frames.popleft()
                if rejoin:
                    with contextlib.suppress(Refused):  # it moved on again: a later rejoin
                        await self._rejoin(frame)
                else:
                    await receive(self, self.s, frame)
            self._wake = loop.create_future()
            await self._wake
            self._wake = None

    async def _rejoin(self, frame: str) -> None:
        """Its room moved here: bring it up to date from the version it had."""
        message = json.loads(frame)
        actor = self.s.actors.get(message["room_id"])
        if isinstance(actor, RoomActor):
            await actor.call(lambda: actor.rejoin(self, message["version"]))
        elif (t := self.s.tournaments.get(message["room_id"])) is not None:
            await t.call(lambda: t.watch(self))

    def gone(self) -> None:
        """Its connection closed (or its node died): leave everything quietly, stop."""
        self._gone = True
        self.task.cancel()
        for actor in list(self.rooms.values()):
            actor.detach(self)
        for tournament in list(self.tournaments.values()):
            tournament.unwatch(self)
