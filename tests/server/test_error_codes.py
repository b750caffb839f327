"""Every error code and close code that ``client_protocol.md`` tables, provoked over a real
websocket against a real server.

The cases are parametrised by the codes parsed out of the document's tables (§7 and §11's
"Tournament error codes"; §8, one row per close code and reason): a code added to the
document without a case here fails, and so does a case for a code the document lacks.
An error case checks the exact code, that the error went to the offending connection alone
(the others hear nothing before the pong of a ping), that its ``ref`` came back (unless the
frame could not be read), that nothing changed, and that the connection stays open.  A close
case checks the code and the documented reason, and that other connections stay open.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import re
import secrets
import sqlite3
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import redis.asyncio as aioredis
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from client import GameClient
from server.daily.days import day_of
from server.wire.protocol import MAX_FRAME
from tests.commands import scheduled_id
from tests.multinode.conftest import REDIS_URL, Cluster, http_get, redis_ping, redis_purge
from tests.postgres import Proxy, fresh_schema, pg_connect
from tests.server.bots_hold import hold
from tests.server.conftest import Harness, act_once, play_until, running_harness
from tests.server.protocol_codes import ROOT, documented_closes, documented_error_codes
from tests.server.raw_client import RawClient
from tests.server.test_bad_input import drain

pytestmark = pytest.mark.server

CARDS = [r + s for s in "cdhs" for r in "789TJQKA"]
UNKNOWN_ROOM = "r_0000000000000000"
UNKNOWN_TOURNAMENT = "t_0000000000000000"
_refs = itertools.count()


# -- the registry: which case provokes which documented code --------------------------------


@dataclass(frozen=True)
class Case:
    name: str
    run: Callable[[Path], Awaitable[None]]
    marks: tuple[pytest.MarkDecorator, ...] = ()


ERRORS: dict[str, list[Case]] = {}  # error code -> the cases that provoke it
CLOSES: dict[tuple[int, str | None], Case] = {}  # (close code, reason) -> its case


def provokes(code: str, *marks: pytest.MarkDecorator) -> Callable[[Any], Any]:
    def register(run: Callable[[Path], Awaitable[None]]) -> Callable[[Path], Awaitable[None]]:
        ERRORS.setdefault(code, []).append(Case(run.__name__, run, marks))
        return run

    return register


def closes(code: int, reason: str | None) -> Callable[[Any], Any]:
    def register(run: Callable[[Path], Awaitable[None]]) -> Callable[[Path], Awaitable[None]]:
        assert (code, reason) not in CLOSES
        CLOSES[(code, reason)] = Case(run.__name__, run)
        return run

    return register


# -- checking a refusal ---------------------------------------------------------------------


FIELDS = {"type", "code", "message", "ref"}
OURS = {"storage_unavailable", "room_unavailable", "bots_busy"}  # the server's, not the client's


async def refused(
    offender: GameClient,
    frame: dict[str, Any] | str | bytes,
    code: str,
    others: Sequence[GameClient] = (),
    state: Callable[[], Awaitable[Any]] | None = None,
    echoed: bool = True,
) -> dict[str, Any]:
    """Send ``frame`` (a message gets a fresh ``ref``).  Its one reply is the error ``code``,
    to ``offender`` alone, with the ``ref`` back when ``echoed`` (never for a raw frame);
    ``state()`` reads the same afterwards, and the connection stays open."""
    before = await state() if state is not None else None
    for client in (offender, *others):
        await drain(client)
    ref = None
    if isinstance(frame, dict):
        ref = f"{code}-{next(_refs)}"
        await offender.send({**frame, "ref": ref})
    else:
        await offender.ws.send(frame)
    replies = await drain(offender)  # the pong of its ping: the connection is still open
    assert len(replies) == 1 and replies[0]["type"] == "error", replies
    error = replies[0]
    assert error["code"] == code, error
    assert isinstance(error["message"], str) and error["message"], error
    if code in OURS:  # our fault: a retry hint (and no strike)
        assert error["retry_after"] > 0 and set(error) <= {*FIELDS, "retry_after"}, error
    else:
        assert set(error) <= FIELDS, error
    assert error.get("ref") == (ref if echoed else None), error
    for other in others:
        assert await drain(other) == [], "another connection heard of the refusal"
    if state is not None:
        assert await state() == before, "the refusal changed something"
    return error


def server(tmp_path: Path, **settings: Any) -> contextlib.AbstractAsyncContextManager[Harness]:
    return running_harness(tmp_path, **settings)


async def snapshot(client: GameClient, room_id: str) -> dict[str, Any]:
    """A fresh snapshot of the room as ``client`` may see it."""
    await drain(client)  # so that the reply is not an earlier frame
    reply = await client.request({"type": "resume", "room_id": room_id, "version": 0}, "snapshot")
    assert reply["type"] == "snapshot", reply
    return reply


async def next_where(
    client: GameClient, test: Callable[[dict[str, Any]], bool], timeout: float = 10
) -> dict[str, Any]:
    async with asyncio.timeout(timeout):
        while not test(frame := await client.frames.get()):
            pass
    return frame


# -- scenes ---------------------------------------------------------------------------------


@dataclass
class Room:
    """An open room: ann (its owner) at seat 0, bob at seat 1, sam watching, and eve, who
    has said hello and nothing else."""

    room_id: str
    invite_code: str | None
    ann: GameClient
    bob: GameClient
    sam: GameClient
    eve: GameClient

    def others(self, offender: GameClient) -> list[GameClient]:
        return [c for c in (self.ann, self.bob, self.sam, self.eve) if c is not offender]

    async def state(self) -> dict[str, Any]:
        return await snapshot(self.ann, self.room_id)


async def open_room(h: Harness, private: bool = False) -> Room:
    ann, bob, sam, eve = [await h.client(n) for n in ("ann", "bob", "sam", "eve")]
    created = await ann.request(
        {"type": "create_room", "seat": 0, "private": private, "rules": {"deals": 1}}, "snapshot"
    )
    assert created["type"] == "snapshot", created
    room_id, code = created["room_id"], created["invite_code"]
    where = {"invite_code": code} if private else {"room_id": room_id}
    for client, message in ((bob, {"type": "take_seat", "seat": 1}), (sam, {"type": "watch"})):
        reply = await client.request({**message, **where}, "snapshot")
        assert reply["type"] == "snapshot", reply
    return Room(room_id, code, ann, bob, sam, eve)


@dataclass
class Table:
    """A match under way between four humans; nobody acts unless a test says so."""

    room_id: str
    players: list[GameClient]

    def others(self, offender: GameClient) -> list[GameClient]:
        return [c for c in self.players if c is not offender]

    async def state(self) -> dict[str, Any]:
        return await snapshot(self.players[0], self.room_id)

    def on_turn(self) -> GameClient:
        for player in self.players:
            table = player.tables[self.room_id]
            if table.turn is not None and table.turn == table.seat:
                return player
        raise AssertionError("nobody is on turn")

    def off_turn(self) -> GameClient:
        return next(p for p in self.players if p is not self.on_turn())

    def act(self, action: str, **extra: Any) -> dict[str, Any]:
        return {"type": "act", "room_id": self.room_id, "action": action, **extra}


async def playing(h: Harness, rated: bool = True, **rules: Any) -> Table:
    room_id, players = await h.table(
        "ann", "bob", "cas", "dee", rules={"deals": 1, **rules}, rated=rated
    )
    for player in players:
        await drain(player)  # every view is current
    return Table(room_id, players)


@dataclass
class Tourney:
    """A tournament with registered ``players``, a ``watcher`` and an ``outsider``."""

    tid: str
    players: list[GameClient]
    watcher: GameClient
    outsider: GameClient
    everyone: list[GameClient] = field(default_factory=list)

    def others(self, offender: GameClient) -> list[GameClient]:
        return [c for c in self.everyone if c is not offender]

    def message(self, kind: str) -> dict[str, Any]:
        return {"type": f"tournament_{kind}", "tournament_id": self.tid}

    async def state(self) -> dict[str, Any]:
        await drain(self.watcher)  # so that the reply is not an earlier frame
        reply = await self.watcher.request(self.message("watch"), "tournament")
        assert reply["type"] == "tournament", reply
        return reply["tournament"]


async def tourney(h: Harness, tid: str, registered: int) -> Tourney:
    watcher, outsider = await h.client("watcher"), await h.client("outsider")
    players = [await h.client(f"p{n}") for n in range(registered)]
    t = Tourney(tid, players, watcher, outsider, [*players, watcher, outsider])
    await t.state()
    for player in players:
        reply = await player.request(t.message("register"), "tournament")
        assert reply["type"] == "tournament", reply
    return t


async def open_quick(h: Harness) -> str:
    """The id of the "start when full" Quick tournament the server keeps open."""
    lobby = await h.client("lobby")
    listing = await lobby.request({"type": "lobby_subscribe"}, "lobby")
    (quick,) = [t for t in listing["tournaments"] if t["start_when_full"]]
    await lobby.send({"type": "lobby_unsubscribe"})
    return quick["id"]


async def running_quick(h: Harness) -> Tourney:
    """The open Quick tournament, full and started: both tables of round 1 have rooms."""
    t = await tourney(h, await open_quick(h), registered=8)

    def started(frame: dict[str, Any]) -> bool:
        summary = frame.get("tournament") or {}
        rounds = summary.get("rounds") or [[]]
        return summary.get("status") == "running" and all(table["room_id"] for table in rounds[0])

    await next_where(t.watcher, started)
    return t


# == §7, frame and session =================================================================


def ready_frame(room_id: str) -> str:
    """As text this would mark the sender ready: refused, it must not."""
    return json.dumps({"type": "ready", "room_id": room_id})


@provokes("binary_frame")
async def binary_frame(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        r = await open_room(h)
        frame = ready_frame(r.room_id).encode()
        await refused(r.ann, frame, "binary_frame", r.others(r.ann), r.state)


@provokes("frame_too_large")
async def frame_too_large(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        r = await open_room(h)
        frame = ready_frame(r.room_id)[:-1] + " " * MAX_FRAME + "}"
        await refused(r.ann, frame, "frame_too_large", r.others(r.ann), r.state)


@provokes("bad_json")
async def bad_json(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        r = await open_room(h)
        await refused(r.ann, ready_frame(r.room_id)[:-1], "bad_json", r.others(r.ann), r.state)


@provokes("bad_message")
async def bad_message(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        r = await open_room(h)
        frame = json.dumps(["ready", r.room_id])
        await refused(r.ann, frame, "bad_message", r.others(r.ann), r.state)


@provokes("unknown_type")
async def unknown_type(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        r = await open_room(h)
        message = {"type": "get_ready", "room_id": r.room_id}
        await refused(r.ann, message, "unknown_type", r.others(r.ann), r.state, echoed=False)


@provokes("invalid_field")
async def invalid_field(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        r = await open_room(h)
        message = {"type": "take_seat", "seat": 2}  # neither room_id nor invite_code
        await refused(r.eve, message, "invalid_field", r.others(r.eve), r.state)


@provokes("rate_limited")
async def rate_limited(tmp_path: Path) -> None:
    """A burst of ``burst`` + 1 messages: the last is dropped unread, without its ``ref``.
    (The bucket refills at a millionth of a token a second: never, in this test.)"""
    async with server(tmp_path, rate=1e-6, burst=3) as h:
        ann = await h.client("ann")  # 1 message of 3
        created = await ann.request({"type": "create_room", "seat": 0}, "snapshot")  # 2
        room_id = created["room_id"]
        flo = await h.client("flo")  # 1
        watched = await flo.request({"type": "watch", "room_id": room_id}, "snapshot")  # 2
        assert watched["type"] == "snapshot", watched
        assert (await flo.request({"type": "ping", "ref": "p"}, "pong"))["ref"] == "p"  # 3
        await flo.send({"type": "chat", "room_id": room_id, "text": "dropped", "ref": "c"})
        await flo.send({"type": "ping", "ref": "q"})  # answered in order: after the chat's
        replies = [await flo.next(timeout=5) for _ in range(2)]
        assert [(f["type"], f.get("code"), f.get("ref")) for f in replies] == [
            ("error", "rate_limited", None),
            ("error", "rate_limited", None),
        ], replies
        assert flo.ws.close_code is None
        assert await drain(ann) == [], "the dropped chat reached the room"  # ann's last token


@provokes("too_many_attempts")
async def too_many_attempts(tmp_path: Path) -> None:
    """Wrong invite codes, sheet codes and tokens from one address: ``attempts`` in a
    window, then even a right one is refused until the window has moved on."""
    async with server(tmp_path, attempts=3) as h:
        r = await open_room(h, private=True)
        for wrong in ({"type": "take_seat", "invite_code": "WRONGCODE1", "seat": 2},
                      {"type": "sheet_open", "code": "WRONGCODE2"},
                      {"type": "watch", "invite_code": "WRONGCODE3"}):  # fmt: skip
            reply = await r.eve.request(wrong, "error")
            assert reply["code"] in ("bad_invite", "bad_sheet_code"), reply
        right = {"type": "watch", "invite_code": r.invite_code}
        error = await refused(r.eve, right, "too_many_attempts", r.others(r.eve), r.state)
        assert "try again in 60 s" in error["message"]
        token = await h.client()
        refused_hello = await token.request({"type": "hello", "token": "x" * 32}, "error")
        assert refused_hello["code"] == "too_many_attempts"  # the same address
        h.advance(h.settings.attempts_window)
        assert (await r.eve.request(right, "snapshot"))["type"] == "snapshot"


@provokes("empty_chat")
async def empty_chat(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        r = await open_room(h)
        invisible = {"type": "chat", "room_id": r.room_id, "text": "\u200b\u202e\u2066"}
        await refused(r.ann, invisible, "empty_chat", r.others(r.ann), r.state)


@provokes("bad_name")
async def bad_table_name(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        ann, bob = await h.client("ann"), await h.client("bob")
        spoof = {"type": "create_room", "name": "bob's table\u202e"}
        await refused(ann, spoof, "bad_name", (bob,))


@provokes("chat_rate_limited")
async def chat_rate_limited(tmp_path: Path) -> None:
    async with server(tmp_path, chat_rate=1e-6, chat_burst=2) as h:
        r = await open_room(h)
        for n in range(2):
            await r.ann.send({"type": "chat", "room_id": r.room_id, "text": f"line {n}"})
        await drain(r.ann)  # her pong comes after both lines went out
        heard = await drain(r.sam)
        assert [f["text"] for f in heard if f["type"] == "chat"] == ["line 0", "line 1"], heard
        chat = {"type": "chat", "room_id": r.room_id, "text": "one too many"}
        await refused(r.ann, chat, "chat_rate_limited", r.others(r.ann), r.state)


@provokes("hello_first")
async def hello_first(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        r = await open_room(h)
        anonymous = await h.client()
        message = {"type": "take_seat", "room_id": r.room_id, "seat": 2}
        await refused(anonymous, message, "hello_first", r.others(anonymous), r.state)


@provokes("already_identified")
async def already_identified(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        r = await open_room(h)
        again = {"type": "hello", "token": r.ann.token}
        await refused(r.bob, again, "already_identified", r.others(r.bob), r.state)
        # bob is still bob: as ann, the owner, he could remove seat 1
        remove = {"type": "remove_seat", "room_id": r.room_id, "seat": 1}
        await refused(r.bob, remove, "not_owner", r.others(r.bob), r.state)


@provokes("bad_token")
async def bad_token(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        r = await open_room(h)
        stranger = await h.client()
        hello = {"type": "hello", "token": "x" * 32}  # well formed; nobody has it
        await refused(stranger, hello, "bad_token", r.others(stranger), r.state)
        take = {"type": "take_seat", "room_id": r.room_id, "seat": 2}
        await refused(stranger, take, "hello_first", r.others(stranger), r.state)


async def stored_log(schema: str, room_id: str) -> list[str]:
    """The room's durable log as PostgreSQL holds it (read directly, not through a proxy)."""
    conn = await pg_connect(schema)
    try:
        rows = await conn.fetch(
            "SELECT entry FROM room_log WHERE room_id = $1 ORDER BY version", room_id
        )
        return [row["entry"] for row in rows]
    finally:
        await conn.close()


