"""Rooms as a kind of actor: making them, loading them from their logs, and running a
client's room commands in them (see :class:`server.router.ActorKind`)."""

from __future__ import annotations

import asyncio
import secrets
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine import Rules
from engine.errors import NotationError
from engine.rules import STANDARD_DEALS

from ..core.errors import Refused, Unavailable
from ..core.ids import new_id, new_invite_code, normalize_code
from ..core.levels import TAKEOVER_LEVEL
from ..core.text import check_name, clean_chat
from ..runtime.bots import BOTS_BUSY, RETRY_AFTER
from ..runtime.peer import encode
from ..runtime.router import ROOM, Ref
from ..store.rooms import RoomRow
from ..wire import protocol as p
from ..wire.frames import frame
from . import room_entries as entries
from .room import LIVE, OPEN, Room
from .room_actor import RoomActor

if TYPE_CHECKING:
    from ..lobby import Identity
    from ..runtime.peer import Peer
    from ..runtime.ports import Ports
    from ..store.rooms import RoomStore


@dataclass(frozen=True, slots=True)
class AgainstCpus:
    """A game of one player against three CPUs of ``level`` (a solo game, the daily game):
    what a feature asks of :meth:`Rooms.play_against_cpus`."""

    name: str
    rules: Rules
    move_seconds: int
    seed: int
    level: str
    mode: str = entries.SOLO  # the kind of game, as the room's data says it
    day: str | None = None  # a daily game's day
    closes_at: float | None = None  # when it closes unfinished if still live (wall seconds)


