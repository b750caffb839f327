"""One task per room: the only writer of its state, timers included.

Every change is a log entry: validated against the :class:`Room`, appended to the store
(durable), folded into the room, then sent to each member as its own projection.  Sending
never blocks: members are :class:`~server.connection.Peer` objects (connections here, with
bounded outboxes, or stand-ins for connections to other nodes).
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.events import DealEnded, Event
from engine.policies import HeuristicPolicy
from engine.views import project, view

from ..actor import Actor
from ..connection import encode
from ..logs import log
from .room import CLOSED, FINISHED, OPEN, Room, RoomError

if TYPE_CHECKING:
    from ..app import Services
    from ..connection import Peer


@dataclass(frozen=True, slots=True)
class Step:
    """One committed entry as it was sent: kept so a resuming client sees it the same.

    Only what an update shows is kept (a room holds ``history`` of these)."""

    version: int
    kind: str
    seat: int | None
    by: str | None
    events: tuple[Event, ...]
    turn: int | None
    deadline: float | None
    summary: dict[str, Any] | None


ROOM_CHANGES = {"created", "seat", "ready", "start", "away", "closed"}
_cpu = HeuristicPolicy()


class RoomActor(Actor):
    closed_code = "room_closed"

    def __init__(self, room: Room, services: Services) -> None:
        super().__init__(services.clock, f"room {room.id}", log.bind(room_id=room.id))
        self.room = room
        self.s = services
        self.members: dict[Peer, int | None] = {}
        self.history: deque[Step] = deque(maxlen=services.settings.history)
        self.deadline_wall: float | None = None
        self._rng = random.Random(room.seed)

    @property
    def key(self) -> str:
        return self.room.id

    def start(self) -> None:
        self._schedule()
        super().start()

    def finished(self) -> bool:
        return self.room.status in (FINISHED, CLOSED)

    def on_exit(self) -> None:
        if self.finished():
            self.s.retire(self)
            for client in list(self.members):  # let the finished room be freed
                self.detach(client)

    def on_failure(self) -> None:
        self._schedule(retry=True)

    # -- timers --------------------------------------------------------------------------

    def _schedule(self, retry: bool = False) -> None:
        """Set the deadline of the decision now due (none outside a running match)."""
        room, clock = self.room, self.s.clock
        turn = room.turn
        if turn is None:
            self.deadline = self.deadline_wall = None
            return
        wait = self.s.settings.cpu_delay if room.seats[turn].automatic else room.move_seconds
        if retry:
            wait = max(wait, 1.0)
        self.deadline = clock.now() + wait
        self.deadline_wall = None if room.seats[turn].automatic else clock.wall() + wait

    async def on_deadline(self) -> None:
        room = self.room
        turn = room.turn
        if turn is None or room.match is None:
            return
        seat = room.seats[turn]
        action = _cpu.act(view(room.match, turn), self._rng)
        by = "cpu" if seat.automatic else "timeout"
        await self.commit({"t": "act", "seat": turn, "action": str(action), "by": by})
        if by == "timeout" and seat.timeouts >= self.s.settings.away_after and not seat.away:
            await self.commit({"t": "away", "seat": turn, "away": True})

    # -- committing ----------------------------------------------------------------------

    async def commit(self, entry: dict[str, Any], started: float | None = None) -> int:
        """Make ``entry`` durable, fold it in, and send every member its projection."""
        version = self.room.version + 1
        await self.s.store_append(self, version, entry)
        status, turn = self.room.status, self.room.turn
        events = self.room.apply(entry)
        if self.room.status == FINISHED and status != FINISHED:
            await self.s.save_record(self.room)  # durable before anyone hears the match ended
        if entry["t"] in ("act", "start", "away", "seat") or self.room.turn != turn:
            self._schedule()  # a new decision (or a seat became automatic): a new deadline
        changed = status != self.room.status or entry["t"] in ROOM_CHANGES
        step = Step(
            version, entry["t"], entry.get("seat"), entry.get("by"), tuple(events),
            self.room.turn, self.deadline_wall, self.summary() if changed else None,
        )  # fmt: skip
        self.history.append(step)
        frames: dict[int | None, str] = {}  # one encoding per seat (and one for spectators)
        for client, seat in list(self.members.items()):
            if seat not in frames:
                frames[seat] = encode(self._update(step, seat, current=True))
            client.deliver(self.room.id, version, frames[seat])
        if self.room.tournament and any(isinstance(e, DealEnded) for e in events):
            await self.s.tournament_progress(self.room)
        if entry["t"] == "act":
            self.s.metrics.actions.labels(entry["by"]).inc()
            if started is not None:
                self.s.metrics.latency.observe(self.s.clock_perf() - started)
        if entry["t"] in ROOM_CHANGES or status != self.room.status:
            if status != self.room.status:
                self.log.info("room_status", status=self.room.status, version=version)
            await self.s.room_changed(self)
        start = self.room.start_entry()
        if start is not None:
            await self.commit(start)
        return version

    def _update(self, step: Step, seat: int | None, current: bool) -> dict[str, Any]:
        """An update as ``seat`` (None: a spectator) may see it; ``legal`` only when it is
        the latest update and that seat's decision."""
        message: dict[str, Any] = {
            "type": "update",
            "room_id": self.room.id,
            "version": step.version,
            "kind": step.kind,
            "events": [project(e, seat) for e in step.events],
            "turn": step.turn,
            "deadline": step.deadline,
        }
        if step.seat is not None:
            message["seat"] = step.seat
        if step.by is not None:
            message["by"] = step.by
        if step.summary is not None:
            message["room"] = step.summary
        match = self.room.match
        if current and seat is not None and match is not None and self.room.turn == seat:
            message["legal"] = [str(a) for a in match.legal_actions()]
        return message

    def summary(self) -> dict[str, Any]:
        return self.room.summary(self.s.nicknames)

    def snapshot(self, seat: int | None, player: str = "") -> dict[str, Any]:
        room = self.room
        insider = seat is not None or player == room.owner
        return {
            "type": "snapshot",
            "room_id": room.id,
            "version": room.version,
            "room": self.summary(),
            "seat": seat,
            "invite_code": room.invite_code if insider else None,
            "view": view(room.match, seat).to_dict() if room.match else None,
            "deadline": self.deadline_wall,
        }

    # -- membership ----------------------------------------------------------------------

    def attach(self, client: Peer, seat: int | None, since: int | None = None) -> None:
        """Add a member and bring it up to date: missed updates, or a snapshot."""
        self.members[client] = seat
        client.rooms[self.room.id] = self
        oldest = self.history[0].version if self.history else self.room.version + 1
        if since is not None and oldest - 1 <= since <= self.room.version:
            for step in self.history:
                if step.version > since:
                    current = step.version == self.room.version
                    frame = encode(self._update(step, seat, current))
                    client.deliver(self.room.id, step.version, frame)
        else:
            frame = encode(self.snapshot(seat, client.player_id))
            client.deliver(self.room.id, self.room.version, frame, snapshot=True)

    def detach(self, client: Peer) -> None:
        self.members.pop(client, None)
        client.left(self.room.id)

    # -- commands (run inside the actor via ``call``) -----------------------------------

    async def take_seat(self, client: Peer, seat: int) -> None:
        await self.commit(self.room.check_take_seat(client.player_id, seat))
        self.attach(client, seat)

    async def watch(self, client: Peer) -> None:
        seat = self.room.seat_of(client.player_id)
        self.attach(client, seat)

    async def resume(self, client: Peer, since: int) -> None:
        seat = self.room.seat_of(client.player_id)
        if seat is None and self.room.private:
            raise RoomError("not_a_member", "resume a private room only where you have a seat")
        self.attach(client, seat, since)
        if seat is not None and self.room.seats[seat].away:
            await self.commit({"t": "away", "seat": seat, "away": False})

    async def rejoin(self, client: Peer, since: int) -> None:
        """A member whose room moved to this node (it was a member before, so no invite)."""
        self.attach(client, self.room.seat_of(client.player_id), since)

    async def leave(self, client: Peer) -> None:
        room = self.room
        if room.seat_of(client.player_id) is None:
            self.detach(client)
            return
        await self.commit(room.check_leave(client.player_id))
        self.detach(client)
        if room.status == OPEN and all(s.player is None for s in room.seats):
            await self.commit({"t": "closed"})

    async def add_cpu(self, client: Peer, seat: int) -> None:
        await self.commit(self.room.check_add_cpu(client.player_id, seat))

    async def remove(self, client: Peer, seat: int) -> None:
        removed = self.room.seats[seat].player
        await self.commit(self.room.check_remove(client.player_id, seat))
        if removed is not None:
            self._unseat(removed, seat)

    def _unseat(self, player: str, seat: int) -> None:
        """``player`` lost ``seat``: its connections go on as spectators, seeing no hand."""
        for member, member_seat in list(self.members.items()):
            if member.player_id == player and member_seat == seat:
                self.members[member] = None
                frame = encode(self.snapshot(None, member.player_id))
                member.deliver(self.room.id, self.room.version, frame, snapshot=True)

    async def ready(self, client: Peer, ready: bool) -> None:
        await self.commit(self.room.check_ready(client.player_id, ready))

    async def act(self, client: Peer, text: str, version: int | None, started: float) -> None:
        room = self.room
        entry = room.check_act(client.player_id, text, version)
        seat = room.seats[entry["seat"]]
        if seat.away:
            await self.commit({"t": "away", "seat": entry["seat"], "away": False})
        await self.commit(entry, started)

    async def begin(self) -> None:
        """Start a table whose seats were filled when it was made (tournaments)."""
        start = self.room.start_entry()
        if start is not None:
            await self.commit(start)

    async def replace_with_cpu(self, player: str) -> None:
        """A CPU takes the seat of a player who left (a tournament); it keeps playing."""
        seat = self.room.seat_of(player)
        if seat is not None:
            await self.commit({"t": "seat", "seat": seat, "player": None, "cpu": True})
            self._unseat(player, seat)

    async def back(self, client: Peer) -> None:
        seat = self.room.seat_of(client.player_id)
        if seat is None:
            raise RoomError("not_seated", "you have no seat in this room")
        if self.room.seats[seat].away:
            await self.commit({"t": "away", "seat": seat, "away": False})

    async def chat(self, client: Peer, text: str) -> None:
        if client not in self.members:
            raise RoomError("not_a_member", "join or watch the room before chatting")
        message = {
            "type": "chat",
            "room_id": self.room.id,
            "player_id": client.player_id,
            "nickname": client.nickname,
            "text": text,
            "at": self.s.clock.wall(),
        }
        for member in list(self.members):
            member.send(message)
