"""The turn limit on an injected clock, reconnection, and restarts that resume tables."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from engine import Match
from tests.server.conftest import (
    Harness,
    act_once,
    play_until,
    room_now,
    running_harness,
    settle,
    sync,
    wait_version,
)

pytestmark = pytest.mark.server


async def test_timeout_acts_for_the_player_and_two_mark_the_seat_away(harness: Harness) -> None:
    # dealer mode: seat 0 names trump, then seat 1 leads, so the two first turns differ
    rules = {"trump_mode": "dealer"}
    room_id, players = await harness.table("a", "b", "c", "d", move_seconds=30, rules=rules)
    watcher = players[0]
    first = watcher.tables[room_id].turn
    assert first == 0
    deadline = watcher.tables[room_id].deadline
    assert deadline == harness.clock.wall() + 30
    version = watcher.tables[room_id].version
    assert (await room_now(watcher, room_id))["version"] == version  # idle, its timer set
    harness.advance(29)
    after = await room_now(watcher, room_id)
    assert after["version"] == version, "nothing happens before the deadline"
    harness.advance(1.5)
    update = await watcher.next("update", kind="act", by="timeout", seat=first)
    assert update["version"] == version + 1
    # acted once the clock had passed the deadline: the next turn's 30 s start from there
    assert update["deadline"] == harness.clock.wall() + 30
    # the next seat times out once, acts itself, so its count goes back to zero
    second = watcher.tables[room_id].turn
    assert second == 1
    harness.advance(31)
    await watcher.next("update", kind="act", by="timeout", seat=second)
    # play until seat `first` has its turn again, then let it time out a second time
    while watcher.tables[room_id].turn != first:
        await act_once(players, room_id)
    harness.advance(31)
    await watcher.next("update", kind="act", by="timeout", seat=first)
    away = await watcher.next("update", kind="away", seat=first)
    assert away["room"]["seats"][first]["away"] is True
    # while away the CPU plays for it at once, without waiting for the move timer (so
    # quickly that its turn may never be seen between two updates: wait for its action)
    played = asyncio.ensure_future(
        watcher.next("update", kind="act", by="cpu", seat=first, timeout=10)
    )
    while not played.done():
        if watcher.tables[room_id].turn not in (None, first):
            await act_once(players, room_id)
        else:
            await asyncio.sleep(0.01)
    await played
    # `back` ends it
    owner = players[first] if players[first].tables[room_id].seat == first else None
    owner = owner or next(p for p in players if p.tables[room_id].seat == first)
    await owner.send({"type": "back", "room_id": room_id})
    back = await watcher.next("update", kind="away", seat=first)
    assert back["room"]["seats"][first]["away"] is False


async def test_a_move_gives_the_next_seat_its_whole_time(tmp_path: Path, database: str) -> None:
    async with running_harness(tmp_path, database, bot_budget=0) as harness:  # (no search)
        await _whole_time(harness)


async def _whole_time(harness: Harness) -> None:
    room_id, players = await harness.table("a", "b", "c", "d", move_seconds=30)
    watcher = players[0]
    harness.advance(20)  # the first seat takes 20 of its 30 s
    first = await act_once(players, room_id)
    table = watcher.tables[room_id]
    assert table.deadline == harness.clock.wall() + 30
    version = table.version
    assert (await room_now(watcher, room_id))["version"] == version  # idle, its timer set
    harness.advance(15)  # past the first seat's deadline, well within the second's
    assert (await room_now(watcher, room_id))["version"] == version
    harness.advance(16)
    update = await watcher.next("update", kind="act", by="timeout")
    assert update["seat"] != first and update["version"] == version + 1


async def test_reconnect_mid_trick_gets_the_missed_updates(harness: Harness) -> None:
    room_id, players = await harness.table("a", "b", "c", "d", rules={"target": 300})
    count = 0

    def two_cards_in_trick() -> bool:
        return len(players[0].tables[room_id].trick) == 2

    await play_until(players, room_id, two_cards_in_trick)
    gone = next(p for p in players if p.tables[room_id].turn != p.tables[room_id].seat)
    seat = gone.tables[room_id].seat
    hand = list(gone.tables[room_id].hand)
    seen = gone.tables[room_id].version
    await gone.close()
    others = [p for p in players if p is not gone]
    # the others play on while it is away; its timer keeps running
    while others[0].tables[room_id].turn != seat and count < 3:
        await act_once(others, room_id)
        count += 1
    back = await harness.client()
    welcome = await back.hello(token=gone.token)
    assert welcome["player_id"] == gone.player_id and welcome["token"] is None
    assert {"room_id": room_id, "seat": seat, "status": "playing"} in welcome["rooms"]
    back.keep = True
    await back.send({"type": "resume", "room_id": room_id, "version": seen})
    target = others[0].tables[room_id].version
    while back.tables.get(room_id) is None or back.tables[room_id].version < target:
        await back.next("update")
    versions = [f["version"] for f in back.seen if f["type"] == "update"]
    assert versions == list(range(seen + 1, target + 1)), "exactly the missed updates, in order"
    table = back.tables[room_id]
    assert table.turn == others[0].tables[room_id].turn
    # a resumed client that knew its hand can go on playing
    if table.turn == seat:
        assert set(table.legal) <= set(hand)


async def test_resume_with_a_version_too_old_gets_a_snapshot(harness: Harness) -> None:
    harness.overrides["history"] = 4
    await harness.restart()
    room_id, players = await harness.table("a", "b", "c", "d")
    await play_until(players, room_id, lambda: players[0].tables[room_id].version > 12)
    again = await harness.client(token=players[1].token)
    await again.send({"type": "resume", "room_id": room_id, "version": 2})
    snapshot = await again.next("snapshot", room_id=room_id)
    assert snapshot["seat"] == players[1].tables[room_id].seat
    await wait_version(players, room_id, snapshot["version"])
    assert sorted(snapshot["view"]["hand"]) == sorted(players[1].tables[room_id].hand)
    assert snapshot["version"] == players[1].tables[room_id].version


async def test_a_restart_mid_deal_resumes_the_table(harness: Harness) -> None:
    room_id, players = await harness.table("a", "b", "c", "d", rules={"target": 300})
    await play_until(players, room_id, lambda: players[0].tables[room_id].version >= 14)
    await settle(players)  # every action sent is handled, and seen by all
    before = players[0].tables[room_id].version
    assert all(p.tables[room_id].version == before for p in players)
    tokens = [p.token for p in players]
    for p in players:
        await p.close()
    harness.clients.clear()
    await harness.restart()
    back = [await harness.client(token=t) for t in tokens]
    for p in back:
        await p.send({"type": "resume", "room_id": room_id, "version": 0})
        snapshot = await p.next("snapshot", room_id=room_id)
        assert snapshot["version"] == before, "nothing accepted was lost"
        assert snapshot["deadline"] is not None, "the timer was restarted"
    await play_until(back, room_id, lambda: all(p.tables[room_id].over for p in back))
    record = (await back[0].request({"type": "get_record", "match_id": room_id}, "record"))[
        "record"
    ]
    assert Match.from_record(record).over


async def test_timers_restart_after_a_restart(harness: Harness) -> None:
    room_id, players = await harness.table("a", "b", "c", "d")
    turn = players[0].tables[room_id].turn
    await harness.restart()
    watcher = await harness.client(token=players[0].token)
    await watcher.send({"type": "resume", "room_id": room_id, "version": 0})
    await watcher.next("snapshot", room_id=room_id)
    harness.advance(31)
    update = await watcher.next("update", kind="act", by="timeout")
    assert update["seat"] == turn


async def test_between_deals_the_room_waits_for_its_players(tmp_path: Path, database: str) -> None:
    """After a deal the room pauses: no timer, no CPU, acts refused, until every player
    has sent ``continue`` (then ``resumed``), or the pause's time runs out."""
    async with running_harness(tmp_path, database, deal_pause=8.0) as h:
        rules = {"deals": 3, "trump_mode": "dealer"}
        room_id, players = await h.table("a", "b", "c", cpu=[3], rules=rules)
        table = players[0].tables[room_id]

        def between_deals() -> bool:
            return bool(table.room.get("pause"))

        await play_until(players, room_id, between_deals)
        for player in players:
            await sync(player)
        pause = table.room["pause"]
        assert pause["waiting"] == [0, 1, 2]  # the players; not the CPU in seat 3
        assert pause["until"] == h.clock.wall() + 8 and table.turn is None
        assert table.deadline is None and table.legal == []
        early = {"type": "act", "room_id": room_id, "action": table.hand[0]}
        refused = await players[0].request(early, "error")
        assert refused["code"] == "deal_pause"
        for seat, player in enumerate(players):  # a snapshot says the same as the updates
            taken = await player.request({"type": "resume", "room_id": room_id}, "snapshot")
            assert taken["view"]["turn"] is None and taken["view"]["legal"] == [], seat
            assert taken["deadline"] is None and taken["room"]["pause"]["waiting"] == [0, 1, 2]
            assert len(taken["view"]["hand"]) == 8  # the next deal is dealt already
        await players[1].send({"type": "continue", "room_id": room_id})
        seen = await players[0].next("update", kind="seen", seat=1)
        assert seen["room"]["pause"]["waiting"] == [0, 2] and seen["turn"] is None
        for player in (players[0], players[2]):
            await player.send({"type": "continue", "room_id": room_id})
        resumed = await players[0].next("update", kind="resumed")
        assert resumed["room"]["pause"] is None and resumed["turn"] is not None
        assert resumed["deadline"] == h.clock.wall() + 30  # the move timer starts now
        # the next pause ends by itself when its time runs out
        await play_until(players, room_id, between_deals)
        for player in players:
            await sync(player)
        version = table.version
        assert (await room_now(players[0], room_id))["version"] == version
        h.advance(7.9)
        assert (await room_now(players[0], room_id))["version"] == version
        h.advance(0.2)
        resumed = await players[0].next("update", kind="resumed")
        assert resumed["version"] == version + 1 and resumed["room"]["pause"] is None


async def test_updates_replayed_by_resume_carry_the_room_where_it_changed_and_now(
    harness: Harness,
) -> None:
    room_id, players = await harness.table("a", "b", "c", "d", rules={"deals": 1})
    for _ in range(3):
        await act_once(players, room_id)
    await settle(players)
    table = players[0].tables[room_id]
    start = table.version - 8  # back to before the start: seat, ready and start updates
    await players[0].send({"type": "resume", "room_id": room_id, "version": start})
    replayed = []
    while len(replayed) < table.version - start:
        replayed.append(await players[0].next("update"))
    assert [u["version"] for u in replayed] == list(range(start + 1, table.version + 1))
    for update in replayed[:-1]:
        assert ("room" in update) == (update["kind"] in ("seat", "ready", "start")), update
    now = await room_now(players[1], room_id)
    assert replayed[-1]["kind"] == "act" and replayed[-1]["room"] == now["room"]
