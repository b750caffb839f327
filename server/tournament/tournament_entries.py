"""A tournament's durable log entries: small frozen values, stored as ``{"t": tag, ...}``.

``created`` opens every log; ``registered``, ``unregistered``, ``cancelled``, ``round``
(the seating of a round), ``table_room`` (the room that hosts a table), ``table_finished``,
``left`` (a player abandoned, a CPU takes over) and ``finished`` follow.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar


class _Entry:
    __slots__ = ()
    tag: ClassVar[str]

    def to_dict(self) -> dict[str, Any]:
        return {"t": self.tag, **{f.name: _plain(getattr(self, f.name)) for f in _fields(self)}}


def _fields(entry: object) -> tuple[dataclasses.Field, ...]:
    return dataclasses.fields(entry)  # type: ignore[arg-type]


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


@dataclass(frozen=True, slots=True)
class Created(_Entry):
    tag: ClassVar[str] = "created"
    format: str
    start_at: float  # epoch seconds; 0 for "start when full"
    fill_with_cpu: bool
    start_when_full: bool
    repeat: str | None  # "daily" | "hourly" | None
    seed: int
    auto: bool = False  # made by the server's own schedule (KLAVERJAS_QUICK_SCHEDULE)


@dataclass(frozen=True, slots=True)
class Registered(_Entry):
    tag: ClassVar[str] = "registered"
    player: str


@dataclass(frozen=True, slots=True)
class Unregistered(_Entry):
    tag: ClassVar[str] = "unregistered"
    player: str


@dataclass(frozen=True, slots=True)
class Cancelled(_Entry):
    tag: ClassVar[str] = "cancelled"
    reason: str


@dataclass(frozen=True, slots=True)
class Round(_Entry):
    tag: ClassVar[str] = "round"
    number: int
    tables: tuple[tuple[str, ...], ...]  # four entrants a table, in seat order
    at: float | None = None  # round 1: when the tournament started (epoch seconds)


@dataclass(frozen=True, slots=True)
class TableRoom(_Entry):
    tag: ClassVar[str] = "table_room"
    table: int
    room_id: str


@dataclass(frozen=True, slots=True)
class TableFinished(_Entry):
    tag: ClassVar[str] = "table_finished"
    table: int
    winner: int
    totals: tuple[int, int]


@dataclass(frozen=True, slots=True)
class Left(_Entry):
    tag: ClassVar[str] = "left"
    player: str
    cpu: str  # the CPU entrant that plays on in the player's place


@dataclass(frozen=True, slots=True)
class Finished(_Entry):
    tag: ClassVar[str] = "finished"


Entry = (
    Created | Registered | Unregistered | Cancelled | Round | TableRoom | TableFinished | Left
    | Finished
)  # fmt: skip
_KINDS = (Created, Registered, Unregistered, Cancelled, Round, TableRoom, TableFinished, Left)
_TYPES: dict[str, Any] = {c.tag: c for c in (*_KINDS, Finished)}


def decode(d: dict[str, Any]) -> Entry:
    """The entry a stored JSON object holds; ``ValueError`` for an unknown kind."""
    cls = _TYPES.get(d.get("t"))  # type: ignore[arg-type]
    if cls is None:
        raise ValueError(f"unknown tournament entry {d.get('t')!r}")
    values = {k: v for k, v in d.items() if k != "t"}
    if cls is Round:
        values["tables"] = tuple(tuple(seats) for seats in values["tables"])
    elif cls is TableFinished:
        values["totals"] = tuple(values["totals"])
    return cls(**values)
