"""What actors see of a connection: a :class:`Peer` they send frames to, and how a
command of that peer's is answered.

A peer is a websocket connection to this process (:class:`server.connection.Client`) or a
stand-in for a connection to another node (:class:`server.cluster.remote.RemoteClient`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any, Protocol

from pydantic_core import to_json

from ..core.errors import Refused, Unavailable, storage_unavailable
from ..core.logs import log
from ..store.errors import StoreError
from ..wire.frames import frame
from ..wire.protocol import ErrorMsg

CLOSE_POLICY = 1008  # abuse: too many refused messages in a row
CLOSE_ERROR = 1011  # our bug while handling a message
CLOSE_RESTART = 1012  # an orderly shutdown
CLOSE_TRY_LATER = 1013  # too slow to keep up


def encode(message: dict[str, Any]) -> str:
    """A frame's compact JSON text (pydantic-core's encoder: three times ``json``'s speed)."""
    return to_json(message).decode()


def with_fields(frame: str, fields: dict[str, Any]) -> str:
    """``frame`` (an encoded object) with ``fields`` added as its last keys (none of them
    in it already): the text ``encode`` gives the object with them, made without encoding
    the rest again."""
    if not fields:
        return frame
    comma = "," if frame != "{}" else ""
    return f"{frame[:-1]}{comma}{to_json(fields).decode()[1:]}"


class Followed(Protocol):
    """An actor a peer follows (a room it joined, a tournament or a score sheet it watches)."""

    kind: str
    key: str

    def detach(self, peer: Peer) -> None: ...


class Peer:
    """Whoever a room or tournament talks to: a connection here (:class:`Client`), or one on
    another node that the cluster stands in for (``server.cluster.RemoteClient``)."""

    forwarded = False  # True for a connection of another node: its commands are never re-routed

    def __init__(self, player_id: str = "", nickname: str = "") -> None:
        self.player_id = player_id
        self.nickname = nickname
        self.memberships: dict[str, Followed] = {}  # the actors it follows, by key

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

    def caught_up(self, room_id: str, version: int) -> None:
        """Follows ``room_id`` from ``version`` on, which it has already: nothing is sent,
        but a resume after a move starts there."""

    def follow(self, actor: Followed) -> None:
        """Follows ``actor`` from now on (it sends this peer what changes)."""
        self.memberships[actor.key] = actor

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
            if isinstance(err, StoreError):  # the store's own error: the same outage
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
    fields: dict[str, Any] = {"code": code, "message": message}
    if retry_after is not None:
        fields["retry_after"] = retry_after
    if ref is not None:
        fields["ref"] = ref
    return frame(ErrorMsg, **fields)
