"""A connection to another node, as the rooms and tournaments of this node see it.

The node the client is connected to forwards the commands meant for actors owned here; a
:class:`RemoteClient` runs them through the router one at a time, in order, exactly as a
local connection's commands run, and everything the actors send it (and how each command
went) goes back to that node in one batch per turn of the event loop.  With routing on, a
connection that starts following a room or tournament here is told this node's path, after
what joining it sent (a ``route`` frame: client_protocol.md, "Several servers").
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from ..runtime.mailbox import Mailbox
from ..runtime.peer import Followed, Peer, encode
from ..runtime.router import ROOM, TOURNAMENT, Route, Router
from ..wire import protocol as p
from ..wire.frames import frame
from .envelope import Close, Following, Forward, Frame, Left, Outcome, Rejoin, Update

Out = Callable[[Any], None]  # queue an item for the connection's node
ROUTED = {ROOM: "room_id", TOURNAMENT: "tournament_id"}  # kinds whose followers get a route


class RemoteClient(Peer):
    forwarded = True

    def __init__(
        self, router: Router, out: Out, conn: str, player: str, nick: str,
        route: Route | None = None,
    ) -> None:  # fmt: skip
        super().__init__(player, nick)
        self.router = router
        self.out = out
        self.conn = conn
        self.route = route  # this node's, when clients are told where actors run
        self._inbox: Mailbox[Forward | Rejoin] = Mailbox()
        self._versions: dict[str, int] = {}  # room -> the last version its connection saw
        self._gone = False
        self.task = asyncio.create_task(self._run(), name=f"remote {conn}")

    # -- what actors send it -------------------------------------------------------------

    def send_text(self, frame: str) -> None:
        self.out(Frame(self.conn, frame))

    def deliver(self, room_id: str, version: int, frame: str, snapshot: bool = False) -> None:
        self._versions[room_id] = version
        self.out(Update(self.conn, room_id, version, frame, snapshot))

    def caught_up(self, room_id: str, version: int) -> None:
        self._versions[room_id] = version
        self.out(Following(self.conn, room_id, version))

    def follow(self, actor: Followed) -> None:
        super().follow(actor)
        if self.route is not None and actor.kind in ROUTED:
            asyncio.get_running_loop().call_soon(self._tell_route, actor)

    def _tell_route(self, actor: Followed) -> None:
        """After what joining sent (queued in the same turn): where ``actor`` runs."""
        assert self.route is not None
        if not self._gone and self.memberships.get(actor.key) is actor:
            route = {ROUTED[actor.kind]: actor.key, "node": self.route.node,
                     "path": self.route.path}  # fmt: skip
            self.send_text(encode(frame(p.RouteOut, **route)))

    def left(self, key: str) -> None:
        self.memberships.pop(key, None)
        self._versions.pop(key, None)
        if not self._gone:
            self.out(Left(self.conn, key))

    def following(self, room_id: str) -> int | None:
        """As its connection said with its last command: a room that moved here may take
        it back from there, even before the re-attachment that the move set off."""
        return self._versions.get(room_id)

    def close(self, code: int, reason: str) -> None:
        self.out(Close(self.conn, code, reason))

    def refused(self, code: str, message: str, ref: str | None) -> None:
        self.out(Outcome(self.conn, code, message, ref, None))  # the connection's strike

    def unavailable(self, code: str, message: str, retry_after: float, ref: str | None) -> None:
        self.out(Outcome(self.conn, code, message, ref, retry_after))

    def succeeded(self) -> None:
        self.out(Outcome(self.conn, None, "", None, None))

    # -- what its node forwards ----------------------------------------------------------

    def push(self, item: Forward | Rejoin) -> None:
        self._inbox.put(item)

    async def _run(self) -> None:
        inbox = self._inbox
        while True:
            await inbox.wait()
            item = inbox.take()
            if isinstance(item, Rejoin):
                actor = self.router.actors.get(item.to.key)
                if actor is not None:  # else it moved on again: a later rejoin follows it
                    self.router.kinds[item.to.kind].rejoin(actor, self, item.since)
                continue
            if item.since is not None:
                self._versions[item.to.key] = item.since
            try:
                command = p.parse(item.command)
            except p.ProtocolError as err:  # a node of another release: refuse, go on
                self.refused(err.code, err.message, None)
                continue
            await self.attempt(self.router.run(item.to, self, command), command.ref, command.type)

    def gone(self) -> None:
        """Its connection closed (or its node died): leave everything quietly, stop."""
        self._gone = True
        self.task.cancel()
        for actor in list(self.memberships.values()):
            actor.detach(self)