@provokes("storage_unavailable")
async def storage_unavailable(tmp_path: Path) -> None:
    """A server on PostgreSQL behind a TCP relay; the relay is cut during a command."""
    await (await pg_connect()).close()  # fail now if PostgreSQL itself is down
    proxy = Proxy.to_postgres()
    await proxy.start()
    try:
        async with (
            fresh_schema("kj_codes") as schema,
            server(
                tmp_path, database_url=proxy.url(), database_schema=schema, quick_when_full=False
            ) as h,
        ):
            r = await open_room(h)
            log = await stored_log(schema, r.room_id)
            ready = {"type": "ready", "room_id": r.room_id}
            await proxy.stop()
            try:  # a change the room would store, and a plain read of the store
                await refused(r.ann, ready, "storage_unavailable", r.others(r.ann), r.state)
                record = {"type": "get_record", "match_id": r.room_id}
                await refused(r.eve, record, "storage_unavailable", r.others(r.eve), r.state)
            finally:
                await proxy.start()  # the same port
            assert await stored_log(schema, r.room_id) == log
            # once storage is back the same command goes through
            update = await r.ann.request(ready, "update")
            assert update["type"] == "update" and update["kind"] == "ready", update
    finally:
        await proxy.stop()


async def subscribers(url: str, channel: str) -> int:
    client = aioredis.from_url(url, socket_timeout=3, socket_connect_timeout=3)
    try:
        ((_, count),) = await client.pubsub_numsub(channel)
        return int(count)
    finally:
        await client.aclose()


