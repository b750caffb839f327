"""Bad input over real websockets: every refusal is a typed error frame to the sender alone,
nothing changes at the table, and the connection stays open (except where it must close)."""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from client import GameClient
from server.wire.protocol import MAX_FRAME
from tests.server.conftest import Harness, play_until, running_harness

pytestmark = pytest.mark.server

CARDS = [r + s for s in "cdhs" for r in "789TJQKA"]
_refs = itertools.count()


# -- helpers -----------------------------------------------------------------------------


async def drain(client: GameClient, timeout: float = 3.0) -> list[dict[str, Any]]:
    """Every frame the server had queued for ``client`` before it answers a fresh ping.

    The server handles one connection's messages in order, so the pong proves the
    connection is open and that whatever a previous message caused has been sent.
    """
    ref = f"sync-{next(_refs)}"
    await client.send({"type": "ping", "ref": ref})
    frames: list[dict[str, Any]] = []
    async with asyncio.timeout(timeout):
        while True:
            frame = await next_or_close(client)
            assert frame is not None, f"the connection closed ({client.ws.close_code})"
            if frame["type"] == "pong" and frame.get("ref") == ref:
                return frames
            frames.append(frame)


async def next_or_close(client: GameClient, timeout: float = 3.0) -> dict[str, Any] | None:
    """The next frame, or None as soon as the connection is closed with nothing queued."""
    async with asyncio.timeout(timeout):
        while True:
            try:
                return await asyncio.wait_for(client.frames.get(), 0.05)
            except TimeoutError:
                if client.ws.close_code is not None and client.frames.empty():
                    return None


@dataclass
class Table:
    harness: Harness
    room_id: str
    players: list[GameClient]
    spectator: GameClient

    @property
    def everyone(self) -> list[GameClient]:
        return [*self.players, self.spectator]

    def on_turn(self) -> GameClient:
        for player in self.players:
            state = player.tables[self.room_id]
            if state.turn is not None and state.turn == state.seat:
                return player
        raise AssertionError("nobody is on turn")

    def off_turn(self) -> GameClient:
        return next(p for p in self.players if p is not self.on_turn())

    async def state(self) -> list[dict[str, Any]]:
        """Each player's and the spectator's fresh snapshot (version, turn, hand, trick...)."""
        snaps = []
        for client in self.everyone:
            reply = await client.request(
                {"type": "resume", "room_id": self.room_id, "version": 0}, "snapshot"
            )
            assert reply["type"] == "snapshot", reply
            snaps.append(reply)
        for client in self.everyone:
            await drain(client)
        return snaps

    async def refused(
        self,
        offender: GameClient,
        send: Callable[[], Awaitable[Any]],
        code: str,
    ) -> dict[str, Any]:
        """Send something bad; check error-to-offender-only, no change, still open."""
        before = await self.state()
        await drain(offender)
        await send()
        frames = await drain(offender)  # (c) the ping after it gets its pong
        assert len(frames) == 1, frames
        error = frames[0]
        assert error["type"] == "error", error
        assert error["code"] == code, error
        assert isinstance(error["message"], str) and error["message"], error
        assert set(error) <= {"type", "code", "message", "ref"}, error
        for other in self.everyone:
            if other is not offender:
                assert await drain(other) == [], "another client heard of the refusal"
        assert await self.state() == before, "the table changed"
        assert not offender.ws.close_code
        return error


async def make_table(harness: Harness, **room: Any) -> Table:
    room.setdefault("rules", {"deals": 2})
    room_id, players = await harness.table("ann", "bob", "cas", "dee", **room)
    spectator = await harness.client("sam")
    reply = await spectator.request({"type": "watch", "room_id": room_id}, "snapshot")
    assert reply["type"] == "snapshot", reply
    for client in [*players, spectator]:
        await drain(client)
    return Table(harness, room_id, players, spectator)


@pytest.fixture
def database() -> str:
    """Refusals are decided before anything is stored: running them on PostgreSQL too adds
    nothing, so SQLite alone."""
    return "sqlite"


@pytest.fixture
async def table(harness: Harness) -> Table:
    return await make_table(harness)


def custom_harness(tmp_path: Path, **overrides: Any) -> AbstractAsyncContextManager[Harness]:
    return running_harness(tmp_path, **overrides)


def raw(client: GameClient, frame: str | bytes) -> Callable[[], Awaitable[None]]:
    return lambda: client.ws.send(frame)


