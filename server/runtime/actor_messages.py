"""Typed messages between actors, and the codec that carries any message over the wire.

A message is a frozen dataclass registered under a short tag with :func:`message`.
:func:`to_wire` and :func:`from_wire` turn it into JSON-ready data and back, messages
nested in fields and tuples included (:mod:`server.core.tagged`), so one node can hand
another a message without either naming a method.  An unknown tag, or a field missing or
unknown, is a :class:`WireError`, never a guess.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from ..core import tagged

WIRE_VERSION = 1  # bumped when a message's fields change incompatibly
TAG = "@"  # the key that names a message's type (no summary or frame uses it)
T = TypeVar("T")


class WireError(ValueError):
    """Data that is not a message this node knows."""


MESSAGES = tagged.Codec(TAG, "message", WireError)


def message(tag: str) -> Callable[[type[T]], type[T]]:
    """Register a frozen dataclass as a wire message named ``tag``."""
    return lambda cls: MESSAGES.record(cls, tag)


def to_wire(msg: Any) -> dict[str, Any]:
    """A registered message as JSON-ready data: ``{"@": tag, field: value, ...}``."""
    return MESSAGES.encode(msg)


def from_wire(data: Any) -> Any:
    """The message that :func:`to_wire` made ``data`` from."""
    return MESSAGES.decode(data)


# -- what actors tell each other -----------------------------------------------------------


@message("table_progress")
@dataclass(frozen=True, slots=True)
class TableProgress:
    """A tournament table finished a deal: its running totals (to the tournament)."""

    room_id: str
    totals: tuple[int, int]


@message("table_finished")
@dataclass(frozen=True, slots=True)
class TableFinished:
    """A tournament table's match ended (to the tournament; idempotent)."""

    room_id: str
    winner: int
    totals: tuple[int, int]


@message("replace_with_cpu")
@dataclass(frozen=True, slots=True)
class ReplaceWithCpu:
    """A player abandoned its tournament: a CPU takes its seat at this table."""

    player: str


@message("sheet_changed")
@dataclass(frozen=True, slots=True)
class SheetChanged:
    """A club evening's table entered or corrected a deal (to the evening): its sheet's log
    has more to read."""

    sheet_id: str


@message("evening_changed")
@dataclass(frozen=True, slots=True)
class EveningChanged:
    """A club's evening changed (to the club): its log, or once it is over its standing,
    has more to read."""

    evening_id: str


Message = TableProgress | TableFinished | ReplaceWithCpu | SheetChanged | EveningChanged