@provokes("room_unavailable", pytest.mark.multinode)
async def room_unavailable(tmp_path: Path) -> None:
    """Two nodes; the owner of a room is killed (SIGKILL) and a command for the room comes
    through the other node while the dead owner's lease still holds (60 s here)."""
    await redis_ping(REDIS_URL)
    prefix = "t" + secrets.token_hex(6)
    async with fresh_schema("kj_codes") as schema:
        cluster = Cluster(tmp_path, schema, prefix)
        clients: list[GameClient] = []

        async def client(url: str, nickname: str) -> GameClient:
            c = await GameClient.connect(url, proxy=None, open_timeout=5, close_timeout=1)
            clients.append(c)
            assert (await c.hello(nickname))["type"] == "welcome"
            return c

        try:
            n1, n2 = await cluster.start("n1", "n2", KLAVERJAS_LEASE_SECONDS="60")
            ann = await client(n1.url, "ann")
            created = await ann.request({"type": "create_room", "seat": 0}, "snapshot")
            room_id = created["room_id"]
            assert await cluster.owner(room_id) is n1
            bob, sam = await client(n2.url, "bob"), await client(n2.url, "sam")
            await cluster.kill(n1)
            async with asyncio.timeout(5):  # Redis has seen n1's connections go
                while await subscribers(REDIS_URL, f"{prefix}:node:n1"):
                    await asyncio.sleep(0.02)
            take = {"type": "take_seat", "room_id": room_id, "seat": 1}
            await refused(bob, take, "room_unavailable", [sam], lambda: stored_log(schema, room_id))
        finally:
            for c in clients:
                await c.close()
            await cluster.close()
            await redis_purge(REDIS_URL, prefix)


# == §7, rooms =============================================================================


