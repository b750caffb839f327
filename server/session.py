"""One connection's conversation: each client message to the lobby or a room actor.

Every refusal is an error frame to this client alone; nothing changes.  Repeated abuse
closes with 1008; our own bug is logged and closes this client with 1011.
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, Any

import structlog
from websockets.exceptions import ConnectionClosed

from . import protocol as p
from .connection import CLOSE_ERROR, CLOSE_POLICY, Client, Peer
from .errors import Refused
from .ids import normalize_code
from .logs import log
from .store.base import StoreError
from .table.actor import RoomActor
from .tournament import TournamentActor
from .tournament.state import Tournament, TournamentError

if TYPE_CHECKING:
    from .app import Services


async def serve_client(client: Client, s: Services) -> None:
    try:
        async for frame in client.ws:
            if client.closing:
                break
            if not client.bucket.allow():
                _refuse(client, "rate_limited", "too many messages: slow down", None)
                continue
            await receive(client, s, frame)
    except ConnectionClosed:
        pass
    finally:
        for actor in list(client.rooms.values()):
            actor.detach(client)
        for tournament in list(client.tournaments.values()):
            tournament.unwatch(client)
        sessions = s.sessions.get(client.player_id)
        if sessions is not None:
            sessions.discard(client)
            if not sessions:
                del s.sessions[client.player_id]
                s.presence_changed()
        s.directory.unsubscribe(client)
        if s.cluster is not None:
            s.cluster.disconnected(client)
        await client.finish()


async def receive(client: Peer, s: Services, frame: str | bytes) -> None:
    """One frame from a connection here, or forwarded from another node's connection."""
    started = time.perf_counter()
    try:
        message = p.parse(frame)
    except p.ProtocolError as err:
        _refuse(client, err.code, err.message, None)
        return
    try:
        await handle(client, s, message, started, frame)
        client.strikes = 0
    except Refused as err:
        _refuse(client, err.code, err.message, message.ref)
    except StoreError:
        log.warning("storage_unavailable", player_id=client.player_id, type=message.type)
        client.error("storage_unavailable", "storage is unavailable: try again", message.ref)
    except asyncio.CancelledError:
        raise
    except Exception:
        log.exception("client_message_failed", player_id=client.player_id, type=message.type)
        client.close(CLOSE_ERROR, "internal error")


def _refuse(client: Peer, code: str, message: str, ref: str | None) -> None:
    client.error(code, message, ref)
    client.strikes += 1
    if client.strikes >= client.s.settings.strikes:
        client.close(CLOSE_POLICY, "too many refused messages")


async def handle(client: Peer, s: Services, m: Any, started: float, frame: str | bytes) -> None:
    if isinstance(m, p.Ping):
        client.send({"type": "pong", **({"ref": m.ref} if m.ref else {})})
        return
    if isinstance(m, p.Hello):
        await hello(client, s, m)
        return
    if not client.identified:
        raise p.ProtocolError("hello_first", "say hello before anything else")
    match m:
        case p.LobbySubscribe():
            s.directory.subscribe(client)
        case p.LobbyUnsubscribe():
            s.directory.unsubscribe(client)
        case p.CreateRoom():
            await s.create_room(client, m)
        case p.TakeSeat():
            if actor := await _find(client, s, m.room_id, m.invite_code, frame):
                await actor.call(lambda: actor.take_seat(client, m.seat))
        case p.Watch():
            if actor := await _find(client, s, m.room_id, m.invite_code, frame):
                await actor.call(lambda: actor.watch(client))
        case p.Resume():
            if actor := await _room(client, s, m.room_id, frame):
                await actor.call(lambda: actor.resume(client, m.version))
        case p.LeaveRoom():
            if actor := await _room(client, s, m.room_id, frame):
                await actor.call(lambda: actor.leave(client))
        case p.AddCpu():
            if actor := await _room(client, s, m.room_id, frame):
                await actor.call(lambda: actor.add_cpu(client, m.seat))
        case p.RemoveSeat():
            if actor := await _room(client, s, m.room_id, frame):
                await actor.call(lambda: actor.remove(client, m.seat))
        case p.Ready():
            if actor := await _room(client, s, m.room_id, frame):
                await actor.call(lambda: actor.ready(client, m.ready))
        case p.Act():
            if actor := await _member_room(client, s, m.room_id, frame):
                await actor.call(lambda: actor.act(client, m.action, m.version, started))
        case p.Back():
            if actor := await _member_room(client, s, m.room_id, frame):
                await actor.call(lambda: actor.back(client))
        case p.Chat():
            if not client.chat_bucket.allow():
                raise p.ProtocolError(
                    "chat_rate_limited", "chat is limited to a few lines a second"
                )
            if actor := await _member_room(client, s, m.room_id, frame):
                await actor.call(lambda: actor.chat(client, m.text))
        case (
            p.TournamentRegister() | p.TournamentUnregister() | p.TournamentLeave()
            | p.TournamentWatch()
        ):  # fmt: skip
            watch = isinstance(m, p.TournamentWatch)
            if t := await _tournament(client, s, m.tournament_id, frame, watch):
                command = getattr(t, m.type.removeprefix("tournament_"))  # register, leave...
                await t.call(lambda: command(client))
        case p.GetRecord():
            record = await s.store.match(m.match_id)
            if record is None:
                raise p.ProtocolError("no_such_match", f"no finished match {m.match_id!r}")
            client.send({"type": "record", "match_id": m.match_id, "record": record})


