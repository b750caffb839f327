"""Rematch: the same players at a new table, seats rotated, new deals, once all humans
accept; told to every player of the match."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.server.conftest import Harness, play_until, running_harness, sync
from tests.server.test_daily import finish, start_daily

pytestmark = [pytest.mark.server, pytest.mark.daily]


async def test_a_rematch_once_everyone_accepts(harness: Harness) -> None:
    room_id, (ann, bob) = await harness.table("ann", "bob", cpu=[1, 3], rules={"deals": 1})
    early = await ann.request({"type": "rematch", "room_id": room_id}, "rematch")
    assert early["code"] == "no_such_match"  # the match is still running
    await play_until([ann, bob], room_id, lambda: ann.tables[room_id].over)
    await sync(ann)
    await sync(bob)
    before = ann.tables[room_id].room["seats"]

    told = await ann.request({"type": "rematch", "room_id": room_id}, "rematch")
    assert told["new_room_id"] is None and told["accepted"] == [ann.player_id]
    assert told["waiting"] == [bob.player_id]
    assert (await bob.next("rematch"))["waiting"] == [bob.player_id]  # bob hears it too
    stranger = await harness.client("cas")
    refused = await stranger.request({"type": "rematch", "room_id": room_id}, "rematch")
    assert refused["code"] == "not_seated"

    made = await bob.request({"type": "rematch", "room_id": room_id}, "rematch")
    new = made["new_room_id"]
    assert new and new != room_id and made["waiting"] == []
    assert (await ann.next("rematch"))["new_room_id"] == new
    again = await ann.request({"type": "rematch", "room_id": room_id}, "rematch")
    assert again["new_room_id"] == new  # once made, always the same table

    snaps = []
    for client in (ann, bob):
        snap = await client.request({"type": "resume", "room_id": new, "version": 0}, "snapshot")
        assert snap["type"] == "snapshot", snap
        snaps.append(snap)
    seats = snaps[0]["room"]["seats"]
    assert snaps[0]["room"]["status"] == "playing"
    for index, seat in enumerate(before):  # everyone one seat to the left
        moved = seats[(index + 1) % 4]
        assert (moved["player_id"], moved["cpu"], moved["level"], moved["nickname"]) == (
            seat["player_id"], seat["cpu"], seat["level"], seat["nickname"],
        )  # fmt: skip
    # a public room stays rated; its CPUs make its matches unrated, with hints
    assert (snaps[0]["room"]["rated"], snaps[0]["room"]["hints"]) == (True, True)
    assert snaps[0]["seat"] == 1 and snaps[1]["seat"] == 3
    await play_until([ann, bob], new, lambda: ann.tables[new].over)


async def test_a_rematch_of_a_rated_match_is_rated(harness: Harness) -> None:
    names = ("ann", "bob", "cas", "dee")
    room_id, players = await harness.table(*names, rules={"deals": 1})
    assert players[0].tables[room_id].room["rated"] is True  # a public room, four humans
    await play_until(players, room_id, lambda: all(p.tables[room_id].over for p in players))
    for player in players:
        await sync(player)  # the others' acceptances told so far
        made = await player.request({"type": "rematch", "room_id": room_id}, "rematch")
    new = made["new_room_id"]
    assert new is not None
    for player in players:
        snap = await player.request({"type": "resume", "room_id": new, "version": 0}, "snapshot")
        assert (snap["room"]["rated"], snap["room"]["hints"]) == (True, False)
    mover = next(p for p in players if p.tables[new].turn == p.tables[new].seat)
    refused = await mover.request({"type": "hint", "room_id": new}, "error")
    assert refused["code"] == "hints_not_allowed"
    await play_until(players, new, lambda: all(p.tables[new].over for p in players))
    for player in players:
        await sync(player)
        mine = await player.request({"type": "get_profile"}, "profile")
        assert mine["rating"]["matches"] == 2  # both matches rated
        assert [line["rated"] for line in mine["history"]] == [True, True]


async def test_no_rematch_of_a_daily_game(tmp_path: Path) -> None:
    async with running_harness(tmp_path, "sqlite", daily_deals=1) as h:
        anna = await h.client("Anna")
        snap = await start_daily(anna)
        await finish(anna, snap["room_id"])
        refused = await anna.request({"type": "rematch", "room_id": snap["room_id"]}, "rematch")
        assert refused["code"] == "rematch_not_allowed"
