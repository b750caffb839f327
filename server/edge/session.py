"""One connection's conversation: each client message to the lobby or, through the router,
to the room or tournament it names.

Every refusal is an error frame to this client alone, and nothing changes; repeated abuse
closes with 1008; an outage of ours is an error with a retry hint and never a strike; our
own bug is logged and closes this client with 1011 (see :meth:`Peer.attempt`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

import structlog
from websockets.exceptions import ConnectionClosed

from ..core.logs import log
from ..lobby import Identity, Lobby
from ..players.service import Players
from ..records.review import Reviews
from ..runtime.features import Handler, Reveals
from ..runtime.router import ROOM, SHEET, TOURNAMENT, Ref, Router
from ..scoresheet.sheets import Sheets
from ..store.rooms import RoomStore
from ..table.rematch import Rematches
from ..table.rooms import Rooms
from ..wire import protocol as p
from ..wire.frames import frame
from .connection import Client
from .keepalive import Keepalive
from .limits import FailedAttempts

T = TypeVar("T")

ROOM_COMMANDS = (
    p.TakeSeat, p.Watch, p.Resume, p.LeaveRoom, p.AddCpu, p.RemoveSeat, p.Ready, p.Act, p.Back,
    p.Continue, p.Chat, p.Hint,
)  # fmt: skip
TOURNAMENT_COMMANDS = (
    p.TournamentRegister, p.TournamentUnregister, p.TournamentLeave, p.TournamentWatch
)  # fmt: skip
ANONYMOUS = (p.SheetOpen, p.SheetLeave)  # a sheet's onlooker needs no nickname


@dataclass(frozen=True, slots=True)
class Session:
    """What a connection's messages reach: the lobby, identities, rooms, the router, and
    the features' own messages (``handlers``, by class: parsed and validated as every other
    message, from a peer that said hello)."""

    router: Router
    lobby: Lobby
    identity: Identity
    rooms: Rooms
    store: RoomStore  # the records of finished matches
    reveals: Reveals  # records not shown yet
    reviews: Reviews
    rematches: Rematches
    players: Players
    sheets: Sheets
    attempts: FailedAttempts
    keepalive: Keepalive
    handlers: Mapping[type[Any], Handler]

    async def serve(self, client: Client) -> None:
        """Read the connection's frames until it closes; then let go of everything."""
        try:
            async for frame in client.ws:
                self.keepalive.heard(client)
                if client.closing:
                    break
                if not client.bucket.allow():
                    client.refused("rate_limited", "too many messages: slow down", None)
                    continue
                await self.receive(client, frame)
        except ConnectionClosed:
            pass
        finally:
            for actor in list(client.memberships.values()):
                actor.detach(client)
            self.lobby.departed(client)
            await client.finish()

    async def receive(self, client: Client, frame: str | bytes) -> None:
        try:
            message = p.parse(frame)
        except p.ProtocolError as err:
            client.refused(err.code, err.message, None)
            return
        await client.attempt(self.handle(client, message), message.ref, message.type)

    async def handle(self, client: Client, m: Any) -> None:
        if isinstance(m, p.Ping):
            client.send(frame(p.Pong, **({"ref": m.ref} if m.ref else {})))
            return
        if isinstance(m, p.Hello):
            await self.hello(client, m)
            return
        if not client.identified and not isinstance(m, ANONYMOUS):
            raise p.ProtocolError("hello_first", "say hello before anything else")
        match m:
            case p.LobbySubscribe():
                self.lobby.directory.subscribe(client)
            case p.LobbyUnsubscribe():
                self.lobby.directory.unsubscribe(client)
            case p.CreateRoom():
                await self.rooms.create(client, m)
            case p.Chat() if not client.chat_bucket.allow():
                raise p.ProtocolError(
                    "chat_rate_limited", "chat is limited to a few lines a second"
                )
            case p.TakeSeat() | p.Watch() if m.invite_code is not None:
                room_id = await self.coded(client, self.rooms.by_invite(m.invite_code))
                await self.router.run(Ref(ROOM, room_id), client, m)
            case p.TakeSeat() | p.Watch() if m.room_id is None:
                raise p.ProtocolError("invalid_field", "room_id or invite_code is required")
            case _ if isinstance(m, ROOM_COMMANDS):
                await self.router.run(Ref(ROOM, m.room_id), client, m)
            case _ if isinstance(m, TOURNAMENT_COMMANDS):
                await self.router.run(Ref(TOURNAMENT, m.tournament_id), client, m)
            case p.SheetCreate():
                await self.sheets.create(client, m)
            case p.SheetOpen() | p.SheetLeave() | p.SheetChange():
                sheet_id, _ = await self.coded(client, self.sheets.find(m.code))
                await self.router.run(Ref(SHEET, sheet_id), client, m)
            case p.GetRecord():
                await self.record(client, m)
            case p.SetNickname():
                client.nickname = await self.identity.rename(client.player_id, m.nickname)
                answer = frame(p.NicknameOut, player_id=client.player_id, nickname=client.nickname)
                client.send(reply(m, answer))
            case p.Review():
                review = await self.reviews.review(client.player_id, m.match_id, m.deal)
                client.send(reply(m, frame(p.ReviewOut, **review)))
            case p.Rematch():
                await self.rematches.accept(client, m.room_id)
            case p.NewGame():
                await self.rooms.new_game(client, m)
            case p.GetProfile():
                who = m.player_id or client.player_id
                profile = await self.players.profile(who, m.offset, m.limit, client.player_id)
                client.send(reply(m, frame(p.ProfileOut, **profile)))
            case p.RatingBoard():
                board = await self.players.board(client.player_id, m.offset, m.limit)
                client.send(reply(m, frame(p.RatingBoardOut, **board)))
            case _ if (handler := self.handlers.get(type(m))) is not None:  # a feature's
                if (answered := await handler(client, m)) is not None:
                    client.send(reply(m, answered))

    async def coded(self, client: Client, work: Awaitable[T]) -> T:
        """``work`` that checks a secret code, counted against the client's address."""
        return await self.attempts.coded(client.address, work)

    async def record(self, client: Client, m: p.GetRecord) -> None:
        record = await self.store.match(m.match_id)
        if record is None:
            raise p.ProtocolError("no_such_match", f"no finished match {m.match_id!r}")
        if self.reveals.hidden(record):
            raise p.ProtocolError("daily_not_over", "a daily game's record shows after its day")
        client.send(reply(m, frame(p.Record, match_id=m.match_id, record=record)))

    async def hello(self, client: Client, m: p.Hello) -> None:
        if client.identified:
            raise p.ProtocolError("already_identified", "this connection already said hello")
        player, token = await self.coded(client, self.identity.hello(m.nickname, m.token))
        client.player_id, client.nickname = player.id, player.nickname
        self.lobby.arrived(client)
        structlog.contextvars.bind_contextvars(player_id=player.id)
        log.info("hello", new=token is not None)
        routed = self.router.route  # a cluster that routes: the node it is on
        node = {} if routed is None else {"node": routed.node}
        welcome = frame(p.Welcome, protocol=p.PROTOCOL_VERSION, player_id=player.id,
                        nickname=player.nickname, token=token,
                        rooms=self.lobby.directory.seated(player.id), **node)  # fmt: skip
        client.send(reply(m, welcome))


def reply(m: Any, message: dict[str, Any]) -> dict[str, Any]:
    """``message`` with the request's ``ref``, if it had one."""
    if m.ref is not None:
        message["ref"] = m.ref
    return message
