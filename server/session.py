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
from .connection import CLOSE_ERROR, CLOSE_POLICY, Client
from .errors import Refused
from .logs import log
from .store.base import StoreError
from .tournament.state import TournamentError

if TYPE_CHECKING:
    from .app import Services
    from .table.actor import RoomActor
    from .tournament import TournamentActor


async def serve_client(client: Client, s: Services) -> None:
    try:
        async for frame in client.ws:
            if client.closing:
                break
            started = time.perf_counter()
            if not client.bucket.allow():
                _refuse(client, "rate_limited", "too many messages: slow down", None)
                continue
            try:
                message = p.parse(frame)
            except p.ProtocolError as err:
                _refuse(client, err.code, err.message, None)
                continue
            try:
                await handle(client, s, message, started)
                client.strikes = 0
            except Refused as err:
                _refuse(client, err.code, err.message, message.ref)
            except StoreError:
                log.warning("storage_unavailable", player_id=client.player_id, type=message.type)
                client.error(
                    "storage_unavailable", "storage is unavailable: try again", message.ref
                )
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception(
                    "client_message_failed", player_id=client.player_id, type=message.type
                )
                client.close(CLOSE_ERROR, "internal error")
    except ConnectionClosed:
        pass
    finally:
        for actor in list(client.rooms.values()):
            actor.detach(client)
        for tournament in list(client.tournaments.values()):
            tournament.unwatch(client)
        s.sessions.get(client.player_id, set()).discard(client)
        s.directory.unsubscribe(client)
        await client.finish()


def _refuse(client: Client, code: str, message: str, ref: str | None) -> None:
    client.error(code, message, ref)
    client.strikes += 1
    if client.strikes >= client.s.settings.strikes:
        client.close(CLOSE_POLICY, "too many refused messages")


async def handle(client: Client, s: Services, m: Any, started: float) -> None:
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
            actor = await s.find_room(m.room_id, m.invite_code)
            await actor.call(lambda: actor.take_seat(client, m.seat))
        case p.Watch():
            actor = await s.find_room(m.room_id, m.invite_code)
            await actor.call(lambda: actor.watch(client))
        case p.Resume():
            actor = await s.room_actor(m.room_id)
            await actor.call(lambda: actor.resume(client, m.version))
        case p.LeaveRoom():
            actor = await s.room_actor(m.room_id)
            await actor.call(lambda: actor.leave(client))
        case p.AddCpu():
            actor = await s.room_actor(m.room_id)
            await actor.call(lambda: actor.add_cpu(client, m.seat))
        case p.RemoveSeat():
            actor = await s.room_actor(m.room_id)
            await actor.call(lambda: actor.remove(client, m.seat))
        case p.Ready():
            actor = await s.room_actor(m.room_id)
            await actor.call(lambda: actor.ready(client, m.ready))
        case p.Act():
            actor = _member_room(client, m.room_id)
            await actor.call(lambda: actor.act(client, m.action, m.version, started))
        case p.Back():
            actor = _member_room(client, m.room_id)
            await actor.call(lambda: actor.back(client))
        case p.Chat():
            if not client.chat_bucket.allow():
                raise p.ProtocolError(
                    "chat_rate_limited", "chat is limited to a few lines a second"
                )
            actor = _member_room(client, m.room_id)
            await actor.call(lambda: actor.chat(client, m.text))
        case (
            p.TournamentRegister() | p.TournamentUnregister() | p.TournamentLeave()
            | p.TournamentWatch()
        ):  # fmt: skip
            t = await _tournament(s, m.tournament_id)
            command = getattr(t, m.type.removeprefix("tournament_"))  # register, leave, ...
            await t.call(lambda: command(client))
        case p.GetRecord():
            record = await s.store.match(m.match_id)
            if record is None:
                raise p.ProtocolError("no_such_match", f"no finished match {m.match_id!r}")
            client.send({"type": "record", "match_id": m.match_id, "record": record})


async def _tournament(s: Services, tournament_id: str) -> TournamentActor:
    actor = s.tournaments.get(tournament_id)
    if actor is not None:
        return actor
    row = await s.store.tournament(tournament_id)
    if row is not None:  # it ended: its actor has retired
        raise TournamentError("registration_closed", f"the tournament is {row.status}")
    raise p.ProtocolError("no_such_tournament", f"no tournament {tournament_id!r}")


def _member_room(client: Client, room_id: str) -> RoomActor:
    actor = client.rooms.get(room_id)
    if actor is None:
        raise p.ProtocolError("not_a_member", f"join, watch or resume room {room_id!r} first")
    return actor


async def hello(client: Client, s: Services, m: p.Hello) -> None:
    if client.identified:
        raise p.ProtocolError("already_identified", "this connection already said hello")
    player, token = await s.identity.hello(m.nickname, m.token)
    client.player_id, client.nickname = player.id, player.nickname
    s.sessions.setdefault(player.id, set()).add(client)
    structlog.contextvars.bind_contextvars(player_id=player.id)
    log.info("hello", new=token is not None)
    rooms = [
        {
            "room_id": actor.room.id,
            "seat": actor.room.seat_of(player.id),
            "status": actor.room.status,
        }
        for actor in s.actors.values()
        if actor.room.seat_of(player.id) is not None
    ]
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
