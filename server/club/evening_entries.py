"""A club evening's durable log entries: small frozen values, stored as ``{"t": tag, ...}``.

``created`` opens every log: the evening's name, its club (if any), the rules each table
plays by, its format (``individual``: partners drawn anew each round; ``pairs``: fixed pairs
that move), its number of rounds, the house's sit-out and prize rules, and the seed its
draws are made from.  Then, each by an organiser at a wall-clock time: ``check_in`` (a
player, or a pair, is here), ``withdraw`` (gone from the next draw on), ``draw`` (a round's
tables, who sits out, and the score sheet of each table), ``swap`` (two entrants of the
round's draw change places; the tables they left get new sheets), ``undo_draw`` (the
round's draw is taken back before any deal was entered), ``close`` (the round is over,
with what its sheets hold) and ``penalty`` (a player's own points off, for a revoke).
:func:`decode` reads what ``to_dict`` wrote (:mod:`server.core.tagged`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from engine import Rules

from ..core import tagged

LOG = tagged.Codec("t", "evening log entry")

INDIVIDUAL, PAIRS = "individual", "pairs"  # an evening's formats


@LOG.record
@dataclass(frozen=True, slots=True)
class Created(tagged.Record):
    """An evening: ``sit_out`` and ``prizes`` are the house's rules as
    :mod:`server.club.standings` and :mod:`server.club.prizes` read them."""

    tag: ClassVar[str] = "created"
    by: str
    at: float
    name: str
    rules: Rules = tagged.field(encode=Rules.to_dict, decode=Rules.from_dict)
    format: str = INDIVIDUAL
    rounds: int = 3
    sit_out: dict[str, Any] | None = tagged.field(None, omit=True)
    prizes: dict[str, Any] | None = tagged.field(None, omit=True)
    seed: int = 0
    club: str | None = tagged.field(None, omit=True)


@LOG.record
@dataclass(frozen=True, slots=True)
class CheckedIn(tagged.Record):
    """``entrant`` (a player, or in a pairs evening a pair of ``members``) is here; at a
    club's evening, maybe as the club's ``member``."""

    tag: ClassVar[str] = "check_in"
    by: str
    at: float
    entrant: str
    name: str
    members: tuple[str, ...] = tagged.field((), omit=True)
    member: str | None = tagged.field(None, omit=True)


@LOG.record
@dataclass(frozen=True, slots=True)
class Withdrawn(tagged.Record):
    """``entrant`` plays no further round (the rounds it played stand)."""

    tag: ClassVar[str] = "withdraw"
    by: str
    at: float
    entrant: str


@LOG.record
@dataclass(frozen=True, slots=True)
class Drawn(tagged.Record):
    """Round ``round``: each table's entrants (four players, seats 0 and 2 partners; or
    two pairs, north-south first), who sits out, and each table's score sheet."""

    tag: ClassVar[str] = "draw"
    by: str
    at: float
    round: int
    tables: tuple[tuple[str, ...], ...]
    sitting_out: tuple[str, ...]
    sheets: tuple[str, ...]


@LOG.record
@dataclass(frozen=True, slots=True)
class Swapped(tagged.Record):
    """``a`` and ``b`` change places in the open round; ``sheets`` are its tables' sheets
    after it (a table either of them left or joined has a new one)."""

    tag: ClassVar[str] = "swap"
    by: str
    at: float
    a: str
    b: str
    sheets: tuple[str, ...]


@LOG.record
@dataclass(frozen=True, slots=True)
class DrawUndone(tagged.Record):
    """The open round's draw is taken back (no deal was entered at any of its tables)."""

    tag: ClassVar[str] = "undo_draw"
    by: str
    at: float


@LOG.record
@dataclass(frozen=True, slots=True)
class Closed(tagged.Record):
    """The open round is over: its standing is what its sheets hold."""

    tag: ClassVar[str] = "close"
    by: str
    at: float


@LOG.record
@dataclass(frozen=True, slots=True)
class Penalised(tagged.Record):
    """``entrant`` is charged ``points`` in round ``round``, alone (a revoke in an individual
    evening: its deal goes to the other team on the table's sheet, this to the offender)."""

    tag: ClassVar[str] = "penalty"
    by: str
    at: float
    round: int
    entrant: str
    points: int


Entry = Created | CheckedIn | Withdrawn | Drawn | Swapped | DrawUndone | Closed | Penalised


def decode(d: dict[str, Any]) -> Entry:
    """The entry a stored JSON object holds; ``ValueError`` for an unknown kind."""
    return LOG.decode(d)  # type: ignore[no-any-return]
