"""A score sheet's durable log entries: small frozen values, stored as ``{"t": tag, ...}``.

``created`` opens every log.  Then the changes, each by a player at a wall-clock time:
``deal`` (a deal entered), ``edit`` and ``delete`` (of an entered deal, named by the
version that entered it), ``dealer`` (who deals next, corrected), ``continue`` (play on
past the end), ``new_game`` (start again with the same names), and ``undo`` / ``redo`` (of
the latest change, again and again).  :func:`decode` reads what ``to_dict`` wrote
(:mod:`server.core.tagged`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from engine import Rules

from ..core import tagged

LOG = tagged.Codec("t", "sheet log entry")


@LOG.record
@dataclass(frozen=True, slots=True)
class DealInput(tagged.Record):
    """A deal as the table counted it: the playing team (0 or 1), each team's card points
    (the last trick's 10 included; they add up to 162), each team's roem (stuk included),
    and the team that took every trick (None: neither)."""

    playing: int
    points: tuple[int, int]
    roem: tuple[int, int]
    pit: int | None = None


@LOG.record
@dataclass(frozen=True, slots=True)
class EveningTable(tagged.Record):
    """Where a club evening's table sits: the evening's name and view code (the players'
    link to its standing), the round and the table's number (from 1)."""

    name: str
    view_code: str
    round: int
    table: int


@LOG.record
@dataclass(frozen=True, slots=True)
class Created(tagged.Record):
    """A sheet: two team names (team 0 is seats 0 and 2), four player names or none, the
    first dealer's seat, and the rules that score it (its end and the pit bonus option)."""

    tag: ClassVar[str] = "created"
    by: str
    at: float
    teams: tuple[str, str]
    players: tuple[str, str, str, str] | None
    first_dealer: int
    rules: Rules = tagged.field(encode=Rules.to_dict, decode=Rules.from_dict)
    evening: str | None = tagged.field(None, omit=True)  # a club evening's table: told
    table: EveningTable | None = tagged.field(
        None, omit=True, encode=EveningTable.to_dict, decode=EveningTable.from_dict
    )  # and where it sits, shown on the sheet


@LOG.record
@dataclass(frozen=True, slots=True)
class DealEntered(tagged.Record):
    tag: ClassVar[str] = "deal"
    by: str
    at: float
    deal: DealInput = tagged.field(encode=DealInput.to_dict, decode=DealInput.from_dict)


@LOG.record
@dataclass(frozen=True, slots=True)
class DealEdited(tagged.Record):
    """The deal entered at version ``deal_id`` now reads ``deal``."""

    tag: ClassVar[str] = "edit"
    by: str
    at: float
    deal_id: int
    deal: DealInput = tagged.field(encode=DealInput.to_dict, decode=DealInput.from_dict)


@LOG.record
@dataclass(frozen=True, slots=True)
class DealDeleted(tagged.Record):
    tag: ClassVar[str] = "delete"
    by: str
    at: float
    deal_id: int


@LOG.record
@dataclass(frozen=True, slots=True)
class DealerSet(tagged.Record):
    """``seat`` deals next (a correction); the rotation goes on from there."""

    tag: ClassVar[str] = "dealer"
    by: str
    at: float
    seat: int


@LOG.record
@dataclass(frozen=True, slots=True)
class Continued(tagged.Record):
    """Play on past the end: the game's end moves one length further (a target of 1500
    to 3000, 16 deals to 32)."""

    tag: ClassVar[str] = "continue"
    by: str
    at: float


@LOG.record
@dataclass(frozen=True, slots=True)
class NewGame(tagged.Record):
    """Start again with the same names: the game so far is kept, as finished."""

    tag: ClassVar[str] = "new_game"
    by: str
    at: float


@LOG.record
@dataclass(frozen=True, slots=True)
class Undone(tagged.Record):
    """The latest change in effect is undone."""

    tag: ClassVar[str] = "undo"
    by: str
    at: float


@LOG.record
@dataclass(frozen=True, slots=True)
class Redone(tagged.Record):
    """The latest undone change is made again."""

    tag: ClassVar[str] = "redo"
    by: str
    at: float


Change = DealEntered | DealEdited | DealDeleted | DealerSet | Continued | NewGame
Entry = Created | Change | Undone | Redone


def decode(d: dict[str, Any]) -> Entry:
    """The entry a stored JSON object holds; ``ValueError`` for an unknown kind."""
    return LOG.decode(d)  # type: ignore[no-any-return]
