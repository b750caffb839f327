"""Lobby and rooms over real websockets: the live room list, private rooms and invite codes,
seats and readiness, spectators and chat, match records over websockets and HTTP."""

from __future__ import annotations

import gc
import json
from pathlib import Path
from typing import Any

import pytest

from client import GameClient
from engine import Match
from server.table.room_actor import CHAT_KEPT
from tests.server.conftest import Harness, play_until, room_now, running_harness, sync

pytestmark = pytest.mark.server


async def refused(client: GameClient, message: dict[str, Any], code: str) -> dict[str, Any]:
    """Send ``message``; the only reply is an error with ``code`` (updates of a match being
    played by CPUs may come and go meanwhile)."""
    await sync(client)
    await client.send(message)
    frames = [f for f in await sync(client) if f["type"] != "update"]
    assert [f.get("code", f["type"]) for f in frames] == [code], frames
    return frames[0]


async def create(client: GameClient, **room: Any) -> dict[str, Any]:
    reply = await client.request({"type": "create_room", **room}, "snapshot")
    assert reply["type"] == "snapshot", reply
    return reply


async def take(client: GameClient, seat: int, **where: Any) -> dict[str, Any]:
    reply = await client.request({"type": "take_seat", "seat": seat, **where}, "snapshot")
    assert reply["type"] == "snapshot", reply
    return reply


def nicknames(room: dict[str, Any]) -> list[str | None]:
    return [s["nickname"] for s in room["seats"]]


def lobby_ids(frames: list[dict[str, Any]]) -> set[str]:
    ids = set()
    for f in frames:
        if f["type"] == "lobby":
            ids |= {r["id"] for r in f["rooms"]}
        elif f["type"] == "lobby_room":
            ids.add(f["room"]["id"])
        elif f["type"] == "lobby_room_gone":
            ids.add(f["room_id"])
    return ids


# -- the lobby -------------------------------------------------------------------------


async def test_lobby_lists_public_rooms_live(harness: Harness) -> None:
    lou = await harness.client("lou")
    lobby = await lou.request({"type": "lobby_subscribe"}, "lobby")
    assert lobby["type"] == "lobby" and lobby["rooms"] == [] and lobby["online"] == 1
    ann, bob = await harness.client("ann"), await harness.client("bob")
    assert await sync(lou) == [
        {"type": "lobby_presence", "online": 2},
        {"type": "lobby_presence", "online": 3},
    ]

    room_id = (await create(ann, name="Open table"))["room_id"]
    frames = await sync(lou)
    assert {f["type"] for f in frames} == {"lobby_room"} and lobby_ids(frames) == {room_id}
    listed = frames[-1]
    assert listed["room"]["id"] == room_id and listed["room"]["name"] == "Open table"
    assert listed["room"]["status"] == "open" and not listed["room"]["private"]
    assert nicknames(listed["room"]) == ["ann", None, None, None]

    await take(bob, 2, room_id=room_id)
    seated = await lou.next("lobby_room", timeout=3)
    assert nicknames(seated["room"]) == ["ann", None, "bob", None]
    await bob.send({"type": "ready", "room_id": room_id})
    ready = await lou.next("lobby_room", timeout=3)
    assert [s["ready"] for s in ready["room"]["seats"]] == [False, False, True, False]

    # a newcomer's lobby holds the room as it is now
    liz = await harness.client("liz")
    assert await lou.next("lobby_presence", timeout=3) == {"type": "lobby_presence", "online": 4}
    (now,) = (await liz.request({"type": "lobby_subscribe"}, "lobby"))["rooms"]
    assert now == ready["room"]

    # everyone leaves: the room is closed and unlisted
    await bob.send({"type": "leave_room", "room_id": room_id})
    left = await lou.next("lobby_room", timeout=3)
    assert nicknames(left["room"]) == ["ann", None, None, None]
    await ann.send({"type": "leave_room", "room_id": room_id})
    await sync(ann)  # handled: the lobby has been told
    *emptied, gone = await sync(lou)
    assert gone == {"type": "lobby_room_gone", "room_id": room_id}
    assert all(f["type"] == "lobby_room" and nicknames(f["room"]) == [None] * 4 for f in emptied)
    assert (await liz.request({"type": "lobby_subscribe"}, "lobby"))["rooms"] == []

    # an unsubscribed client hears nothing more
    await liz.send({"type": "lobby_unsubscribe"})
    await sync(liz)
    await create(bob)
    assert (await lou.next("lobby_room", timeout=3))["room"]["owner"] == bob.player_id
    assert await sync(liz) == []

    # a player who goes counts no more (a second connection of the same player counts once)
    await ann.close()
    assert await lou.next("lobby_presence", timeout=3) == {"type": "lobby_presence", "online": 3}
    bob_again = await harness.client(token=bob.token)
    assert bob_again.player_id == bob.player_id
    await bob.close()
    await liz.close()
    assert await lou.next("lobby_presence", timeout=3) == {"type": "lobby_presence", "online": 2}


