"""A tournament as a pure state machine folded from its durable log.

Formats: ``classic`` (16 players; round 1 on four tables, round 2 on two, the final on one)
and ``quick`` (8 players; round 1 on two tables, then the final).  Every table plays the
tournament preset (Amsterdam, the dealer names trump, to 1001, 30 s a move).

Entrants are player ids, or ``cpu:N`` for a CPU that fills an empty place or takes over
from a player who left.  A table's team ``t`` is its seats ``t`` and ``t + 2``; the
winning team's two entrants advance.  Before each later round the advancing entrants are
shuffled into new teams whose partners differ from their last partners whenever that is
possible.  Seating is drawn from the tournament's recorded seed, so a replay of the log
gives the same tables.

Entries: ``created``, ``registered``, ``unregistered``, ``cancelled``, ``round`` (the
seating of a round), ``table_room`` (the room that hosts a table), ``table_finished``,
``left`` (a player abandoned), ``finished``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from ..errors import Refused

SCHEDULED, RUNNING, FINISHED, CANCELLED = "scheduled", "running", "finished", "cancelled"
FORMATS = {"classic": (16, 3), "quick": (8, 2)}  # players, rounds
MOVE_SECONDS = 30
TARGET = 1001


class TournamentError(Refused):
    """A tournament command refused by its rules."""


def is_cpu(entrant: str) -> bool:
    return entrant.startswith("cpu:")


@dataclass(slots=True)
class Table:
    seats: list[str]  # four entrants, seat order
    room_id: str | None = None
    winner: int | None = None  # team 0 (seats 0, 2) or 1 (seats 1, 3)
    totals: list[int] = field(default_factory=lambda: [0, 0])

    def team(self, team: int) -> list[str]:
        return [self.seats[team], self.seats[team + 2]]


@dataclass(slots=True)
class Tournament:
    id: str
    format: str
    start_at: float  # epoch seconds; 0 for "start when full"
    fill_with_cpu: bool
    start_when_full: bool
    repeat: str | None  # "daily" | "hourly" | None
    seed: int
    status: str = SCHEDULED
    registered: list[str] = field(default_factory=list)
    left: list[str] = field(default_factory=list)  # abandoned on purpose: never again
    replaced: dict[str, str] = field(default_factory=dict)  # player -> the CPU in their place
    rounds: list[list[Table]] = field(default_factory=list)
    version: int = 0
    reason: str = ""

    # -- construction ----------------------------------------------------------------

    @staticmethod
    def created_entry(
        fmt: str, start_at: float, fill_with_cpu: bool, start_when_full: bool,
        repeat: str | None, seed: int,
    ) -> dict[str, Any]:  # fmt: skip
        if fmt not in FORMATS:
            raise TournamentError("bad_format", f"format must be classic or quick, not {fmt!r}")
        return {
            "t": "created", "format": fmt, "start_at": start_at, "fill_with_cpu": fill_with_cpu,
            "start_when_full": start_when_full, "repeat": repeat, "seed": seed,
        }  # fmt: skip

    @classmethod
    def from_log(cls, tournament_id: str, entries: list[dict[str, Any]]) -> Tournament:
        first = entries[0]
        t = cls(
            tournament_id, first["format"], first["start_at"], first["fill_with_cpu"],
            first["start_when_full"], first["repeat"], first["seed"], version=1,
        )  # fmt: skip
        for entry in entries[1:]:
            t.apply(entry)
        return t

    # -- queries -------------------------------------------------------------------------

    @property
    def size(self) -> int:
        return FORMATS[self.format][0]

    @property
    def round_count(self) -> int:
        return FORMATS[self.format][1]

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

    def advancing(self) -> list[str]:
        return [e for t in self.current if t.winner is not None for e in t.team(t.winner)]

    def places(self) -> list[dict[str, Any]]:
        """Every entrant's final place: 1 the final's winners (Grand Prize), 2 its losers
        (Second Prize), then 3, 4 for those eliminated in earlier rounds, latest first.
        A CPU takes no prize; one that played for a player who left names that player."""
        if self.status != FINISHED:
            return []
        final = self.current[0]
        winner = final.winner or 0
        out: list[dict[str, Any]] = []
        for place, team, prize in ((1, winner, "grand"), (2, 1 - winner, "second")):
            for e in final.team(team):
                out.append({"entrant": e, "place": place, "prize": None if is_cpu(e) else prize})
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

    def summary(self, nicknames: dict[str, str] | None = None) -> dict[str, Any]:
        names = nicknames or {}

        def show(e: str) -> dict[str, Any]:
            return {"id": e, "nickname": "CPU" if is_cpu(e) else names.get(e), "cpu": is_cpu(e)}

        return {
            "id": self.id,
            "format": self.format,
            "status": self.status,
            "start_at": self.start_at or None,
            "start_when_full": self.start_when_full,
            "fill_with_cpu": self.fill_with_cpu,
            "repeat": self.repeat,
            "size": self.size,
            "registered": [show(p) for p in self.registered],
            "rounds": [
                [
                    {
                        "room_id": t.room_id,
                        "seats": [show(e) for e in t.seats],
                        "winner": t.winner,
                        "totals": t.totals,
                    }
                    for t in tables
                ]
                for tables in self.rounds
            ],
            "places": self.places(),
            "reason": self.reason or None,
            "version": self.version,
        }

    # -- validation ----------------------------------------------------------------------

    def check_register(self, player: str) -> dict[str, Any]:
        if player in self.left:
            raise TournamentError("abandoned", "you left this tournament and cannot rejoin it")
        if self.status != SCHEDULED:
            raise TournamentError("registration_closed", f"the tournament is {self.status}")
        if player in self.registered:
            raise TournamentError("already_registered", "you are already registered")
        if len(self.registered) >= self.size:
            raise TournamentError("tournament_full", "the tournament is full")
        return {"t": "registered", "player": player}

    def check_unregister(self, player: str) -> dict[str, Any]:
        if player not in self.registered:
            raise TournamentError("not_registered", "you are not registered")
        if self.status != SCHEDULED:
            raise TournamentError("registration_closed", "the tournament has started: leave it")
        return {"t": "unregistered", "player": player}

    def check_leave(self, player: str) -> dict[str, Any]:
        if self.status == SCHEDULED:
            return self.check_unregister(player)
        if self.status != RUNNING or player not in self.entrants():
            raise TournamentError("not_playing", "you are not playing in this tournament")
        return {"t": "left", "player": player, "cpu": f"cpu:{len(self.replaced) + self.size}"}

    def entrants(self) -> list[str]:
        """Everyone still in: at a table of the current round or waiting for the next."""
        if not self.rounds:
            return list(self.registered)
        if self.round_done():
            return self.advancing()
        return [e for t in self.current for e in t.seats]

    def start_entry(self, now: float) -> dict[str, Any] | None:
        """What happens at the start time (or when full): round 1, or the cancellation."""
        if self.status != SCHEDULED:
            return None
        full = len(self.registered) == self.size
        due = full if self.start_when_full else now >= self.start_at
        if not due:
            return None
        if not full and not self.fill_with_cpu:
            return {
                "t": "cancelled",
                "reason": f"only {len(self.registered)} of {self.size} registered",
            }
        entrants = self.registered + [f"cpu:{i}" for i in range(self.size - len(self.registered))]
        return {"t": "round", "number": 1, "tables": self._seat(entrants, 1, {})}

    def next_entry(self) -> dict[str, Any] | None:
        """After a round: the next round's seating, or the end."""
        if self.status != RUNNING or not self.round_done():
            return None
        if len(self.rounds) == self.round_count:
            return {"t": "finished"}
        partners = {}
        for t in self.current:
            for team in (0, 1):
                a, b = t.team(team)
                partners[a], partners[b] = b, a
        number = len(self.rounds) + 1
        return {
            "t": "round",
            "number": number,
            "tables": self._seat(self.advancing(), number, partners),
        }

    def _seat(self, entrants: list[str], number: int, partners: dict[str, str]) -> list[list[str]]:
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
        return [[best[i], best[i + 2], best[i + 1], best[i + 3]] for i in range(0, len(best), 4)]

    # -- the fold ------------------------------------------------------------------------

    def apply(self, entry: dict[str, Any]) -> None:
        self.version += 1
        kind = entry["t"]
        if kind == "registered":
            self.registered.append(entry["player"])
        elif kind == "unregistered":
            self.registered.remove(entry["player"])
        elif kind == "cancelled":
            self.status, self.reason = CANCELLED, entry["reason"]
        elif kind == "round":
            self.status = RUNNING
            self.rounds.append([Table(list(seats)) for seats in entry["tables"]])
        elif kind == "table_room":
            self.current[entry["table"]].room_id = entry["room_id"]
        elif kind == "table_finished":
            table = self.current[entry["table"]]
            table.winner, table.totals = entry["winner"], list(entry["totals"])
        elif kind == "left":
            player, cpu = entry["player"], entry["cpu"]
            self.left.append(player)
            self.replaced[player] = cpu
            for table in self.current:
                table.seats = [cpu if e == player else e for e in table.seats]
        elif kind == "finished":
            self.status = FINISHED
        else:
            raise ValueError(f"unknown tournament entry {kind!r}")
