"""A club as a pure state machine folded from its durable log (like an evening: no I/O, no
clock; its actor commits what it says).

A club has organisers (the founder, ``o1``, and co-organisers, each with a code of their
own that can be revoked), members, its evenings and the season's rule.  Its season's
standing is :func:`server.club.season.season_standing` of the evenings that are over, each
member's evening total being what that evening's standing gave the member's entrant.

Transitions, in one table (command: entries written | refusals); an organiser's command
names the version it was made on, and one made on an older version is refused
(``stale_version``)::

    add_organiser(name, code, sponsor)   OrganiserAdded   | bad_name club_full
    revoke_organiser(organiser)          OrganiserRevoked | no_such_organiser founder_stays
    add_member(name, player)             MemberAdded      | bad_name name_taken club_full
    rename_member(member, name)          MemberRenamed    | no_such_member bad_name name_taken
    remove_member(member)                MemberRemoved    | no_such_member
    set_season(rule fields, prizes)      SeasonSet        | bad_season_rule
    add_evening(evening, ...)            EveningAdded     (room_for_evening first: club_full)
    join(evening, entrants)              MemberAdded* Joined*  (what an evening tells it)
    count(evening, totals)               Counted          (the same)

Who may command is the caller's to check (:meth:`Club.role_of` a code); the club decides
everything else.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from ..core.errors import Refused
from ..core.text import check_name
from .club_entries import (
    ClubCreated,
    Counted,
    Entry,
    EveningAdded,
    Joined,
    MemberAdded,
    MemberRemoved,
    MemberRenamed,
    OrganiserAdded,
    OrganiserRevoked,
    SeasonSet,
)
from .prizes import PrizeRule
from .season import Evening as SeasonEvening
from .season import SeasonRule, SeasonStanding, season_standing

ORGANISER, VIEW = "organiser", "view"
FOUNDER = "o1"
NAME_LENGTH = 24  # a member's or an organiser's name, at most
MAX_MEMBERS = 300
MAX_ORGANISERS = 20
MAX_EVENINGS = 200

# Who an evening's entrant is: its id, the member it was checked in as (None: by name), and
# its players' names (a pair's two, or the one player's).
EntrantInfo = tuple[str, str | None, tuple[str, ...]]


class ClubError(Refused):
    """A command the club refuses; ``code`` is stable, ``message`` says what is wrong."""


@dataclass(slots=True)
class Organiser:
    id: str
    name: str
    code: str
    sponsor: str | None  # who added them (None: the founder)


@dataclass(slots=True)
class Member:
    id: str
    name: str
    player: str | None  # a player's identity, if linked


@dataclass(slots=True)
class ClubEvening:
    id: str
    name: str
    date: date
    organiser_code: str
    view_code: str
    links: dict[str, tuple[str, ...]] = field(default_factory=dict)  # entrant -> members
    totals: dict[str, int] | None = None  # member -> evening total, once over


@dataclass(slots=True)
class Club:
    id: str
    created: ClubCreated
    organisers: dict[str, Organiser] = field(default_factory=dict)  # not revoked
    members: dict[str, Member] = field(default_factory=dict)  # not removed
    evenings: dict[str, ClubEvening] = field(default_factory=dict)  # in the order added
    season: SeasonSet | None = None
    made_organisers: int = 1  # ids given so far (o1 ...), revoked ones too
    made_members: int = 0
    version: int = 1

    @classmethod
    def from_log(cls, club_id: str, log: Sequence[Entry]) -> Club:
        first = log[0]
        if not isinstance(first, ClubCreated):
            raise ValueError("a club's log opens with its creation")
        club = cls(club_id, first)
        club.organisers[FOUNDER] = Organiser(FOUNDER, first.organiser, first.organiser_code, None)
        for entry in log[1:]:
            club.apply(entry)
        return club

    # -- what it is ------------------------------------------------------------------------

    def role_of(self, code: str) -> tuple[str, str | None]:
        """What ``code`` (normalised) opens: the view, or an organiser (and which one)."""
        if code == self.created.view_code:
            return VIEW, None
        for organiser in self.organisers.values():
            if organiser.code == code:
                return ORGANISER, organiser.id
        raise ClubError("bad_club_code", "no club has that code")

    def member_named(self, name: str) -> Member | None:
        """The member of this name, compared without case."""
        wanted = name.casefold()
        return next((m for m in self.members.values() if m.name.casefold() == wanted), None)

    @property
    def rule(self) -> SeasonRule:
        return SeasonRule() if self.season is None else self._rule_of(self.season)

    @property
    def prize_rule(self) -> PrizeRule:
        return PrizeRule() if self.season is None else PrizeRule.from_dict(self.season.prizes)

    def standing(self) -> tuple[SeasonStanding, list[str]]:
        """The season's standing by its rule, from the evenings that are over (those before
        the first period's start date, if the periods have dates, are not in it) and the
        members of the club; and those evenings' ids, in the standing's order of dates."""
        names = {m.id: m.name for m in self.members.values()}
        rule = self.rule
        first = rule.period_starts[0] if rule.period_starts else None
        counted = sorted(
            (
                e
                for e in self.evenings.values()
                if e.totals is not None and (first is None or e.date >= first)
            ),
            key=lambda e: e.date,
        )  # fmt: skip  (stable: as season_standing orders them)
        evenings = [
            SeasonEvening(e.date, {names[m]: t for m, t in (e.totals or {}).items() if m in names})
            for e in counted
        ]
        return season_standing(evenings, rule, self.prize_rule), [e.id for e in counted]

    # -- organisers' commands --------------------------------------------------------------

    def add_organiser(
        self, by: str, at: float, version: int, name: str, code: str, sponsor: str
    ) -> list[Entry]:
        self._current(version)
        name = check_name(name, "an organiser's name", NAME_LENGTH)
        if len(self.organisers) >= MAX_ORGANISERS:
            raise ClubError("club_full", f"a club has at most {MAX_ORGANISERS} organisers")
        return [OrganiserAdded(by, at, f"o{self.made_organisers + 1}", name, code, sponsor)]

    def revoke_organiser(self, by: str, at: float, version: int, organiser: str) -> list[Entry]:
        self._current(version)
        if organiser not in self.organisers:
            raise ClubError("no_such_organiser", f"no organiser {organiser!r} (revoked already?)")
        if organiser == FOUNDER:
            raise ClubError("founder_stays", "the club's founding organiser cannot be revoked")
        return [OrganiserRevoked(by, at, organiser)]

    def add_member(
        self, by: str, at: float, version: int, name: str, player: str | None = None
    ) -> list[Entry]:
        self._current(version)
        name = self._free(check_name(name, "a member's name", NAME_LENGTH))
        if len(self.members) >= MAX_MEMBERS:
            raise ClubError("club_full", f"a club has at most {MAX_MEMBERS} members")
        return [MemberAdded(by, at, f"m{self.made_members + 1}", name, player)]

    def rename_member(
        self, by: str, at: float, version: int, member: str, name: str
    ) -> list[Entry]:
        self._current(version)
        self._member(member)
        name = self._free(check_name(name, "a member's name", NAME_LENGTH), member)
        return [MemberRenamed(by, at, member, name)]

    def remove_member(self, by: str, at: float, version: int, member: str) -> list[Entry]:
        self._current(version)
        self._member(member)
        return [MemberRemoved(by, at, member)]

    def set_season(
        self, by: str, at: float, version: int, rule: Mapping[str, Any], prizes: Mapping[str, Any]
    ) -> list[Entry]:
        """The season's rule: ``rule`` holds :class:`SeasonRule`'s fields (the periods'
        start dates as ``YYYY-MM-DD``), ``prizes`` :class:`PrizeRule`'s."""
        self._current(version)
        entry = SeasonSet(
            by, at, rule["best"], rule["drop"], rule["average"], rule["period_length"],
            tuple(rule["period_starts"]), rule["best_periods"], rule["minimum"], dict(prizes),
        )  # fmt: skip
        try:
            self._rule_of(entry)
            PrizeRule.from_dict(entry.prizes)
        except ValueError as err:
            raise ClubError("bad_season_rule", str(err)) from None
        return [entry]

    def room_for_evening(self) -> None:
        """Refused (``club_full``) when the club may hold no more evenings."""
        if len(self.evenings) >= MAX_EVENINGS:
            raise ClubError("club_full", f"a club holds at most {MAX_EVENINGS} evenings")

    def add_evening(
        self, by: str, at: float, evening: str, name: str, when: date, codes: tuple[str, str]
    ) -> list[Entry]:
        """An evening of the club (``codes``: its organiser and view codes)."""
        return [EveningAdded(by, at, evening, name, when.isoformat(), *codes)]

    # -- what its evenings tell it -------------------------------------------------------

    def join(self, at: float, evening: str, entrants: Sequence[EntrantInfo]) -> list[Entry]:
        """Each entrant of ``evening`` not linked yet is linked to its members: the member
        it was checked in as, else the member of each of its names, a new one for a name
        no member has (a walk-in)."""
        found = self.evenings.get(evening)
        if found is None:
            return []
        out: list[Entry] = []
        made = self.made_members
        named = {m.name.casefold(): m.id for m in self.members.values()}
        for entrant, member, names in entrants:
            if entrant in found.links:
                continue
            ids = [member] if member is not None else []
            for name in names if member is None else ():
                if name.casefold() not in named:
                    made += 1
                    named[name.casefold()] = f"m{made}"
                    out.append(MemberAdded(evening, at, f"m{made}", name))
                ids.append(named[name.casefold()])
            out.append(Joined(at, evening, entrant, tuple(ids)))
        return out

    def count(self, at: float, evening: str, totals: Mapping[str, int]) -> list[Entry]:
        """``evening`` is over with these totals by entrant: each member's total (a member
        who was two entrants, withdrawn and back, has both), if it changed."""
        found = self.evenings.get(evening)
        if found is None:
            return []
        by_member: dict[str, int] = {}
        for entrant, total in totals.items():
            for member in found.links.get(entrant, ()):
                by_member[member] = by_member.get(member, 0) + total
        if found.totals == by_member:
            return []
        return [Counted(at, evening, tuple(sorted(by_member.items())))]

    # -- the fold ------------------------------------------------------------------------

    def apply(self, entry: Entry) -> None:
        match entry:
            case OrganiserAdded(organiser=o, name=name, code=code, sponsor=sponsor):
                self.organisers[o] = Organiser(o, name, code, sponsor)
                self.made_organisers += 1
            case OrganiserRevoked(organiser=o):
                del self.organisers[o]
            case MemberAdded(member=m, name=name, player=player):
                self.members[m] = Member(m, name, player)
                self.made_members += 1
            case MemberRenamed(member=m, name=name):
                self.members[m].name = name
            case MemberRemoved(member=m):
                del self.members[m]
            case SeasonSet():
                self.season = entry
            case EveningAdded(evening=e, name=name, date=when):
                codes = (entry.organiser_code, entry.view_code)
                self.evenings[e] = ClubEvening(e, name, date.fromisoformat(when), *codes)
            case Joined(evening=e, entrant=entrant, members=members):
                self.evenings[e].links[entrant] = members
            case Counted(evening=e, totals=totals):
                self.evenings[e].totals = dict(totals)
            case ClubCreated():  # pragma: no cover - only first
                raise ValueError("a club is created once")
        self.version += 1

    # -- what it shows -------------------------------------------------------------------

    def summary(self, viewer: str | None, states: Mapping[str, dict[str, Any]]) -> dict[str, Any]:
        """The club, JSON-ready, as the organiser ``viewer`` (None: a watcher) sees it:
        an organiser's code shows to the founder, to who added them and to themselves; an
        evening's organiser code to organisers; ``states`` is each evening's progress."""

        def organiser(o: Organiser) -> dict[str, Any]:
            shown: dict[str, Any] = {"id": o.id, "name": o.name, "founder": o.id == FOUNDER}
            if viewer is not None and viewer in (FOUNDER, o.sponsor, o.id):
                shown["code"] = o.code
            return shown

        def evening(e: ClubEvening) -> dict[str, Any]:
            shown = {"id": e.id, "name": e.name, "date": e.date.isoformat(),
                     **states.get(e.id, {}), "counted": e.totals is not None,
                     "view_code": e.view_code}  # fmt: skip
            if viewer is not None:
                shown["code"] = e.organiser_code
            return shown

        return {
            "name": self.created.name,
            "organisers": [organiser(o) for o in self.organisers.values()],
            "members": [
                {"id": m.id, "name": m.name, "player": m.player} for m in self.members.values()
            ],
            "evenings": [evening(e) for e in self.evenings.values()],
            "season": self.season_dict(),
        }

    def season_dict(self) -> dict[str, Any]:
        """The season's rule as an organiser set it (the defaults before)."""
        r = self.rule
        return {
            "best": r.best, "drop": r.drop, "average": r.average,
            "period_length": r.period_length,
            "period_starts": [d.isoformat() for d in r.period_starts],
            "best_periods": r.best_periods, "minimum": r.minimum,
            "prizes": self.prize_rule.to_dict(),
        }  # fmt: skip

    def standing_dict(self) -> dict[str, Any]:
        """The season's standing, JSON-ready: its evenings' ids beside their dates, and
        each row's member id beside the member's name."""
        standing, evenings = self.standing()
        ids = {m.name: m.id for m in self.members.values()}
        shown = standing.to_dict()
        for row in shown["standing"]:
            row["member"] = ids[row["player"]]
        return {"evenings": evenings, **shown}

    # -- helpers -------------------------------------------------------------------------

    def _current(self, version: int) -> None:
        if version != self.version:
            raise ClubError(
                "stale_version",
                f"the club moved on (version {self.version}, not {version}): look again",
            )

    def _member(self, member: str) -> Member:
        found = self.members.get(member)
        if found is None:
            raise ClubError("no_such_member", f"the club has no member {member!r}")
        return found

    def _free(self, name: str, member: str | None = None) -> str:
        """``name``, if no other member has it (compared without case)."""
        other = self.member_named(name)
        if other is not None and other.id != member:
            raise ClubError("name_taken", f"{other.name!r} is a member already: give another name")
        return name

    @staticmethod
    def _rule_of(entry: SeasonSet) -> SeasonRule:
        starts = tuple(date.fromisoformat(d) for d in entry.period_starts)
        return SeasonRule(entry.best, entry.drop, entry.average, entry.period_length, starts,
                          entry.best_periods, entry.minimum)  # fmt: skip


__all__ = ["FOUNDER", "ORGANISER", "VIEW", "Club", "ClubError", "EntrantInfo"]