async def test_finished_room_leaves_the_lobby(harness: Harness) -> None:
    lou = await harness.client("lou")
    await lou.request({"type": "lobby_subscribe"}, "lobby")
    room_id, (solo,) = await harness.table("solo", cpu=[1, 2, 3], rules={"deals": 1})
    assert await lou.next(timeout=3) == {"type": "lobby_presence", "online": 2}  # solo came
    while True:  # the lobby follows the room: open, seats filling, then playing
        frame = await lou.next(timeout=3)
        assert frame["type"] == "lobby_room" and frame["room"]["id"] == room_id, frame
        if frame["room"]["status"] == "playing":
            break
    assert nicknames(frame["room"])[0] == "solo"
    assert all(n.endswith(" (CPU, strong)") for n in nicknames(frame["room"])[1:])  # type: ignore[union-attr]
    await play_until([solo], room_id, lambda: solo.tables[room_id].over)
    gone = await lou.next(timeout=3)
    assert gone == {"type": "lobby_room_gone", "room_id": room_id}


async def test_private_rooms_never_appear_in_the_lobby(harness: Harness) -> None:
    lou = await harness.client("lou")
    await lou.request({"type": "lobby_subscribe"}, "lobby")
    room_id, (solo, friend) = await harness.table(
        "solo", "pal", cpu=[2, 3], private=True, rules={"deals": 1}
    )
    await play_until([solo, friend], room_id, lambda: solo.tables[room_id].over)
    public = (await create(solo))["room_id"]  # one public room, to show lou is listening
    frames = await sync(lou)
    assert lobby_ids(frames) == {public}
    assert room_id not in json.dumps(frames)
    newcomer = await harness.client("new")
    rooms = (await newcomer.request({"type": "lobby_subscribe"}, "lobby"))["rooms"]
    assert [r["id"] for r in rooms] == [public]


# -- private rooms ---------------------------------------------------------------------


async def test_private_room_is_joined_by_invite_code(harness: Harness) -> None:
    ann, bob, cas, dee = [await harness.client(n) for n in ("ann", "bob", "cas", "dee")]
    created = await create(ann, private=True)
    room_id, code = created["room_id"], created["invite_code"]
    assert isinstance(code, str) and len(code) >= 10
    assert created["room"]["private"] is True

    error = await refused(
        bob, {"type": "take_seat", "room_id": room_id, "seat": 1}, "invite_required"
    )
    assert "invite" in error["message"]
    await refused(bob, {"type": "take_seat", "invite_code": "WRONGCODE1", "seat": 1}, "bad_invite")
    await refused(bob, {"type": "watch", "room_id": room_id}, "invite_required")
    await refused(bob, {"type": "resume", "room_id": room_id}, "not_a_member")
    assert (await sync(ann)) == []  # nothing happened in the room

    joined = await take(bob, 1, invite_code=code)
    assert joined["room_id"] == room_id and joined["seat"] == 1 and joined["invite_code"] == code
    # codes are read leniently: case and separators do not matter
    spaced = f"{code[:5].lower()}-{code[5:].lower()}"
    assert (await take(cas, 2, invite_code=spaced))["seat"] == 2
    update = await ann.next("update", kind="seat", seat=2, timeout=3)
    assert nicknames(update["room"]) == ["ann", "bob", "cas", None]

    # a spectator with the code may watch; it does not get the code back
    watched = await dee.request({"type": "watch", "invite_code": code}, "snapshot")
    assert watched["type"] == "snapshot" and watched["seat"] is None
    assert watched["invite_code"] is None


