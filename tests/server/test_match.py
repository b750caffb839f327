"""Whole matches over real websockets."""

from __future__ import annotations

import pytest

from engine import Match
from engine.record import analyze
from tests.server.conftest import Harness, play_until

pytestmark = pytest.mark.server


async def test_four_humans_play_a_whole_match(harness: Harness) -> None:
    room_id, players = await harness.table("ann", "bob", "cas", "dee", rules={"target": 300})
    for p in players:
        p.keep = True
    await play_until(players, room_id, lambda: all(p.tables[room_id].over for p in players))
    winners = {p.tables[room_id].winner for p in players}
    assert len(winners) == 1 and winners <= {0, 1}
    # the record is stored, replays to the same result, and analyze reads it
    reply = await players[0].request({"type": "get_record", "match_id": room_id}, "record")
    record = reply["record"]
    match = Match.from_record(record)
    assert match.over and match.winner in winners
    ended = [f for f in players[0].seen if f["type"] == "update"]
    versions = [f["version"] for f in ended]
    assert versions == sorted(versions) and len(set(versions)) == len(versions)
    assert "deals" in analyze(record)


async def test_cpu_seats_play_with_one_human(harness: Harness) -> None:
    room_id, players = await harness.table("solo", cpu=[1, 2, 3], rules={"deals": 1})
    (solo,) = players
    await play_until(players, room_id, lambda: solo.tables[room_id].over)
    assert solo.tables[room_id].room["status"] == "finished"
    assert all(s["cpu"] for s in solo.tables[room_id].room["seats"][1:])
