"""A room's durable log entries: small frozen values, stored as JSON objects ``{"t": tag}``.

``created`` opens every log; ``seat`` (a player, a CPU, or nobody takes a seat), ``ready``,
``start``, ``act`` (by ``player``, ``timeout`` or ``cpu``), ``away`` (or back), ``seen`` and
``resumed`` (the pause between two deals), ``owner`` (an open room passed on) and ``closed``
follow.  :func:`decode` reads what
:meth:`to_dict` wrote, and logs written before the entries were typed, or before CPUs had
levels (their CPUs played ``heuristic``).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any, ClassVar

from engine import Action, Rules

from ..core.levels import LEGACY_LEVEL

CASUAL, SOLO, DAILY = "casual", "solo", "daily"  # the kinds of game a room holds
LEGACY_DAY, LEGACY_GRACE = 86_400.0, 7_200.0  # a daily game's day, and grace, before rooms
# kept their closing time


@dataclass(frozen=True, slots=True)
class Created:
    tag: ClassVar[str] = "created"
    owner: str
    name: str
    rules: Rules
    move_seconds: int
    private: bool
    invite_code: str | None
    seed: int
    tournament: str | None = None
    seats: tuple[str | None, ...] | None = None  # seated when made: players, None a CPU
    cpu_level: str = LEGACY_LEVEL  # the level of those CPUs
    mode: str = CASUAL  # casual, solo (one player and three CPUs) or daily
    day: str | None = None  # a daily game's day
    rated: bool = False  # its matches change ratings (when four humans start them)
    cpu_names: tuple[str | None, ...] | None = None  # CPUs' own names (a tournament, a rematch)
    closes_at: float | None = None  # when it closes unfinished if still live (wall seconds)

    def to_dict(self) -> dict[str, Any]:
        entry = {
            "t": self.tag, "owner": self.owner, "name": self.name, "rules": self.rules.to_dict(),
            "move_seconds": self.move_seconds, "private": self.private,
            "invite_code": self.invite_code, "seed": self.seed,
        }  # fmt: skip
        if self.tournament is not None:
            entry["tournament"] = self.tournament
        if self.seats is not None:
            entry["seats"], entry["cpu_level"] = list(self.seats), self.cpu_level
        if self.mode != CASUAL:
            entry["mode"] = self.mode
        if self.day is not None:
            entry["day"] = self.day
        if self.rated:
            entry["rated"] = True
        if self.cpu_names is not None:
            entry["cpu_names"] = list(self.cpu_names)
        if self.closes_at is not None:
            entry["closes_at"] = self.closes_at
        return entry

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Created:
        seats = d.get("seats")
        return cls(
            d["owner"], d["name"], Rules.from_dict(d["rules"]), d["move_seconds"], d["private"],
            d["invite_code"], d["seed"], d.get("tournament"),
            # logs before typed entries named a CPU entrant "cpu:<n>"
            None if seats is None else tuple(
                None if s is None or s.startswith("cpu:") else s for s in seats
            ),
            d.get("cpu_level", LEGACY_LEVEL), d.get("mode", CASUAL), d.get("day"),
            d.get("rated", False),  # logs before ratings: unrated
            None if d.get("cpu_names") is None else tuple(d["cpu_names"]),
            d.get("closes_at", _legacy_closing(d)),
        )  # fmt: skip


def _legacy_closing(d: dict[str, Any]) -> float | None:
    """A daily game's closing time, for a log written before rooms kept theirs: the end of
    its day (UTC) and the default two hours' grace."""
    if d.get("mode") != DAILY or d.get("day") is None:
        return None
    day = datetime.date.fromisoformat(d["day"])
    midnight = datetime.datetime.combine(day, datetime.time(), datetime.UTC).timestamp()
    return midnight + LEGACY_DAY + LEGACY_GRACE


@dataclass(frozen=True, slots=True)
class Seated:
    """``seat`` is taken by ``player``, by a CPU of ``level``, or emptied (neither)."""

    tag: ClassVar[str] = "seat"
    seat: int
    player: str | None
    cpu: bool = False
    level: str | None = None  # a CPU's level (see server.levels)

    def to_dict(self) -> dict[str, Any]:
        entry = {"t": self.tag, "seat": self.seat, "player": self.player, "cpu": self.cpu}
        if self.cpu:
            entry["level"] = self.level
        return entry


@dataclass(frozen=True, slots=True)
class Readied:
    tag: ClassVar[str] = "ready"
    seat: int
    ready: bool

    def to_dict(self) -> dict[str, Any]:
        return {"t": self.tag, "seat": self.seat, "ready": self.ready}


@dataclass(frozen=True, slots=True)
class Started:
    tag: ClassVar[str] = "start"

    def to_dict(self) -> dict[str, Any]:
        return {"t": self.tag}


@dataclass(frozen=True, slots=True)
class Acted:
    """``seat`` played ``action``, decided by its ``player``, a ``timeout`` or a ``cpu``."""

    tag: ClassVar[str] = "act"
    seat: int
    action: Action  # checked when it was accepted (the log holds accepted actions only)
    by: str

    def to_dict(self) -> dict[str, Any]:
        return {"t": self.tag, "seat": self.seat, "action": str(self.action), "by": self.by}


@dataclass(frozen=True, slots=True)
class Away:
    """``seat`` is marked away (the server plays for it) or back."""

    tag: ClassVar[str] = "away"
    seat: int
    away: bool

    def to_dict(self) -> dict[str, Any]:
        return {"t": self.tag, "seat": self.seat, "away": self.away}


@dataclass(frozen=True, slots=True)
class Closed:
    tag: ClassVar[str] = "closed"

    def to_dict(self) -> dict[str, Any]:
        return {"t": self.tag}


@dataclass(frozen=True, slots=True)
class Seen:
    """Between two deals: ``seat``'s player has seen the last deal's result."""

    tag: ClassVar[str] = "seen"
    seat: int

    def to_dict(self) -> dict[str, Any]:
        return {"t": self.tag, "seat": self.seat}


@dataclass(frozen=True, slots=True)
class Resumed:
    """The pause between two deals is over (everyone has seen it, or its time ran out)."""

    tag: ClassVar[str] = "resumed"

    def to_dict(self) -> dict[str, Any]:
        return {"t": self.tag}


@dataclass(frozen=True, slots=True)
class Owned:
    """The open room is ``player``'s now (its owner left it)."""

    tag: ClassVar[str] = "owner"
    player: str

    def to_dict(self) -> dict[str, Any]:
        return {"t": self.tag, "player": self.player}


Entry = Created | Seated | Readied | Started | Acted | Away | Closed | Seen | Resumed | Owned
_SIMPLE: dict[str, Any] = {
    c.tag: c for c in (Seated, Readied, Started, Acted, Away, Closed, Seen, Resumed, Owned)
}


def decode(d: dict[str, Any]) -> Entry:
    """The entry a stored JSON object holds; ``ValueError`` for an unknown kind."""
    tag = d.get("t")
    if tag == Created.tag:
        return Created.from_dict(d)
    cls = _SIMPLE.get(tag)  # type: ignore[arg-type]
    if cls is None:
        raise ValueError(f"unknown log entry {tag!r}")
    fields = {k: v for k, v in d.items() if k != "t"}
    if cls is Acted:
        fields["action"] = Action.parse(fields["action"])
    if cls is Seated and fields.get("cpu") and "level" not in fields:
        fields["level"] = LEGACY_LEVEL  # seated before CPUs had levels
    return cls(**fields)