# -- seats -----------------------------------------------------------------------------


async def test_seat_rules_before_the_start(harness: Harness) -> None:
    ann, bob, cas = [await harness.client(n) for n in ("ann", "bob", "cas")]
    room_id = (await create(ann))["room_id"]
    where = {"room_id": room_id}
    await refused(bob, {"type": "take_seat", "seat": 0, **where}, "seat_taken")
    await take(bob, 1, **where)
    await refused(bob, {"type": "take_seat", "seat": 1, **where}, "already_seated")
    await refused(ann, {"type": "take_seat", "seat": 0, **where}, "already_seated")
    # a seated player moves to another empty seat (a friend joins their partner's team)
    bob_again = await harness.client(token=bob.token)  # bob's second connection follows
    await bob_again.request({"type": "watch", **where}, "snapshot")
    moved = await bob.request({"type": "take_seat", "seat": 2, **where}, "snapshot")
    assert moved["seat"] == 2 and moved["room"]["seats"][1]["player_id"] is None
    assert moved["room"]["seats"][2]["player_id"] == bob.player_id
    assert (await bob_again.next("snapshot"))["seat"] == 2
    await refused(cas, {"type": "take_seat", "seat": 2, **where}, "seat_taken")
    await take(bob, 1, **where)  # and back

    # leave before the start frees the seat, and the seat can be taken again
    await sync(ann)
    await bob.send({"type": "leave_room", "room_id": room_id})
    update = await ann.next("update", kind="seat", timeout=3)
    assert update["seat"] == 1 and nicknames(update["room"]) == ["ann", None, None, None]
    assert bob.tables[room_id].room["seats"][1]["player_id"] is None
    await take(cas, 1, **where)
    # leaving a room you have no seat in does nothing to it
    await sync(ann)
    await sync(bob)
    await bob.send({"type": "leave_room", "room_id": room_id})
    assert await sync(bob) == [] and await sync(ann) == []


async def test_owner_adds_cpus_and_removes_players(harness: Harness) -> None:
    ann, bob, cas = [await harness.client(n) for n in ("ann", "bob", "cas")]
    room_id = (await create(ann))["room_id"]
    await take(bob, 1, room_id=room_id)
    await take(cas, 2, room_id=room_id)

    # only the owner
    await refused(bob, {"type": "add_cpu", "room_id": room_id, "seat": 3}, "not_owner")
    await refused(bob, {"type": "remove_seat", "room_id": room_id, "seat": 2}, "not_owner")
    await refused(ann, {"type": "add_cpu", "room_id": room_id, "seat": 1}, "seat_taken")
    await refused(ann, {"type": "remove_seat", "room_id": room_id, "seat": 3}, "seat_empty")

    await sync(ann)
    await ann.send({"type": "add_cpu", "room_id": room_id, "seat": 3})
    added = await bob.next("update", kind="seat", seat=3, timeout=3)
    cpu = added["room"]["seats"][3]
    assert cpu["cpu"] is True and cpu["level"] == "strong"
    assert nicknames(added["room"])[3].endswith(" (CPU, strong)")  # type: ignore[union-attr]

    await ann.send({"type": "remove_seat", "room_id": room_id, "seat": 2})
    removed = await bob.next("update", kind="seat", seat=2, timeout=3)
    assert removed["room"]["seats"][2] == {
        "player_id": None, "nickname": None, "cpu": False, "level": None, "cpu_name": None,
        "ready": False, "away": False,
    }  # fmt: skip
    # the removed player is told: it now watches without a seat
    told = await cas.next("snapshot", timeout=3)
    assert told["seat"] is None and told["room"]["seats"][2]["player_id"] is None
    await refused(cas, {"type": "ready", "room_id": room_id}, "not_seated")
    # its seat is free for anyone, itself included
    assert (await take(cas, 2, room_id=room_id))["seat"] == 2
    # the CPU can be removed too
    await ann.send({"type": "remove_seat", "room_id": room_id, "seat": 3})
    back = await bob.next("update", kind="seat", seat=3, timeout=3)
    assert back["room"]["seats"][3]["cpu"] is False


