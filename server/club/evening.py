"""A club evening as a pure state machine folded from its durable log (like a room and a
score sheet: no I/O, no clock; its actor commits what it says).

Players (or, in a pairs evening, pairs) check in; before each round an organiser draws
its tables (:mod:`server.club.draw`: a pure function of the evening's seed, who is here
and the rounds before, so anyone can draw it again and compare); each table's game is an
ordinary score sheet, made by the evening with the table's players; the round closes when
every table's game is over or when an organiser closes it with what is entered.  What a
round and the evening stand at is worked out from the sheets (:mod:`server.club.standings`).

Transitions, in one table (command: entries written | refusals); every command names the
version it was made on, and one made on an older version is refused (``stale_version``)::

    check_in(name, members, member)   CheckedIn   | evening_over bad_name name_taken
                                                     pair_needs_two evening_full
    withdraw(entrant)                 Withdrawn   | no_such_entrant withdrawn
    draw(sheet_ids)                   Drawn       | round_open evening_over too_few
    swap(a, b, started, sheet_ids)    Swapped     | no_round_open same_entrant
                                                     not_in_round table_started
    undo_draw(started)                DrawUndone  | no_round_open round_started
    close()                           Closed      | no_round_open
    penalise(entrant, points, round)  Penalised   | no_such_round not_at_a_table
                                                     pairs_have_none

``started`` is the set of the open round's tables at which a deal was entered, which only
their sheets know: the caller asks them.  Who may command is the caller's to check (an
organiser's link); the evening decides everything else.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..core.errors import Refused
from ..core.text import check_name
from ..scoresheet.sheet import Sheet
from . import draw
from .evening_entries import (
    INDIVIDUAL,
    PAIRS,
    CheckedIn,
    Closed,
    Created,
    Drawn,
    DrawUndone,
    Entry,
    Penalised,
    Swapped,
    Withdrawn,
)
from .prizes import PrizeRule
from .standings import (
    EveningStanding,
    PairTableResult,
    RoundResult,
    RoundTable,
    SitOut,
    SitOutRule,
    TableResult,
    evening_standing,
)

DEFAULT_SIT_OUT = SitOutRule(SitOut.ROUND_AVERAGE)  # the house's rule, unless it says
NAME_LENGTH = 24  # an entrant's name, at most
MAX_ROUNDS = 12
MAX_ENTRANTS = 400  # a hall of 100 tables


class EveningError(Refused):
    """A command the evening refuses; ``code`` is stable, ``message`` says what is wrong."""


@dataclass(slots=True)
class Entrant:
    id: str
    name: str
    members: tuple[str, ...]  # a pair's two players' names; () for a player
    withdrawn: bool = False
    member: str | None = None  # the club's member it is, if checked in as one


@dataclass(frozen=True, slots=True)
class RoundDraw:
    """A drawn round: each table's entrants, who sits out, each table's sheet."""

    number: int
    tables: tuple[tuple[str, ...], ...]
    sitting_out: tuple[str, ...]
    sheets: tuple[str, ...]
    closed: bool = False

    def table_of(self, entrant: str) -> int | None:
        """The index of the table ``entrant`` plays at (None: it sits out or is not in it)."""
        return next((i for i, t in enumerate(self.tables) if entrant in t), None)


@dataclass(slots=True)
class Evening:
    id: str
    created: Created
    entrants: dict[str, Entrant] = field(default_factory=dict)
    rounds: list[RoundDraw] = field(default_factory=list)
    penalties: dict[tuple[int, str], int] = field(default_factory=dict)  # (round, entrant)
    version: int = 1

    @classmethod
    def from_log(cls, evening_id: str, log: Sequence[Entry]) -> Evening:
        first = log[0]
        if not isinstance(first, Created):
            raise ValueError("an evening's log opens with its creation")
        evening = cls(evening_id, first)
        for entry in log[1:]:
            evening.apply(entry)
        return evening

    # -- what it is ------------------------------------------------------------------------

    @property
    def pairs(self) -> bool:
        return self.created.format == PAIRS

    @property
    def open_round(self) -> RoundDraw | None:
        """The round drawn and not yet closed."""
        return self.rounds[-1] if self.rounds and not self.rounds[-1].closed else None

    @property
    def over(self) -> bool:
        """Every round was played."""
        return len(self.rounds) == self.created.rounds and self.open_round is None

    def present(self) -> list[str]:
        """The entrants who play the next round, in the order they checked in."""
        return [e.id for e in self.entrants.values() if not e.withdrawn]

    def next_draw(self) -> tuple[tuple[tuple[str, ...], ...], tuple[str, ...]]:
        """The next round's tables and who sits out, as :mod:`server.club.draw` draws them
        from the seed, who is here and the rounds played (or, with a round open, that
        round as it was drawn: what anyone checking it must find)."""
        played = [r for r in self.rounds if r.closed]
        seed, total = self.created.seed, self.created.rounds
        if self.pairs:
            pairs = draw.draw_pairs(self.present(), total, seed, [_pair_round(r) for r in played])
            first = pairs[0]
            return tuple((t.ns, t.ew) for t in first.tables), first.sitting_out
        rounds = draw.draw_individual(self.present(), total, seed, [_round(r) for r in played])
        first_round = rounds[0]
        return tuple(t.seats for t in first_round.tables), first_round.sitting_out

    @property
    def sit_out_rule(self) -> SitOutRule:
        given = self.created.sit_out
        return DEFAULT_SIT_OUT if given is None else SitOutRule.from_dict(given)

    @property
    def prize_rule(self) -> PrizeRule:
        given = self.created.prizes
        return PrizeRule() if given is None else PrizeRule.from_dict(given)

    def fairness(self) -> draw.Fairness:
        """How fair the rounds drawn are: repeated partners and opponents, sit-outs."""
        if self.pairs:
            return draw.pairs_fairness([_pair_round(r) for r in self.rounds])
        return draw.fairness([_round(r) for r in self.rounds])

    def results(self, sheets: Mapping[str, Sheet]) -> list[RoundResult]:
        """Each drawn round's tables (players', or in a pairs evening pairs') as their
        sheets (by id) score them, through the engine: a table whose sheet is not given has
        nothing entered."""

        def result(r: RoundDraw, i: int, seats: tuple[str, ...], sheet_id: str) -> RoundTable:
            sheet = sheets.get(sheet_id)
            if self.pairs:
                return _pair_table_result(i + 1, seats, sheet)
            charged = {e: p for e in seats if (p := self.penalties.get((r.number, e), 0))}
            return _table_result(i + 1, seats, sheet, charged)

        return [
            RoundResult(r.number, tuple(
                result(r, i, seats, sheet_id)
                for i, (seats, sheet_id) in enumerate(zip(r.tables, r.sheets, strict=True))
            ), r.sitting_out, r.closed)
            for r in self.rounds
        ]  # fmt: skip

    def standing(self, sheets: Mapping[str, Sheet]) -> EveningStanding:
        """The evening's standing so far, from its tables' sheets (a pairs evening's rows
        are its pairs)."""
        return evening_standing(self.results(sheets), self.sit_out_rule, self.prize_rule)

    # -- transitions ---------------------------------------------------------------------

    def check_in(
        self, by: str, at: float, version: int, name: str, members: Sequence[str] = (),
        member: str | None = None,
    ) -> list[Entry]:  # fmt: skip
        self._current(version)
        if self.over:
            raise EveningError("evening_over", "the evening's rounds are all played")
        name = check_name(name, "a name", NAME_LENGTH)
        if self.pairs != (len(members) == 2):
            raise EveningError(
                "pair_needs_two",
                "a pairs evening checks in pairs of two players"
                if self.pairs else "only a pairs evening checks in pairs",
            )  # fmt: skip
        members = tuple(check_name(m, "a player's name", NAME_LENGTH) for m in members)
        here = [e for e in self.entrants.values() if not e.withdrawn]
        if any(e.name.casefold() == name.casefold() or (member and e.member == member)
               for e in here):  # fmt: skip
            raise EveningError("name_taken", f"{name!r} is here already: give another name")
        if len(self.entrants) >= MAX_ENTRANTS:
            raise EveningError("evening_full", f"an evening has at most {MAX_ENTRANTS} entrants")
        return [CheckedIn(by, at, f"e{len(self.entrants) + 1}", name, members, member)]

    def withdraw(self, by: str, at: float, version: int, entrant: str) -> list[Entry]:
        self._current(version)
        if self._entrant(entrant).withdrawn:
            raise EveningError("withdrawn", f"{self.entrants[entrant].name} has left already")
        return [Withdrawn(by, at, entrant)]

    def draw(self, by: str, at: float, version: int, sheet_ids: Sequence[str]) -> list[Entry]:
        """The next round, each table with the next of ``sheet_ids`` (enough for every table
        of the evening: one for each four players here, or each two pairs)."""
        self._current(version)
        if self.open_round is not None:
            raise EveningError("round_open", "close the round being played before the next draw")
        if len(self.rounds) >= self.created.rounds:
            raise EveningError("evening_over", "the evening's rounds are all played")
        least = 2 if self.pairs else 4
        if len(self.present()) < least:
            raise EveningError(
                "too_few", f"a table needs {least} {'pairs' if self.pairs else 'players'}"
            )
        tables, sitting_out = self.next_draw()
        sheets = tuple(sheet_ids[: len(tables)])
        if len(sheets) < len(tables):  # pragma: no cover - the caller gives enough
            raise ValueError(f"{len(tables)} tables need as many sheets, not {len(sheets)}")
        return [Drawn(by, at, len(self.rounds) + 1, tables, sitting_out, sheets)]

    def swap(
        self, by: str, at: float, version: int, a: str, b: str,
        started: Collection[int], sheet_ids: Sequence[str],
    ) -> list[Entry]:  # fmt: skip
        """``a`` and ``b`` change places in the open round, before any deal is entered at
        the tables either is at; those tables get the next of ``sheet_ids``."""
        self._current(version)
        current = self._open()
        if a == b:
            raise EveningError("same_entrant", "swap two different entrants")
        moved = []
        for entrant in (a, b):
            name = self._entrant(entrant).name
            table = current.table_of(entrant)
            if table is None and entrant not in current.sitting_out:
                raise EveningError("not_in_round", f"{name} is not in this round's draw")
            if table is not None and table in started:
                raise EveningError("table_started", f"table {table + 1} has entered a deal")
            moved.append(table)
        fresh = iter(sheet_ids)
        sheets = tuple(next(fresh) if i in moved else s for i, s in enumerate(current.sheets))
        return [Swapped(by, at, a, b, sheets)]

    def undo_draw(self, by: str, at: float, version: int, started: Collection[int]) -> list[Entry]:
        self._current(version)
        self._open()
        if started:
            raise EveningError("round_started", "a table has entered a deal: close the round")
        return [DrawUndone(by, at)]

    def close(self, by: str, at: float, version: int) -> list[Entry]:
        self._current(version)
        self._open()
        return [Closed(by, at)]

    def penalise(
        self, by: str, at: float, version: int, entrant: str, points: int, round: int | None = None
    ) -> list[Entry]:
        """Charge ``entrant`` ``points`` of its own in ``round`` (the latest by default), at
        whose table it played that round; a pair has no personal penalty."""
        self._current(version)
        if self.pairs:
            raise EveningError("pairs_have_none", "a pairs evening has no personal penalties")
        number = round if round is not None else len(self.rounds)
        if not 1 <= number <= len(self.rounds):
            raise EveningError("no_such_round", f"round {number} has not been drawn")
        name = self._entrant(entrant).name
        if self.rounds[number - 1].table_of(entrant) is None:
            raise EveningError("not_at_a_table", f"{name} played at no table in round {number}")
        return [Penalised(by, at, number, entrant, points)]

    # -- the fold ------------------------------------------------------------------------

    def apply(self, entry: Entry) -> None:
        match entry:
            case CheckedIn(entrant=entrant, name=name, members=members, member=member):
                self.entrants[entrant] = Entrant(entrant, name, members, member=member)
            case Withdrawn(entrant=entrant):
                self.entrants[entrant].withdrawn = True
            case Drawn(round=number, tables=tables, sitting_out=out, sheets=sheets):
                self.rounds.append(RoundDraw(number, tables, out, sheets))
            case Swapped(a=a, b=b, sheets=sheets):
                current = self.rounds[-1]
                tables = tuple(draw.exchanged(t, a, b) for t in current.tables)
                out = draw.exchanged(current.sitting_out, a, b)
                self.rounds[-1] = replace(current, tables=tables, sitting_out=out, sheets=sheets)
            case DrawUndone():
                self.rounds.pop()
            case Closed():
                self.rounds[-1] = replace(self.rounds[-1], closed=True)
            case Penalised(round=number, entrant=entrant, points=points):
                key = (number, entrant)
                self.penalties[key] = self.penalties.get(key, 0) + points
            case Created():  # pragma: no cover - only first
                raise ValueError("an evening is created once")
        self.version += 1

    # -- what it shows -------------------------------------------------------------------

    def summary(self) -> dict[str, Any]:
        """The evening, JSON-ready: its settings, entrants and rounds (standings apart)."""
        c = self.created
        return {
            "id": self.id,
            "name": c.name,
            "version": self.version,
            "format": c.format,
            "rounds": c.rounds,
            "rules": c.rules.to_dict(),
            "club": c.club,
            "entrants": [
                {
                    "id": e.id,
                    "name": e.name,
                    "members": list(e.members),
                    "withdrawn": e.withdrawn,
                    "member": e.member,
                }
                for e in self.entrants.values()
            ],
            "drawn": [
                {
                    "number": r.number,
                    "closed": r.closed,
                    "tables": [
                        {"table": i + 1, "entrants": list(t), "sheet_id": s}
                        for i, (t, s) in enumerate(zip(r.tables, r.sheets, strict=True))
                    ],
                    "sitting_out": list(r.sitting_out),
                }
                for r in self.rounds
            ],
        }

    # -- helpers -------------------------------------------------------------------------

    def _current(self, version: int) -> None:
        if version != self.version:
            raise EveningError(
                "stale_version",
                f"the evening moved on (version {self.version}, not {version}): look again",
            )

    def _entrant(self, entrant: str) -> Entrant:
        found = self.entrants.get(entrant)
        if found is None:
            raise EveningError("no_such_entrant", f"nobody {entrant!r} checked in")
        return found

    def _open(self) -> RoundDraw:
        current = self.open_round
        if current is None:
            raise EveningError("no_round_open", "no round is drawn and open")
        return current


def _table_result(
    number: int, seats: tuple[str, ...], sheet: Sheet | None, penalties: dict[str, int]
) -> TableResult:
    """A table's result: its first game as its sheet scores it (nothing if no sheet), and
    its players' own penalties."""
    four = (seats[0], seats[1], seats[2], seats[3])
    return TableResult(number, four, *_game(sheet), penalties)