@provokes("no_such_room")
async def no_such_room(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        r = await open_room(h)
        take = {"type": "take_seat", "room_id": UNKNOWN_ROOM, "seat": 2}
        await refused(r.eve, take, "no_such_room", r.others(r.eve), r.state)


@provokes("invite_required")
async def invite_required(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        r = await open_room(h, private=True)
        take = {"type": "take_seat", "room_id": r.room_id, "seat": 2}
        await refused(r.eve, take, "invite_required", r.others(r.eve), r.state)


@provokes("solo_game")
async def solo_game(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        ann, bob = await h.client("ann"), await h.client("bob")
        solo = await ann.request({"type": "new_game", "level": "random"}, "snapshot")
        room_id = solo["room_id"]
        while ann.tables[room_id].turn != 0:  # the CPUs act up to ann's turn, then wait
            await ann.next("update", room_id=room_id)
        store = (await h.stores()).rooms

        async def state() -> Any:
            return await store.log(room_id), await store.room(room_id)

        for frame in (
            {"type": "watch", "room_id": room_id},
            {"type": "take_seat", "room_id": room_id, "seat": 1},
        ):
            await refused(bob, frame, "solo_game", (ann,), state)


@provokes("bad_invite")
async def bad_invite(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        r = await open_room(h, private=True)
        take = {"type": "take_seat", "invite_code": "IIII-IIII", "seat": 2}  # no I in codes
        await refused(r.eve, take, "bad_invite", r.others(r.eve), r.state)


@provokes("not_a_member")
async def not_a_member(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        r = await open_room(h)
        chat = {"type": "chat", "room_id": r.room_id, "text": "hello, room"}
        await refused(r.eve, chat, "not_a_member", r.others(r.eve), r.state)


@provokes("not_seated")
async def not_seated(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        r = await open_room(h)
        ready = {"type": "ready", "room_id": r.room_id}
        await refused(r.sam, ready, "not_seated", r.others(r.sam), r.state)


@provokes("not_owner")
async def not_owner(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        r = await open_room(h)
        add = {"type": "add_cpu", "room_id": r.room_id, "seat": 2}
        await refused(r.bob, add, "not_owner", r.others(r.bob), r.state)


@provokes("room_started")
async def room_started(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        t = await playing(h)
        eve = await h.client("eve")
        take = {"type": "take_seat", "room_id": t.room_id, "seat": 1}
        await refused(eve, take, "room_started", t.players, t.state)


@provokes("already_seated")
async def already_seated(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        r = await open_room(h)
        take = {"type": "take_seat", "room_id": r.room_id, "seat": 1}  # bob's own seat
        await refused(r.bob, take, "already_seated", r.others(r.bob), r.state)


@provokes("seat_taken")
async def seat_taken(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        r = await open_room(h)
        take = {"type": "take_seat", "room_id": r.room_id, "seat": 1}
        await refused(r.eve, take, "seat_taken", r.others(r.eve), r.state)


@provokes("seat_empty")
async def seat_empty(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        r = await open_room(h)
        remove = {"type": "remove_seat", "room_id": r.room_id, "seat": 3}
        await refused(r.ann, remove, "seat_empty", r.others(r.ann), r.state)


@provokes("cannot_remove_self")
async def cannot_remove_self(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        r = await open_room(h)
        remove = {"type": "remove_seat", "room_id": r.room_id, "seat": 0}
        await refused(r.ann, remove, "cannot_remove_self", r.others(r.ann), r.state)


@provokes("match_running")
async def match_running(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        t = await playing(h)
        bob = t.players[1]
        leave = {"type": "leave_room", "room_id": t.room_id}
        await refused(bob, leave, "match_running", t.others(bob), t.state)


@provokes("not_playing")
async def not_playing_in_a_room(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        r = await open_room(h)
        act = {"type": "act", "room_id": r.room_id, "action": "pass"}
        await refused(r.ann, act, "not_playing", r.others(r.ann), r.state)


@provokes("stale_version")
async def stale_version(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        t = await playing(h)
        player = t.on_turn()
        version = player.tables[t.room_id].version
        stale = t.act("pass", version=version - 1)  # "pass" is legal now: only the version is off
        await refused(player, stale, "stale_version", t.others(player), t.state)


@provokes("deal_pause")
async def deal_pause(tmp_path: Path) -> None:
    async with server(tmp_path, deal_pause=8.0) as h:
        t = await playing(h, deals=2, trump_mode="dealer")
        await play_until(
            t.players, t.room_id, lambda: bool(t.players[0].tables[t.room_id].room.get("pause"))
        )
        for player in t.players:
            await drain(player)
        player = t.players[0]
        early = t.act(player.tables[t.room_id].hand[0])
        await refused(player, early, "deal_pause", t.others(player), t.state)


@provokes("room_closed")
async def room_closed(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        t = await playing(h)  # one deal
        room_id = t.room_id
        await play_until(t.players, room_id, lambda: t.players[0].tables[room_id].over)
        for player in t.players:
            await drain(player)
        for message in ({"type": "chat", "room_id": room_id, "text": "gg"},
                        {"type": "back", "room_id": room_id}, t.act("pass")):  # fmt: skip
            await refused(t.players[0], message, "room_closed", t.others(t.players[0]))


@provokes("room_closed")
async def room_closed_before_its_match(tmp_path: Path) -> None:
    """An open room that closed (its last seated player left, or all of them were gone for
    ``abandon_after``): its spectators, and the players who left it, hear room_closed."""
    async with server(tmp_path) as h:
        r = await open_room(h)  # ann and bob seated, sam watching
        await r.bob.send({"type": "leave_room", "room_id": r.room_id})
        await r.ann.send({"type": "leave_room", "room_id": r.room_id})
        closing = await r.sam.next("update", kind="closed", room_id=r.room_id)
        assert closing["room"]["status"] == "closed", closing
        for client in (r.sam, r.ann, r.bob):
            for kind in ("chat", "back", "continue", "hint", "act"):
                message = {"type": kind, "room_id": r.room_id}
                message |= {"text": "hello?"} if kind == "chat" else {}
                message |= {"action": "pass"} if kind == "act" else {}
                await refused(client, message, "room_closed", r.others(client))
        # abandoned: nobody seated connected for abandon_after
        ann = await h.client("ann2")
        created = await ann.request({"type": "create_room", "seat": 0}, "snapshot")
        room_id = created["room_id"]
        sam = await h.client("sam2")
        watched = await sam.request({"type": "watch", "room_id": room_id}, "snapshot")
        assert watched["seat"] is None, watched
        await ann.close()
        await drain(sam)
        h.advance(h.settings.abandon_after + 1)
        await sam.next("update", kind="closed", room_id=room_id)
        message = {"type": "chat", "room_id": room_id, "text": "anyone?"}
        await refused(sam, message, "room_closed", [r.sam])


@provokes("no_such_match")
async def no_such_match(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        r = await open_room(h)
        unfinished = {"type": "get_record", "match_id": r.room_id}
        await refused(r.ann, unfinished, "no_such_match", r.others(r.ann), r.state)


async def daily_finished(h: Harness) -> tuple[GameClient, str]:
    """A player who has finished today's (one-deal) daily game, and its room."""
    ann = await h.client("ann")
    snap = await ann.request({"type": "daily_start"}, "snapshot")
    room_id = snap["room_id"]
    await play_until([ann], room_id, lambda: ann.tables[room_id].over)
    await drain(ann)
    store = (await h.stores()).rooms  # its status is stored once the match's subscribers heard it
    async with asyncio.timeout(15):
        while (row := await store.room(room_id)) is None or row.status != "finished":
            await asyncio.sleep(0.01)
    return ann, room_id


@provokes("bad_nickname")
async def bad_nickname(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        ann = await h.client("ann")
        store = (await h.stores()).identities

        async def state() -> Any:
            return await store.player(ann.player_id)

        frame = {"type": "set_nickname", "nickname": "two  spaces"}
        await refused(ann, frame, "bad_nickname", (), state)


@provokes("nickname_taken")
async def nickname_taken(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        ann, bob = await h.client("ann"), await h.client("bob")
        await ann.request({"type": "set_nickname", "nickname": "Anna"}, "nickname")
        store = (await h.stores()).identities

        async def state() -> Any:
            return await store.player(bob.player_id)

        frame = {"type": "set_nickname", "nickname": "ANNA"}
        await refused(bob, frame, "nickname_taken", (ann,), state)


@provokes("rematch_not_allowed")
async def rematch_not_allowed(tmp_path: Path) -> None:
    async with server(tmp_path, daily_deals=1) as h:
        ann, room_id = await daily_finished(h)
        await refused(ann, {"type": "rematch", "room_id": room_id}, "rematch_not_allowed")


@provokes("no_such_deal")
async def no_such_deal(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        ann = await h.client("ann")
        message = {"type": "new_game", "level": "random", "rules": {"deals": 1}}
        room_id = (await ann.request(message, "snapshot"))["room_id"]
        await play_until([ann], room_id, lambda: ann.tables[room_id].over)
        await drain(ann)
        await refused(ann, {"type": "review", "match_id": room_id, "deal": 1}, "no_such_deal")


@provokes("daily_not_over")
async def daily_not_over(tmp_path: Path) -> None:
    async with server(tmp_path, daily_deals=1) as h:
        ann, room_id = await daily_finished(h)
        await refused(ann, {"type": "get_record", "match_id": room_id}, "daily_not_over")


# == §7, the daily game ====================================================================


@provokes("daily_played")
async def daily_played(tmp_path: Path) -> None:
    async with server(tmp_path, daily_deals=1) as h:
        ann, room_id = await daily_finished(h)
        stores = await h.stores()
        day = day_of(h.clock.wall())

        async def state() -> Any:
            return await stores.daily.daily_attempt(day, ann.player_id), await stores.rooms.room(
                room_id
            )

        await refused(ann, {"type": "daily_start"}, "daily_played", (), state)


@provokes("daily_not_finished")
async def daily_not_finished(tmp_path: Path) -> None:
    async with server(tmp_path, daily_deals=1) as h:
        ann, _ = await daily_finished(h)
        bob = await h.client("bob")  # has not played today: ann's result stays hidden
        await refused(bob, {"type": "daily_board"}, "daily_not_finished", (ann,))


@provokes("no_such_day")
async def no_such_day(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        ann = await h.client("ann")
        await refused(ann, {"type": "daily_board", "date": "2999-12-31"}, "no_such_day")


# == §7, profiles and ratings ==============================================================


@provokes("no_such_player")
async def no_such_player(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        ann, bob = await h.client("ann"), await h.client("bob")
        message = {"type": "get_profile", "player_id": "p_0000000000000000"}
        await refused(ann, message, "no_such_player", (bob,))


# == §7, score sheets ======================================================================


@dataclass
class Sheet:
    """A score sheet: ann made it (one deal in), bob follows its edit link, sam its view
    link."""

    codes: dict[str, str]
    ann: GameClient
    bob: GameClient
    sam: GameClient

    @property
    def edit(self) -> str:
        return self.codes["edit"]

    def others(self, offender: GameClient) -> list[GameClient]:
        return [c for c in (self.ann, self.bob, self.sam) if c is not offender]

    def change(self, kind: str, **fields: Any) -> dict[str, Any]:
        return {"type": f"sheet_{kind}", "code": self.edit, "version": 2, **fields}

    async def state(self) -> dict[str, Any]:
        await drain(self.ann)  # so that the reply is not an earlier frame
        reply = await self.ann.request({"type": "sheet_open", "code": self.edit}, "sheet")
        assert reply["type"] == "sheet", reply
        return reply["sheet"]


SHEET_DEAL = {"playing": 0, "points": [100, None]}


async def sheet(h: Harness, **fields: Any) -> Sheet:
    ann, bob, sam = [await h.client(n) for n in ("ann", "bob", "sam")]
    made = await ann.request({"type": "sheet_create", "teams": ["Wij", "Zij"], **fields}, "sheet")
    assert made["type"] == "sheet", made
    codes = made["codes"]
    for client, code in ((bob, codes["edit"]), (sam, codes["view"])):
        reply = await client.request({"type": "sheet_open", "code": code}, "sheet")
        assert reply["type"] == "sheet", reply
    s = Sheet(codes, ann, bob, sam)
    await ann.send({"type": "sheet_deal", "code": s.edit, "version": 1, **SHEET_DEAL})
    for client in (ann, bob, sam):
        await client.next("sheet_update", version=2)
    return s


@provokes("bad_sheet_code")
async def bad_sheet_code(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        s = await sheet(h)
        await refused(s.bob, {"type": "sheet_open", "code": "NOSUCHCODE"}, "bad_sheet_code",
                      s.others(s.bob), s.state)  # fmt: skip


@provokes("read_only")
async def read_only(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        s = await sheet(h)
        change = {**s.change("undo"), "code": s.codes["view"]}
        await refused(s.sam, change, "read_only", s.others(s.sam), s.state)


@provokes("invalid_deal")
async def invalid_deal(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        s = await sheet(h)
        bad = s.change("deal", playing=0, points=[100, 100])
        await refused(s.bob, bad, "invalid_deal", s.others(s.bob), s.state)


@provokes("no_such_deal")
async def no_such_sheet_deal(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        s = await sheet(h)
        await refused(
            s.bob, s.change("delete", deal_id=7), "no_such_deal", s.others(s.bob), s.state
        )


@provokes("deals_after_end")
async def deals_after_end(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        s = await sheet(h, target=200)  # deal 1: 100 - 62
        await s.ann.send(s.change("deal", **SHEET_DEAL))  # deal 2: 200 - 124, the end
        for client in (s.ann, s.bob, s.sam):
            await client.next("sheet_update", version=3)
        first = (await s.state())["game"]["deals"][0]["id"]
        sooner = s.change("edit", deal_id=first, playing=0, points=[162, None], roem=[100, 0])
        await refused(s.bob, {**sooner, "version": 3}, "deals_after_end", s.others(s.bob),
                      s.state)  # fmt: skip


@provokes("stale_version")
async def stale_sheet_version(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        s = await sheet(h)
        stale = {**s.change("deal", **SHEET_DEAL), "version": 1}
        await refused(s.bob, stale, "stale_version", s.others(s.bob), s.state)


@provokes("game_ended")
async def game_ended(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        s = await sheet(h, deals=1)
        await refused(s.bob, s.change("deal", **SHEET_DEAL), "game_ended", s.others(s.bob), s.state)


@provokes("not_over")
async def not_over(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        s = await sheet(h)
        await refused(s.bob, s.change("continue"), "not_over", s.others(s.bob), s.state)


@provokes("empty_game")
async def empty_game(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        s = await sheet(h, deals=1)
        await s.bob.send(s.change("new_game"))
        for client in (s.ann, s.bob, s.sam):
            await client.next("sheet_update", version=3)
        again = {**s.change("new_game"), "version": 3}
        await refused(s.bob, again, "empty_game", s.others(s.bob), s.state)


@provokes("nothing_to_undo")
async def nothing_to_undo(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        ann = await h.client("ann")
        made = await ann.request({"type": "sheet_create", "teams": ["Wij", "Zij"]}, "sheet")
        undo = {"type": "sheet_undo", "code": made["codes"]["edit"], "version": 1}
        await refused(ann, undo, "nothing_to_undo")


@provokes("nothing_to_redo")
async def nothing_to_redo(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        s = await sheet(h)
        await refused(s.bob, s.change("redo"), "nothing_to_redo", s.others(s.bob), s.state)


@provokes("dealer_unchanged")
async def dealer_unchanged(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        s = await sheet(h)  # seat 0 dealt the first deal: seat 1 deals next
        same = s.change("dealer", seat=1)
        await refused(s.bob, same, "dealer_unchanged", s.others(s.bob), s.state)


@provokes("bad_name")
async def bad_name(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        ann, bob = await h.client("ann"), await h.client("bob")
        spoof = {"type": "sheet_create", "teams": ["Wij", "Zij\u202e"]}
        await refused(ann, spoof, "bad_name", (bob,))


# == §7, game actions ======================================================================


@provokes("bad_notation")
async def bad_notation(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        t = await playing(h)
        player = t.on_turn()
        await refused(player, t.act("Zz"), "bad_notation", t.others(player), t.state)


@provokes("not_your_turn")
async def not_your_turn(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        t = await playing(h)
        player = t.off_turn()
        await refused(player, t.act("pass"), "not_your_turn", t.others(player), t.state)


@provokes("wrong_phase")
async def wrong_phase(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        t = await playing(h)  # bidding: trump is being chosen
        player = t.on_turn()
        card = player.tables[t.room_id].hand[0]
        await refused(player, t.act(card), "wrong_phase", t.others(player), t.state)


async def trump_named(h: Harness) -> Table:
    """A match in its first trick: with ``forced``, the first seat named trump at once."""
    t = await playing(h, trump_mode="forced")
    await act_once(t.players, t.room_id)
    for player in t.players:
        await drain(player)
    return t


@provokes("card_not_in_hand")
async def card_not_in_hand(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        t = await trump_named(h)
        player = t.on_turn()
        card = next(c for c in CARDS if c not in player.tables[t.room_id].hand)
        await refused(player, t.act(card), "card_not_in_hand", t.others(player), t.state)


@provokes("illegal_card")
async def illegal_card(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        t = await trump_named(h)
        for _ in range(32):  # play on until the seat on turn holds a card it may not play
            table = t.on_turn().tables[t.room_id]
            if set(table.hand) - set(table.legal):
                break
            await act_once(t.players, t.room_id)
            for player in t.players:
                await drain(player)
        player = t.on_turn()
        table = player.tables[t.room_id]
        card = sorted(set(table.hand) - set(table.legal))[0]
        await refused(player, t.act(card), "illegal_card", t.others(player), t.state)


@provokes("illegal_action")
async def illegal_action(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        t = await playing(h, trump_mode="forced")  # the first seat must name a suit
        player = t.on_turn()
        await refused(player, t.act("pass"), "illegal_action", t.others(player), t.state)


# == §7, hints (issue 11) =================================================================


@provokes("hints_not_allowed", pytest.mark.bots)
async def hints_not_allowed(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        t = await running_quick(h)
        table = (await t.state())["rounds"][0][0]
        seated = {s["id"] for s in table["seats"]}
        player = next(p for p in t.players if p.player_id in seated)
        resumed = await player.request({"type": "resume", "room_id": table["room_id"]}, "snapshot")
        assert resumed["type"] == "snapshot", resumed
        hint = {"type": "hint", "room_id": table["room_id"]}
        await refused(player, hint, "hints_not_allowed", t.others(player), t.state)


@provokes("bots_busy", pytest.mark.bots)
async def bots_busy(tmp_path: Path) -> None:
    """One worker and no queue, held by a job until the test lets it go: the pool is full."""
    async with server(tmp_path, bot_workers=1, bot_queue=0) as h:
        t = await playing(h, rated=False)  # a rated match gives no hints
        player = t.on_turn()
        flag = tmp_path / "let-go"
        job = h.server.bots.submit(hold, str(flag))  # type: ignore[union-attr]
        assert job is not None
        try:
            hint = {"type": "hint", "room_id": t.room_id}
            await refused(player, hint, "bots_busy", t.others(player), t.state)
        finally:
            flag.touch()
            await job


# == §11, tournament error codes ===========================================================


@provokes("no_such_tournament")
async def no_such_tournament(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        t = await tourney(h, await open_quick(h), registered=1)
        register = {"type": "tournament_register", "tournament_id": UNKNOWN_TOURNAMENT}
        await refused(t.outsider, register, "no_such_tournament", t.others(t.outsider), t.state)


@provokes("already_registered")
async def already_registered(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        t = await tourney(h, await open_quick(h), registered=2)
        player = t.players[0]
        await refused(
            player, t.message("register"), "already_registered", t.others(player), t.state
        )


async def scheduled_from_the_command_line(h: Harness) -> str:
    """``klaverjas tournament schedule``: a Quick tournament that starts in 2030."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("KLAVERJAS_")}
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "commands", "tournament", "schedule", "--format", "quick",
        "--at", "2030-01-01T10:00:00", "--db", h.database["db"],
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, cwd=ROOT, env=env,
    )  # fmt: skip
    out, err = await asyncio.wait_for(process.communicate(), timeout=30)
    assert process.returncode == 0, err.decode()
    return scheduled_id(out.decode())


@provokes("tournament_full")
async def tournament_full(tmp_path: Path) -> None:
    async with server(tmp_path, quick_when_full=False) as h:  # (the clock is in 2027)
        t = await tourney(h, await scheduled_from_the_command_line(h), registered=8)
        assert (await t.state())["status"] == "scheduled"
        await refused(
            t.outsider, t.message("register"), "tournament_full", t.others(t.outsider), t.state
        )


@provokes("registration_closed")
async def registration_closed(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        t = await running_quick(h)
        await refused(
            t.outsider, t.message("register"), "registration_closed", t.others(t.outsider),
            t.state,
        )  # fmt: skip


@provokes("not_registered")
async def not_registered(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        t = await tourney(h, await open_quick(h), registered=2)
        await refused(
            t.outsider, t.message("unregister"), "not_registered", t.others(t.outsider), t.state
        )


@provokes("abandoned")
async def abandoned(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        t = await running_quick(h)
        leaver = t.players[0]
        await drain(leaver)
        reply = await leaver.request(t.message("leave"), "tournament")  # a CPU takes its seat
        seated = [e["id"] for table in reply["tournament"]["rounds"][0] for e in table["seats"]]
        assert leaver.player_id not in seated, reply
        await refused(leaver, t.message("register"), "abandoned", t.others(leaver), t.state)


@provokes("not_playing")
async def not_playing_in_a_tournament(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        t = await running_quick(h)
        await refused(t.outsider, t.message("leave"), "not_playing", t.others(t.outsider), t.state)


# == §8, close codes =======================================================================


@contextlib.asynccontextmanager
async def plain(url: str) -> AsyncIterator[ClientConnection]:
    """A bare websocket connection, to see every frame up to the close."""
    async with connect(url, max_size=2**22, close_timeout=1) as ws:
        yield ws


async def say_hello(ws: ClientConnection, nickname: str) -> dict[str, Any]:
    await ws.send(json.dumps({"type": "hello", "nickname": nickname}))
    welcome = json.loads(await asyncio.wait_for(ws.recv(), 5))
    assert welcome["type"] == "welcome", welcome
    return welcome


async def until_closed(ws: ClientConnection) -> tuple[list[dict[str, Any]], int | None, str]:
    """The frames received until the server closed the connection, and its close."""
    frames = []
    async with asyncio.timeout(10):
        with contextlib.suppress(ConnectionClosed):
            async for raw in ws:
                frames.append(json.loads(raw))
    return frames, ws.close_code, ws.close_reason or ""


@closes(1008, "too many refused messages")
async def too_many_refusals(tmp_path: Path) -> None:
    async with server(tmp_path, strikes=3) as h:
        bystander = await h.client("sam")
        async with plain(h.url) as ws:
            await say_hello(ws, "ann")
            for _ in range(3):
                await ws.send("{nope")
            frames, code, reason = await until_closed(ws)
        assert [f.get("code") for f in frames] == ["bad_json"] * 3, frames
        assert (code, reason) == (1008, "too many refused messages")
        assert await drain(bystander) == []


@closes(1008, "no hello in time")
async def no_hello_in_time(tmp_path: Path) -> None:
    """A connection that never says hello is let go after ``hello_timeout`` (on the
    injected clock), however many pings it sends; one that said hello stays."""
    async with server(tmp_path) as h:
        bystander = await h.client("sam")
        async with plain(h.url) as ws:
            await ws.send(json.dumps({"type": "ping", "ref": "p1"}))
            assert json.loads(await ws.recv())["type"] == "pong"
            h.advance(h.settings.hello_timeout - 0.5)
            await ws.send(json.dumps({"type": "ping", "ref": "p2"}))
            assert json.loads(await ws.recv())["type"] == "pong"  # not yet
            h.advance(1)
            frames, code, reason = await until_closed(ws)
        assert (frames, code, reason) == ([], 1008, "no hello in time")
        assert await drain(bystander) == []


@closes(1013, "cut off from the other servers: reconnect and resume")
async def cut_off(tmp_path: Path) -> None:
    """Two nodes; n1 loses Redis (its relay goes silent).  Once cut off for two leases it
    closes bob, who watches a room n2 runs (n1 can neither forward to it nor hear it), and
    keeps cal, who follows nothing elsewhere."""
    await redis_ping(REDIS_URL)
    prefix = "t" + secrets.token_hex(6)
    async with fresh_schema("kj_codes") as schema:
        cluster = Cluster(tmp_path, schema, prefix)
        clients: list[GameClient] = []

        async def client(url: str, nickname: str) -> GameClient:
            c = await GameClient.connect(url, proxy=None, open_timeout=5, close_timeout=1)
            clients.append(c)
            assert (await c.hello(nickname))["type"] == "welcome"
            return c

        try:
            n1, n2 = await cluster.start_linked("n1", "n2", KLAVERJAS_LEASE_SECONDS="1")
            ann = await client(n2.url, "ann")
            created = await ann.request({"type": "create_room", "seat": 0}, "snapshot")
            room_id = created["room_id"]
            bob, cal = await client(n1.url, "bob"), await client(n1.url, "cal")
            watched = await bob.request({"type": "watch", "room_id": room_id}, "snapshot")
            assert watched["type"] == "snapshot", watched
            assert n1.redis is not None
            n1.redis.pause()
            async with asyncio.timeout(15):
                while bob.ws.close_code is None:
                    await asyncio.sleep(0.05)
            assert (bob.ws.close_code, bob.ws.close_reason) == (
                1013, "cut off from the other servers: reconnect and resume"
            )  # fmt: skip
            assert (await cal.request({"type": "ping", "ref": "c"}, "pong"))["ref"] == "c"
            assert await drain(ann) == []
        finally:
            for c in clients:
                await c.close()
            await cluster.close()
            await redis_purge(REDIS_URL, prefix)


@closes(1013, "too many connections: try again later")
async def too_many_connections(tmp_path: Path) -> None:
    """One address may hold ``max_per_address`` connections; one more is closed at once,
    and once one of them goes a new one is let in."""
    async with server(tmp_path, max_per_address=3) as h:
        first, second = await h.client("a"), await h.client("b")
        async with plain(h.url) as third:
            await say_hello(third, "c")
            async with plain(h.url) as fourth:
                frames, code, reason = await until_closed(fourth)
            assert (frames, code, reason) == ([], 1013, "too many connections: try again later")
        await drain(first)
        again = await h.client("d")  # the third has gone: room for one
        assert again.player_id and await drain(second) == []


@closes(1007, None)
async def invalid_utf_8(tmp_path: Path) -> None:
    """A text frame whose bytes are not UTF-8: the WebSocket layer closes with 1007."""
    async with server(tmp_path) as h:
        bystander = await h.client("sam")
        raw = await RawClient.connect(h.url)
        try:
            await raw.send_raw_text(b'{"type":"ping","ref":"\xff"}')
            messages, code, _ = await raw.until_closed()
        finally:
            raw.close()
        assert (messages, code) == ([], 1007)
        assert await drain(bystander) == []


@closes(1009, None)
async def frame_over_64_kib(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        bystander = await h.client("sam")
        async with plain(h.url) as ws:
            await say_hello(ws, "ann")
            await ws.send('{"type":"ping"' + " " * (64 * 1024) + "}")
            frames, code, _ = await until_closed(ws)
        assert (frames, code) == ([], 1009)
        assert await drain(bystander) == []


def corrupt_tournament(db: Path) -> str:
    """An ended tournament whose durable log holds an entry this server does not know (a
    corrupted row), written straight into the database; its id."""
    tid = "t_" + secrets.token_hex(8)
    entries = [
        {"t": "created", "format": "quick", "start_at": 0.0, "fill_with_cpu": False,
         "start_when_full": True, "repeat": None, "seed": 1},
        {"t": "garbled"},
    ]  # fmt: skip
    with contextlib.closing(sqlite3.connect(db, timeout=10)) as conn, conn:
        conn.execute(
            "INSERT INTO tournaments (id, format, status, start_at, created_at)"
            " VALUES (?, 'quick', 'cancelled', 0, 0)",
            (tid,),
        )
        conn.executemany(
            "INSERT INTO room_log (room_id, version, entry) VALUES (?, ?, ?)",
            [(tid, n, json.dumps(e)) for n, e in enumerate(entries, 1)],
        )
    return tid


@closes(1011, "internal error")
async def internal_error(tmp_path: Path) -> None:
    """Watching that tournament replays its log, which fails: our failure, not the client's,
    so no error frame: that connection alone is closed, revealing nothing."""
    async with server(tmp_path) as h:
        tid = corrupt_tournament(Path(h.database["db"]))
        bystander = await h.client("sam")
        async with plain(h.url) as ws:
            welcome = await say_hello(ws, "ann")
            await ws.send(json.dumps({"type": "tournament_watch", "tournament_id": tid}))
            frames, code, reason = await until_closed(ws)
        assert (frames, code, reason) == ([], 1011, "internal error")
        assert await drain(bystander) == []
        back = await h.client(token=welcome["token"])  # it may come back at once
        assert back.player_id == welcome["player_id"]


@closes(1011, "keepalive ping timeout")
async def keepalive_timeout(tmp_path: Path) -> None:
    """A client that completes the handshake, then never answers the server's pings."""
    async with server(tmp_path, ping_interval=0.2, ping_timeout=1.0) as h:
        bystander = await h.client("sam")  # its websocket library answers pings
        silent = await RawClient.connect(h.url)
        try:
            messages, code, reason = await silent.until_closed()
        finally:
            silent.close()
        assert silent.pings >= 1
        assert (messages, code, reason) == ([], 1011, "keepalive ping timeout")
        assert await drain(bystander) == []


@closes(1012, "server restarting: resume shortly")
async def restart(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        ann = await h.client("ann")
        created = await ann.request({"type": "create_room", "seat": 0}, "snapshot")
        await h.stop()
        await asyncio.wait_for(ann.ws.wait_closed(), 10)
        assert (ann.ws.close_code, ann.ws.close_reason) == (
            1012,
            "server restarting: resume shortly",
        )
        # as the table says: reconnect and resume
        await h.start()
        back = await h.client(token=ann.token)
        again = await snapshot(back, created["room_id"])
        assert again["seat"] == 0 and again["version"] == created["version"]


async def dropped(h: Harness) -> float:
    """``klaverjas_dropped_connections_total`` from the server's ``/metrics``."""
    port = int(h.url.rsplit(":", 1)[1].strip("/"))
    status, body = await http_get(port, "/metrics")
    assert status == 200
    found = re.search(rb"^klaverjas_dropped_connections_total (\S+)$", body, re.MULTILINE)
    assert found is not None, body
    return float(found[1])


@closes(1013, "too slow to keep up: reconnect and resume")
async def too_slow(tmp_path: Path) -> None:
    """A spectator that stops reading while the room's owner chats on: the chat lines pile
    up in the socket buffers, then in its outbox of 16, and it is dropped.  The owner, who
    reads every line too, is not."""
    line = "\U0001f0a1" * 296  # 3.6 KB a frame: JSON spells each one "\ud83c\udca1"
    settings = {"outbox": 16, "rate": 1e6, "burst": 10**6, "chat_rate": 1e6, "chat_burst": 10**6}
    async with server(tmp_path, **settings) as h:
        owner = await h.client("ann")
        created = await owner.request({"type": "create_room"}, "snapshot")
        room_id = created["room_id"]
        slow = await RawClient.connect(h.url, rcvbuf=4096)
        try:
            await slow.send({"type": "hello", "nickname": "slow"})
            assert (await slow.message())["type"] == "welcome"
            await slow.send({"type": "watch", "room_id": room_id})
            assert (await slow.message())["type"] == "snapshot"  # from here it reads nothing
            sent = 0
            async with asyncio.timeout(30):
                while await dropped(h) < 1:
                    for _ in range(20):
                        chat = {"type": "chat", "room_id": room_id, "text": f"{sent:04}{line}"}
                        await owner.send(chat)
                        sent += 1
                    heard = await drain(owner)  # the owner keeps up
                    assert all(f["type"] == "chat" for f in heard), heard
            messages, code, reason = await slow.until_closed()
        finally:
            slow.close()
        assert (code, reason) == (1013, "too slow to keep up: reconnect and resume")
        numbers = [int(m["text"][:4]) for m in messages if m["type"] == "chat"]
        assert numbers == list(range(len(numbers))) and len(numbers) < sent, "not a clean prefix"
        assert await dropped(h) == 1  # the owner was not dropped


# == the parametrised tests ================================================================

# -- club evenings ----------------------------------------------------------------------------


@dataclass
class Night:
    """A club evening with its organiser (``org``) and a watcher by the view code."""

    codes: dict[str, str]
    org: GameClient
    guest: GameClient
    frame: dict[str, Any]  # the organiser's latest evening

    def command(self, kind: str, **fields: Any) -> dict[str, Any]:
        return {"type": f"evening_{kind}", "code": self.codes["organiser"],
                "version": self.frame["version"], **fields}  # fmt: skip

    async def do(self, kind: str, **fields: Any) -> dict[str, Any]:
        version = self.frame["version"]
        await self.org.send(self.command(kind, **fields))
        self.frame = await self.org.next("evening", version=version + 1)
        return self.frame

    async def state(self) -> tuple[int, dict[str, Any]]:
        await drain(self.guest)
        seen = await self.guest.request({"type": "evening_open", "code": self.codes["view"]},
                                        "evening")  # fmt: skip
        return seen["version"], seen["evening"]


async def night(h: Harness, players: int = 4, drawn: bool = False, **create: Any) -> Night:
    org, guest = await h.client("org"), await h.client("guest")
    made = await org.request(
        {"type": "evening_create", "name": "Vrijdag", "deals": 1, **create}, "evening"
    )
    n = Night(made["codes"], org, guest, made)
    pairs = create.get("format") == "pairs"
    for i in range(players):
        await n.do("check_in", name=f"p{i}", **({"members": [f"a{i}", f"b{i}"]} if pairs else {}))
    if drawn:
        await n.do("draw")
    await guest.request({"type": "evening_open", "code": n.codes["view"]}, "evening")
    return n


async def evening_refused(n: Night, kind: str, code: str, **fields: Any) -> None:
    await refused(n.org, n.command(kind, **fields), code, [n.guest], n.state)


async def a_deal_at_table_one(h: Harness, n: Night) -> None:
    phone = await h.client("table")
    table = n.frame["tables"][0]["code"]
    await phone.request({"type": "sheet_open", "code": table}, "sheet")
    await phone.request({"type": "sheet_deal", "code": table, "version": 1, "playing": 0,
                         "points": [100, None]}, "sheet_update")  # fmt: skip
    await n.org.next("evening", version=n.frame["version"])  # the deal, seen


@provokes("bad_evening_code")
async def bad_evening_code(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        n = await night(h)
        await refused(n.guest, {"type": "evening_open", "code": "NOSUCHCODE"},
                      "bad_evening_code", [n.org], n.state)  # fmt: skip


@provokes("organisers_only")
async def organisers_only(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        n = await night(h)
        draw = {**n.command("draw"), "code": n.codes["view"]}
        await refused(n.guest, draw, "organisers_only", [n.org], n.state)


@provokes("evening_over")
async def evening_over(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        n = await night(h, rounds=1, drawn=True)
        await n.do("close")
        await evening_refused(n, "draw", "evening_over")
        await evening_refused(n, "check_in", "evening_over", name="late")


@provokes("name_taken")
async def name_taken(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        await evening_refused(await night(h), "check_in", "name_taken", name="P0")


@provokes("pair_needs_two")
async def pair_needs_two(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        n = await night(h)
        await evening_refused(n, "check_in", "pair_needs_two", name="x", members=["a", "b"])


@provokes("evening_full")
async def evening_full(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        await evening_refused(await night(h, players=400), "check_in", "evening_full", name="x")


@provokes("no_such_entrant")
async def no_such_entrant(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        await evening_refused(await night(h), "withdraw", "no_such_entrant", entrant="e99")


@provokes("withdrawn")
async def withdrawn(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        n = await night(h)
        await n.do("withdraw", entrant="e1")
        await evening_refused(n, "withdraw", "withdrawn", entrant="e1")


@provokes("round_open")
async def round_open(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        await evening_refused(await night(h, drawn=True), "draw", "round_open")


@provokes("too_few")
async def too_few(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        await evening_refused(await night(h, players=3), "draw", "too_few")


@provokes("no_round_open")
async def no_round_open(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        await evening_refused(await night(h), "close", "no_round_open")


@provokes("same_entrant")
async def same_entrant(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        n = await night(h, drawn=True)
        await evening_refused(n, "swap", "same_entrant", a="e1", b="e1")


@provokes("not_in_round")
async def not_in_round(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        n = await night(h, drawn=True)
        await n.do("check_in", name="late")
        await evening_refused(n, "swap", "not_in_round", a="e1", b="e5")


@provokes("table_started")
async def table_started(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        n = await night(h, drawn=True)
        await a_deal_at_table_one(h, n)
        await evening_refused(n, "swap", "table_started", a="e1", b="e2")


@provokes("round_started")
async def round_started(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        n = await night(h, drawn=True)
        await a_deal_at_table_one(h, n)
        await evening_refused(n, "undo_draw", "round_started")


@provokes("no_such_round")
async def no_such_round(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        n = await night(h, drawn=True)
        await evening_refused(n, "penalty", "no_such_round", entrant="e1", points=20, round=2)


@provokes("not_at_a_table")
async def not_at_a_table(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        n = await night(h, players=5, drawn=True)
        (out,) = n.frame["evening"]["drawn"][0]["sitting_out"]
        await evening_refused(n, "penalty", "not_at_a_table", entrant=out, points=20)


@provokes("pairs_have_none")
async def pairs_have_none(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        n = await night(h, players=2, drawn=True, format="pairs")
        await evening_refused(n, "penalty", "pairs_have_none", entrant="e1", points=20)


# -- clubs ------------------------------------------------------------------------------------


@dataclass
class Society:
    """A club with its founder (``org``) and a watcher by the view code."""

    codes: dict[str, str]
    org: GameClient
    guest: GameClient
    frame: dict[str, Any]  # the founder's latest club

    def command(self, kind: str, **fields: Any) -> dict[str, Any]:
        return {"type": f"club_{kind}", "code": self.codes["organiser"],
                "version": self.frame["version"], **fields}  # fmt: skip

    async def do(self, kind: str, **fields: Any) -> dict[str, Any]:
        version = self.frame["version"]
        await self.org.send(self.command(kind, **fields))
        self.frame = await self.org.next("club", version=version + 1)
        return self.frame

    async def state(self) -> dict[str, Any]:
        await drain(self.guest)
        return await self.guest.request({"type": "club_open", "code": self.codes["view"]}, "club")


async def society(h: Harness, members: Sequence[str] = ("Anna",)) -> Society:
    org, guest = await h.client("org"), await h.client("guest")
    made = await org.request({"type": "club_create", "name": "De Troefkaart"}, "club")
    club = Society(made["codes"], org, guest, made)
    for name in members:
        await club.do("member_add", name=name)
    await guest.request({"type": "club_open", "code": club.codes["view"]}, "club")
    return club


async def club_refused(club: Society, kind: str, code: str, **fields: Any) -> None:
    await refused(club.org, club.command(kind, **fields), code, [club.guest], club.state)


@provokes("bad_club_code")
async def bad_club_code(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        club = await society(h)
        await refused(club.guest, {"type": "club_open", "code": "NOSUCHCODE"},
                      "bad_club_code", [club.org], club.state)  # fmt: skip


@provokes("organisers_only")
async def organisers_only_in_a_club(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        club = await society(h)
        add = {**club.command("member_add", name="Bas"), "code": club.codes["view"]}
        await refused(club.guest, add, "organisers_only", [club.org], club.state)


@provokes("no_such_member")
async def no_such_member(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        await club_refused(await society(h), "member_remove", "no_such_member", member="m9")


@provokes("no_such_organiser")
async def no_such_organiser(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        club = await society(h)
        await club_refused(club, "organiser_revoke", "no_such_organiser", organiser="o9")


@provokes("founder_stays")
async def founder_stays(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        club = await society(h)
        await club_refused(club, "organiser_revoke", "founder_stays", organiser="o1")


@provokes("bad_season_rule")
async def bad_season_rule(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        await club_refused(await society(h), "season", "bad_season_rule", best=2, drop=1)


@provokes("club_full")
async def club_full(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        club = await society(h)
        for i in range(19):  # the founder and 19 more: 20 organisers
            await club.do("organiser_add", name=f"co {i}")
        await club_refused(club, "organiser_add", "club_full", name="one more")


@provokes("not_a_club_evening")
async def not_a_club_evening(tmp_path: Path) -> None:
    async with server(tmp_path) as h:
        await evening_refused(await night(h), "check_in", "not_a_club_evening", member="m1")


def _error_params() -> list[Any]:
    params = []
    for code in sorted(documented_error_codes()):
        cases: list[Case | None] = list(ERRORS.get(code, [])) or [None]
        for case in cases:
            name = code if len(cases) == 1 or case is None else f"{code}-{case.name}"
            params.append(pytest.param(code, case, marks=case.marks if case else (), id=name))
    return params


def _close_params() -> list[Any]:
    return [
        pytest.param(code, reason, CLOSES.get((code, reason)), id=f"{code}-{reason or 'layer'}")
        for code, reason in sorted(documented_closes(), key=str)
    ]


@pytest.mark.parametrize(("code", "case"), _error_params())
async def test_error_code_is_provoked(code: str, case: Case | None, tmp_path: Path) -> None:
    if case is None:
        pytest.fail(f"client_protocol.md tables the error code {code!r}; no case provokes it")
    await case.run(tmp_path)


@pytest.mark.parametrize(("code", "reason", "case"), _close_params())
async def test_close_code_is_provoked(
    code: int, reason: str | None, case: Case | None, tmp_path: Path
) -> None:
    if case is None:
        pytest.fail(f"client_protocol.md tables the close {code} {reason!r}; no case provokes it")
    await case.run(tmp_path)


def test_every_case_is_for_a_documented_code() -> None:
    assert not set(ERRORS) - documented_error_codes(), "cases for codes the document lacks"
    assert not set(CLOSES) - documented_closes(), "cases for closes the document lacks"