def msg(client: GameClient, message: dict[str, Any]) -> Callable[[], Awaitable[None]]:
    return lambda: client.send(message)


def pass_frame(room_id: str, **extra: Any) -> str:
    """A legal action for the seat on turn at the start (bidding): it must not be applied."""
    return json.dumps({"type": "act", "room_id": room_id, "action": "pass", **extra})


async def reach_play(t: Table, done: Callable[[], bool] = lambda: True) -> None:
    """Play on (choosing trump first) until the table is in the play phase and ``done()``."""

    def ready() -> bool:
        player = t.on_turn()
        state = player.tables[t.room_id]
        return bool(state.legal) and state.legal[0] in CARDS and done()

    await play_until(t.players, t.room_id, ready, pick=lambda legal: legal[-1])
    for client in t.everyone:
        await drain(client)


# -- malformed frames ----------------------------------------------------------------------

FRAMES: list[tuple[str, Callable[[str], str], str, str]] = [
    ("malformed_json", lambda r: pass_frame(r)[:-1], "bad_json", ""),
    ("non_object", lambda r: json.dumps(["act", r, "pass"]), "bad_message", "object"),
    ("string", lambda r: json.dumps("pass"), "bad_message", "object"),
    ("missing_type", lambda r: json.dumps({"room_id": r, "action": "pass"}), "bad_message", "type"),
    ("null_type", lambda r: pass_frame(r).replace('"act"', "null"), "bad_message", "type"),
    ("unknown_type", lambda r: pass_frame(r).replace('"act"', '"cheat"'), "unknown_type", "cheat"),
    (
        "missing_field",
        lambda r: json.dumps({"type": "act", "room_id": r}),
        "invalid_field",
        "action",
    ),
    (
        "wrong_type",
        lambda r: json.dumps({"type": "act", "room_id": r, "action": ["pass"]}),
        "invalid_field",
        "action",
    ),
    (
        "wrong_type_int",
        lambda r: json.dumps({"type": "act", "room_id": r, "action": "pass", "version": "new"}),
        "invalid_field",
        "version",
    ),
    (  # a JSON type is never converted: "3" is no version, 1 no boolean, 2.0 no seat
        "numeric_string",
        lambda r: json.dumps({"type": "act", "room_id": r, "action": "pass", "version": "3"}),
        "invalid_field",
        "version",
    ),
    (
        "number_as_boolean",
        lambda r: json.dumps({"type": "ready", "room_id": r, "ready": 1}),
        "invalid_field",
        "ready",
    ),
    (
        "float_as_integer",
        lambda r: json.dumps({"type": "add_cpu", "room_id": r, "seat": 2.0}),
        "invalid_field",
        "seat",
    ),
    ("extra_field", lambda r: pass_frame(r, cheat=True), "invalid_field", "cheat"),
    (
        "over_16_kib",
        lambda r: pass_frame(r)[:-1] + " " * MAX_FRAME + "}",
        "frame_too_large",
        "16384",
    ),
]


@pytest.mark.parametrize(
    ("make", "code", "mention"),
    [case[1:] for case in FRAMES],
    ids=[case[0] for case in FRAMES],
)
async def test_malformed_frame_is_refused(
    table: Table, make: Callable[[str], str], code: str, mention: str
) -> None:
    # the seat on turn sends it: had the server read it as ``pass`` the table would move
    offender = table.on_turn()
    error = await table.refused(offender, raw(offender, make(table.room_id)), code)
    assert mention in error["message"]


async def test_binary_frame_is_refused(table: Table) -> None:
    offender = table.on_turn()
    frame = pass_frame(table.room_id).encode()
    await table.refused(offender, raw(offender, frame), "binary_frame")


async def test_frame_of_exactly_16_kib_is_accepted(table: Table) -> None:
    offender = table.on_turn()
    frame = '{"type":"ping","ref":"edge"' + " " * MAX_FRAME
    frame = frame[: MAX_FRAME - 1] + "}"
    assert len(frame) == MAX_FRAME
    await offender.ws.send(frame)
    assert (await offender.next(timeout=3)) == {"type": "pong", "ref": "edge"}


async def test_frame_over_16_kib_in_utf8_bytes_is_too_large(table: Table) -> None:
    """The limit is 16 KiB of frame, not 16 Ki characters: 6,000 euro signs are 18,000 bytes."""
    offender = table.on_turn()
    frame = json.dumps(
        {"type": "act", "room_id": table.room_id, "action": "pass", "ref": "€" * 6000},
        ensure_ascii=False,
    )
    assert len(frame) < MAX_FRAME < len(frame.encode())
    await table.refused(offender, raw(offender, frame), "frame_too_large")