class Rooms:
    """The room kind: what the router, the session and tournaments ask of rooms."""

    name = ROOM

    def __init__(self, ports: Ports, store: RoomStore, identity: Identity) -> None:
        self.ports = ports
        self.store = store
        self.identity = identity

    # -- making rooms ----------------------------------------------------------------

    async def create(self, peer: Peer, m: p.CreateRoom) -> None:
        """A room from the lobby: its creator sits in ``m.seat``, or only watches."""
        options = {k: v for k, v in m.rules.model_dump().items() if v is not None}
        try:
            rules = Rules.from_dict(options)
        except NotationError as err:
            raise p.ProtocolError("invalid_field", f"rules: {err}") from None
        code = new_invite_code() if m.private else None
        name = check_name(m.name, "a table's name", p.NAME_LENGTH) if m.name else None
        name = name or f"{peer.nickname}'s table"
        rated = not m.private if m.rated is None else m.rated  # public rooms by default
        first = entries.Created(
            peer.player_id, name, rules, m.move_seconds, m.private, code, secrets.randbits(62),
            rated=rated,
        )  # fmt: skip
        actor = await self._open(peer.player_id, first)
        if m.seat is not None:
            await actor.call(lambda: actor.take_seat(peer, m.seat))  # type: ignore[arg-type]
        else:
            await actor.call(lambda: actor.watch(peer))

    async def open_table(
        self, tournament: str, name: str, rules: Rules, move_seconds: int,
        seats: list[str | None], cpu_names: tuple[str | None, ...],
    ) -> str:  # fmt: skip
        """A tournament's table: its players (None: a CPU, called by ``cpu_names``) seated
        and started."""
        first = entries.Created(
            "system", name, rules, move_seconds, False, None, secrets.randbits(62),
            tournament=tournament, seats=tuple(seats), cpu_level=TAKEOVER_LEVEL, rated=True,
            cpu_names=cpu_names,
        )  # fmt: skip
        actor = await self.open_game("system", first)
        return actor.key

    async def new_game(self, peer: Peer, m: p.NewGame) -> None:
        """A solo game: ``peer`` in seat 0 with a CPU partner against two CPUs of
        ``m.level``, started at once, in a private room nobody else can enter."""
        options = {k: v for k, v in m.rules.model_dump().items() if v is not None}
        if "target" not in options and "deals" not in options:
            options["deals"] = STANDARD_DEALS  # the standard length
        try:
            rules = Rules.from_dict(options)
        except NotationError as err:
            raise p.ProtocolError("invalid_field", f"rules: {err}") from None
        name = f"{peer.nickname}'s game"
        game = AgainstCpus(name, rules, m.move_seconds, secrets.randbits(62), m.level)
        await self.play_against_cpus(peer, game)

    async def play_against_cpus(
        self, peer: Peer, game: AgainstCpus, room_id: str | None = None
    ) -> None:
        """``game``, made and started, ``peer``'s player in seat 0 and the others CPUs, in
        a private room nobody else may enter; ``peer`` follows it.  A ``room_id`` already
        taken raises :class:`~server.store.errors.StoreError`."""
        player = peer.player_id
        first = entries.Created(
            player, game.name, game.rules, game.move_seconds, True, None, game.seed,
            seats=(player, None, None, None), cpu_level=game.level, mode=game.mode,
            day=game.day, closes_at=game.closes_at,
        )  # fmt: skip
        actor = await self.open_game(player, first, room_id)
        await actor.call(lambda: actor.watch(peer))

    async def enter(self, peer: Peer, room_id: str) -> None:
        """``peer`` follows a game of its player's again, wherever it runs (a resume)."""
        resume = p.Resume(type="resume", room_id=room_id)
        await self.ports.router.run(Ref(ROOM, room_id), peer, resume)

    async def open_game(
        self, owner: str, first: entries.Created, room_id: str | None = None
    ) -> RoomActor:
        """A room whose seats are filled as it is made, started."""
        for player in first.seats or ():
            if player is not None:
                await self.identity.nickname(player)
        actor = await self._open(owner, first, room_id)
        await actor.call(actor.begin)
        return actor

    async def open_seated(
        self, owner: str, first: entries.Created, room_id: str, seats: list[entries.Entry]
    ) -> RoomActor:
        """A room made with ``first``, then seated and readied by ``seats`` (a rematch)."""
        for entry in seats:
            player = getattr(entry, "player", None)
            if player is not None:
                await self.identity.nickname(player)
        actor = await self._open(owner, first, room_id)
        await actor.call(lambda: actor.commit_all(seats))
        return actor

    async def _open(
        self, owner: str, first: entries.Created, room_id: str | None = None
    ) -> RoomActor:
        room_id = room_id or new_id("r")
        row = RoomRow(room_id, owner, first.invite_code, OPEN, self.ports.clock.wall())
        # Its lease first: a room refused for want of one (room_unavailable, retried) is
        # never stored, to be listed with no actor to run it (an id never used is harmless).
        epoch = await self.ports.router.own(Ref(ROOM, room_id))
        await self.store.add_room(row, first.to_dict())
        room = self._replay(room_id, [first])
        return await self._launch(room, epoch)

    def _replay(self, room_id: str, log: list[entries.Entry]) -> Room:
        """The room a log holds, with this server's settings: timeouts that mark a seat
        away, the pause between deals (``deal_pause`` seconds), the abandon time."""
        settings = self.ports.settings
        return Room.from_log(
            room_id, log, settings.away_after, settings.deal_pause > 0, settings.abandon_after
        )

    async def _launch(self, room: Room, epoch: int | None) -> RoomActor:
        actor = RoomActor(room, self.ports)
        actor.epoch = epoch
        self.ports.router.hold(actor)
        await actor.relist()
        return actor

    async def by_invite(self, code: str) -> str:
        """The id of the room an invite code opens."""
        row = await self.store.room_by_invite(normalize_code(code))
        if row is None:
            raise p.ProtocolError("bad_invite", "no open room has that invite code")
        return row.id

    # -- the actor kind --------------------------------------------------------------

    async def live(self) -> list[str]:
        return [row.id for row in await self.store.rooms_with_status(*LIVE)]

    async def load(self, key: str, epoch: int | None) -> RoomActor | None:
        """Replay a live room's log and run it; a room that had ended meanwhile is only
        settled (its status and record stored, its ending published again)."""
        row = await self.store.room(key)
        if row is None or row.status not in LIVE:
            return None
        log = [entries.decode(e.entry) for e in await self.store.log(key)]
        room = self._replay(key, log)
        for seat in room.seats:
            if seat.player:
                await self.identity.nickname(seat.player)
        if not room.live:
            await RoomActor(room, self.ports).conclude()
            return None
        return await self._launch(room, epoch)

    async def handle(self, actor: RoomActor, peer: Peer, m: Any) -> None:
        started = time.perf_counter()
        match m:
            case p.TakeSeat() | p.Watch():
                actor.room.admit(peer.player_id, invited=m.invite_code is not None)
                if isinstance(m, p.TakeSeat):
                    await actor.call(lambda: actor.take_seat(peer, m.seat))
                else:
                    await actor.call(lambda: actor.watch(peer))
            case p.Resume():
                try:
                    await actor.call(lambda: actor.resume(peer, m.version))
                except Refused as err:  # it ended as we asked: how it ended, if stored
                    if err.code != actor.closed_code or not await self.ended(
                        actor.key, peer, m.version, asked=True
                    ):
                        raise
            case p.LeaveRoom():
                await actor.call(lambda: actor.leave(peer))
            case p.AddCpu():
                await actor.call(lambda: actor.add_cpu(peer, m.seat, m.level))
            case p.RemoveSeat():
                await actor.call(lambda: actor.remove(peer, m.seat))
            case p.Ready():
                await actor.call(lambda: actor.ready(peer, m.ready))
            case p.Act():
                await actor.call(lambda: actor.act(peer, m.action, m.version, started))
            case p.Back():
                await actor.call(lambda: actor.back(peer))
            case p.Continue():
                await actor.call(lambda: actor.continue_(peer))
            case p.Chat():
                line = clean_chat(m.text)
                await actor.call(lambda: actor.chat(peer, line))
            case p.Hint():
                await self.hint(actor, peer, m.ref)
            case _:
                raise TypeError(f"not a room command: {type(m).__name__}")

    async def hint(self, actor: RoomActor, peer: Peer, ref: str | None) -> None:
        """Ask the room for ``peer``'s hint, then wait for the search outside the room's
        actor; the reply goes to this connection alone (it names its own cards only)."""
        decision, answer = await actor.call(lambda: actor.hint(peer))
        await asyncio.wait({answer})
        if answer.cancelled():  # the server is stopping
            raise Unavailable(BOTS_BUSY, "the server is stopping: ask again", RETRY_AFTER)
        said = {} if ref is None else {"ref": ref}
        peer.send(frame(p.HintOut, room_id=actor.key, version=decision.version,
                        seat=decision.seat, **answer.result(), **said))  # fmt: skip

    async def absent(self, key: str, peer: Peer, m: Any) -> None:
        if isinstance(m, p.Resume) and await self.ended(key, peer, m.version, asked=True):
            return
        if isinstance(m, p.Act | p.Back | p.Continue | p.Chat | p.Hint):
            row = await self.store.room(key)
            if row is not None and row.status not in LIVE:
                raise p.ProtocolError("room_closed", f"room {key!r} has ended ({row.status})")
            raise p.ProtocolError("not_a_member", f"join, watch or resume room {key!r} first")
        if isinstance(m, p.TakeSeat | p.Watch) and m.invite_code is not None:
            raise p.ProtocolError("bad_invite", "no open room has that invite code")
        raise p.ProtocolError("no_such_room", f"no open room {key!r}")

    def rejoin(self, actor: RoomActor, peer: Peer, since: int) -> None:
        actor.tell(lambda: actor.rejoin(peer, since))

    async def ended(self, key: str, peer: Peer, since: int, *, asked: bool = False) -> bool:
        """A room that finished or closed while ``peer`` followed it from another node, and
        its last updates were lost on the way (Redis restarted as it ended), or that ended
        before ``peer`` could ``resume`` it (``asked``; a private room only for its owner
        and players): ``peer`` gets the room as it ended, as a snapshot (none if ``since``
        is its last version), and no longer follows it."""
        row = await self.store.room(key)
        if row is None or row.status in LIVE:
            return False
        log = [entries.decode(e.entry) for e in await self.store.log(key)]
        room = self._replay(key, log)
        if room.live:
            return False  # (its status stored, its log not yet: it is being settled)
        mine = peer.player_id == room.owner or room.seat_of(peer.player_id) is not None
        if asked and room.private and not mine:
            raise p.ProtocolError("not_a_member", "only its players may resume a private room")
        if room.version > since:
            for seat in room.seats:
                if seat.player:
                    await self.identity.nickname(seat.player)
            actor = RoomActor(room, self.ports)  # never started: only its snapshot
            frame = actor.snapshot(room.seat_of(peer.player_id), peer.player_id)
            peer.deliver(key, room.version, encode(frame), snapshot=True)
        peer.left(key)
        return True