def _pair_table_result(number: int, pairs: tuple[str, ...], sheet: Sheet | None) -> PairTableResult:
    """A pairs table's result: north-south ``pairs[0]`` (the sheet's seats 0 and 2) against
    east-west ``pairs[1]``, its first game as its sheet scores it (nothing if no sheet)."""
    ns, ew = pairs
    return PairTableResult(number, ns, ew, *_game(sheet))


def _game(sheet: Sheet | None) -> tuple[tuple[int, int] | None, bool]:
    """A table's first game as its sheet scores it: the teams' totals (None: nothing
    entered, or no sheet) and whether it reached its end."""
    if sheet is None:
        return None, False
    game = sheet.games[0]
    totals = (game.totals[0], game.totals[1]) if game.deals else None
    return totals, sheet.over(game) and totals is not None


def _round(r: RoundDraw) -> draw.Round:
    tables = tuple(draw.Table(i + 1, t) for i, t in enumerate(r.tables))  # type: ignore[arg-type]
    return draw.Round(r.number, tables, r.sitting_out)


def _pair_round(r: RoundDraw) -> draw.PairRound:
    tables = tuple(draw.PairTable(i + 1, ns, ew) for i, (ns, ew) in enumerate(r.tables))
    return draw.PairRound(r.number, tables, r.sitting_out)


__all__ = ["INDIVIDUAL", "PAIRS", "Evening", "EveningError", "RoundDraw"]
