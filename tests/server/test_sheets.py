"""The score sheet over real websockets, on SQLite and PostgreSQL: two phones that edit and
one that watches, entries at the same moment, a stale edit refused, bad input refused with
nothing changed, the read-only link, and a restart that loses nothing."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from client import GameClient
from server.sheet.actor import IDLE_SECONDS
from tests.server.conftest import Harness, sync

pytestmark = [pytest.mark.server, pytest.mark.sheet]

NEW = {"type": "sheet_create", "teams": ["Wij", "Zij"], "first_dealer": 1}


async def create(client: GameClient, **fields: Any) -> dict[str, Any]:
    snapshot = await client.request({**NEW, **fields}, "sheet")
    assert snapshot["type"] == "sheet", snapshot
    return snapshot


async def open_sheet(client: GameClient, code: str) -> dict[str, Any]:
    snapshot = await client.request({"type": "sheet_open", "code": code}, "sheet")
    assert snapshot["type"] == "sheet", snapshot
    return snapshot


def deal(code: str, version: int, playing: int = 0, **fields: Any) -> dict[str, Any]:
    return {"type": "sheet_deal", "code": code, "version": version, "playing": playing,
            "points": [100, None], **fields}  # fmt: skip


async def update(client: GameClient, version: int) -> dict[str, Any]:
    """The sheet update of ``version`` (later ones are left queued)."""
    frame = await client.next("sheet_update", version=version)
    return frame


async def three_phones(harness: Harness) -> tuple[list[GameClient], dict[str, str]]:
    ann, bob, eve = [await harness.client(n) for n in ("ann", "bob", "eve")]
    created = await create(ann)
    codes = created["codes"]
    assert created["role"] == "edit" and set(codes) == {"edit", "view"}
    assert codes["edit"] != codes["view"] and len(codes["edit"]) >= 10
    bob_view = await open_sheet(bob, codes["edit"])
    eve_view = await open_sheet(eve, codes["view"])
    assert bob_view["role"] == "edit" and bob_view["codes"] == codes
    assert eve_view["role"] == "view" and eve_view["codes"] == {"view": codes["view"]}
    assert bob_view["sheet"] == eve_view["sheet"] == created["sheet"]
    return [ann, bob, eve], codes


async def test_two_editors_and_a_viewer_share_one_sheet(harness: Harness) -> None:
    (ann, bob, eve), codes = await three_phones(harness)
    edit = codes["edit"]
    await bob.send({**deal(edit, 1, playing=0, roem=[0, 20]), "ref": "bob-1"})
    frames = [await update(phone, 2) for phone in (ann, bob, eve)]
    assert frames[1].pop("ref") == "bob-1"  # the sender's copy says it was its change
    assert frames[0] == frames[1] == frames[2] and "ref" not in frames[0]
    sheet = frames[0]["sheet"]
    (row,) = sheet["game"]["deals"]
    assert (row["points"], row["roem"], row["score"], row["dealer"]) == (
        [100, 62], [0, 20], [100, 82], 1,
    )  # fmt: skip
    assert (sheet["dealer"], sheet["leader"], sheet["game"]["totals"]) == (2, 3, [100, 82])
    assert frames[0]["change"]["text"] == "Deal 1: Wij 100, Zij 82"
    assert frames[0]["change"]["by"] == "bob"
    # the viewer may not change it, and nothing changes
    refused = await eve.request(deal(codes["view"], 2), "error")
    assert refused["code"] == "read_only" and "edit link" in refused["message"]
    # ann corrects it, bob undoes that, eve sees both
    await ann.send({"type": "sheet_edit", "code": edit, "version": 2, "deal_id": row["id"],
                    "playing": 1, "points": [None, 92], "roem": [0, 20]})  # fmt: skip
    assert (await update(eve, 3))["sheet"]["game"]["deals"][0]["score"] == [70, 112]
    await bob.send({"type": "sheet_undo", "code": edit, "version": 3})
    undone = await update(eve, 4)
    assert undone["sheet"]["game"]["deals"][0]["score"] == [100, 82]
    assert undone["change"]["text"] == "Undone: Deal 1 corrected: Wij 70, Zij 112"
    assert undone["sheet"]["redo"] == "Deal 1 corrected: Wij 70, Zij 112"


async def test_entries_at_the_same_moment_one_wins_the_other_is_refused(harness: Harness) -> None:
    (ann, bob, eve), codes = await three_phones(harness)
    edit = codes["edit"]
    await asyncio.gather(ann.send(deal(edit, 1)), bob.send(deal(edit, 1, points=[40, None])))
    seen = await sync(ann) + await sync(bob)
    errors = [f for f in seen if f["type"] == "error"]
    (refused,) = errors
    assert refused["code"] == "stale_version" and "version 1" in refused["message"]
    watched = await update(eve, 2)
    assert len(watched["sheet"]["game"]["deals"]) == 1  # one deal, never both, never merged
    snapshot = await open_sheet(eve, codes["view"])
    assert snapshot["version"] == 2 and len(snapshot["history"]) == 1


async def test_bad_input_is_refused_and_changes_nothing(harness: Harness) -> None:
    (ann, _bob, _eve), codes = await three_phones(harness)
    edit = codes["edit"]
    before = await open_sheet(ann, edit)
    cases = [
        (deal(edit, 1, points=[170, None]), "invalid_deal", "Wij's points must be 0 to 162"),
        (deal(edit, 1, points=[90, 80]), "invalid_deal", "add up to 162"),
        (deal(edit, 1, roem=[15, 0]), "invalid_deal", "multiple of 10"),
        (deal(edit, 1, points=[150, None], pit=0), "invalid_deal", "a pit is every trick"),
        (deal(edit, 1, points=["100", None]), "invalid_field", "points.0"),
        (deal(edit, 1, playing=True), "invalid_field", "playing"),
        (deal(edit, 1, playing=2), "invalid_field", "playing"),
        (deal(edit, "1"), "invalid_field", "version"),
        (deal("NOSUCHCODE", 1), "bad_sheet_code", "no score sheet has that code"),
        (deal(edit, 5), "stale_version", "you saw version 5"),
        ({"type": "sheet_delete", "code": edit, "version": 1, "deal_id": 9}, "no_such_deal",
         "game 1 has no deal 9"),
        ({"type": "sheet_undo", "code": edit, "version": 1}, "nothing_to_undo", "no change"),
        ({"type": "sheet_dealer", "code": edit, "version": 1, "seat": 1}, "dealer_unchanged",
         "deals next already"),
        ({**NEW, "teams": ["A", "a"]}, "bad_name", "different names"),
        ({**NEW, "teams": ["Wij", "Zi\u202ej"]}, "bad_name", "invisible"),
        ({**NEW, "teams": ["Wij", " "]}, "bad_name", "1 to 24 characters"),
        ({**NEW, "target": 1500, "deals": 16}, "invalid_field", "not both"),
        ({**NEW, "target": "1500"}, "invalid_field", "target"),
    ]  # fmt: skip
    for message, code, words in cases:
        refused = await ann.request(message, "error")
        assert (refused["code"], words in refused["message"]) == (code, True), refused
    after = await open_sheet(ann, edit)
    assert after["version"] == before["version"] == 1 and after["sheet"] == before["sheet"]


async def test_a_restart_loses_nothing(harness: Harness) -> None:
    (ann, bob, _eve), codes = await three_phones(harness)
    edit = codes["edit"]
    version = 1
    for points, pit in ((162, 0), (70, None), (100, None)):
        await ann.send(deal(edit, version, points=[points, None], pit=pit))
        version += 1
        await update(bob, version)
    await ann.send({"type": "sheet_delete", "code": edit, "version": version, "deal_id": 3})
    version += 1
    await update(bob, version)
    before = await open_sheet(bob, edit)
    await harness.restart()
    phone = await harness.client(token=ann.token)
    after = await open_sheet(phone, codes["view"])
    assert after["sheet"] == before["sheet"] and after["history"] == before["history"]
    assert after["version"] == version and len(after["history"]) == version - 1
    # and it goes on from there
    await phone.send(deal(edit, version))
    assert (await update(phone, version + 1))["sheet"]["game"]["deals"][-1]["number"] == 3


async def test_a_phone_back_from_offline_catches_up(harness: Harness) -> None:
    (ann, bob, _eve), codes = await three_phones(harness)
    await bob.close()
    await ann.send(deal(codes["edit"], 1))
    await update(ann, 2)
    back = await harness.client(token=bob.token)
    again = await open_sheet(back, codes["edit"])
    assert again["version"] == 2 and len(again["sheet"]["game"]["deals"]) == 1


async def test_the_exports(harness: Harness) -> None:
    (ann, _bob, _eve), codes = await three_phones(harness)
    version = 1
    for playing, points in ((0, 100), (1, 70), (0, 81)):
        await ann.send(deal(codes["edit"], version, playing, points=[points, None]))
        version += 1
        await update(ann, version)
    status, body, kind = await harness.http_get(f"/sheets/{codes['view']}.csv")
    assert status == 200 and kind.startswith("text/csv")
    lines = body.decode().splitlines()
    assert lines[0].startswith("game,deal,dealer,playing,")
    assert lines[1:] == [
        "1,1,Zij 1,Wij,100,62,0,0,,,100,62,100,62",
        "1,2,Wij 2,Zij,70,92,0,0,,,70,92,170,154",
        "1,3,Zij 2,Wij,81,81,0,0,nat,,0,162,170,316",
    ]
    status, page, kind = await harness.http_get(f"/sheets/{codes['edit']}/print")
    assert status == 200 and kind.startswith("text/html")
    text = page.decode()
    assert "Wij" in text and "316" in text and codes["edit"] not in text
    assert (await harness.http_get("/sheets/NOSUCHCODE.csv"))[0] == 404
    snapshot = json.dumps(await open_sheet(ann, codes["view"]))
    assert codes["edit"] not in snapshot  # a view link never learns the edit code


async def test_a_sheet_nobody_follows_is_let_go_and_opens_again(harness: Harness) -> None:
    ann = await harness.client("ann")
    made = await create(ann)
    codes, sheet_id = made["codes"], made["sheet_id"]
    await ann.send(deal(codes["edit"], 1))
    await update(ann, 2)
    assert (await harness.running())["sheets"] == [sheet_id]
    harness.advance(IDLE_SECONDS + 1)  # still followed: it stays
    await open_sheet(ann, codes["view"])
    assert (await harness.running())["sheets"] == [sheet_id]
    await ann.send({"type": "sheet_leave", "code": codes["edit"]})
    await sync(ann)
    harness.advance(IDLE_SECONDS + 1)
    async with asyncio.timeout(5):  # its task ends on its own once the timer has fired
        while (await harness.running())["sheets"]:
            await asyncio.sleep(0.01)
    again = await open_sheet(ann, codes["edit"])  # loaded from its log
    assert again["version"] == 2 and again["sheet"]["game"]["totals"] == [100, 62]
    assert (await harness.running())["sheets"] == [sheet_id]
