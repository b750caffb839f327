"""Every message one node sends another, as a frozen, registered type.

What travels is data: a client's command as its JSON text, an actor's message as a typed
value (:mod:`server.runtime.actor_messages`), frames for a connection as text.  No method
name crosses the wire.  :func:`encode` wraps a message in an envelope with
:data:`WIRE_VERSION`, and :func:`decode` refuses any other version, so nodes of different
releases never misunderstand each other silently.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ..runtime.actor_messages import WIRE_VERSION, WireError, from_wire, message, to_wire
from ..runtime.router import Ref

# Ref is a message too: Released and the commands carry it.
message("ref")(Ref)


# -- a connection's commands, to the node that runs the actor ------------------------------


@message("forward")
@dataclass(frozen=True, slots=True)
class Forward:
    """A client's command (validated JSON) for an actor that runs on the receiving node;
    ``since``: the last version of that room the connection saw (None: it follows none)."""

    origin: str  # the node the connection is on
    conn: str
    player: str
    nickname: str
    to: Ref
    command: str
    since: int | None


@message("rejoin")
@dataclass(frozen=True, slots=True)
class Rejoin:
    """The connection followed ``to`` before it moved: bring it up to date from ``since``."""

    origin: str
    conn: str
    player: str
    nickname: str
    to: Ref
    since: int


# -- what an actor sends a connection on another node, in batches -------------------------


@message("frame")
@dataclass(frozen=True, slots=True)
class Frame:
    conn: str
    text: str


@message("update")
@dataclass(frozen=True, slots=True)
class Update:
    """A room's update (or snapshot) as of ``version``: where resuming starts."""

    conn: str
    room_id: str
    version: int
    text: str
    snapshot: bool


@message("following")
@dataclass(frozen=True, slots=True)
class Following:
    """The connection follows room ``room_id`` from ``version`` on (it was up to date:
    nothing was sent), so that its node re-attaches it there if the room moves."""

    conn: str
    room_id: str
    version: int


@message("left")
@dataclass(frozen=True, slots=True)
class Left:
    conn: str
    key: str


@message("close")
@dataclass(frozen=True, slots=True)
class Close:
    conn: str
    code: int
    reason: str


@message("outcome")
@dataclass(frozen=True, slots=True)
class Outcome:
    """How a forwarded command went: done (no ``code``), refused (a strike at the
    connection), or unavailable (``retry_after``: our outage, no strike)."""

    conn: str
    code: str | None
    text: str
    ref: str | None
    retry_after: float | None


@message("batch")
@dataclass(frozen=True, slots=True)
class Batch:
    """Everything for one node's connections from one turn of the sender's event loop."""

    items: tuple[Frame | Update | Left | Close | Outcome, ...]


# -- between actors, and about them --------------------------------------------------------


@message("tell")
@dataclass(frozen=True, slots=True)
class Tell:
    to: Ref
    message: Any  # a server.runtime.actor_messages type


@message("owner")
@dataclass(frozen=True, slots=True)
class Owner:
    """``key`` runs on ``node`` now: connections that followed it re-attach there."""

    key: str
    node: str


@message("released")
@dataclass(frozen=True, slots=True)
class Released:
    """A stopping node handed these back: adopt them now."""

    refs: tuple[Ref, ...]


@message("gone")
@dataclass(frozen=True, slots=True)
class Gone:
    """A connection on ``node`` closed: its stand-ins leave everything."""

    node: str
    conn: str


# -- the shared lobby ----------------------------------------------------------------------


@message("room_listed")
@dataclass(frozen=True, slots=True)
class RoomListed:
    summary: dict[str, Any]


@message("tournament_listed")
@dataclass(frozen=True, slots=True)
class TournamentListed:
    summary: dict[str, Any]


@message("to_players")
@dataclass(frozen=True, slots=True)
class ToPlayers:
    origin: str
    players: tuple[str, ...]
    frame: str


def encode(msg: Any) -> str:
    return json.dumps({"v": WIRE_VERSION, "m": to_wire(msg)}, separators=(",", ":"))


def decode(data: str | bytes) -> Any:
    envelope = json.loads(data)
    if not isinstance(envelope, dict) or envelope.get("v") != WIRE_VERSION:
        raise WireError(f"not a version {WIRE_VERSION} message: {str(data)[:80]}")
    return from_wire(envelope["m"])