async def test_frame_over_64_kib_closes_with_1009(table: Table) -> None:
    offender = table.on_turn()
    before = await table.state()
    await offender.ws.send(pass_frame(table.room_id)[:-1] + " " * (64 * 1024) + "}")
    async with asyncio.timeout(5):
        await offender.ws.wait_closed()
    assert offender.ws.close_code == 1009
    others = [c for c in table.everyone if c is not offender]
    for other in others:
        assert await drain(other) == []
    # nothing changed for the others: their fresh snapshots equal the earlier ones
    for client, snap in zip(table.everyone, before, strict=True):
        if client is offender:
            continue
        reply = await client.request(
            {"type": "resume", "room_id": table.room_id, "version": 0}, "snapshot"
        )
        assert reply == snap


# -- identity --------------------------------------------------------------------------


async def test_message_before_hello_is_refused(table: Table) -> None:
    stranger = await table.harness.client()
    await table.refused(stranger, msg(stranger, {"type": "lobby_subscribe"}), "hello_first")
    act = {"type": "act", "room_id": table.room_id, "action": "pass"}
    await table.refused(stranger, msg(stranger, act), "hello_first")
    watch = {"type": "watch", "room_id": table.room_id}
    await table.refused(stranger, msg(stranger, watch), "hello_first")
    # and after a hello it is served
    assert (await stranger.hello("late"))["type"] == "welcome"
    reply = await stranger.request(watch, "snapshot")
    assert reply["type"] == "snapshot"


async def test_bad_token_is_refused(table: Table) -> None:
    stranger = await table.harness.client()
    stale = "x" * 32  # well formed, but no player has it
    await table.refused(stranger, msg(stranger, {"type": "hello", "token": stale}), "bad_token")
    # still anonymous
    subscribe = {"type": "lobby_subscribe"}
    await table.refused(stranger, msg(stranger, subscribe), "hello_first")
    # a real token still works on the same connection
    welcome = await stranger.hello(token=table.players[0].token)
    assert welcome["type"] == "welcome"
    assert welcome["player_id"] == table.players[0].player_id
    assert welcome["token"] is None  # no new secret for a known player


async def test_hello_twice_is_refused_and_identity_kept(table: Table) -> None:
    ann = table.off_turn()
    on_turn = table.on_turn()
    again = {"type": "hello", "token": on_turn.token}
    await table.refused(ann, msg(ann, again), "already_identified")
    # ann did not become the seat on turn
    act = {"type": "act", "room_id": table.room_id, "action": "pass"}
    await table.refused(ann, msg(ann, act), "not_your_turn")
    await table.refused(ann, msg(ann, {"type": "hello", "nickname": "eve"}), "already_identified")


# -- game actions ----------------------------------------------------------------------


def act(t: Table, client: GameClient, action: str, **extra: Any) -> Callable[[], Awaitable[None]]:
    return msg(client, {"type": "act", "room_id": t.room_id, "action": action, **extra})


async def test_action_out_of_turn(table: Table) -> None:
    other = table.off_turn()
    error = await table.refused(other, act(table, other, "pass"), "not_your_turn")
    assert "turn" in error["message"]


async def test_card_while_trump_is_chosen_is_wrong_phase(table: Table) -> None:
    player = table.on_turn()
    card = player.tables[table.room_id].hand[0]
    await table.refused(player, act(table, player, card), "wrong_phase")


async def test_take_roem_while_playing_is_wrong_phase(table: Table) -> None:
    await reach_play(table)
    player = table.on_turn()
    await table.refused(player, act(table, player, "take"), "wrong_phase")
    await table.refused(player, act(table, player, "trump:h"), "wrong_phase")


@pytest.mark.parametrize("notation", ["Zz", "1h", "trump:x", "pas", "Jhh"])
async def test_malformed_action_is_bad_notation(table: Table, notation: str) -> None:
    player = table.on_turn()
    error = await table.refused(player, act(table, player, notation), "bad_notation")
    assert notation.removeprefix("trump:") in error["message"]


