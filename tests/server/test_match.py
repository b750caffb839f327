"""Whole matches over real websockets."""

from __future__ import annotations

import asyncio

import pytest

from engine import Match
from engine.record import analyze
from tests.postgres import blocked_by, pg_connect
from tests.server.conftest import POSTGRES_ONLY, Harness, play_until, sync

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
    assert reply["type"] == "record", reply
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


@POSTGRES_ONLY
async def test_the_match_end_is_announced_only_once_its_record_is_stored(
    harness: Harness,
) -> None:
    """A transaction of the test's own holds back every insert into ``matches``: the match
    is played to its end, the server reaches the record's insert and waits there, and until
    the test lets it go nobody may have heard ``match_ended``."""
    room_id, (solo,) = await harness.table("solo", cpu=[1, 2, 3], rules={"deals": 1})
    # a spectator to look with: solo's own messages may queue behind its last card's
    # command, which waits for the record
    sam = await harness.client("sam")
    sam.keep = True
    assert (await sam.request({"type": "watch", "room_id": room_id}, "snapshot"))["seat"] is None
    conn = await pg_connect(harness.schema)
    try:
        async with conn.transaction():
            await conn.execute("LOCK TABLE matches IN SHARE MODE")  # reads go on, inserts wait
            playing = asyncio.create_task(
                play_until([solo], room_id, lambda: sam.tables[room_id].over)
            )
            await blocked_by(conn)  # the match is over and its record is being saved
            await sync(sam)  # every frame the server had sent it
            ends = [
                f
                for f in sam.seen
                if f["type"] == "update"
                for e in f["events"]
                if e["type"] == "match_ended"
            ]
            assert ends == [], "match_ended was sent before the record was stored"
            assert not sam.tables[room_id].over and not playing.done()
            reply = await sam.request({"type": "get_record", "match_id": room_id}, "record")
            assert reply["type"] == "error" and reply["code"] == "no_such_match", reply
        await asyncio.wait_for(playing, 10)  # let go: stored, then announced
    finally:
        await conn.close()
    for client in (sam, solo):
        reply = await client.request({"type": "get_record", "match_id": room_id}, "record")
        assert reply["type"] == "record", reply
        assert Match.from_record(reply["record"]).winner == sam.tables[room_id].winner
    status, _, kind = await harness.http_get(f"/matches/{room_id}")
    assert status == 200 and kind == "application/json"