async def test_match_starts_only_when_full_and_ready(harness: Harness) -> None:
    ann, bob, cas, dee = [await harness.client(n) for n in ("ann", "bob", "cas", "dee")]
    room_id = (await create(ann))["room_id"]
    await take(bob, 1, room_id=room_id)
    await ann.send({"type": "add_cpu", "room_id": room_id, "seat": 3})
    for player in (ann, bob):
        await player.send({"type": "ready", "room_id": room_id})
        await sync(player)
    frames = await sync(ann)
    assert not [f for f in frames if f["type"] == "update" and f["kind"] == "start"]
    assert ann.tables[room_id].room["status"] == "open"

    await take(cas, 2, room_id=room_id)  # four seats filled, cas not ready yet
    await sync(ann)
    assert ann.tables[room_id].room["status"] == "open"
    assert [s["ready"] for s in ann.tables[room_id].room["seats"]] == [True, True, False, True]
    # un-ready and ready again: still waiting for cas
    await sync(bob)
    await bob.send({"type": "ready", "room_id": room_id, "ready": False})
    await bob.send({"type": "ready", "room_id": room_id})
    frames = await sync(bob)
    assert [f["kind"] for f in frames] == ["ready", "ready"]
    assert frames[-1]["room"]["status"] == "open"
    await cas.send({"type": "ready", "room_id": room_id})
    start = await ann.next("update", kind="start", timeout=3)
    assert start["room"]["status"] == "playing"
    assert [e["type"] for e in start["events"]] == ["deal_started"]

    # after the start the seats are fixed
    await refused(dee, {"type": "take_seat", "room_id": room_id, "seat": 2}, "room_started")
    await refused(bob, {"type": "leave_room", "room_id": room_id}, "match_running")
    await refused(ann, {"type": "add_cpu", "room_id": room_id, "seat": 1}, "room_started")
    await refused(ann, {"type": "remove_seat", "room_id": room_id, "seat": 1}, "room_started")
    await refused(cas, {"type": "ready", "room_id": room_id, "ready": False}, "room_started")
    assert (await dee.request({"type": "watch", "room_id": room_id}, "snapshot"))["seat"] is None


async def test_an_emptied_seat_makes_everyone_confirm_again(harness: Harness) -> None:
    ann, bob, cas = [await harness.client(n) for n in ("ann", "bob", "cas")]
    room_id = (await create(ann))["room_id"]
    await take(bob, 1, room_id=room_id)
    await ann.send({"type": "add_cpu", "room_id": room_id, "seat": 2})
    await take(cas, 3, room_id=room_id)
    for player in (ann, bob):
        await player.send({"type": "ready", "room_id": room_id})
        await sync(player)
    await cas.send({"type": "leave_room", "room_id": room_id})
    await sync(cas)
    await sync(bob)
    assert [s["ready"] for s in bob.tables[room_id].room["seats"]] == [False] * 2 + [True, False]
    await take(cas, 3, room_id=room_id)
    await cas.send({"type": "ready", "room_id": room_id})
    frames = await sync(ann)
    assert not [f for f in frames if f["type"] == "update" and f["kind"] == "start"]


# -- spectators and chat -----------------------------------------------------------------


