"""Text that others read: nicknames, table names and chat are normalised (NFC, single
spaces), and the characters that do not show or that reorder the text around them (NUL,
U+202E and the other bidirectional controls, zero-width characters) never reach anyone: a
name holding one is refused, a chat line has them removed."""

from __future__ import annotations

import pytest

from server.core.text import check_name, clean_chat, hidden
from tests.server.conftest import Harness, sync

pytestmark = pytest.mark.server

SPOOFS = ["ann\x00", "ann\u202egnp.exe", "a\u200bnn", "\u2066ann\u2069", "ann\ufeff", "ann\u200d"]


def test_the_rules_of_text() -> None:
    assert check_name("  Cafe\u0301   de Gans ", "a name", 24) == "Café de Gans"
    for spoof in SPOOFS:
        assert hidden(spoof)
        with pytest.raises(Exception, match="control or invisible"):
            check_name(spoof, "a name", 24)
    assert clean_chat("hi\u202e there\x07 \u200b!") == "hi there !"
    with pytest.raises(Exception, match="something to read"):
        clean_chat("\u200b\u202e ")


async def test_spoofed_names_are_refused_and_chat_is_cleaned(harness: Harness) -> None:
    for spoof in SPOOFS:
        guest = await harness.client()
        refused = await guest.request({"type": "hello", "nickname": spoof}, "error")
        assert refused["code"] == "bad_nickname", refused
    ann = await harness.client("ann")
    for spoof in SPOOFS:
        changed = await ann.request({"type": "set_nickname", "nickname": spoof}, "error")
        assert changed["code"] == "bad_nickname"
        named = await ann.request({"type": "create_room", "name": spoof}, "error")
        assert named["code"] == "bad_name" and "invisible" in named["message"]
    made = await ann.request({"type": "create_room", "name": " Tafel   Vier "}, "snapshot")
    assert made["room"]["name"] == "Tafel Vier"
    room_id = made["room_id"]
    await ann.send({"type": "chat", "room_id": room_id, "text": "\u202eevol\u200b ni"})
    line = await ann.next("chat")
    assert line["text"] == "evol ni"
    empty = await ann.request({"type": "chat", "room_id": room_id, "text": "\u200b\u2066"}, "error")
    assert empty["code"] == "empty_chat"
    await sync(ann)