# -- finding the actor: here, or on the node that owns it (the message goes there) --------


async def _located(client: Peer, s: Services, key: str, frame: str | bytes) -> Any:
    """The actor of ``key`` on this node; None once the frame went to the owning node;
    :data:`MISSING` when there is no such room or tournament."""
    target = await s.locate(key)
    if not isinstance(target, str):
        return MISSING if target is None else target
    if client.forwarded:  # it moved on since its owner sent this frame here
        raise Refused("room_unavailable", "the table is moving to another server: try again")
    assert s.cluster is not None and isinstance(client, Client)  # a node id: a cluster
    await s.cluster.forward(client, target, key, frame)
    return None


MISSING: Any = object()


async def _room(client: Peer, s: Services, room_id: str, frame: str | bytes) -> RoomActor | None:
    actor = await _located(client, s, room_id, frame)
    if actor is MISSING or (actor is not None and not isinstance(actor, RoomActor)):
        raise p.ProtocolError("no_such_room", f"no open room {room_id!r}")
    return actor


async def _find(
    client: Peer, s: Services, room_id: str | None, code: str | None, frame: str | bytes
) -> RoomActor | None:
    """A room by id (public rooms only) or by invite code (any room)."""
    if code is not None:
        row = await s.store.room_by_invite(normalize_code(code))
        if row is None:
            raise p.ProtocolError("bad_invite", "no open room has that invite code")
        actor = await _located(client, s, row.id, frame)
        if actor is None:
            return None  # forwarded
        if not isinstance(actor, RoomActor):
            raise p.ProtocolError("bad_invite", "no open room has that invite code")
        return actor
    if room_id is None:
        raise p.ProtocolError("invalid_field", "room_id or invite_code is required")
    actor = await _room(client, s, room_id, frame)
    if actor is not None and actor.room.private:
        raise p.ProtocolError("invite_required", "this room is private: use its invite code")
    return actor


async def _member_room(
    client: Peer, s: Services, room_id: str, frame: str | bytes
) -> RoomActor | None:
    actor = client.rooms.get(room_id) or _following(client, s, room_id)
    if actor is not None:
        return actor
    if s.cluster is not None and not client.forwarded and room_id not in s.actors:
        if await _located(client, s, room_id, frame) is None:
            return None  # forwarded: its owner knows who is a member
        if (actor := _following(client, s, room_id)) is not None:
            return actor  # it was taken over here just now
    raise p.ProtocolError("not_a_member", f"join, watch or resume room {room_id!r} first")


def _following(client: Peer, s: Services, room_id: str) -> RoomActor | None:
    """A room that just moved here and that this connection follows: its re-attachment is
    queued in the actor, ahead of this message."""
    if isinstance(client, Client) and room_id in client.versions:
        return s.actors.get(room_id)
    return None


async def _tournament(
    client: Peer, s: Services, tournament_id: str, frame: str | bytes, watch: bool
) -> TournamentActor | None:
    """The tournament's actor (None once forwarded, or once an ended one was shown)."""
    actor = await _located(client, s, tournament_id, frame)
    if actor is None or isinstance(actor, TournamentActor):
        return actor
    row = await s.store.tournament(tournament_id)
    if row is not None and row.status in ("scheduled", "running") and s.cluster is None:
        await s.load_tournaments()  # scheduled from the command line a moment ago
        if (actor := s.tournaments.get(tournament_id)) is not None:
            return actor
    if row is not None and watch:
        entries = [e.entry for e in await s.store.log(tournament_id)]  # it ended: as it ended
        final = Tournament.from_log(tournament_id, entries)
        for player in {*final.registered, *final.left}:
            await s.identity.nickname(player)
        client.send({"type": "tournament", "tournament": final.summary(s.nicknames)})
        return None
    if row is not None:  # it ended: its actor has retired
        raise TournamentError("registration_closed", f"the tournament is {row.status}")
    raise p.ProtocolError("no_such_tournament", f"no tournament {tournament_id!r}")


async def hello(client: Peer, s: Services, m: p.Hello) -> None:
    if client.identified:
        raise p.ProtocolError("already_identified", "this connection already said hello")
    player, token = await s.identity.hello(m.nickname, m.token)
    client.player_id, client.nickname = player.id, player.nickname
    s.sessions.setdefault(player.id, set()).add(client)
    s.presence_changed()
    structlog.contextvars.bind_contextvars(player_id=player.id)
    log.info("hello", new=token is not None)
    rooms = s.directory.seated(player.id)
    welcome: dict[str, Any] = {
        "type": "welcome",
        "protocol": p.PROTOCOL_VERSION,
        "player_id": player.id,
        "nickname": player.nickname,
        "token": token,
        "rooms": rooms,
    }
    if m.ref:
        welcome["ref"] = m.ref
    client.send(welcome)
