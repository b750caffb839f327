"""A tournament's durable log entries: small frozen values, stored as ``{"t": tag, ...}``.

``created`` opens every log; ``registered``, ``unregistered``, ``cancelled``, ``round``
(the seating of a round), ``table_room`` (the room that hosts a table), ``table_finished``,
``left`` (a player abandoned, a CPU takes over) and ``finished`` follow.  Every field is
written, defaults too (:mod:`server.core.tagged`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ..core import tagged

LOG = tagged.Codec("t", "tournament entry")


@LOG.record
@dataclass(frozen=True, slots=True)
class Created(tagged.Record):
    tag: ClassVar[str] = "created"
    format: str
    start_at: float  # epoch seconds; 0 for "start when full"
    fill_with_cpu: bool
    start_when_full: bool
    repeat: str | None  # "daily" | "hourly" | None
    seed: int
    auto: bool = False  # made by the server's own schedule (KLAVERJAS_QUICK_SCHEDULE)


@LOG.record
@dataclass(frozen=True, slots=True)
class Registered(tagged.Record):
    tag: ClassVar[str] = "registered"
    player: str


@LOG.record
@dataclass(frozen=True, slots=True)
class Unregistered(tagged.Record):
    tag: ClassVar[str] = "unregistered"
    player: str


@LOG.record
@dataclass(frozen=True, slots=True)
class Cancelled(tagged.Record):
    tag: ClassVar[str] = "cancelled"
    reason: str


@LOG.record
@dataclass(frozen=True, slots=True)
class Round(tagged.Record):
    tag: ClassVar[str] = "round"
    number: int
    tables: tuple[tuple[str, ...], ...]  # four entrants a table, in seat order
    at: float | None = None  # round 1: when the tournament started (epoch seconds)


@LOG.record
@dataclass(frozen=True, slots=True)
class TableRoom(tagged.Record):
    tag: ClassVar[str] = "table_room"
    table: int
    room_id: str


@LOG.record
@dataclass(frozen=True, slots=True)
class TableFinished(tagged.Record):
    tag: ClassVar[str] = "table_finished"
    table: int
    winner: int
    totals: tuple[int, int]


@LOG.record
@dataclass(frozen=True, slots=True)
class Left(tagged.Record):
    tag: ClassVar[str] = "left"
    player: str
    cpu: str  # the CPU entrant that plays on in the player's place


@LOG.record
@dataclass(frozen=True, slots=True)
class Finished(tagged.Record):
    tag: ClassVar[str] = "finished"


Entry = (
    Created | Registered | Unregistered | Cancelled | Round | TableRoom | TableFinished | Left
    | Finished
)  # fmt: skip


def decode(d: dict[str, Any]) -> Entry:
    """The entry a stored JSON object holds; ``ValueError`` for an unknown kind."""
    return LOG.decode(d)  # type: ignore[no-any-return]
