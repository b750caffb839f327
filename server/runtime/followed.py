"""An actor that phones and screens follow, and that rests when nobody does.

A score sheet and a club evening are such actors: their followers (each with the role its
code gave it) get every change; once nobody has followed one for its ``idle_seconds`` its
task ends, and the next phone to open it loads it again from its log.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..core.errors import Unavailable, room_unavailable
from .actor import Actor

if TYPE_CHECKING:
    from .peer import Peer


class FollowedActor(Actor):
    final = False  # an idle one ends, but runs what was queued before it did
    idle_seconds = 600.0  # nobody following it, it stays loaded this long

    def __init__(self, clock: Any, name: str, log: Any) -> None:
        super().__init__(clock, name, log)
        self.members: dict[Peer, str] = {}  # follower -> its role
        self._idle = False
        self._rest()

    def finished(self) -> bool:
        return self._idle

    def _closed(self) -> Unavailable:
        """Its task ended (idle, or moved): it opens again from its log; try again."""
        return room_unavailable()

    async def on_deadline(self) -> None:
        self._idle = not self.members

    def on_exit(self) -> None:
        for member in list(self.members):  # moved, or the server is stopping: they follow
            member.memberships.pop(self.key, None)  # it wherever it runs next
        self.members.clear()

    def _rest(self) -> None:
        """With nobody following, end after a while."""
        self.deadline = None if self.members else self.clock.now() + self.idle_seconds

    def attach(self, peer: Peer, role: str) -> None:
        """``peer`` follows it from now on, with ``role``."""
        self.members[peer] = role
        peer.follow(self)
        self._rest()

    def detach(self, peer: Peer) -> None:
        self.members.pop(peer, None)
        peer.left(self.key)
        self._rest()
