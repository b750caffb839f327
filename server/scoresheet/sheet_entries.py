"""A score sheet's durable log entries: small frozen values, stored as ``{"t": tag, ...}``.

``created`` opens every log.  Then the changes, each by a player at a wall-clock time:
``deal`` (a deal entered), ``edit`` and ``delete`` (of an entered deal, named by the
version that entered it), ``dealer`` (who deals next, corrected), ``continue`` (play on
past the end), ``new_game`` (start again with the same names), and ``undo`` / ``redo`` (of
the latest change, again and again).  :func:`decode` reads what ``to_dict`` wrote.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from engine import Rules


@dataclass(frozen=True, slots=True)
class DealInput:
    """A deal as the table counted it: the playing team (0 or 1), each team's card points
    (the last trick's 10 included; they add up to 162), each team's roem (stuk included),
    and the team that took every trick (None: neither)."""

    playing: int
    points: tuple[int, int]
    roem: tuple[int, int]
    pit: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "playing": self.playing,
            "points": list(self.points),
            "roem": list(self.roem),
            "pit": self.pit,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> DealInput:
        points, roem = d["points"], d["roem"]
        return cls(d["playing"], (points[0], points[1]), (roem[0], roem[1]), d.get("pit"))


@dataclass(frozen=True, slots=True)
class Created:
    """A sheet: two team names (team 0 is seats 0 and 2), four player names or none, the
    first dealer's seat, and the rules that score it (its end and the pit bonus option)."""

    tag: ClassVar[str] = "created"
    by: str
    at: float
    teams: tuple[str, str]
    players: tuple[str, str, str, str] | None
    first_dealer: int
    rules: Rules

    def to_dict(self) -> dict[str, Any]:
        return {
            "t": self.tag, "by": self.by, "at": self.at, "teams": list(self.teams),
            "players": None if self.players is None else list(self.players),
            "first_dealer": self.first_dealer, "rules": self.rules.to_dict(),
        }  # fmt: skip

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Created:
        teams, players = d["teams"], d.get("players")
        return cls(
            d["by"], d["at"], (teams[0], teams[1]),
            None if players is None else (players[0], players[1], players[2], players[3]),
            d["first_dealer"], Rules.from_dict(d["rules"]),
        )  # fmt: skip


@dataclass(frozen=True, slots=True)
class DealEntered:
    tag: ClassVar[str] = "deal"
    by: str
    at: float
    deal: DealInput

    def to_dict(self) -> dict[str, Any]:
        return {"t": self.tag, "by": self.by, "at": self.at, "deal": self.deal.to_dict()}


@dataclass(frozen=True, slots=True)
class DealEdited:
    """The deal entered at version ``deal_id`` now reads ``deal``."""

    tag: ClassVar[str] = "edit"
    by: str
    at: float
    deal_id: int
    deal: DealInput

    def to_dict(self) -> dict[str, Any]:
        return {
            "t": self.tag, "by": self.by, "at": self.at, "deal_id": self.deal_id,
            "deal": self.deal.to_dict(),
        }  # fmt: skip


@dataclass(frozen=True, slots=True)
class DealDeleted:
    tag: ClassVar[str] = "delete"
    by: str
    at: float
    deal_id: int

    def to_dict(self) -> dict[str, Any]:
        return {"t": self.tag, "by": self.by, "at": self.at, "deal_id": self.deal_id}


@dataclass(frozen=True, slots=True)
class DealerSet:
    """``seat`` deals next (a correction); the rotation goes on from there."""

    tag: ClassVar[str] = "dealer"
    by: str
    at: float
    seat: int

    def to_dict(self) -> dict[str, Any]:
        return {"t": self.tag, "by": self.by, "at": self.at, "seat": self.seat}


@dataclass(frozen=True, slots=True)
class Continued:
    """Play on past the end: the game's end moves one length further (a target of 1500
    to 3000, 16 deals to 32)."""

    tag: ClassVar[str] = "continue"
    by: str
    at: float

    def to_dict(self) -> dict[str, Any]:
        return {"t": self.tag, "by": self.by, "at": self.at}


@dataclass(frozen=True, slots=True)
class NewGame:
    """Start again with the same names: the game so far is kept, as finished."""

    tag: ClassVar[str] = "new_game"
    by: str
    at: float

    def to_dict(self) -> dict[str, Any]:
        return {"t": self.tag, "by": self.by, "at": self.at}


@dataclass(frozen=True, slots=True)
class Undone:
    """The latest change in effect is undone."""

    tag: ClassVar[str] = "undo"
    by: str
    at: float

    def to_dict(self) -> dict[str, Any]:
        return {"t": self.tag, "by": self.by, "at": self.at}


@dataclass(frozen=True, slots=True)
class Redone:
    """The latest undone change is made again."""

    tag: ClassVar[str] = "redo"
    by: str
    at: float

    def to_dict(self) -> dict[str, Any]:
        return {"t": self.tag, "by": self.by, "at": self.at}


Change = DealEntered | DealEdited | DealDeleted | DealerSet | Continued | NewGame
Entry = Created | Change | Undone | Redone
_PLAIN: dict[str, Any] = {
    c.tag: c for c in (DealDeleted, DealerSet, Continued, NewGame, Undone, Redone)
}


def decode(d: dict[str, Any]) -> Entry:
    """The entry a stored JSON object holds; ``ValueError`` for an unknown kind."""
    tag = d.get("t")
    fields = {k: v for k, v in d.items() if k != "t"}
    if tag == Created.tag:
        return Created.from_dict(d)
    if tag == DealEntered.tag:
        return DealEntered(d["by"], d["at"], DealInput.from_dict(d["deal"]))
    if tag == DealEdited.tag:
        return DealEdited(d["by"], d["at"], d["deal_id"], DealInput.from_dict(d["deal"]))
    cls = _PLAIN.get(tag)  # type: ignore[arg-type]
    if cls is None:
        raise ValueError(f"unknown sheet log entry {tag!r}")
    return cls(**fields)
