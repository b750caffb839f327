"""The session's own answers, word for word: welcome, pong, and the refusals it makes
before any room or tournament is involved."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.server.conftest import SQLITE_ONLY, Harness, running_harness

pytestmark = pytest.mark.server


@SQLITE_ONLY
async def test_welcome_in_full_and_again_with_the_token(harness: Harness) -> None:
    ann = await harness.client()
    welcome = await ann.request({"type": "hello", "nickname": "ann", "ref": "h1"}, "welcome")
    token, player = welcome["token"], welcome["player_id"]
    assert welcome == {
        "type": "welcome", "protocol": 1, "player_id": player, "nickname": "ann",
        "token": token, "rooms": [], "ref": "h1",
    }  # fmt: skip
    room = await ann.request({"type": "create_room", "seat": 2}, "snapshot")

    again = await harness.client()
    welcome = await again.request({"type": "hello", "token": token}, "welcome")
    assert welcome == {
        "type": "welcome", "protocol": 1, "player_id": player, "nickname": "ann",
        "token": None, "rooms": [{"room_id": room["room_id"], "seat": 2, "status": "open"}],
    }  # fmt: skip
    bob = await harness.client("bob")  # someone else's seats are not bob's
    assert (await bob.request({"type": "ping"}, "pong")) == {"type": "pong"}


@SQLITE_ONLY
async def test_pong_echoes_a_ref_and_only_a_ref(harness: Harness) -> None:
    client = await harness.client()
    assert await client.request({"type": "ping"}, "pong") == {"type": "pong"}
    assert await client.request({"type": "ping", "ref": ""}, "pong") == {"type": "pong"}
    assert await client.request({"type": "ping", "ref": "p"}, "pong") == {
        "type": "pong",
        "ref": "p",
    }


@SQLITE_ONLY
async def test_the_sessions_refusals_word_for_word(harness: Harness) -> None:
    client = await harness.client()
    refusals = [
        ({"type": "lobby_subscribe"}, "hello_first", "say hello before anything else"),
    ]
    for message, code, text in refusals:
        reply = await client.request({**message, "ref": "r"}, "error")
        assert reply == {"type": "error", "code": code, "message": text, "ref": "r"}
    await client.hello("ann")
    for message, code, text in [
        ({"type": "hello", "nickname": "ann"}, "already_identified",
         "this connection already said hello"),
        ({"type": "take_seat", "seat": 1}, "invalid_field", "room_id or invite_code is required"),
        ({"type": "watch"}, "invalid_field", "room_id or invite_code is required"),
    ]:  # fmt: skip
        reply = await client.request({**message, "ref": "r"}, "error")
        assert reply == {"type": "error", "code": code, "message": text, "ref": "r"}


async def test_the_rate_limits_say_so(tmp_path: Path) -> None:
    async with running_harness(tmp_path, rate=1e-6, burst=2, chat_rate=1e-6, chat_burst=1) as h:
        client = await h.client("ann")  # the hello takes one token
        await client.request({"type": "create_room", "seat": 0}, "snapshot")
        await client.send({"type": "ping", "ref": "late"})
        reply = await client.next("error")
        assert reply == {
            "type": "error", "code": "rate_limited", "message": "too many messages: slow down",
        }  # fmt: skip
    (tmp_path / "chat").mkdir()
    async with running_harness(tmp_path / "chat", chat_rate=1e-6, chat_burst=1) as h:
        client = await h.client("ann")
        room = await client.request({"type": "create_room", "seat": 0}, "snapshot")
        chat = {"type": "chat", "room_id": room["room_id"], "text": "hi", "ref": "c"}
        assert (await client.request(chat, "chat"))["text"] == "hi"
        assert await client.request(chat, "error") == {
            "type": "error", "code": "chat_rate_limited",
            "message": "chat is limited to a few lines a second", "ref": "c",
        }  # fmt: skip
