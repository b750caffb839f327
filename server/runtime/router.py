"""Where an actor runs, and how a command or a message reaches it.

Each kind of actor (rooms, tournaments) registers an :class:`ActorKind` that knows how to
load one from its durable log, list the live ones, and run a client's command in one.  The
:class:`Router` holds the actors of this process and finds them by :class:`Ref`; it is the
one interface for locate, tell, adopt and relinquish.  This one serves a single process;
:class:`server.cluster.ClusterRouter` is the same interface over Redis, where an actor may
run on another node.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from ..core.logs import log
from .actor import Actor

if TYPE_CHECKING:
    from .actor_messages import Message
    from .peer import Peer


# The kinds of actor this server runs.
ROOM, TOURNAMENT, SHEET, EVENING, CLUB = "room", "tournament", "sheet", "evening", "club"


@dataclass(frozen=True, slots=True)
class Route:
    """Where a client reaches this node directly: its id and its path (``KLAVERJAS_ROUTE``)."""

    node: str
    path: str


@dataclass(frozen=True, slots=True)
class Ref:
    """An actor's address: its kind and the key of its durable log."""

    kind: str
    key: str


class ActorKind(Protocol):
    """What a kind of actor registers with the router."""

    name: str

    async def load(self, key: str, epoch: int | None) -> Actor | None:
        """Replay ``key``'s log and run it here; None when it is not live (or unknown)."""

    async def live(self) -> list[str]:
        """The keys of every live actor of this kind in the store."""

    async def handle(self, actor: Any, peer: Peer, command: Any) -> None:
        """Run a client's command in ``actor`` (on the node that runs it)."""

    async def absent(self, key: str, peer: Peer, command: Any) -> None:
        """A command for ``key`` that runs nowhere: answer it (usually a refusal)."""

    def rejoin(self, actor: Any, peer: Peer, since: int) -> None:
        """``peer`` followed ``actor`` before it moved here: queue bringing it up to date
        (queued at once, so it runs before any later command of that peer)."""

    async def ended(self, key: str, peer: Peer, since: int) -> bool:
        """``peer`` followed ``key`` from ``since``, and nobody runs it: if it has ended
        (what told of its end lost on the way), tell ``peer`` how it ended and let it go;
        False if it has not ended."""


class Router:
    """The actors of this process, by key; locate, tell, adopt and relinquish."""

    route: Route | None = None  # a cluster's node with routing on: how clients reach it

    def __init__(self) -> None:
        self.kinds: dict[str, ActorKind] = {}
        self.actors: dict[str, Actor] = {}
        self._reloading: dict[str, asyncio.Future[Actor | None]] = {}  # key -> the new one
        self._adopting: dict[str, asyncio.Future[Actor | None]] = {}  # key -> the one loading

    def register(self, kind: ActorKind) -> None:
        self.kinds[kind.name] = kind

    def held(self, kind: str) -> list[Actor]:
        return [a for a in self.actors.values() if a.kind == kind]

    def hold(self, actor: Actor) -> None:
        """Run ``actor`` here; it is forgotten once its task ends."""
        self.actors[actor.key] = actor
        actor.start()
        assert actor.task is not None
        actor.task.add_done_callback(lambda _: self._forget(actor))

    def _forget(self, actor: Actor) -> None:
        if self.actors.get(actor.key) is actor:
            del self.actors[actor.key]

    # -- the interface ---------------------------------------------------------------------

    async def own(self, ref: Ref) -> int | None:
        """Claim a new actor's key for this process: its fencing epoch (None: no fencing)."""
        return None

    async def run(self, ref: Ref, peer: Peer, command: Any) -> None:
        """Run a client's command in the actor of ``ref``, wherever it is."""
        kind = self.kinds[ref.kind]
        actor = self.actors.get(ref.key)
        if actor is None:
            actor = await self.locate(ref, peer, command)
            if actor is FORWARDED:
                return
        if actor is None or actor.kind != ref.kind:  # a tournament's id given as a room's
            await kind.absent(ref.key, peer, command)
        else:
            await kind.handle(actor, peer, command)

    async def locate(self, ref: Ref, peer: Peer, command: Any) -> Any:
        """An actor not held here: here, none (None) or :data:`FORWARDED` elsewhere."""
        reloading = self._reloading.get(ref.key)
        return None if reloading is None else await asyncio.shield(reloading)

    async def tell(self, ref: Ref, message: Message) -> None:
        """Queue ``message`` in the actor of ``ref``; nothing if it runs nowhere."""
        actor = self.actors.get(ref.key)
        if actor is not None:
            actor.deliver(message)

    async def adopt(self, ref: Ref) -> Actor | None:
        """Load the live actor of ``ref`` from its log and run it here, once at a time: a
        second caller while it loads (a client's command, the poll for tournaments
        scheduled from the command line) gets the same actor, never a second one."""
        key = ref.key
        if key in self._adopting:
            return await asyncio.shield(self._adopting[key])
        future: asyncio.Future[Actor | None] = asyncio.get_running_loop().create_future()
        self._adopting[key] = future
        try:
            actor = await self._adopt(ref)
            future.set_result(actor)
            return actor
        except BaseException as err:
            future.set_exception(err)
            future.exception()  # retrieved: callers waiting on it get it too
            raise
        finally:
            del self._adopting[key]

    async def _adopt(self, ref: Ref) -> Actor | None:
        actor = self.actors.get(ref.key)
        if actor is not None:
            return actor
        return await self.kinds[ref.kind].load(ref.key, await self.own(ref))

    async def relinquish(self, actor: Actor) -> None:
        """Stop ``actor`` (this process lost it); the peers that followed it let go."""
        self._forget(actor)
        log.warning("relinquished", key=actor.key)
        await actor.stop()

    async def reload(self, actor: Actor, followers: list[Peer]) -> None:
        """Stop ``actor`` and load it again from its log (it is behind it); ``followers``
        (connections here that followed it) follow the new one from where they were."""
        key, kind = actor.key, self.kinds[actor.kind]
        loaded: asyncio.Future[Actor | None] = asyncio.get_running_loop().create_future()
        self._reloading[key] = loaded  # commands for it meanwhile wait for the new one
        again: Actor | None = None
        try:
            self._forget(actor)
            log.warning("reloading", key=key)
            await actor.stop()
            again = await self.adopt(Ref(actor.kind, key))
            if again is not None:
                for peer in followers:
                    since = peer.following(key)
                    if since is not None:
                        kind.rejoin(again, peer, since)
        finally:
            del self._reloading[key]
            loaded.set_result(again)

    async def load_all(self, *kinds: str) -> int:
        """Adopt every live actor of these kinds (default: all) that does not run here: a
        single process at start-up, and tournaments scheduled from the command line."""
        count = 0
        for name in kinds or list(self.kinds):
            for key in await self.kinds[name].live():
                if key not in self.actors:
                    count += await self.adopt(Ref(name, key)) is not None
        return count

    @contextlib.asynccontextmanager
    async def lock(self, name: str) -> AsyncIterator[None]:
        """A job only one process of the lobby may do at a time (here: this one)."""
        yield


FORWARDED: Any = object()  # :meth:`Router.locate`: the command went to the node that runs it
