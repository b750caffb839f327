"""A tournament as a pure state machine folded from its durable log.

Formats: ``classic`` (16 players; round 1 on four tables, round 2 on two, the final on one)
and ``quick`` (8 players; round 1 on two tables, then the final).  Every table plays the
tournament preset (Amsterdam, the dealer names trump, to 1001, 30 s a move).

Entrants are player ids, or CPU entrants (:func:`cpu_entrant`) that fill empty places or
take over from players who left.  A table's team ``t`` is its seats ``t`` and ``t + 2``;
the winning team's two entrants advance.  Before each later round the advancing entrants
are shuffled into new teams whose partners differ from their last partners whenever that
is possible.  Seating is drawn from the tournament's recorded seed, so a replay of the log
gives the same tables.

Transitions, in one table (command: entries written | refusals)::

    register(p)      Registered(p)       | abandoned registration_closed already_registered
                                           tournament_full
    unregister(p)    Unregistered(p)     | not_registered registration_closed
    leave(p)         Unregistered(p) before the start; Left(p, cpu) while running
                                         | not_registered not_playing
    start(now)       Round(1, at=now) when due (full, or the start time) and enough players
                     (or CPUs to fill, beside at least one player); Cancelled when due
                     without them; else nothing
    table_room(i, r) TableRoom(i, r)
    table_finished(room, winner, totals)
                     TableFinished(i, ...) for a current table still playing; else nothing
    advance()        Round(n + 1) with new partners once every table is done; Finished
                     after the last round; else nothing
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..core.errors import Refused
from ..core.levels import NAMES, TAKEOVER_LEVEL, numbered_cpu
from ..core.status import CANCELLED, FINISHED, LIVE_TOURNAMENT, RUNNING, SCHEDULED
from .tournament_entries import (
    Cancelled,
    Created,
    Entry,
    Finished,
    Left,
    Registered,
    Round,
    TableFinished,
    TableRoom,
    Unregistered,
)

LIVE = LIVE_TOURNAMENT  # a tournament that still has something to do
REPEATS = {"hourly": 3600.0, "daily": 86400.0}  # seconds between tournaments of a series


@dataclass(frozen=True, slots=True)
class Format:
    name: str
    players: int
    rounds: int
    preset: str = "tournament"  # the rule preset of every table (to 1001)
    move_seconds: int = 30

    @property
    def tables(self) -> list[int]:
        """Tables in each round: a quarter of the players, halved every round."""
        return [self.players // 4 >> r for r in range(self.rounds)]


FORMATS = {f.name: f for f in (Format("classic", 16, 3), Format("quick", 8, 2))}
_CPU = "cpu:"  # a CPU entrant's id starts with this (in the log; see cpu_entrant)


class TournamentError(Refused):
    """A tournament command refused by its rules."""


def cpu_entrant(number: int) -> str:
    """The id of the ``number``-th CPU entrant of a tournament."""
    return f"{_CPU}{number}"


def is_cpu(entrant: str) -> bool:
    return entrant.startswith(_CPU)


def entrant_name(entrant: str, nicknames: Mapping[str, str]) -> str | None:
    """What an entrant is called: a player's nickname, or a CPU's own ("Bram (CPU, strong)")."""
    if is_cpu(entrant):
        return numbered_cpu(int(entrant.removeprefix(_CPU)))
    return nicknames.get(entrant)


def cpu_parts(entrant: str) -> dict[str, Any]:
    """A CPU entrant's name in parts, for a client to say in its own words: its bare name
    (``cpu_name``, "Bram") and ``level``; nothing for a player."""
    if not is_cpu(entrant):
        return {}
    number = int(entrant.removeprefix(_CPU))
    return {"cpu_name": NAMES[number % len(NAMES)], "level": TAKEOVER_LEVEL}


def next_slot(first: float, period: float, now: float) -> float:
    """The first of ``first``, ``first + period``, ``first + 2 * period``, ... after both
    ``first`` and ``now``."""
    if now < first + period:
        return first + period
    return first + (int((now - first) // period) + 1) * period


def table_name(fmt: str, round_number: int, table: int) -> str:
    """A table's name in words: "Quick tournament, round 1, table 2" (both counted from 1)."""
    return f"{fmt.capitalize()} tournament, round {round_number}, table {table}"