async def test_spectators_watch_and_everyone_chats(harness: Harness) -> None:
    room_id, players = await harness.table("ann", "bob", "cas", "dee", rules={"deals": 1})
    sam, eve = await harness.client("sam"), await harness.client("eve")
    snap = await sam.request({"type": "watch", "room_id": room_id}, "snapshot")
    assert snap["seat"] is None and snap["view"]["hand"] == [] and snap["view"]["legal"] == []
    assert snap["view"]["hand_sizes"] == [8, 8, 8, 8] and snap["invite_code"] is None
    members = [*players, sam]
    for client in [*members, eve]:
        await sync(client)

    # the spectator receives updates
    turn = next(p for p in players if p.tables[room_id].turn == p.tables[room_id].seat)
    action = turn.tables[room_id].legal[0]
    await turn.send({"type": "act", "room_id": room_id, "action": action})
    update = await sam.next("update", timeout=3)
    assert update["kind"] == "act" and update["events"][0]["seat"] == snap["view"]["turn"]
    assert "legal" not in update

    # chat from a player and from the spectator reaches every member, with a nickname
    heard: dict[GameClient, list[dict[str, Any]]] = {c: [] for c in members}
    await players[1].send({"type": "chat", "room_id": room_id, "text": "good luck"})
    heard[players[1]] += await sync(players[1])  # handled, so sent to everyone
    await sam.send({"type": "chat", "room_id": room_id, "text": "enjoy"})
    heard[sam] += await sync(sam)
    for client in members:
        lines = [f for f in heard[client] + await sync(client) if f["type"] == "chat"]
        assert [(c["nickname"], c["text"]) for c in lines] == [
            ("bob", "good luck"),
            ("sam", "enjoy"),
        ]
        assert lines[0]["player_id"] == players[1].player_id and lines[0]["room_id"] == room_id
        assert lines[1]["player_id"] == sam.player_id
    assert await sync(eve) == []  # not a member: hears nothing


async def test_watching_a_private_room_needs_its_code(harness: Harness) -> None:
    room_id, (ann, _) = await harness.table("ann", "bob", cpu=[2, 3], private=True)
    resumed = await ann.request({"type": "resume", "room_id": room_id}, "snapshot")
    code = resumed["invite_code"]  # a seated player may see the code
    assert isinstance(code, str) and len(code) >= 10
    sam = await harness.client("sam")
    await refused(sam, {"type": "watch", "room_id": room_id}, "invite_required")
    await refused(sam, {"type": "watch", "invite_code": "ABCDEFGHJK"}, "bad_invite")
    snap = await sam.request({"type": "watch", "invite_code": code}, "snapshot")
    assert snap["type"] == "snapshot" and snap["room_id"] == room_id and snap["seat"] is None
    assert snap["view"]["hand"] == [] and snap["invite_code"] is None
    await ann.send({"type": "chat", "room_id": room_id, "text": "hi sam"})
    chat = await sam.next("chat", timeout=3)
    assert chat["nickname"] == "ann" and chat["text"] == "hi sam"


# -- records, HTTP and metrics -----------------------------------------------------------


async def test_finished_match_record_over_websocket_and_http(harness: Harness) -> None:
    room_id, (solo,) = await harness.table("solo", cpu=[1, 2, 3], rules={"deals": 2})
    missing = {"type": "get_record", "match_id": room_id}
    await refused(solo, missing, "no_such_match")  # not finished yet
    await play_until([solo], room_id, lambda: solo.tables[room_id].over)
    final = solo.tables[room_id]
    # the record is stored before anyone hears the match ended: asked at once, it is there
    ended = await solo.request({"type": "get_record", "match_id": room_id}, "record")
    assert ended["type"] == "record", ended
    assert ended["match_id"] == room_id
    record = ended["record"]
    match = Match.from_record(record)
    assert match.over and list(match.totals) == final.room["totals"]
    assert match.winner == final.winner and len(match.sheet) >= 2
    assert record["rules"]["end"] == "deals" and record["rules"]["end_value"] == 2

    status, body, kind = await harness.http_get(f"/matches/{room_id}")
    assert status == 200 and kind == "application/json"
    assert json.loads(body) == record
    status, _, _ = await harness.http_get("/matches/r_nosuchmatch")
    assert status == 404
    await refused(solo, {"type": "get_record", "match_id": "r_nosuchmatch"}, "no_such_match")


