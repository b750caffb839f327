"""A room's state as a fold over its durable log: seating, readiness, the match, away seats.

Pure (no I/O, no clock): :meth:`Room.check` validates a command and returns the log entry
it would write, or raises :class:`RoomError`; :meth:`Room.apply` folds an entry in and
returns the engine events it caused.  Live play and replay after a restart both go
through ``apply``, so they cannot disagree.

Entries: ``created``, ``seat`` (a player, a CPU, or nobody takes a seat), ``ready``,
``start``, ``act`` (by ``player``, ``timeout`` or ``cpu``), ``away``, ``closed``.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any

from engine import Action, KlaverjasError, Match, Rules
from engine.events import Event

from ..errors import Refused

OPEN, PLAYING, FINISHED, CLOSED = "open", "playing", "finished", "closed"


class RoomError(Refused):
    """A room command refused by the rules of the room."""


@functools.lru_cache(maxsize=64)
def _rules_dict(rules: Rules) -> dict[str, Any]:
    return rules.to_dict()


@dataclass(slots=True)
class Seat:
    player: str | None = None
    cpu: bool = False
    ready: bool = False
    away: bool = False
    timeouts: int = 0  # in a row

    @property
    def empty(self) -> bool:
        return self.player is None and not self.cpu

    @property
    def automatic(self) -> bool:
        """The server decides for this seat (a CPU, or a human marked away)."""
        return self.cpu or self.away


@dataclass(slots=True)
class Room:
    id: str
    owner: str
    name: str
    rules: Rules
    move_seconds: int
    private: bool
    invite_code: str | None
    seed: int
    tournament: str | None = None
    status: str = OPEN
    seats: list[Seat] = field(default_factory=lambda: [Seat() for _ in range(4)])
    match: Match | None = None
    version: int = 0

    # -- construction ----------------------------------------------------------------

    @staticmethod
    def created_entry(
        owner: str, name: str, rules: Rules, move_seconds: int, private: bool,
        invite_code: str | None, seed: int, tournament: str | None = None,
        seats: list[str] | None = None,
    ) -> dict[str, Any]:  # fmt: skip
        """The first entry; a tournament table names its tournament and its seated entrants
        (player ids, or ``cpu:...``), who count as ready."""
        entry = {
            "t": "created", "owner": owner, "name": name, "rules": rules.to_dict(),
            "move_seconds": move_seconds, "private": private, "invite_code": invite_code,
            "seed": seed,
        }  # fmt: skip
        if tournament is not None:
            entry["tournament"], entry["seats"] = tournament, seats
        return entry

    @classmethod
    def from_log(cls, room_id: str, entries: list[dict[str, Any]]) -> Room:
        """Rebuild a room by replaying its whole log."""
        first = entries[0]
        if first.get("t") != "created":
            raise ValueError(f"room {room_id}: log does not start with 'created'")
        room = cls(
            id=room_id,
            owner=first["owner"],
            name=first["name"],
            rules=Rules.from_dict(first["rules"]),
            move_seconds=first["move_seconds"],
            private=first["private"],
            invite_code=first["invite_code"],
            seed=first["seed"],
            tournament=first.get("tournament"),
            version=1,
        )
        for index, entrant in enumerate(first.get("seats") or []):
            cpu = entrant.startswith("cpu:")
            room.seats[index] = Seat(player=None if cpu else entrant, cpu=cpu, ready=True)
        for entry in entries[1:]:
            room.apply(entry)
        return room

    # -- queries ---------------------------------------------------------------------

    def seat_of(self, player: str) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat.player == player:
                return index
        return None

    @property
    def turn(self) -> int | None:
        if self.status != PLAYING or self.match is None:
            return None
        return self.match.turn

    def summary(self, nicknames: dict[str, str]) -> dict[str, Any]:
        """What the lobby and the room's members see of the room (never any cards)."""
        return {
            "id": self.id,
            "name": self.name,
            "owner": self.owner,
            "private": self.private,
            "tournament": self.tournament,
            "status": self.status,
            "rules": _rules_dict(self.rules),
            "move_seconds": self.move_seconds,
            "seats": [
                {
                    "player_id": s.player,
                    "nickname": "CPU" if s.cpu else nicknames.get(s.player or ""),
                    "cpu": s.cpu,
                    "ready": s.ready or s.cpu,
                    "away": s.away,
                }
                for s in self.seats
            ],
            "totals": list(self.match.totals) if self.match else [0, 0],
        }

    # -- validation: command -> entry --------------------------------------------------

    def _open(self) -> None:
        if self.status != OPEN:
            raise RoomError("room_started", f"the room is {self.status}; seats are fixed")

    def check_take_seat(self, player: str, seat: int) -> dict[str, Any]:
        self._open()
        if self.seat_of(player) is not None:
            raise RoomError("already_seated", "you already have a seat in this room")
        if not self.seats[seat].empty:
            raise RoomError("seat_taken", f"seat {seat} is taken")
        return {"t": "seat", "seat": seat, "player": player, "cpu": False}

    def check_leave(self, player: str) -> dict[str, Any]:
        seat = self.seat_of(player)
        if seat is None:
            raise RoomError("not_seated", "you have no seat in this room")
        if self.status == PLAYING:
            raise RoomError("match_running", "the match is running; your seat stays yours")
        return {"t": "seat", "seat": seat, "player": None, "cpu": False}

    def check_add_cpu(self, player: str, seat: int) -> dict[str, Any]:
        self._owner(player)
        self._open()
        if not self.seats[seat].empty:
            raise RoomError("seat_taken", f"seat {seat} is taken")
        return {"t": "seat", "seat": seat, "player": None, "cpu": True}

    def check_remove(self, player: str, seat: int) -> dict[str, Any]:
        self._owner(player)
        self._open()
        if self.seats[seat].empty:
            raise RoomError("seat_empty", f"seat {seat} is empty")
        if self.seats[seat].player == player:
            raise RoomError("cannot_remove_self", "leave the room instead of removing yourself")
        return {"t": "seat", "seat": seat, "player": None, "cpu": False}

    def check_ready(self, player: str, ready: bool) -> dict[str, Any]:
        self._open()
        seat = self.seat_of(player)
        if seat is None:
            raise RoomError("not_seated", "you have no seat in this room")
        return {"t": "ready", "seat": seat, "ready": ready}

    def check_act(self, player: str, text: str, version: int | None) -> dict[str, Any]:
        if self.status != PLAYING or self.match is None:
            raise RoomError("not_playing", f"no match is being played (the room is {self.status})")
        seat = self.seat_of(player)
        if seat is None:
            raise RoomError("not_seated", "you have no seat at this table")
        if version is not None and version != self.version:
            raise RoomError(
                "stale_version", f"the table is at version {self.version}, not {version}"
            )
        try:
            action = Action.parse(text)
        except KlaverjasError as err:
            raise RoomError(err.code, str(err)) from None
        self._validate(seat, action)
        return {"t": "act", "seat": seat, "action": str(action), "by": "player"}

    def _validate(self, seat: int, action: Action) -> None:
        assert self.match is not None
        try:
            self.match.check(seat, action)
        except KlaverjasError as err:
            raise RoomError(err.code, str(err)) from None

    def _owner(self, player: str) -> None:
        if player != self.owner:
            raise RoomError("not_owner", "only the room's owner may do that")

    def start_entry(self) -> dict[str, Any] | None:
        """The ``start`` entry once four seats are filled and every human is ready."""
        if self.status == OPEN and all(not s.empty and (s.cpu or s.ready) for s in self.seats):
            return {"t": "start"}
        return None

    # -- the fold --------------------------------------------------------------------

    def apply(self, entry: dict[str, Any]) -> list[Event]:
        """Fold one log entry into the room; the engine events it caused."""
        self.version += 1
        kind = entry["t"]
        events: list[Event] = []
        if kind == "seat":
            self.seats[entry["seat"]] = Seat(player=entry["player"], cpu=entry["cpu"])
            if entry["player"] is None and not entry["cpu"]:
                for s in self.seats:  # a seat changed: everyone confirms again
                    s.ready = False
        elif kind == "ready":
            self.seats[entry["seat"]].ready = entry["ready"]
        elif kind == "start":
            self.status = PLAYING
            self.match = Match(self.rules, self.seed)
            events.append(self.match.start_event())
        elif kind == "act":
            assert self.match is not None
            seat = self.seats[entry["seat"]]
            events = self.match.apply(entry["seat"], Action.parse(entry["action"]))
            if entry["by"] == "player":
                seat.timeouts = 0
            elif entry["by"] == "timeout":
                seat.timeouts += 1
            if self.match.over:
                self.status = FINISHED
        elif kind == "away":
            seat = self.seats[entry["seat"]]
            seat.away = entry["away"]
            if not seat.away:
                seat.timeouts = 0
        elif kind == "closed":
            self.status = CLOSED
        else:
            raise ValueError(f"unknown log entry {kind!r}")
        return events