@dataclass(slots=True)
class Table:
    seats: list[str]  # four entrants, seat order
    room_id: str | None = None
    winner: int | None = None  # team 0 (seats 0, 2) or 1 (seats 1, 3)
    totals: list[int] = field(default_factory=lambda: [0, 0])

    def team(self, team: int) -> list[str]:
        return [self.seats[team], self.seats[team + 2]]

    @property
    def players(self) -> list[str | None]:
        """The room's seats: player ids, None where a CPU plays."""
        return [None if is_cpu(e) else e for e in self.seats]

    @property
    def cpu_names(self) -> tuple[str | None, ...]:
        """The room's seats: a CPU entrant's name, None where a player sits."""
        return tuple(entrant_name(e, {}) if is_cpu(e) else None for e in self.seats)


@dataclass(slots=True)
class Tournament:
    id: str
    format: str
    start_at: float  # epoch seconds; 0 for "start when full"
    fill_with_cpu: bool
    start_when_full: bool
    repeat: str | None  # "daily" | "hourly" | None
    seed: int
    auto: bool = False  # made by the server's own schedule
    status: str = SCHEDULED
    registered: list[str] = field(default_factory=list)
    left: list[str] = field(default_factory=list)  # abandoned on purpose: never again
    replaced: dict[str, str] = field(default_factory=dict)  # player -> the CPU in their place
    rounds: list[list[Table]] = field(default_factory=list)
    version: int = 0
    reason: str = ""
    started_at: float | None = None  # when round 1 began (None before, or in an old log)

    # -- construction ----------------------------------------------------------------

    @staticmethod
    def created(
        fmt: str, start_at: float, fill_with_cpu: bool, start_when_full: bool,
        repeat: str | None, seed: int, auto: bool = False,
    ) -> Created:  # fmt: skip
        if fmt not in FORMATS:
            raise TournamentError("bad_format", f"format must be classic or quick, not {fmt!r}")
        if repeat is not None and repeat not in REPEATS:
            raise TournamentError("bad_repeat", f"repeat must be hourly or daily, not {repeat!r}")
        return Created(fmt, start_at, fill_with_cpu, start_when_full, repeat, seed, auto)

    @classmethod
    def from_log(cls, tournament_id: str, entries: list[Entry]) -> Tournament:
        first = entries[0]
        if not isinstance(first, Created):
            raise ValueError(f"tournament {tournament_id}: log does not start with 'created'")
        t = cls(
            tournament_id, first.format, first.start_at, first.fill_with_cpu,
            first.start_when_full, first.repeat, first.seed, first.auto, version=1,
        )  # fmt: skip
        for entry in entries[1:]:
            t.apply(entry)
        return t

    # -- queries -------------------------------------------------------------------------

    @property
    def spec(self) -> Format:
        return FORMATS[self.format]

    @property
    def size(self) -> int:
        return self.spec.players

    @property
    def live(self) -> bool:
        return self.status in LIVE

    @property
    def current(self) -> list[Table]:
        return self.rounds[-1] if self.rounds else []

    def round_done(self) -> bool:
        return bool(self.rounds) and all(t.winner is not None for t in self.current)

    def table_of(self, entrant: str) -> Table | None:
        for table in self.current:
            if entrant in table.seats:
                return table
        return None

    def unhosted(self) -> list[int]:
        """Tables of the running round that have no room yet."""
        if self.status != RUNNING:
            return []
        return [i for i, table in enumerate(self.current) if table.room_id is None]

    def playing_at(self, player: str) -> str | None:
        """The room of the unfinished table where ``player`` sits, if any."""
        table = self.table_of(player)
        if table is None or table.winner is not None:
            return None
        return table.room_id

    def next_start(self, now: float) -> float | None:
        """When the next tournament of a repeating series starts, once this one began (or
        was cancelled): a period after it, or the first start of the series after ``now``
        (a server that was down skips the starts it missed rather than run them all late)."""
        if self.repeat is None or self.status == SCHEDULED:
            return None
        return next_slot(self.start_at, REPEATS[self.repeat], now)

    def advancing(self) -> list[str]:
        return [e for t in self.current if t.winner is not None for e in t.team(t.winner)]

    def entrants(self) -> list[str]:
        """Everyone still in: at a table of the current round still playing, or through to
        the next round (those knocked out are out, even while other tables play on)."""
        if not self.rounds:
            return list(self.registered)
        return [
            e for t in self.current for e in (t.seats if t.winner is None else t.team(t.winner))
        ]

    def places(self) -> list[dict[str, Any]]:
        """Every entrant's final place: 1 the final's winners (Grand Prize), 2 its losers
        (Second Prize), then 3, 4 for those eliminated in earlier rounds, latest first.
        Every place has its prize label, whoever holds it (CPUs are never rewarded: the
        players' profiles count places, and a CPU has none); a CPU that played for a player
        who left names that player."""
        if self.status != FINISHED:
            return []
        final = self.current[0]
        winner = final.winner or 0
        out: list[dict[str, Any]] = []
        for place, team, prize in ((1, winner, "grand"), (2, 1 - winner, "second")):
            for e in final.team(team):
                out.append({"entrant": e, "place": place, "prize": prize})
        for back, tables in enumerate(reversed(self.rounds[:-1])):
            number = len(self.rounds) - 1 - back
            for t in tables:
                for e in t.team(1 - (t.winner or 0)):
                    out.append({"entrant": e, "place": 3 + back, "eliminated_in": number})
        left = {cpu: player for player, cpu in self.replaced.items()}
        for entry in out:
            if entry["entrant"] in left:
                entry["left"] = left[entry["entrant"]]
        return out

    def summary(self, nicknames: Mapping[str, str] | None = None) -> dict[str, Any]:
        names = nicknames or {}

        def show(e: str) -> dict[str, Any]:
            return {"id": e, "nickname": entrant_name(e, names), "cpu": is_cpu(e), **cpu_parts(e)}

        return {
            "id": self.id,
            "format": self.format,
            "status": self.status,
            "start_at": self.start_at or None,
            "started_at": self.started_at,
            "start_when_full": self.start_when_full,
            "fill_with_cpu": self.fill_with_cpu,
            "repeat": self.repeat,
            "size": self.size,
            "round_count": self.spec.rounds,
            "registered": [show(p) for p in self.registered],
            "rounds": [
                [
                    {
                        "room_id": t.room_id,
                        "name": table_name(self.format, number, index + 1),
                        "format": self.format,
                        "round": number,
                        "table": index + 1,
                        "seats": [show(e) for e in t.seats],
                        "winner": t.winner,
                        "totals": t.totals,
                    }
                    for index, t in enumerate(tables)
                ]
                for number, tables in enumerate(self.rounds, start=1)
            ],
            "places": self.places(),
            "reason": self.reason or None,
            "version": self.version,
        }

    # -- transitions: command -> entries -------------------------------------------------

    def register(self, player: str) -> list[Entry]:
        if player in self.left:
            raise TournamentError("abandoned", "you left this tournament and cannot rejoin it")
        if self.status != SCHEDULED:
            raise TournamentError("registration_closed", f"the tournament is {self.status}")
        if player in self.registered:
            raise TournamentError("already_registered", "you are already registered")
        if len(self.registered) >= self.size:
            raise TournamentError("tournament_full", "the tournament is full")
        return [Registered(player)]

    def unregister(self, player: str) -> list[Entry]:
        if player not in self.registered:
            raise TournamentError("not_registered", "you are not registered")
        if self.status != SCHEDULED:
            raise TournamentError("registration_closed", "the tournament has started: leave it")
        return [Unregistered(player)]

    def leave(self, player: str) -> list[Entry]:
        if self.status == SCHEDULED:
            return self.unregister(player)
        if self.status != RUNNING or player not in self.entrants():
            raise TournamentError("not_playing", "you are not playing in this tournament")
        return [Left(player, cpu_entrant(len(self.replaced) + self.size))]

    def start(self, now: float) -> list[Entry]:
        """What happens at the start time (or when full): round 1, or the cancellation."""
        if self.status != SCHEDULED:
            return []
        full = len(self.registered) == self.size
        due = full if self.start_when_full else now >= self.start_at
        if not due:
            return []
        if not self.registered:  # CPUs alone play for nobody
            return [Cancelled("nobody registered")]
        if not full and not self.fill_with_cpu:
            return [Cancelled(f"only {len(self.registered)} of {self.size} registered")]
        missing = self.size - len(self.registered)
        entrants = self.registered + [cpu_entrant(i) for i in range(missing)]
        return [Round(1, self._seat(entrants, 1, {}), now)]

    def table_room(self, index: int, room_id: str) -> list[Entry]:
        return [TableRoom(index, room_id)]

    def table_finished(self, room_id: str, winner: int, totals: tuple[int, int]) -> list[Entry]:
        """A table's match ended: recorded once (the news may come again after a restart)."""
        for index, table in enumerate(self.current):
            if table.room_id == room_id and table.winner is None:
                return [TableFinished(index, winner, totals)]
        return []

    def advance(self) -> list[Entry]:
        """After a round: the next round's seating, or the end."""
        if self.status != RUNNING or not self.round_done():
            return []
        if len(self.rounds) == self.spec.rounds:
            return [Finished()]
        partners = {}
        for t in self.current:
            for team in (0, 1):
                a, b = t.team(team)
                partners[a], partners[b] = b, a
        number = len(self.rounds) + 1
        return [Round(number, self._seat(self.advancing(), number, partners))]

    def progress(self, room_id: str, totals: tuple[int, int]) -> bool:
        """Live scores of a running table (not durable: the room's log has them)."""
        for table in self.current:
            if table.room_id == room_id and table.winner is None:
                table.totals = list(totals)
                return True
        return False

    def _seat(
        self, entrants: list[str], number: int, partners: dict[str, str]
    ) -> tuple[tuple[str, ...], ...]:
        """Tables of four from ``entrants``: random pairs (new partners where possible)."""
        rng = random.Random(self.seed * 1000 + number)
        best: list[str] = list(entrants)
        for _ in range(2000):
            order = list(entrants)
            rng.shuffle(order)
            if all(partners.get(order[i]) != order[i + 1] for i in range(0, len(order), 2)):
                best = order
                break
        # pairs (order[0], order[1]), (order[2], order[3]) meet at one table: seats 0/2 and 1/3
        return tuple(
            (best[i], best[i + 2], best[i + 1], best[i + 3]) for i in range(0, len(best), 4)
        )

    # -- the fold ------------------------------------------------------------------------

    def apply(self, entry: Entry) -> None:
        self.version += 1
        match entry:
            case Registered(player=player):
                self.registered.append(player)
            case Unregistered(player=player):
                self.registered.remove(player)
            case Cancelled(reason=reason):
                self.status, self.reason = CANCELLED, reason
            case Round(number=number, tables=tables, at=at):
                self.status = RUNNING
                self.rounds.append([Table(list(seats)) for seats in tables])
                if number == 1:
                    self.started_at = at
            case TableRoom(table=index, room_id=room_id):
                self.current[index].room_id = room_id
            case TableFinished(table=index, winner=winner, totals=totals):
                table = self.current[index]
                table.winner, table.totals = winner, list(totals)
            case Left(player=player, cpu=cpu):
                self.left.append(player)
                self.replaced[player] = cpu
                for table in self.current:
                    table.seats = [cpu if e == player else e for e in table.seats]
            case Finished():
                self.status = FINISHED
            case _:
                raise ValueError(f"unexpected tournament entry {entry!r}")
