"""A room's durable log entries: small frozen values, stored as JSON objects ``{"t": tag}``.

``created`` opens every log; ``seat`` (a player, a CPU, or nobody takes a seat), ``ready``,
``start``, ``act`` (by ``player``, ``timeout`` or ``cpu``), ``away`` (or back), ``seen`` and
``resumed`` (the pause between two deals), ``owner`` (an open room passed on) and ``closed``
follow.  :func:`decode` reads what ``to_dict`` wrote (:mod:`server.core.tagged`), and logs
written before the entries were typed, before CPUs had levels (their CPUs played
``heuristic``), or before rooms kept their closing time.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any, ClassVar

from engine import Action, Rules

from ..core import tagged
from ..core.levels import LEGACY_LEVEL

CASUAL, SOLO, DAILY = "casual", "solo", "daily"  # the kinds of game a room holds
LEGACY_DAY, LEGACY_GRACE = 86_400.0, 7_200.0  # a daily game's day, and grace, before rooms
# kept their closing time
LOG = tagged.Codec("t", "log entry")


def _seats(seats: list[str | None] | None) -> tuple[str | None, ...] | None:
    """Seated entrants; logs before typed entries named a CPU entrant ``cpu:<n>``."""
    if seats is None:
        return None
    return tuple(None if s is None or s.startswith("cpu:") else s for s in seats)


def _legacy_closing(d: dict[str, Any]) -> float | None:
    """A daily game's closing time, for a log written before rooms kept theirs: the end of
    its day (UTC) and the default two hours' grace."""
    if d.get("mode") != DAILY or d.get("day") is None:
        return None
    day = datetime.date.fromisoformat(d["day"])
    midnight = datetime.datetime.combine(day, datetime.time(), datetime.UTC).timestamp()
    return midnight + LEGACY_DAY + LEGACY_GRACE


@LOG.record
@dataclass(frozen=True, slots=True)
class Created(tagged.Record):
    tag: ClassVar[str] = "created"
    owner: str
    name: str
    rules: Rules = tagged.field(encode=Rules.to_dict, decode=Rules.from_dict)
    move_seconds: int
    private: bool
    invite_code: str | None
    seed: int
    tournament: str | None = tagged.field(None, omit=True)
    # seated when made: players, None a CPU
    seats: tuple[str | None, ...] | None = tagged.field(None, decode=_seats, omit=True)
    # the level of those CPUs
    cpu_level: str = tagged.field(LEGACY_LEVEL, omit=lambda e: e.seats is None)
    mode: str = tagged.field(CASUAL, omit=True)  # casual, solo (one player, three CPUs), daily
    day: str | None = tagged.field(None, omit=True)  # a daily game's day
    # its matches change ratings (when four humans start them); logs before ratings: unrated
    rated: bool = tagged.field(False, omit=True)
    # CPUs' own names (a tournament, a rematch)
    cpu_names: tuple[str | None, ...] | None = tagged.field(None, omit=True)
    # when it closes unfinished if still live (wall seconds)
    closes_at: float | None = tagged.field(None, omit=True, missing=_legacy_closing)


@LOG.record
@dataclass(frozen=True, slots=True)
class Seated(tagged.Record):
    """``seat`` is taken by ``player``, by a CPU of ``level``, or emptied (neither)."""

    tag: ClassVar[str] = "seat"
    seat: int
    player: str | None
    cpu: bool = False
    # a CPU's level (see server.core.levels); a CPU seated before levels played heuristic
    level: str | None = tagged.field(
        None, omit=lambda e: not e.cpu, missing=lambda d: LEGACY_LEVEL if d.get("cpu") else None
    )


@LOG.record
@dataclass(frozen=True, slots=True)
class Readied(tagged.Record):
    tag: ClassVar[str] = "ready"
    seat: int
    ready: bool


@LOG.record
@dataclass(frozen=True, slots=True)
class Started(tagged.Record):
    tag: ClassVar[str] = "start"


@LOG.record
@dataclass(frozen=True, slots=True)
class Acted(tagged.Record):
    """``seat`` played ``action``, decided by its ``player``, a ``timeout`` or a ``cpu``."""

    tag: ClassVar[str] = "act"
    seat: int
    # checked when it was accepted (the log holds accepted actions only)
    action: Action = tagged.field(encode=str, decode=Action.parse)
    by: str


@LOG.record
@dataclass(frozen=True, slots=True)
class Away(tagged.Record):
    """``seat`` is marked away (the server plays for it) or back."""

    tag: ClassVar[str] = "away"
    seat: int
    away: bool


@LOG.record
@dataclass(frozen=True, slots=True)
class Closed(tagged.Record):
    tag: ClassVar[str] = "closed"


@LOG.record
@dataclass(frozen=True, slots=True)
class Seen(tagged.Record):
    """Between two deals: ``seat``'s player has seen the last deal's result."""

    tag: ClassVar[str] = "seen"
    seat: int


@LOG.record
@dataclass(frozen=True, slots=True)
class Resumed(tagged.Record):
    """The pause between two deals is over (everyone has seen it, or its time ran out)."""

    tag: ClassVar[str] = "resumed"


@LOG.record
@dataclass(frozen=True, slots=True)
class Owned(tagged.Record):
    """The open room is ``player``'s now (its owner left it)."""

    tag: ClassVar[str] = "owner"
    player: str


Entry = Created | Seated | Readied | Started | Acted | Away | Closed | Seen | Resumed | Owned


def decode(d: dict[str, Any]) -> Entry:
    """The entry a stored JSON object holds; ``ValueError`` for an unknown kind."""
    return LOG.decode(d)  # type: ignore[no-any-return]
