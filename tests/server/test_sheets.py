"""The score sheet over real websockets, on SQLite and PostgreSQL: two phones that edit and
one that watches, entries at the same moment, a stale edit refused, bad input refused with
nothing changed, the read-only link, and a restart that loses nothing."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

import pytest

from client import GameClient
from server.scoresheet import export
from server.scoresheet.sheet_actor import IDLE_SECONDS
from server.scoresheet.sheets import CODES_CACHED
from tests.server.conftest import Harness, running_harness, sync

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
    assert frames[0]["change"]["what"] == {
        "kind": "deal", "game": None, "deal": 1, "score": [100, 82], "nat": False, "pit": False,
    }  # fmt: skip
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
    corrected = {"kind": "edit", "game": None, "deal": 1, "score": [70, 112], "nat": False,
                 "pit": False}  # fmt: skip
    assert undone["change"]["what"] == {"kind": "undo", "change": corrected}
    assert undone["sheet"]["redo_what"] == corrected
    assert undone["sheet"]["undo_what"] == {**corrected, "kind": "deal", "score": [100, 82]}


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
         "the sheet has no deal 9"),
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


async def test_a_phone_whose_updates_were_lost_gets_the_missed_ones_or_the_whole(
    harness: Harness,
) -> None:
    """Changes written behind the server's back (appends reported as failed that went in)
    are a phone's lost updates: the sheet is loaded again from its log, and the phone that
    follows it gets each change it missed while the sheet keeps them (server setting
    ``history``), each with the sheet as it stands now; else one update with the whole
    history (client_protocol.md §14)."""
    harness.overrides["history"] = 2
    await harness.restart()
    ann, eve = await harness.client("ann"), await harness.client("eve")
    made = await create(ann)
    sheet_id, codes = made["sheet_id"], made["codes"]
    await open_sheet(eve, codes["view"])
    await ann.send(deal(codes["edit"], 1))
    await update(eve, 2)
    store = (await harness.stores()).logs

    async def behind(*versions: int) -> None:
        lost = {"playing": 1, "points": [60, 102], "roem": [0, 0], "pit": None}
        for version in versions:
            entry = {"t": "deal", "by": ann.player_id, "at": 1.0 + version, "deal": lost}
            await store.append(sheet_id, version, entry)
        seen = versions[0] - 1  # the sheet's version as it runs: its next write finds the
        refused = await ann.request(deal(codes["edit"], seen), "error")  # log ahead of it
        assert refused["code"] == "room_unavailable", refused

    await behind(3)  # one missed: kept
    missed = await update(eve, 3)
    assert missed["change"]["version"] == 3 and missed["change"]["by"] == "ann", missed
    assert "history" not in missed and missed["sheet"]["version"] == 3
    assert missed["sheet"]["game"]["totals"] == [160, 164]
    assert [f for f in await sync(eve) if f["type"] == "sheet_update"] == []

    await behind(4, 5, 6)  # three missed: more than the two kept
    whole = await update(eve, 6)
    assert "change" not in whole and [h["version"] for h in whole["history"]] == [2, 3, 4, 5, 6]
    now = await open_sheet(eve, codes["view"])
    assert (whole["sheet"], whole["history"]) == (now["sheet"], now["history"])


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
    assert "<html lang=en>" in text and "<th>Dealer</th>" in text and "Game 1" in text
    status, page, _ = await harness.http_get(f"/sheets/{codes['edit']}/print?lang=nl")
    assert status == 200 and "<html lang=nl>" in page.decode() and "Partij 1" in page.decode()
    assert "<th>Deler</th>" in page.decode() and "Game 1" not in page.decode()
    status, page, _ = await harness.http_get(f"/sheets/{codes['edit']}/print?lang=xx")
    assert status == 200 and "<html lang=en>" in page.decode()  # one we do not have: English
    status, body, _ = await harness.http_get(f"/sheets/{codes['edit']}/print?color=red")
    assert status == 400 and json.loads(body)["error"] == "invalid_field"
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


async def test_a_stale_correction_is_refused_and_changes_nothing(harness: Harness) -> None:
    (ann, bob, eve), codes = await three_phones(harness)
    edit = codes["edit"]
    await ann.send(deal(edit, 1))
    deal_id = (await update(bob, 2))["sheet"]["game"]["deals"][0]["id"]
    await ann.send(deal(edit, 2, playing=1, points=[None, 90]))  # ann's next deal, meanwhile
    await update(bob, 3)
    await update(eve, 3)
    correction = {"type": "sheet_edit", "code": edit, "version": 2, "deal_id": deal_id,
                  "playing": 0, "points": [120, None]}  # fmt: skip
    refused = await bob.request(correction, "error")  # bob corrects deal 1 as he saw it
    assert refused["code"] == "stale_version" and "you saw version 2" in refused["message"]
    assert [f for f in await sync(eve) if f["type"] == "sheet_update"] == []
    now = await open_sheet(eve, codes["view"])
    assert now["version"] == 3 and now["sheet"]["game"]["deals"][0]["points"] == [100, 62]


async def test_redo_continue_new_game_and_the_dealer_reach_the_viewer(harness: Harness) -> None:
    """Every kind of change reaches a phone that only watches, as the sheet now stands;
    a deal of the game before is corrected and deleted in its own game."""
    (ann, bob, eve), codes = await three_phones(harness)
    edit = codes["edit"]
    steps: list[tuple[GameClient, dict[str, Any], str]] = [
        (ann, {"type": "sheet_deal", "playing": 0, "points": [100, None]},
         "Deal 1: Wij 100, Zij 62"),
        (bob, {"type": "sheet_dealer", "seat": 0}, "Dealer corrected: Wij 1 deals next"),
        (bob, {"type": "sheet_undo"}, "Undone: Dealer corrected: Wij 1 deals next"),
        (ann, {"type": "sheet_redo"}, "Redone: Dealer corrected: Wij 1 deals next"),
    ]  # fmt: skip
    version = 1
    for phone, message, text in steps:
        await phone.send({**message, "code": edit, "version": version})
        version += 1
        seen = await update(eve, version)
        assert seen["change"]["text"] == text, seen
    assert (seen["sheet"]["dealer"], seen["sheet"]["leader"]) == (0, 1)
    assert seen["sheet"]["undo"] == "Dealer corrected: Wij 1 deals next"
    assert seen["sheet"]["undo_what"] == {"kind": "dealer", "seat": 0, "name": "Wij 1"}
    assert seen["sheet"]["redo"] is None
    # a game to 1500 is not over yet; make it end, play on, then start again
    refused = await bob.request({"type": "sheet_continue", "code": edit, "version": version},
                                "error")  # fmt: skip
    assert refused["code"] == "not_over"
    for points, roem in ((162, [500, 0]), (162, [1000, 0])):
        await ann.send(deal(edit, version, points=[points, None], roem=roem, pit=0))
        version += 1
        seen = await update(eve, version)
    game = seen["sheet"]["game"]
    assert (game["over"], game["winner"], game["end_deal"], game["totals"]) == (
        True, 0, 3, [100 + 762 + 1262, 62],
    )  # fmt: skip
    await bob.send({"type": "sheet_continue", "code": edit, "version": version})
    version += 1
    seen = await update(eve, version)
    assert seen["change"]["text"] == "Game 1 played on to 3000"
    assert seen["change"]["what"] == {"kind": "continue", "game": 1, "to": 3000}
    game = seen["sheet"]["game"]
    assert (game["over"], game["end_value"], game["continued"]) == (False, 3000, 1)
    await bob.send({"type": "sheet_new_game", "code": edit, "version": version})
    version += 1
    seen = await update(eve, version)
    assert seen["change"]["text"] == "Game 2 started"
    assert seen["change"]["what"] == {"kind": "new_game", "game": 2}
    sheet = seen["sheet"]
    assert sheet["game"]["number"] == 2 and sheet["game"]["deals"] == []
    (first,) = sheet["games"]
    assert (first["totals"], first["winner"], len(first["deals"])) == ([2124, 62], None, 3)
    # a deal of game 1, corrected and deleted from the game after it
    await ann.send(deal(edit, version, points=[162, None], roem=[0, 0]))
    version += 1
    await update(eve, version)
    old_deal = first["deals"][1]["id"]
    await bob.send({"type": "sheet_edit", "code": edit, "version": version, "deal_id": old_deal,
                    "playing": 1, "points": [None, 100]})  # fmt: skip
    version += 1
    seen = await update(eve, version)
    assert seen["change"]["text"] == "Game 1, deal 2 corrected: Wij 62, Zij 100"
    (first,) = seen["sheet"]["games"]
    assert first["totals"] == [100 + 62 + 1262, 62 + 100]
    assert seen["sheet"]["game"]["totals"] == [162, 0]  # game 2 as it was
    await bob.send({"type": "sheet_delete", "code": edit, "version": version,
                    "deal_id": old_deal})  # fmt: skip
    version += 1
    seen = await update(eve, version)
    assert seen["change"]["text"] == "Game 1, deal 2 deleted (Wij 62, Zij 100)"
    assert seen["change"]["what"] == {
        "kind": "delete", "game": 1, "deal": 2, "score": [62, 100], "nat": False, "pit": False,
    }  # fmt: skip
    assert [d["number"] for d in seen["sheet"]["games"][0]["deals"]] == [1, 2]


async def test_a_correction_that_would_leave_deals_after_the_end_is_refused(
    harness: Harness,
) -> None:
    ann, eve = await harness.client("ann"), await harness.client("eve")
    codes = (await create(ann, target=300))["codes"]
    edit = codes["edit"]
    await open_sheet(eve, codes["view"])
    for version in (1, 2, 3):
        await ann.send(deal(edit, version))  # 100 - 62 a deal: 300 - 186 ends it
        seen = await update(eve, version + 1)
    assert seen["sheet"]["game"]["end_deal"] == 3
    second = seen["sheet"]["game"]["deals"][1]["id"]
    correction = {"type": "sheet_edit", "code": edit, "version": 4, "deal_id": second,
                  "playing": 0, "points": [162, None], "roem": [100, 0]}  # fmt: skip
    refused = await ann.request(correction, "error")  # Wij at 362 with deal 2
    assert refused["code"] == "deals_after_end", refused
    assert refused["message"] == (
        "with this correction game 1 ends with deal 2 (Wij 362, Zij 62), but deal 3 comes "
        "after that: delete it first (the last first), then make the correction again"
    )
    assert [f for f in await sync(eve) if f["type"] == "sheet_update"] == []
    third = seen["sheet"]["game"]["deals"][2]["id"]
    await ann.send({"type": "sheet_delete", "code": edit, "version": 4, "deal_id": third})
    await update(eve, 5)
    await ann.send({**correction, "version": 5})
    game = (await update(eve, 6))["sheet"]["game"]
    assert (game["totals"], game["end_deal"], game["winner"]) == ([362, 62], 2, 0)


async def test_a_sheet_of_four_players_without_team_names(harness: Harness) -> None:
    ann, eve = await harness.client("ann"), await harness.client("eve")
    made = await ann.request({"type": "sheet_create", "players": ["Ann", "Bob", "Cas", "Dee"]},
                             "sheet")  # fmt: skip
    assert made["type"] == "sheet", made
    assert made["sheet"]["teams"] == ["Ann & Cas", "Bob & Dee"]
    await open_sheet(eve, made["codes"]["view"])
    await ann.send(deal(made["codes"]["edit"], 1))
    assert (await update(eve, 2))["change"]["text"] == "Deal 1: Ann & Cas 100, Bob & Dee 62"
    refused = await ann.request({"type": "sheet_create", "first_dealer": 2}, "error")
    assert refused["code"] == "invalid_field" and "players" in refused["message"]


async def test_wrong_codes_over_http_count_as_over_the_websocket(tmp_path) -> None:
    async with running_harness(tmp_path, attempts=3) as h:
        ann = await h.client("ann")
        made = await create(ann)
        view = made["codes"]["view"]
        assert (await h.http_get(f"/sheets/{view}.csv"))[0] == 200  # a right one: no count
        for path in ("/sheets/WRONGCODE1.csv", "/sheets/WRONGCODE2/print"):
            status, body, _ = await h.http_get(path)
            assert (status, json.loads(body)["error"]) == (404, "bad_sheet_code")
        wrong = await ann.request({"type": "sheet_open", "code": "WRONGCODE3"}, "error")
        assert wrong["code"] == "bad_sheet_code"  # the third, over the websocket
        status, body, _ = await h.http_get(f"/sheets/{view}/print")  # even a right one
        refused = json.loads(body)
        assert (status, refused["error"]) == (429, "too_many_attempts")
        assert "try again in 60 s" in refused["message"]
        again = await ann.request({"type": "sheet_open", "code": view}, "error")
        assert again["code"] == "too_many_attempts"
        h.advance(h.settings.attempts_window)
        assert (await h.http_get(f"/sheets/{view}.csv"))[0] == 200


async def test_the_codes_looked_up_are_kept_within_a_bound(harness: Harness) -> None:
    assert harness.server is not None
    codes = harness.server.sheets.codes
    assert codes.limit == CODES_CACHED
    codes.limit = 2  # a small bound: the oldest codes go, and are looked up again
    ann, bob = await harness.client("ann"), await harness.client("bob")
    made = [await create(ann) for _ in range(3)]
    for sheet in made:
        for code in sheet["codes"].values():
            opened = await open_sheet(bob, code)
            assert opened["sheet_id"] == sheet["sheet_id"]
            assert len(codes) <= 2
    first = made[0]["codes"]["edit"]
    assert codes.get(first) is None  # let go, and still opens its sheet
    assert (await open_sheet(bob, first))["role"] == "edit"


def test_the_print_page_has_every_word_in_every_language() -> None:
    """The print page's words (``export.PRINT``) in each of the page's language files, with
    the same slots."""
    slots = re.compile(r"\{(\w+)\}")
    files = sorted(export.LANGUAGES.glob("*.json"))
    assert len(files) >= 5
    for path in files:
        words = json.loads(path.read_text(encoding="utf-8"))["print"]
        assert set(words) == set(export.PRINT), path.name
        for key, english in export.PRINT.items():
            assert set(slots.findall(words[key])) == set(slots.findall(english)), (path.name, key)
