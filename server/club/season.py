"""A club's season: its evenings add up to a standing by the club's rule, with each player's
evening history, prizes, and a CSV export.

The evenings are taken in date order (equal dates in the order given).  A player's score:

- Evenings are counted within units: the whole season, or its periods (``period_length``:
  consecutive groups of that many evenings; ``period_starts``: each period runs from its
  start date up to the next one's).
- In each unit, ``best`` K counts a player's best K evenings there (all they attended if
  fewer); ``drop`` D counts all but the lowest D of the evenings *held*, where a missed
  evening counts as nothing and so is the first dropped (a player who missed two of nine
  with "drop 2" counts their seven); neither counts every evening attended.
- With periods, ``best_periods`` P then counts the P periods with the highest sums (all
  periods when None); the evenings of the other periods are dropped.
- The score is the sum of the counted evenings, or with ``average`` their average (over the
  evenings counted, so a player below K averages what they played: a club that wants K
  evenings sets ``minimum`` to K).

On equal totals the earlier evening (and the earlier period) is the one counted.  Players
who attended at least ``minimum`` evenings qualify and are ranked (equal scores share a rank:
exact scores, an average not rounded first), with prizes by the house's rule among them;
the others are listed after them, unranked.  The points champion is whoever has the highest
plain sum of all their evenings, attendance regardless (all of them when tied).

In the CSV (and in :attr:`SeasonRow.score_text`) an average is shown rounded half up to one
decimal; each evening's cell is the player's total when it counted, in parentheses when it
was dropped, and empty when they missed it.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date
from enum import StrEnum
from fractions import Fraction
from itertools import pairwise
from math import floor
from typing import Any

from .prizes import Prize, PrizeRule, award, prize_places, shared_ranks
from .standings import EveningStanding

CSV_HEADER = (
    "rank",
    "player",
    "score",
    "total",
    "attended",
    "qualified",
    "prize",
    "points_champion",
)  # fmt: skip  (then one column per evening, its date)


@dataclass(frozen=True, slots=True)
class Evening:
    """An evening of the season: its date and each player's evening total."""

    date: date
    totals: Mapping[str, int]

    @classmethod
    def of(cls, when: date, standing: EveningStanding) -> Evening:
        return cls(when, {row.player: row.total for row in standing.rows})


@dataclass(frozen=True, slots=True)
class SeasonRule:
    """How a club's evenings add up (see the module's docstring)."""

    best: int | None = None
    drop: int = 0
    average: bool = False
    period_length: int = 0
    period_starts: tuple[date, ...] = ()
    best_periods: int | None = None
    minimum: int = 0

    def __post_init__(self) -> None:
        for name in ("drop", "period_length", "minimum"):
            if getattr(self, name) < 0:
                raise ValueError(f"the season rule's {name} must be >= 0")
        for name in ("best", "best_periods"):
            value = getattr(self, name)
            if value is not None and value < 1:
                raise ValueError(f"the season rule's {name} must be at least 1 (or none)")
        if self.best is not None and self.drop:
            raise ValueError("count the best K evenings or drop the lowest D, not both")
        if self.period_length and self.period_starts:
            raise ValueError("periods by length or by start dates, not both")
        if self.best_periods is not None and not self.periodic:
            raise ValueError("best periods needs periods")
        starts = self.period_starts
        if any(a >= b for a, b in pairwise(starts)):
            raise ValueError("the periods' start dates must increase")

    @property
    def periodic(self) -> bool:
        return bool(self.period_length or self.period_starts)

    def units(self, dates: Sequence[date]) -> list[list[int]]:
        """The evenings (indices into ``dates``, in date order) grouped into units."""
        if self.period_length:
            n = self.period_length
            return [list(range(i, min(i + n, len(dates)))) for i in range(0, len(dates), n)]
        if not self.period_starts:
            return [list(range(len(dates)))] if dates else []
        units: list[list[int]] = [[] for _ in self.period_starts]
        for i, when in enumerate(dates):
            if when < self.period_starts[0]:
                raise ValueError(f"the evening of {when} is before the first period")
            period = max(p for p, start in enumerate(self.period_starts) if start <= when)
            units[period].append(i)
        return units


class Status(StrEnum):
    COUNTED = "counted"
    DROPPED = "dropped"
    ABSENT = "absent"


@dataclass(frozen=True, slots=True)
class Played:
    """One evening of a player's history: its date, their total (None: absent), and
    whether it counted."""

    date: date
    total: int | None
    status: Status

    @property
    def cell(self) -> str:
        if self.total is None:
            return ""
        return str(self.total) if self.status is Status.COUNTED else f"({self.total})"


@dataclass(frozen=True, slots=True)
class SeasonRow:
    player: str
    score: Fraction  # the sum, or the average, of the counted evenings
    total: int  # the plain sum of every evening
    attended: int
    qualified: bool
    rank: int | None  # None: not qualified
    prize: Prize | None
    points_champion: bool
    history: tuple[Played, ...]  # one per evening of the season, in date order

    @property
    def score_text(self) -> str:
        if self.score.denominator == 1:
            return str(self.score.numerator)
        tenths = floor(self.score * 10 + Fraction(1, 2))
        return f"{tenths / 10:.1f}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "player": self.player, "score": self.score_text, "total": self.total,
            "attended": self.attended, "qualified": self.qualified, "rank": self.rank,
            "prize": None if self.prize is None else str(self.prize),
            "points_champion": self.points_champion,
            "history": [
                {"date": p.date.isoformat(), "total": p.total, "status": str(p.status)}
                for p in self.history
            ],
        }  # fmt: skip


