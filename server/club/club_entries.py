"""A club's durable log entries: small frozen values, stored as ``{"t": tag, ...}``.

``created`` opens every log: the club's name, its founding organiser's name and code, and
its view code.  Then, each by an organiser (``by``: a player id) at a wall-clock time:
``organiser_added`` (a co-organiser and the code of their own), ``organiser_revoked``,
``member_added``, ``member_renamed``, ``member_removed``, ``season`` (the season's rule) and
``evening_added`` (an evening of the club, with its codes).  And what the club's evenings
tell it, with no organiser's command: ``joined`` (an evening's entrant is these members:
a walk-in checked in by name becomes one, a ``member_added`` by that evening before it) and
``counted`` (an evening that is over: each member's evening total, as the evening's standing
has it; a correction of a table's sheet afterwards counts it again).
:func:`decode` reads what ``to_dict`` wrote (:mod:`server.core.tagged`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ..core import tagged

LOG = tagged.Codec("t", "club log entry")


@LOG.record
@dataclass(frozen=True, slots=True)
class ClubCreated(tagged.Record):
    """A club: its founder (organiser ``o1``, whose code is never revoked) and view code."""

    tag: ClassVar[str] = "created"
    by: str
    at: float
    name: str
    organiser: str  # the founder's name
    organiser_code: str
    view_code: str


@LOG.record
@dataclass(frozen=True, slots=True)
class OrganiserAdded(tagged.Record):
    """A co-organiser ``organiser`` named ``name``, with a code of their own, added by the
    organiser ``sponsor``."""

    tag: ClassVar[str] = "organiser_added"
    by: str
    at: float
    organiser: str
    name: str
    code: str
    sponsor: str


@LOG.record
@dataclass(frozen=True, slots=True)
class OrganiserRevoked(tagged.Record):
    """The co-organiser ``organiser`` is one no more: their code opens nothing."""

    tag: ClassVar[str] = "organiser_revoked"
    by: str
    at: float
    organiser: str


@LOG.record
@dataclass(frozen=True, slots=True)
class MemberAdded(tagged.Record):
    """A member, maybe linked to a player's identity (``player``); ``by`` is an evening's
    id when a walk-in there became the member."""

    tag: ClassVar[str] = "member_added"
    by: str
    at: float
    member: str
    name: str
    player: str | None = tagged.field(None, omit=True)


@LOG.record
@dataclass(frozen=True, slots=True)
class MemberRenamed(tagged.Record):
    tag: ClassVar[str] = "member_renamed"
    by: str
    at: float
    member: str
    name: str


@LOG.record
@dataclass(frozen=True, slots=True)
class MemberRemoved(tagged.Record):
    """The member leaves the club, and the season's standing."""

    tag: ClassVar[str] = "member_removed"
    by: str
    at: float
    member: str


@LOG.record
@dataclass(frozen=True, slots=True)
class SeasonSet(tagged.Record):
    """The season's rule (:class:`server.club.season.SeasonRule`'s fields, the periods'
    start dates as ``YYYY-MM-DD``) and its prize rule (a
    :class:`server.club.prizes.PrizeRule` as a dict)."""

    tag: ClassVar[str] = "season"
    by: str
    at: float
    best: int | None
    drop: int
    average: bool
    period_length: int
    period_starts: tuple[str, ...]
    best_periods: int | None
    minimum: int
    prizes: dict[str, Any]


@LOG.record
@dataclass(frozen=True, slots=True)
class EveningAdded(tagged.Record):
    """An evening of the club, on ``date`` (``YYYY-MM-DD``), and its two codes (the club's
    organisers are its organisers)."""

    tag: ClassVar[str] = "evening_added"
    by: str
    at: float
    evening: str
    name: str
    date: str
    organiser_code: str
    view_code: str


@LOG.record
@dataclass(frozen=True, slots=True)
class Joined(tagged.Record):
    """The evening's ``entrant`` is these ``members`` (one; a pair's two)."""

    tag: ClassVar[str] = "joined"
    at: float
    evening: str
    entrant: str
    members: tuple[str, ...]


@LOG.record
@dataclass(frozen=True, slots=True)
class Counted(tagged.Record):
    """The evening is over: each member's evening total (``[member, total]`` pairs)."""

    tag: ClassVar[str] = "counted"
    at: float
    evening: str
    totals: tuple[tuple[str, int], ...]


Entry = (
    ClubCreated | OrganiserAdded | OrganiserRevoked | MemberAdded | MemberRenamed
    | MemberRemoved | SeasonSet | EveningAdded | Joined | Counted
)  # fmt: skip


def decode(d: dict[str, Any]) -> Entry:
    """The entry a stored JSON object holds; ``ValueError`` for an unknown kind."""
    return LOG.decode(d)  # type: ignore[no-any-return]
