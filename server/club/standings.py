"""A round's and an evening's standing, folded from what the tables' score sheets say.

A table's result is its two teams' game totals as its sheet scores them through the engine
(:func:`table_result` reads them off a :class:`~server.scoresheet.sheet.Sheet`); seats 0
and 2 are team 0, seats 1 and 3 team 1.  A player's score for a round is their team's
points at their table minus their own personal penalties (a revoke in an individual evening:
the deal goes to the other team on the sheet, the penalty to the offender alone).

A pairs evening ranks its fixed pairs the same way (:class:`PairTableResult`): a table is
two pairs, north-south (team 0: the sheet's seats 0 and 2) and east-west (team 1), and a
pair's score for a round is its team's points at its table (a pair has no personal
penalty: a revoke's deal goes to the other team on the sheet).  Everything below holds for
pairs as for players: a sitting-out pair earns the house's points worked out from the
pairs' team totals, and the standing's "players" are the pairs.

A table's state in a round:

- ``finished``: its game reached its end; its totals count.
- ``playing``: the round is open and the game not over: what is entered so far counts
  (a live standing), nothing entered yet counts 0.
- ``unfinished``: the organiser closed the round before the game's end: what was entered
  counts, and the table is marked so.
- ``missing``: the round is closed and nothing was entered: the table is shown, and its
  players score 0 for the round (shown as missing, not as a score they made) until the
  organiser enters their game; a club does not guess a result nobody wrote down.

Sitting out (``sat_out``) earns the house's points (:class:`SitOutRule`), worked out from
the team totals of the tables whose game is finished (personal penalties left out: a
revoke at one table does not lower a sit-out's score), or, while no table has finished,
from those with something entered (a live estimate), or 0 while nothing is entered:

- ``fixed``: the rule's points (1600 for a 16-deal game, at one club).
- ``round_lowest``: the lowest team total of the round.
- ``evening_lowest``: the lowest team total of the evening so far, over every round given
  (so mid-evening it is the lowest yet, and it is final when the last round closes; a
  sit-out in round 1 may see it fall later).  A sit-out never beats anyone's worst game.
- ``round_average``: the average team total of the round, rounded half up to a whole point.

Each person (or pair) sits out at most once an evening (the draw sees to it); the standing
still scores whatever the rounds say.  Ranks are shared by equal scores (1, 2, 2, 4);
players with equal scores are listed by name.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from math import floor
from typing import TYPE_CHECKING, Any

from .prizes import Prize, PrizeRule, award, prize_places, shared_ranks

if TYPE_CHECKING:
    from ..scoresheet.sheet import Sheet


class SitOut(StrEnum):
    FIXED = "fixed"
    ROUND_LOWEST = "round_lowest"
    EVENING_LOWEST = "evening_lowest"
    ROUND_AVERAGE = "round_average"


class Mark(StrEnum):
    """How a player's round score came about (a table's state, or sitting out)."""

    FINISHED = "finished"
    PLAYING = "playing"
    UNFINISHED = "unfinished"
    MISSING = "missing"
    SAT_OUT = "sat_out"


@dataclass(frozen=True, slots=True)
class SitOutRule:
    """The points for sitting a round out: ``kind``, and ``points`` for a fixed number."""

    kind: SitOut = SitOut.FIXED
    points: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", SitOut(self.kind))
        if not isinstance(self.points, int) or isinstance(self.points, bool):
            raise ValueError(f"sit-out points must be a whole number, not {self.points!r}")
        if self.kind is not SitOut.FIXED and self.points:
            raise ValueError(f"a {self.kind} sit-out rule takes no fixed points")

    def to_dict(self) -> dict[str, Any]:
        return {"kind": str(self.kind), "points": self.points}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SitOutRule:
        unknown = set(data) - {"kind", "points"}
        if unknown:
            raise ValueError(f"unknown sit-out rule option {sorted(unknown)[0]!r}")
        return cls(**data)


def _check_finished(table: int, totals: tuple[int, int] | None, finished: bool) -> None:
    if finished and totals is None:
        raise ValueError(f"table {table} cannot have finished with nothing entered")


@dataclass(frozen=True, slots=True)
class TableResult:
    """A table's game in a round: its four players (seats 0 and 2 are team 0), the teams'
    totals from its sheet (None: nothing entered), whether the game reached its end, and
    personal penalty points charged to one player each."""

    table: int
    seats: tuple[str, str, str, str]
    totals: tuple[int, int] | None
    finished: bool
    penalties: Mapping[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if len(self.seats) != 4 or len(set(self.seats)) != 4:
            raise ValueError(f"table {self.table} needs four different players: {self.seats}")
        _check_finished(self.table, self.totals, self.finished)
        for player, points in self.penalties.items():
            if player not in self.seats:
                raise ValueError(f"table {self.table}: {player!r} is not at it for a penalty")
            if points < 0:
                raise ValueError(f"table {self.table}: a penalty is >= 0, not {points}")

    def entrants(self) -> tuple[tuple[str, int, int], ...]:
        """Who scores at the table, by seat: each player, their team and their penalty."""
        return tuple(
            (player, seat % 2, self.penalties.get(player, 0))
            for seat, player in enumerate(self.seats)
        )


@dataclass(frozen=True, slots=True)
class PairTableResult:
    """A pairs evening's table in a round: its north-south pair ``ns`` (team 0: seats 0 and
    2 of its sheet) and east-west pair ``ew`` (team 1), the teams' totals from its sheet
    (None: nothing entered), and whether the game reached its end."""

    table: int
    ns: str
    ew: str
    totals: tuple[int, int] | None
    finished: bool

    def __post_init__(self) -> None:
        if self.ns == self.ew:
            raise ValueError(f"table {self.table} needs two different pairs, not {self.ns!r} twice")
        _check_finished(self.table, self.totals, self.finished)

    def entrants(self) -> tuple[tuple[str, int, int], ...]:
        """Who scores at the table: each pair, its team, and no penalty (a pair has none)."""
        return ((self.ns, 0, 0), (self.ew, 1, 0))


RoundTable = TableResult | PairTableResult  # a round's table: four players, or two pairs


@dataclass(frozen=True, slots=True)
class RoundResult:
    """A round: its number, its tables (players' or pairs'), who sat it out, and whether
    it is closed (every game finished, or the organiser closed it with what is entered)."""

    number: int
    tables: tuple[RoundTable, ...]
    sitting_out: tuple[str, ...] = ()
    closed: bool = False


def table_result(
    table: int, sheet: Sheet, penalties: Mapping[str, int] | None = None
) -> TableResult:
    """A table's result read off its score sheet: the sheet's first game is the round's
    (its four players named on the sheet), scored by the sheet through the engine."""
    players = sheet.created.players
    if players is None:
        raise ValueError(f"table {table}'s sheet does not name its four players")
    game = sheet.games[0]
    totals = game.totals if game.deals else None
    return TableResult(table, players, totals, sheet.over(game), penalties or {})


@dataclass(frozen=True, slots=True)
class RoundScore:
    """A player's (or pair's) score for a round: ``points`` counted, how (``mark``), their
    rank in the round, their table and team (None: sat out), and the penalty already
    subtracted."""

    player: str
    points: int
    mark: Mark
    rank: int
    table: int | None = None
    team: int | None = None
    penalty: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "player": self.player, "points": self.points, "mark": str(self.mark),
            "rank": self.rank, "table": self.table, "team": self.team, "penalty": self.penalty,
        }  # fmt: skip


@dataclass(frozen=True, slots=True)
class TableStanding:
    table: int
    state: Mark
    totals: tuple[int, int] | None
    seats: tuple[str, ...]  # the players by seat; at a pairs table its ns and ew pairs

    def to_dict(self) -> dict[str, Any]:
        totals = None if self.totals is None else list(self.totals)
        return {"table": self.table, "state": str(self.state), "totals": totals,
                "seats": list(self.seats)}  # fmt: skip


@dataclass(frozen=True, slots=True)
class RoundStanding:
    number: int
    closed: bool
    sit_out_points: int  # what a sit-out earns in this round, by the rule
    tables: tuple[TableStanding, ...]
    scores: tuple[RoundScore, ...]  # best first

    def to_dict(self, scores: bool = True) -> dict[str, Any]:
        shown = {
            "number": self.number, "closed": self.closed, "sit_out_points": self.sit_out_points,
            "tables": [t.to_dict() for t in self.tables],
        }  # fmt: skip
        if scores:
            shown["scores"] = [s.to_dict() for s in self.scores]
        return shown


def table_state(table: RoundTable, closed: bool) -> Mark:
    if table.finished:
        return Mark.FINISHED
    if not closed:
        return Mark.PLAYING
    return Mark.MISSING if table.totals is None else Mark.UNFINISHED


def _team_totals(rounds: Iterable[RoundResult]) -> list[int]:
    """The team totals a sit-out's points come from: of finished games, or while none is
    finished, of every game with something entered."""
    tables = [t for r in rounds for t in r.tables if t.totals is not None]
    finished = [t for t in tables if t.finished]
    return [points for t in (finished or tables) for points in t.totals]  # type: ignore[union-attr]


def sit_out_points(
    result: RoundResult, rule: SitOutRule, evening: Sequence[RoundResult] = ()
) -> int:
    """What sitting ``result`` out earns by ``rule``; ``evening`` is the evening's rounds
    so far, for ``evening_lowest`` (without it, only this round)."""
    if rule.kind is SitOut.FIXED:
        return rule.points
    rounds = [result]
    if rule.kind is SitOut.EVENING_LOWEST:
        rounds += [r for r in evening if r.number != result.number]
    totals = _team_totals(rounds)
    if not totals:
        return 0
    if rule.kind is SitOut.ROUND_AVERAGE:
        return floor(Fraction(sum(totals), len(totals)) + Fraction(1, 2))
    return min(totals)


def _in_order(scores: Iterable[tuple[str, int]]) -> list[tuple[str, int]]:
    """Best first; equal scores by name."""
    return sorted(scores, key=lambda s: (-s[1], s[0].casefold(), s[0]))


def round_standing(
    result: RoundResult, rule: SitOutRule, evening: Sequence[RoundResult] = ()
) -> RoundStanding:
    """The round's standing: every player's (or pair's) score (see the module's
    docstring), ranked; ``evening`` is the evening's rounds so far (for the
    ``evening_lowest`` rule)."""
    sat = sit_out_points(result, rule, evening)
    found: dict[str, tuple[int, Mark, int | None, int | None, int]] = {}  # without the rank

    def add(player: str, *score: Any) -> None:
        if player in found:
            raise ValueError(f"round {result.number}: {player!r} is placed twice")
        found[player] = score  # type: ignore[assignment]

    tables = []
    for table in result.tables:
        state = table_state(table, result.closed)
        placed = table.entrants()
        seats = tuple(entrant for entrant, _, _ in placed)
        tables.append(TableStanding(table.table, state, table.totals, seats))
        for entrant, team, penalty in placed:
            made = 0 if table.totals is None else table.totals[team]
            add(entrant, made - penalty, state, table.table, team, penalty)
    for player in result.sitting_out:
        add(player, sat, Mark.SAT_OUT, None, None, 0)
    order = _in_order((p, s[0]) for p, s in found.items())
    ranks = shared_ranks([points for _, points in order])
    scores = tuple(
        RoundScore(p, points, mark, rank, table, team, penalty)
        for (p, _), rank in zip(order, ranks, strict=True)
        for points, mark, table, team, penalty in (found[p],)
    )
    return RoundStanding(result.number, result.closed, sat, tuple(tables), scores)


@dataclass(frozen=True, slots=True)
class EveningRow:
    """A player's (or pair's) evening: their total, their score in each round (None: not
    there), rank, prize, and rounds played at a table and sat out."""

    player: str
    total: int
    scores: tuple[RoundScore | None, ...]  # in the order of the evening's rounds
    rank: int
    prize: Prize | None
    played: int
    sat_out: int

    @property
    def present(self) -> bool:
        """There every round (at a table or sitting out)."""
        return all(s is not None for s in self.scores)

    def to_dict(self) -> dict[str, Any]:
        return {
            "player": self.player, "total": self.total, "rank": self.rank,
            "prize": None if self.prize is None else str(self.prize),
            "played": self.played, "sat_out": self.sat_out,
            "rounds": [
                None if s is None else {"points": s.points, "mark": str(s.mark)}
                for s in self.scores
            ],
        }  # fmt: skip


@dataclass(frozen=True, slots=True)
class EveningStanding:
    rounds: tuple[RoundStanding, ...]
    rows: tuple[EveningRow, ...]  # best first
    prize_places: tuple[int, ...]

    def to_dict(self, scores: bool = True) -> dict[str, Any]:
        """JSON-ready; without ``scores`` the rounds leave out their ranked scores (each
        row carries its rounds' points)."""
        return {
            "rounds": [r.to_dict(scores) for r in self.rounds],
            "round_numbers": [r.number for r in self.rounds],
            "prize_places": list(self.prize_places),
            "standing": [row.to_dict() for row in self.rows],
        }


def evening_standing(
    rounds: Sequence[RoundResult], rule: SitOutRule, prizes: PrizeRule
) -> EveningStanding:
    """The evening's standing: each player's (or pair's) sum over the rounds they were
    there for (late arrivals and early leavers with what they played), ranked, with prizes
    marked (the poedel among those present every round)."""
    numbers = [r.number for r in rounds]
    if len(set(numbers)) != len(numbers):
        raise ValueError(f"each round once: {numbers}")
    standings = tuple(round_standing(r, rule, rounds) for r in rounds)
    scores: dict[str, list[RoundScore | None]] = {}
    for i, standing in enumerate(standings):
        for score in standing.scores:
            scores.setdefault(score.player, [None] * len(standings))[i] = score
    totals = {p: sum(s.points for s in row if s is not None) for p, row in scores.items()}
    order = _in_order(totals.items())
    ranks = shared_ranks([total for _, total in order])
    present = [all(s is not None for s in scores[p]) for p, _ in order]
    entered = any(t.totals is not None for r in rounds for t in r.tables)
    marked = award(ranks, prizes, present) if entered else [None] * len(order)
    rows = []
    for (player, total), rank, prize in zip(order, ranks, marked, strict=True):
        mine = [s for s in scores[player] if s is not None]
        sat = sum(s.mark is Mark.SAT_OUT for s in mine)
        rows.append(
            EveningRow(player, total, tuple(scores[player]), rank, prize, len(mine) - sat, sat)
        )
    places = tuple(prize_places(len(rows), prizes))
    return EveningStanding(standings, tuple(rows), places)


__all__ = [
    "EveningRow",
    "EveningStanding",
    "Mark",
    "PairTableResult",
    "RoundResult",
    "RoundScore",
    "RoundStanding",
    "RoundTable",
    "SitOut",
    "SitOutRule",
    "TableResult",
    "TableStanding",
    "evening_standing",
    "round_standing",
    "sit_out_points",
    "table_result",
]