async def test_illegal_card_says_why(table: Table) -> None:
    room_id = table.room_id

    def must_follow() -> bool:
        state = table.on_turn().tables[room_id]
        if not state.trick:
            return False
        led = state.trick[0][1]
        return any(c[1] == led for c in state.hand) and any(c[1] != led for c in state.hand)

    await reach_play(table, must_follow)
    player = table.on_turn()
    state = player.tables[room_id]
    led = state.trick[0][1]
    card = next(c for c in state.hand if c[1] != led)
    assert card not in state.legal
    error = await table.refused(player, act(table, player, card), "illegal_card")
    assert "must" in error["message"] and card in error["message"]


async def test_card_not_in_hand(table: Table) -> None:
    await reach_play(table)
    player = table.on_turn()
    card = next(c for c in CARDS if c not in player.tables[table.room_id].hand)
    await table.refused(player, act(table, player, card), "card_not_in_hand")


async def test_acting_where_not_a_member(table: Table) -> None:
    stranger = await table.harness.client("eve")
    await table.refused(stranger, act(table, stranger, "pass"), "not_a_member")
    chat = {"type": "chat", "room_id": table.room_id, "text": "hi"}
    await table.refused(stranger, msg(stranger, chat), "not_a_member")


async def test_spectator_acting_is_not_seated(table: Table) -> None:
    spectator = table.spectator
    await table.refused(spectator, act(table, spectator, "pass"), "not_seated")
    back = {"type": "back", "room_id": table.room_id}
    await table.refused(spectator, msg(spectator, back), "not_seated")


async def test_stale_version_is_refused(table: Table) -> None:
    player = table.on_turn()
    version = player.tables[table.room_id].version
    stale = act(table, player, "pass", version=version - 1)
    error = await table.refused(player, stale, "stale_version")
    assert str(version) in error["message"]
    # the right version is accepted (the check is not a blanket refusal)
    await player.send(
        {"type": "act", "room_id": table.room_id, "action": "pass", "version": version}
    )
    update = await table.spectator.next("update", timeout=3, kind="act")
    assert update["version"] == version + 1


async def test_acting_before_the_match_starts(harness: Harness) -> None:
    ann = await harness.client("ann")
    created = await ann.request({"type": "create_room"}, "snapshot")
    room_id = created["room_id"]
    await drain(ann)
    await ann.send({"type": "act", "room_id": room_id, "action": "pass"})
    (error,) = await drain(ann)
    assert error["type"] == "error" and error["code"] == "not_playing"


# -- floods and abuse ------------------------------------------------------------------


async def test_flood_is_rate_limited_without_change(tmp_path: Path) -> None:
    async with custom_harness(tmp_path, rate=5.0, burst=10, strikes=1000) as h:
        t = await make_table(h)
        player = t.on_turn()
        before = await t.state()
        # exhaust the bucket, then the seat on turn sends a legal action: it is dropped
        for _ in range(30):
            await player.send({"type": "ping"})
        await player.send({"type": "act", "room_id": t.room_id, "action": "pass"})
        replies = [await player.next(timeout=3) for _ in range(31)]
        kinds = [r.get("code", r["type"]) for r in replies]
        assert set(kinds) <= {"pong", "rate_limited"}, kinds
        assert kinds.count("pong") <= 12 and kinds[-1] == "rate_limited", kinds
        assert all(set(r) == {"type", "code", "message"} for r in replies if r["type"] == "error")
        # the bucket refills on the server's clock: not at all while it stands still...
        await player.send({"type": "ping", "ref": "again"})
        assert (await player.next(timeout=3))["code"] == "rate_limited"
        # ...and a token a fifth of a second once it moves: the connection stayed open
        h.clock.advance(0.2)
        reply = await player.request({"type": "ping", "ref": "again"}, "pong")
        assert reply == {"type": "pong", "ref": "again"}
        assert player.ws.close_code is None
        for other in t.everyone:
            if other is not player:
                assert await drain(other) == []
        h.clock.advance(0.4)  # two tokens: the flooder's resume and its ping
        assert await t.state() == before


async def test_repeated_abuse_closes_with_1008(tmp_path: Path) -> None:
    async with custom_harness(tmp_path, strikes=3) as h:
        t = await make_table(h)
        player = t.on_turn()
        # strikes - 1 refusals in a row: still open, and a good message resets the count
        for _ in range(2):
            await player.ws.send("{nope")
        assert [f["code"] for f in await drain(player)] == ["bad_json", "bad_json"]
        for _ in range(2):
            await player.ws.send("{nope")
        assert [f["code"] for f in await drain(player)] == ["bad_json", "bad_json"]
        # more refusals in a row than ``strikes``: closed with 1008 (policy violation)
        for _ in range(4):
            await player.ws.send("{nope")
        async with asyncio.timeout(5):
            await player.ws.wait_closed()
        assert player.ws.close_code == 1008
        assert [e["code"] for e in player.errors][-3:] == ["bad_json"] * 3
        for other in t.everyone:
            if other is not player:
                assert await drain(other) == []
                assert other.ws.close_code is None