@dataclass(frozen=True, slots=True)
class SeasonStanding:
    dates: tuple[date, ...]
    rows: tuple[SeasonRow, ...]  # the qualified best first, then the others
    prize_places: tuple[int, ...]

    @property
    def champions(self) -> tuple[str, ...]:
        return tuple(row.player for row in self.rows if row.rank == 1)

    @property
    def points_champions(self) -> tuple[str, ...]:
        return tuple(row.player for row in self.rows if row.points_champion)

    def to_dict(self) -> dict[str, Any]:
        return {
            "dates": [d.isoformat() for d in self.dates],
            "prize_places": list(self.prize_places),
            "standing": [row.to_dict() for row in self.rows],
        }

    def to_csv(self) -> str:
        """A header row, then one row per player in the standing's order."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        seen: dict[date, int] = {}
        columns = []
        for when in self.dates:
            seen[when] = seen.get(when, 0) + 1
            n = seen[when]
            columns.append(when.isoformat() if n == 1 else f"{when.isoformat()} #{n}")
        writer.writerow([*CSV_HEADER, *columns])
        for row in self.rows:
            writer.writerow([
                "" if row.rank is None else row.rank, row.player, row.score_text, row.total,
                row.attended, "yes" if row.qualified else "no",
                "" if row.prize is None else str(row.prize), "yes" if row.points_champion else "",
                *(played.cell for played in row.history),
            ])  # fmt: skip
        return out.getvalue()


def _counted(totals: Sequence[int | None], rule: SeasonRule, units: list[list[int]]) -> set[int]:
    """The evenings (indices) that count for one player's ``totals`` (None: absent)."""
    chosen: list[tuple[int, list[int]]] = []  # each unit's sum and counted evenings
    for unit in units:
        attended = [(i, t) for i in unit if (t := totals[i]) is not None]
        attended.sort(key=lambda played: -played[1])  # stable: the earlier first on a tie
        keep = len(attended)
        if rule.best is not None:
            keep = min(keep, rule.best)
        elif rule.drop:
            keep = min(keep, max(len(unit) - rule.drop, 0))
        counted = attended[:keep]
        chosen.append((sum(t for _, t in counted), [i for i, _ in counted]))
    if rule.best_periods is not None:
        chosen = sorted(chosen, key=lambda c: -c[0])[: rule.best_periods]  # stable: earlier first
    return {i for _, counted in chosen for i in counted}


def _row(player: str, totals: Sequence[int | None], dates: Sequence[date], rule: SeasonRule,
         units: list[list[int]]) -> SeasonRow:  # fmt: skip
    """A player's row, not yet ranked: what counts, their score and history."""
    counted = _counted(totals, rule, units)
    score = Fraction(sum(t for i, t in enumerate(totals) if i in counted and t is not None))
    if rule.average and counted:
        score /= len(counted)
    history = tuple(
        Played(when, total, Status.ABSENT if total is None
               else Status.COUNTED if i in counted else Status.DROPPED)
        for i, (when, total) in enumerate(zip(dates, totals, strict=True))
    )  # fmt: skip
    attended = [t for t in totals if t is not None]
    qualified = len(attended) >= rule.minimum
    return SeasonRow(player, score, sum(attended), len(attended), qualified, None, None, False,
                     history)  # fmt: skip


def season_standing(
    evenings: Sequence[Evening], rule: SeasonRule, prizes: PrizeRule
) -> SeasonStanding:
    """The season's standing by ``rule`` (see the module's docstring)."""
    ordered = sorted(evenings, key=lambda e: e.date)
    dates = [e.date for e in ordered]
    units = rule.units(dates)
    players = sorted({p for e in ordered for p in e.totals}, key=lambda p: (p.casefold(), p))
    rows = [_row(p, [e.totals.get(p) for e in ordered], dates, rule, units) for p in players]
    best_plain = max((row.total for row in rows), default=None)
    rows = [replace(row, points_champion=row.total == best_plain) for row in rows]
    rows.sort(key=lambda row: (not row.qualified, -row.score))  # stable: by name on a tie
    qualified = [row for row in rows if row.qualified]
    ranks = shared_ranks([row.score for row in qualified])
    marked = award(ranks, prizes)
    ranked = [
        replace(row, rank=rank, prize=prize)
        for row, rank, prize in zip(qualified, ranks, marked, strict=True)
    ]
    places = tuple(prize_places(len(qualified), prizes))
    return SeasonStanding(tuple(dates), (*ranked, *rows[len(ranked) :]), places)


__all__ = [
    "Evening",
    "Played",
    "SeasonRow",
    "SeasonRule",
    "SeasonStanding",
    "Status",
    "season_standing",
]