async def test_health_and_metrics(harness: Harness) -> None:
    room_id, (solo,) = await harness.table("solo", cpu=[1, 2, 3], rules={"deals": 1})
    await play_until(
        [solo], room_id, lambda: solo.tables[room_id].over, pick=lambda legal: legal[-1]
    )
    status, body, _ = await harness.http_get("/healthz")
    assert status == 200 and body.strip() == b"ok"
    gc.collect(0)  # one young collection at least, whatever the match allocated
    status, body, kind = await harness.http_get("/metrics")
    assert status == 200 and kind.startswith("text/plain")
    text = body.decode()
    for name in (
        "klaverjas_connections",
        "klaverjas_rooms",
        "klaverjas_tables",
        "klaverjas_actions",
        "klaverjas_action_latency_seconds",
    ):
        assert f"\n{name}" in text, name
    values = {
        line.split(" ")[0]: float(line.split(" ")[1])
        for line in text.splitlines()
        if line and not line.startswith("#")
    }
    assert values["klaverjas_connections"] >= 1
    assert values['klaverjas_actions_total{by="cpu"}'] > 0
    assert values['klaverjas_actions_total{by="player"}'] > 0
    assert (
        values["klaverjas_action_latency_seconds_count"]
        == values['klaverjas_actions_total{by="player"}']
    )
    # the garbage collector's pauses, by generation
    young = values['klaverjas_gc_pause_seconds_count{generation="0"}']
    assert young > 0 and values['klaverjas_gc_pause_seconds_sum{generation="0"}'] > 0
    status, _, _ = await harness.http_get("/nowhere")
    assert status == 404


async def test_an_id_of_the_wrong_kind_names_nothing(harness: Harness) -> None:
    """A tournament's id where a room's is expected (and the other way round) is refused
    like any unknown id: the server never runs a room command in a tournament."""
    ann = await harness.client("ann")
    lobby = await ann.request({"type": "lobby_subscribe"}, "lobby")
    (tournament,) = lobby["tournaments"]  # the open Quick tournament
    room = await ann.request({"type": "create_room", "seat": 0}, "snapshot")
    for message, code in (
        ({"type": "watch", "room_id": tournament["id"]}, "no_such_room"),
        ({"type": "take_seat", "room_id": tournament["id"], "seat": 1}, "no_such_room"),
        ({"type": "act", "room_id": tournament["id"], "action": "pass"}, "not_a_member"),
        ({"type": "tournament_register", "tournament_id": room["room_id"]}, "no_such_tournament"),
        ({"type": "tournament_watch", "tournament_id": room["room_id"]}, "no_such_tournament"),
    ):
        reply = await ann.request({**message, "ref": "k"}, "error")
        assert (reply["code"], reply["ref"]) == (code, "k"), reply
    assert ann.ws.close_code is None


async def test_a_snapshot_brings_the_deals_table_talk_and_the_chat(
    tmp_path: Path, database: str
) -> None:
    """A player who reloads (a fresh connection, ``resume`` from 0) gets the room's last
    chat lines and the updates of the deal so far with the snapshot, as their seat saw
    them: what table talk and the chat are made of."""
    async with running_harness(tmp_path, database, chat_burst=100) as harness:
        await snapshot_talk(harness)