async def test_rate_limited_flood_closes_with_1008(tmp_path: Path) -> None:
    async with custom_harness(tmp_path, rate=1.0, burst=3, strikes=5) as h:
        flooder = await h.client("flo")
        bystander = await h.client("bys")
        for _ in range(30):
            await flooder.send({"type": "ping"})
        async with asyncio.timeout(5):
            await flooder.ws.wait_closed()
        assert flooder.ws.close_code == 1008
        assert [e["code"] for e in flooder.errors] == ["rate_limited"] * 5
        assert await drain(bystander) == []


async def test_chat_over_300_chars_is_refused(table: Table) -> None:
    player = table.players[0]
    long = {"type": "chat", "room_id": table.room_id, "text": "x" * 301}
    error = await table.refused(player, msg(player, long), "invalid_field")
    assert "text" in error["message"]
    await player.send({"type": "chat", "room_id": table.room_id, "text": "y" * 300})
    heard = await table.spectator.next("chat", timeout=3)
    assert heard["text"] == "y" * 300


async def test_chat_flood_is_limited(table: Table) -> None:
    player = table.players[0]
    for n in range(9):
        await player.send({"type": "chat", "room_id": table.room_id, "text": f"line {n}"})
    frames = await drain(player)
    chats = [f for f in frames if f["type"] == "chat"]
    errors = [f for f in frames if f["type"] == "error"]
    assert {e["code"] for e in errors} == {"chat_rate_limited"}
    assert len(chats) == 5 and len(errors) == 4  # the burst; the clock stands still
    # the refused lines reached nobody
    for other in table.everyone[1:]:
        heard = await drain(other)
        assert [f["text"] for f in heard] == [c["text"] for c in chats]
    assert player.ws.close_code is None


# -- our own failures --------------------------------------------------------------------


async def test_deeply_nested_json_is_refused(table: Table) -> None:
    """Valid-looking JSON that Python cannot decode (RecursionError) is bad input too."""
    offender = table.on_turn()
    frame = "[" * 5000 + "]" * 5000
    assert len(frame) < MAX_FRAME
    await table.refused(offender, raw(offender, frame), "bad_json")


async def test_huge_integer_is_refused(table: Table) -> None:
    """A 5,000-digit number (over Python's int conversion limit) is bad input too."""
    offender = table.on_turn()
    frame = pass_frame(table.room_id)[:-1] + ',"version":' + "7" * 5000 + "}"
    assert len(frame) < MAX_FRAME
    error = await table.refused(offender, raw(offender, frame), "bad_json")
    assert "digit" in error["message"] or "number" in error["message"]


async def test_unexpected_server_error_is_contained(table: Table) -> None:
    """The server-side exceptions reachable from outside are json.loads raising something
    other than JSONDecodeError: ValueError for an integer over 4,300 digits (and
    RecursionError for deep nesting).  Such a failure must stay with its client: either
    refused with an error frame, or that client alone closed with 1011."""
    offender = table.on_turn()
    before = await table.state()
    await offender.ws.send(pass_frame(table.room_id)[:-1] + ',"version":' + "7" * 5000 + "}")
    first = await next_or_close(offender)
    if first is None:  # closed: only with 1011, "internal error"
        async with asyncio.timeout(5):
            await offender.ws.wait_closed()
        assert offender.ws.close_code == 1011
    else:
        assert first["type"] == "error", first
        assert (await offender.request({"type": "ping"}, "pong"))["type"] == "pong"
    others = [c for c in table.everyone if c is not offender]
    for other in others:
        assert await drain(other) == []
        assert other.ws.close_code is None
    for client, snap in zip(table.everyone, before, strict=True):
        if client is offender:
            continue
        reply = await client.request(
            {"type": "resume", "room_id": table.room_id, "version": 0}, "snapshot"
        )
        assert reply == snap
    # the server still serves new connections, and the offender can come back
    back = await table.harness.client(token=offender.token)
    reply = await back.request({"type": "resume", "room_id": table.room_id}, "snapshot")
    assert reply["type"] == "snapshot" and reply["seat"] == offender.tables[table.room_id].seat
