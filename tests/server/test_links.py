"""What a link tells before its holder says hello (issue 33 item 10): ``GET /invites/<code>``
says which table an invite opens and who made it, never a card or a player's id, and a
wrong code counts as over the websocket; a score sheet's link opens the sheet without a
nickname (``sheet_open`` before ``hello``), to watch, while a change still needs one."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import pytest

from tests.server.conftest import Harness, running_harness

pytestmark = pytest.mark.server


async def told(harness: Harness, code: str) -> tuple[int, Any]:
    status, body, kind = await harness.http_get(f"/invites/{code}")
    assert kind.startswith("application/json"), kind
    return status, json.loads(body)


async def told_once(harness: Harness, code: str, wanted: Callable[[int, Any], bool]) -> Any:
    """What the invite tells once it is ``wanted``: the lobby hears of a table's change a
    moment after its players (its list is fed by the table's published changes)."""
    async with asyncio.timeout(10):
        while not wanted(*(answer := await told(harness, code))):
            await asyncio.sleep(0.05)
    return answer[1]


async def test_an_invite_says_which_table_it_opens(harness: Harness) -> None:
    ann, bob = await harness.client("ann"), await harness.client("bob")
    made = await ann.request(
        {"type": "create_room", "name": "Friday night", "private": True, "seat": 0,
         "rules": {"preset": "rotterdam", "deals": 8}, "move_seconds": 45},
        "snapshot",
    )  # fmt: skip
    code = made["invite_code"]
    await bob.request({"type": "take_seat", "invite_code": code, "seat": 1}, "snapshot")
    await ann.request({"type": "add_cpu", "room_id": made["room_id"], "seat": 3}, "update")

    status, room = await told(harness, code.lower())  # typed in any case, as over the socket
    assert status == 200, room
    assert room["name"] == "Friday night" and room["owner_nickname"] == "ann"
    assert room["status"] == "open" and room["move_seconds"] == 45
    assert room["rules"]["variant"] == "rotterdam" and room["rules"]["end_value"] == 8
    seats = room["seats"]
    assert [s["nickname"] for s in seats[:2]] == ["ann", "bob"] and seats[2]["nickname"] is None
    assert seats[3]["cpu"] is True and seats[3]["level"]
    text = json.dumps(room)
    assert ann.player_id not in text and bob.player_id not in text  # no ids, no code
    assert code not in text and "view" not in room and "hand" not in text

    # once the match runs the invite still says so (to watch); once it ended, that it did
    await ann.request({"type": "add_cpu", "room_id": made["room_id"], "seat": 2}, "update")
    for client in (ann, bob):
        await client.send({"type": "ready", "room_id": made["room_id"]})
    await ann.next("update", kind="start")
    room = await told_once(harness, code, lambda status, room: room.get("status") != "open")
    assert room["status"] == "playing" and all(s["nickname"] for s in room["seats"])
    assert "cards" not in json.dumps(room) and "view" not in room


async def test_an_ended_table_and_a_wrong_code(tmp_path) -> None:
    async with running_harness(tmp_path, attempts=3) as h:
        ann = await h.client("ann")
        made = await ann.request({"type": "create_room", "private": True, "seat": 0}, "snapshot")
        code = made["invite_code"]
        await ann.request({"type": "leave_room", "room_id": made["room_id"]}, "update")
        refused = await told_once(h, code, lambda status, _: status != 200)  # it closed
        assert refused["error"] == "no_such_room"

        for wrong in ("WRONGCODE1", "WRONGCODE2"):
            status, refused = await told(h, wrong)
            assert (status, refused["error"]) == (404, "bad_invite")
        over_socket = await ann.request({"type": "watch", "invite_code": "WRONGCODE3"}, "error")
        assert over_socket["code"] == "bad_invite"  # the third wrong code, over the socket
        status, refused = await told(h, code)  # even a right one now
        assert (status, refused["error"]) == (429, "too_many_attempts")
        h.advance(h.settings.attempts_window)
        assert (await told(h, code))[0] == 404  # counted again, and ended as before
        status, _, _ = await h.http_get("/invites/x")  # no code at all
        assert status == 404


async def test_a_sheet_opens_without_a_nickname_to_watch(harness: Harness) -> None:
    ann = await harness.client("ann")
    made = await ann.request(
        {"type": "sheet_create", "players": ["Ann", "Bob", "Cas", "Dee"]}, "sheet"
    )
    codes = made["codes"]
    assert made["sheet"]["made_by"] == "ann"

    onlooker = await harness.client()  # no hello
    seen = await onlooker.request({"type": "sheet_open", "code": codes["view"]}, "sheet")
    assert seen["role"] == "view" and seen["codes"] == {"view": codes["view"]}
    assert seen["sheet"]["teams"] == ["Ann & Cas", "Bob & Dee"]
    assert seen["sheet"]["made_by"] == "ann"
    deal = {"type": "sheet_deal", "code": codes["edit"], "version": 1, "playing": 0,
            "points": [100, None]}  # fmt: skip
    await ann.request(deal, "sheet_update")
    update = await onlooker.next("sheet_update", version=2)  # followed live
    assert update["sheet"]["game"]["totals"] == [100, 62]

    # the edit link before hello: the sheet as it is, but no change without a nickname
    player = await harness.client()
    opened = await player.request({"type": "sheet_open", "code": codes["edit"]}, "sheet")
    assert opened["role"] == "edit" and opened["version"] == 2
    refused = await player.request({**deal, "version": 2}, "error")
    assert refused["code"] == "hello_first"
    assert (await player.request({"type": "lobby_subscribe"}, "error"))["code"] == "hello_first"
    welcome = await player.hello("bob")
    assert welcome["type"] == "welcome"
    again = await player.request({**deal, "version": 2}, "sheet_update")
    assert again["version"] == 3 and again["change"]["by"] == "bob"
    seen = await onlooker.next("sheet_update", version=3)
    assert seen["sheet"]["game"]["deals"][1]["by"] == "bob"

    wrong = await onlooker.request({"type": "sheet_open", "code": "WRONGCODE9"}, "error")
    assert wrong["code"] == "bad_sheet_code"
    await onlooker.send({"type": "sheet_leave", "code": codes["view"]})