async def snapshot_talk(harness: Harness) -> None:
    room_id, players = await harness.table("a", "b", "c", "d", rules={"deals": 2})
    table = players[0].tables[room_id]
    dealt = sorted(table.hand)
    for n in range(CHAT_KEPT + 2):  # more than a room keeps
        await players[n % 2].send({"type": "chat", "room_id": room_id, "text": f"line {n}"})
    await play_until(players, room_id, lambda: len(table.trick) == 2)
    for player in players:
        await sync(player)

    async def reloaded() -> dict[str, Any]:
        again = await harness.client(token=players[0].token)
        reply = {"type": "resume", "room_id": room_id, "version": 0}
        return await again.request(reply, "snapshot")

    snap = await reloaded()
    assert [c["text"] for c in snap["chat"]] == [f"line {n}" for n in range(2, CHAT_KEPT + 2)]
    assert all(c["type"] == "chat" and c["room_id"] == room_id for c in snap["chat"])
    recent = snap["recent"]
    versions = [u["version"] for u in recent]
    assert versions == list(range(versions[0], snap["version"] + 1))
    start = recent[0]["events"][0]
    assert (start["type"], sorted(start["hand"]), start["number"]) == ("deal_started", dealt, 0)
    played = [e["card"] for u in recent for e in u["events"] if e["type"] == "card_played"]
    assert played == table.trick and all("legal" not in u for u in recent)
    # a spectator: the same updates, no hand
    watcher = await harness.client("w")
    watched = await watcher.request({"type": "watch", "room_id": room_id}, "snapshot")
    assert [u["version"] for u in watched["recent"]] == versions
    assert watched["recent"][0]["events"][0]["hand"] == []
    # in the next deal, the snapshot starts at that deal's start: the last card of the
    # deal before (in the same update) is not in it
    await play_until(players, room_id, lambda: len(table.hand) == 8 and table.turn is not None
                     and table.version > snap["version"] + 8)  # fmt: skip
    await play_until(players, room_id, lambda: len(table.trick) == 1)
    snap = await reloaded()
    first = snap["recent"][0]["events"]
    assert first[0]["type"] == "deal_started" and first[0]["number"] == 1
    assert sorted(first[0]["hand"]) == sorted(snap["view"]["hand"] + [
        e["card"] for u in snap["recent"] for e in u["events"]
        if e["type"] == "card_played" and e["seat"] == 0
    ])  # fmt: skip


async def test_an_open_room_its_players_left_closes_after_a_while(harness: Harness) -> None:
    """The creator and a friend sit down and go (their pages closed, no ``leave_room``):
    after ``abandon_after`` seconds without any of them connected, the room closes and
    leaves the lobby; while one of them is connected it waits for ever."""
    watcher = await harness.client("watcher")
    await watcher.request({"type": "lobby_subscribe"}, "lobby")
    ann, bob = await harness.client("ann"), await harness.client("bob")
    room_id = (await create(ann))["room_id"]
    await take(bob, 1, room_id=room_id)
    kept_id = (await create(bob))["room_id"]  # bob's own room: he stays connected to it
    await ann.close()
    harness.advance(500)  # bob is still there: nothing closes
    assert (await room_now(watcher, room_id))["room"]["status"] == "open"
    await watcher.send({"type": "leave_room", "room_id": room_id})  # (it only watched)
    await sync(watcher)
    await bob.send({"type": "leave_room", "room_id": kept_id})  # empties and closes his own
    await sync(bob)
    await bob.close()
    await watcher.next("lobby_presence", online=1)  # the server has seen him go
    abandon_after = harness.settings.abandon_after
    harness.advance(abandon_after - 1)
    store = (await harness.stores()).rooms
    assert (await store.room(room_id)).status == "open"  # type: ignore[union-attr]
    harness.advance(2)
    gone = await watcher.next("lobby_room_gone", room_id=room_id)
    assert gone["room_id"] == room_id
    assert (await store.room(room_id)).status == "closed"  # type: ignore[union-attr]
    back = await harness.client()
    welcome = await back.hello(token=bob.token)
    assert welcome["rooms"] == []  # no seat held in a closed room


async def test_an_owner_who_leaves_passes_the_room_on(harness: Harness) -> None:
    ann, bob, cas = [await harness.client(n) for n in ("ann", "bob", "cas")]
    room_id = (await create(ann))["room_id"]
    await take(cas, 3, room_id=room_id)
    await take(bob, 2, room_id=room_id)
    await ann.send({"type": "leave_room", "room_id": room_id})
    owned = await bob.next("update", kind="owner")
    assert owned["room"]["owner"] == bob.player_id  # seat 2 is the next one clockwise
    assert owned["room"]["owner_nickname"] == "bob"
    await refused(cas, {"type": "add_cpu", "room_id": room_id, "seat": 0}, "not_owner")
    await bob.send({"type": "add_cpu", "room_id": room_id, "seat": 0})
    added = await cas.next("update", kind="seat", seat=0)
    assert added["room"]["seats"][0]["cpu"] is True


async def test_an_owner_without_a_seat_who_leaves_passes_the_room_on(harness: Harness) -> None:
    """A room made with ``seat: null``: when its owner leaves it, the first player seated
    from seat 0 who is there owns it (not one who has gone)."""
    ann, bob, cas, dee = [await harness.client(n) for n in ("ann", "bob", "cas", "dee")]
    room_id = (await create(ann, seat=None))["room_id"]
    await take(dee, 0, room_id=room_id)
    await take(cas, 3, room_id=room_id)
    await take(bob, 1, room_id=room_id)
    await dee.close()  # seat 0's player is not there
    await sync(cas)
    await ann.send({"type": "leave_room", "room_id": room_id})
    owned = await cas.next("update", kind="owner")
    assert owned["room"]["owner"] == bob.player_id, owned
    await refused(ann, {"type": "add_cpu", "room_id": room_id, "seat": 2}, "not_owner")
    await bob.send({"type": "add_cpu", "room_id": room_id, "seat": 2})
    assert (await cas.next("update", kind="seat", seat=2))["room"]["seats"][2]["cpu"]


async def test_an_owner_gone_for_abandon_after_passes_the_room_on(harness: Harness) -> None:
    """An owner none of whose connections follows the room for ``abandon_after`` (120 s)
    while a player seated in it is there: the next player seated clockwise who is there
    owns it, and may remove the old owner's seat; an owner back in time keeps it."""
    ann, bob, cas = [await harness.client(n) for n in ("ann", "bob", "cas")]
    room_id = (await create(ann, seat=1))["room_id"]
    await take(bob, 3, room_id=room_id)
    await take(cas, 2, room_id=room_id)
    after = harness.settings.abandon_after
    await ann.close()
    await sync(bob)
    harness.advance(after / 2)
    back = await harness.client()
    await back.hello(token=ann.token)
    await back.send({"type": "resume", "room_id": room_id, "version": 0})
    await sync(back)
    harness.advance(after)  # back in time: the clock of its absence stopped
    assert (await room_now(bob, room_id))["room"]["owner"] == ann.player_id
    await back.close()
    await sync(bob)
    harness.advance(after - 1)
    assert (await room_now(bob, room_id))["room"]["owner"] == ann.player_id
    harness.advance(2)
    owned = await cas.next("update", kind="owner")
    assert owned["room"]["owner"] == cas.player_id, owned  # seat 2 is next from seat 1
    await cas.send({"type": "remove_seat", "room_id": room_id, "seat": 1})
    emptied = await bob.next("update", kind="seat", seat=1)
    assert emptied["room"]["seats"][1]["player_id"] is None
    store = (await harness.stores()).rooms
    assert (await store.room(room_id)).status == "open"  # type: ignore[union-attr]


async def test_an_owner_with_nobody_there_keeps_the_room(harness: Harness) -> None:
    """With no player seated who is there, nobody takes the room over: it closes once its
    players have all been gone for ``abandon_after``, as before."""
    ann, bob, sam = [await harness.client(n) for n in ("ann", "bob", "sam")]
    room_id = (await create(ann, seat=None))["room_id"]
    await take(bob, 2, room_id=room_id)
    await sam.request({"type": "watch", "room_id": room_id}, "snapshot")
    await bob.close()
    await ann.close()
    await sync(sam)
    harness.advance(harness.settings.abandon_after + 1)
    closed = await sam.next("update", kind="closed", room_id=room_id)
    assert closed["room"]["owner"] == ann.player_id
