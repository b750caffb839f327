"""A tournament's life beyond the happy path: abandonment, disconnects, restarts, too few
players, starting when full, refused commands, repeats and the command line.

Real websocket clients against a real server on an injected clock.  Tournaments are
scheduled as an operator schedules them and observed only through the protocol, HTTP and
the store's public reads (see ``conftest.py``).
"""

from __future__ import annotations

import asyncio
import itertools
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from client import GameClient
from server.lobby.directory import FINISHED_KEPT
from server.tournament.schedule import parse_time
from tests.commands import scheduled_id
from tests.server.conftest import SQLITE_ONLY, Harness, room_now, settle, sync
from tests.tournament.conftest import (
    Bots,
    finished,
    log_length,
    quick,
    record_of,
    register,
    rooms_open,
    schedule,
    seen_version,
    started,
    status,
    tournament_now,
    wait_for,
)

pytestmark = pytest.mark.tournament

ROOT = Path(__file__).resolve().parents[2]
_refs = itertools.count()


# -- helpers -------------------------------------------------------------------------------


async def refusal(client: GameClient, message: dict[str, Any]) -> str:
    """Send ``message`` and return the code of the error frame that answers it."""
    ref = f"x{next(_refs)}"
    await client.send({**message, "ref": ref})
    frame = await client.next("error", ref=ref, timeout=5)
    return frame["code"]


def seat_of(tables: list[dict], entrant: str) -> tuple[str, int]:
    """The room and seat of ``entrant`` among ``tables``."""
    for table in tables:
        for index, seat in enumerate(table["seats"]):
            if seat["id"] == entrant:
                return table["room_id"], index
    raise AssertionError(f"{entrant} is not seated")


def at_table(players: list[GameClient], tables: list[dict], room_id: str) -> list[GameClient]:
    table = next(t for t in tables if t["room_id"] == room_id)
    ids = [s["id"] for s in table["seats"]]
    return [p for p in players if p.player_id in ids]


def check_places(final: dict[str, Any]) -> list[dict[str, Any]]:
    places = final["places"]
    assert len(final["rounds"]) == 2 and [len(r) for r in final["rounds"]] == [2, 1]
    assert sorted(p["place"] for p in places) == [1, 1, 2, 2, 3, 3, 3, 3]
    for entry in places:  # every place its label, whoever holds it (CPUs too)
        assert entry.get("prize") == {1: "grand", 2: "second"}.get(entry["place"]), entry
    return places


def room_updates(client: GameClient, room_id: str, since: int = 0, **match: Any) -> list[dict]:
    return [
        f
        for f in client.seen[since:]
        if f["type"] == "update"
        and f["room_id"] == room_id
        and all(f.get(k) == v for k, v in match.items())
    ]


async def leave(player: GameClient, tid: str) -> None:
    """``tournament_leave``, accepted: the player's ``tournament`` frame has come by the
    ``pong`` after it."""
    ref = f"x{next(_refs)}"
    await player.send({"type": "tournament_leave", "tournament_id": tid, "ref": ref})
    frames = await sync(player)
    assert not [f for f in frames if f["type"] == "error"], frames


# -- 1. abandonment and the refused rejoin ---------------------------------------------------


async def test_a_player_who_leaves_is_replaced_by_a_cpu_and_cannot_rejoin(
    harness: Harness,
) -> None:
    tid, _, players = await quick(harness, 8)
    tables = await started(harness, tid, players)
    leaver = players[3]
    room_id, seat = seat_of(tables, leaver.player_id)
    mates = [p for p in at_table(players, tables, room_id) if p is not leaver]
    for mate in mates:
        mate.keep = True
    bots = Bots(players)
    await bots.play_until(lambda: seen_version(mates[0], room_id) >= 15)

    await leave(leaver, tid)  # its reply already shows the CPU in its place
    now = status(leaver, tid)["rounds"][0]
    cpu = next(t["seats"][seat]["id"] for t in now if t["room_id"] == room_id)
    assert cpu.startswith("cpu:"), now
    assert all(s["id"] != leaver.player_id for t in now for s in t["seats"])
    # the room's seat became a CPU, seen by the others at the table (the tournament tells
    # the room, which tells them: frames on their way)
    for mate in mates:
        await wait_for(lambda m=mate: m.tables[room_id].room["seats"][seat]["cpu"])
        assert room_updates(mate, room_id, kind="seat", seat=seat)
        assert mate.tables[room_id].room["seats"][seat]["player_id"] is None
    mark = len(mates[0].seen)

    # a rejoin is refused, and changes nothing
    before = await log_length(harness, tid)
    code = await refusal(leaver, {"type": "tournament_register", "tournament_id": tid})
    assert code == "abandoned"
    assert await log_length(harness, tid) == before

    # the others play on (the leaver no longer acts); the CPU plays the seat
    bots = Bots([p for p in players if p is not leaver])
    await bots.play_until(finished(players[0], tid))
    assert room_updates(mates[0], room_id, mark, kind="act", seat=seat, by="cpu")
    final = status(players[0], tid)
    places = check_places(final)
    assert all(p["entrant"] != leaver.player_id for p in places)
    stood_in = [p for p in places if p.get("left") == leaver.player_id]
    assert [p["entrant"] for p in stood_in] == [cpu]
    assert all(  # the place's label, CPU or not
        p.get("prize") == {1: "grand", 2: "second"}.get(p["place"]) for p in stood_in
    ), stood_in
    table = next(t for t in final["rounds"][0] if t["room_id"] == room_id)
    won = cpu in [table["seats"][table["winner"]]["id"], table["seats"][table["winner"] + 2]["id"]]
    final_seats = [s["id"] for s in final["rounds"][1][0]["seats"]]
    assert (cpu in final_seats) == won
    if not won:
        assert stood_in[0]["eliminated_in"] == 1
    # the leaver is still told how it ended
    await sync(leaver)
    assert status(leaver, tid)["status"] == "finished"


async def test_a_player_who_left_no_longer_sees_the_cpus_hand(harness: Harness) -> None:
    tid, _, players = await quick(harness, 8)
    tables = await started(harness, tid, players)
    leaver = players[5]
    room_id, seat = seat_of(tables, leaver.player_id)
    mate = next(p for p in at_table(players, tables, room_id) if p is not leaver)
    mate.keep = True
    await Bots(players).play_until(lambda: seen_version(mate, room_id) >= 10)
    leaver.keep = True
    await leave(leaver, tid)
    await wait_for(lambda: bool(room_updates(leaver, room_id, kind="seat", seat=seat)))
    mark = len(leaver.seen)
    seen = len(mate.seen)
    others = Bots([p for p in players if p is not leaver])

    def next_deal() -> list[dict]:
        return [
            f
            for f in room_updates(mate, room_id, seen)
            if any(e["type"] == "deal_started" for e in f["events"])
        ]

    # play on until the next deal has been dealt at the leaver's old table
    await others.play_until(lambda: bool(next_deal()))
    dealt = next_deal()[0]["version"]
    await sync(leaver)  # the leaver's copy was queued with the mate's: it is here by now
    mine = room_updates(leaver, room_id, mark)
    assert dealt in [f["version"] for f in mine], "the leaver no longer follows the room"
    leaked = [
        f
        for f in mine
        if f.get("legal") or any(e["type"] == "deal_started" and e["hand"] for e in f["events"])
    ]
    assert not leaked, f"the leaver still gets seat {seat}'s private view: {leaked[:1]}"


@pytest.mark.server
async def test_a_player_who_leaves_on_turn_gets_no_legal_actions_of_its_old_seat(
    harness: Harness,
) -> None:
    """Its seat on turn, a leaver hears the seat go to a CPU as a spectator does (no
    ``legal``), then becomes one: a snapshot without a seat, hand or legal actions."""
    tid, _, players = await quick(harness, 8)
    tables = await started(harness, tid, players)
    room_id = tables[0]["room_id"]
    await Bots(players).play_until(lambda: max(seen_version(p, room_id) for p in players) >= 6)
    for player in players:
        await sync(player)
    leaver, room_id = next(
        (p, room_id)
        for p in players
        for room_id, table in p.tables.items()
        if table.seat is not None and table.turn == table.seat and table.legal
    )
    seat = leaver.tables[room_id].seat
    leaver.keep = True
    mark = len(leaver.seen)
    await leave(leaver, tid)
    await wait_for(lambda: bool(room_updates(leaver, room_id, mark, kind="seat", seat=seat)))
    await sync(leaver)
    frames = [f for f in leaver.seen[mark:] if f.get("room_id") == room_id]
    assert [f["type"] for f in frames[:2]] == ["update", "snapshot"], frames
    assert not [f for f in frames if f.get("legal")], frames  # (a CPU plays on: updates)
    update, snapshot = frames[:2]
    assert update["kind"] == "seat" and update["turn"] == seat and "legal" not in update
    assert update["room"]["seats"][seat]["cpu"]
    assert snapshot["seat"] is None and snapshot["version"] == update["version"]
    assert snapshot["view"]["hand"] == [] and snapshot["view"]["legal"] == []
    assert leaver.tables[room_id].legal == []


# -- 2. a disconnect and return ---------------------------------------------------------------


async def test_a_player_who_drops_is_timed_out_then_returns_and_plays_on(
    harness: Harness,
) -> None:
    tid, _, players = await quick(harness, 8)
    tables = await started(harness, tid, players)
    victim = players[2]
    room_id, seat = seat_of(tables, victim.player_id)
    mates = [p for p in at_table(players, tables, room_id) if p is not victim]
    for mate in mates:
        mate.keep = True
    await Bots(players).play_until(lambda: seen_version(mates[0], room_id) >= 10)
    await sync(victim)  # every action it sent has been handled
    await victim.close()

    # the others play until the table waits for the missing player: then nothing moves
    # but its timer (all four seats are people)
    def waiting() -> bool:
        views = [m.tables[room_id] for m in mates]
        return all(v.turn == seat for v in views) and len({v.version for v in views}) == 1

    others = [p for p in players if p is not victim]
    await Bots(others).play_until(waiting)
    version = mates[0].tables[room_id].version
    assert (await room_now(mates[0], room_id))["version"] == version  # idle, its timer set
    harness.advance(29)
    assert (await room_now(mates[0], room_id))["version"] == version  # not yet
    harness.advance(2)
    for mate in mates:
        await wait_for(lambda m=mate: bool(room_updates(m, room_id, kind="act", by="timeout")))
        (timed_out,) = room_updates(mate, room_id, kind="act", by="timeout")
        assert timed_out["seat"] == seat and timed_out["version"] == version + 1
        assert timed_out["deadline"] == harness.clock.wall() + 30  # acted after 30 s, not 29

    # back with its token: the room is listed, resumed, and it plays on
    back = await GameClient.connect(harness.url)
    harness.clients.append(back)
    welcome = await back.hello(token=victim.token)
    assert welcome["type"] == "welcome" and welcome["player_id"] == victim.player_id
    assert {"room_id": room_id, "seat": seat, "status": "playing"} in welcome["rooms"]
    snapshot = await back.request({"type": "resume", "room_id": room_id, "version": 0}, "snapshot")
    assert snapshot["type"] == "snapshot" and snapshot["seat"] == seat, snapshot
    mark = len(mates[0].seen)
    players = [back if p is victim else p for p in players]
    await Bots(players).play_until(finished(players[0], tid))
    assert room_updates(mates[0], room_id, mark, kind="act", seat=seat, by="player")
    final = status(players[0], tid)
    places = check_places(final)
    entrants = {p["entrant"] for p in places}
    assert victim.player_id in entrants
    assert not any(e.startswith("cpu:") for e in entrants)
    assert not any("left" in p for p in places)
    # the returning connection was told the result as a registered player
    await sync(back)
    assert status(back, tid).get("status") == "finished"


# -- 3. a restart in the middle of a round ----------------------------------------------------


async def test_a_restart_in_the_middle_of_a_round_loses_no_table(harness: Harness) -> None:
    tid, _, players = await quick(harness, 8)
    tables = await started(harness, tid, players)
    round1 = [t["room_id"] for t in tables]

    def latest(room_id: str) -> int:
        return max(seen_version(p, room_id) for p in players)

    await Bots(players).play_until(lambda: all(latest(r) >= 25 for r in round1))
    await settle(players)  # every action sent is handled and seen: the tables stand still
    versions = {r: latest(r) for r in round1}
    tokens = [p.token for p in players]

    await harness.restart()
    running = await harness.running()
    assert tid in running["tournaments"] and set(round1) <= set(running["rooms"])
    back: list[GameClient] = []
    for token in tokens:
        client = await GameClient.connect(harness.url)
        harness.clients.append(client)
        welcome = await client.hello(token=token)
        assert welcome["type"] == "welcome", welcome
        assert [r["room_id"] for r in welcome["rooms"]] in ([r] for r in round1), welcome
        watched_status = await tournament_now(client, tid)
        assert watched_status["status"] == "running"
        assert [t["room_id"] for t in watched_status["rounds"][0]] == round1
        for room in welcome["rooms"]:
            snapshot = await client.request(
                {"type": "resume", "room_id": room["room_id"], "version": 0}, "snapshot"
            )
            assert snapshot["type"] == "snapshot", snapshot
            assert snapshot["seat"] == room["seat"]
            assert snapshot["version"] == versions[room["room_id"]], "an action was lost"
        back.append(client)

    await Bots(back).play_until(finished(back[0], tid))
    final = status(back[0], tid)
    check_places(final)
    assert [t["room_id"] for t in final["rounds"][0]] == round1
    assert sorted(e["entrant"] for e in final["places"]) == sorted(p.player_id for p in players)
    for tables_of_round in final["rounds"]:
        for table in tables_of_round:
            match = await record_of(back[0], table["room_id"])
            assert match.winner is not None and match.winner == table["winner"]
            assert max(match.totals) >= 1001 and list(match.totals) == table["totals"]


# -- 4. too few registrants -----------------------------------------------------------------


async def test_a_start_woken_early_by_a_wall_clock_set_back_waits_and_starts(
    harness: Harness,
) -> None:
    tid, _, players = await quick(harness, 8)
    await tournament_now(players[0], tid)
    harness.clock.step_wall(-2)  # the start is read on the wall clock, the timer on the other
    harness.advance(61)
    await sync(players[0])
    assert status(players[0], tid)["status"] == "scheduled"
    harness.advance(2)
    await wait_for(lambda: all(rooms_open(p, tid) for p in players))


async def test_too_few_players_are_filled_with_cpus(harness: Harness) -> None:
    tid, _, players = await quick(harness, 3, fill=True)
    tables = await started(harness, tid, players)
    entrants = [s for t in tables for s in t["seats"]]
    cpus = [s for s in entrants if s["cpu"]]
    assert len(entrants) == 8 and len(cpus) == 5
    assert all(
        s["id"].startswith("cpu:") and s["nickname"].endswith(" (CPU, strong)") for s in cpus
    )
    assert len({s["nickname"] for s in cpus}) == len(cpus)  # each CPU a name of its own
    names = {s["id"]: s["nickname"] for s in cpus}
    for table in tables:  # the same names at the tables themselves
        snapshot = await players[0].request(
            {"type": "watch", "room_id": table["room_id"]}, "snapshot"
        )
        for entrant, seat in zip(table["seats"], snapshot["room"]["seats"], strict=True):
            if entrant["cpu"]:
                assert seat["cpu"] and seat["nickname"] == names[entrant["id"]]
    assert {s["id"] for s in entrants if not s["cpu"]} == {p.player_id for p in players}
    await Bots(players).play_until(finished(players[0], tid))
    final = status(players[0], tid)
    places = check_places(final)
    assert len({p["entrant"] for p in places}) == 8
    assert not any("left" in p for p in places)


async def test_too_few_players_without_fill_cancel_the_tournament(harness: Harness) -> None:
    tid, _, players = await quick(harness, 3)
    for player in players:
        player.keep = True
    harness.advance(61)
    for player in players:
        await wait_for(lambda p=player: status(p, tid).get("status") == "cancelled")
        frames = [f for f in player.seen if f["type"] == "tournament"]
        assert frames[-1]["tournament"]["status"] == "cancelled"
        assert "3 of 8" in (frames[-1]["tournament"]["reason"] or "")
        assert frames[-1]["tournament"]["rounds"] == []
    assert (await harness.running())["rooms"] == []  # no room was opened
    late = await harness.client("late")
    before = await log_length(harness, tid)
    code = await refusal(late, {"type": "tournament_register", "tournament_id": tid})
    assert code == "registration_closed"
    assert await log_length(harness, tid) == before


# -- 5. start when full ----------------------------------------------------------------------


async def test_a_start_when_full_tournament_starts_with_the_eighth_player(
    harness: Harness,
) -> None:
    tid = await schedule(harness, "quick", 0.0, start_when_full=True)
    players = [await harness.client(f"w{i}") for i in range(8)]
    await register(players[:7], tid)
    waiting = await tournament_now(players[0], tid)
    assert waiting["status"] == "scheduled" and waiting["start_at"] is None
    # it has no start time: however far the clock moves, it waits for the eighth player
    harness.advance(86_400)
    assert (await tournament_now(players[0], tid))["version"] == waiting["version"]
    now, wall = harness.clock.now(), harness.clock.wall()
    await register(players[7:], tid)
    await wait_for(lambda: all(rooms_open(p, tid) for p in players))
    assert harness.clock.now() == now and harness.clock.wall() == wall
    running = status(players[7], tid)
    assert running["status"] == "running" and len(running["rounds"]) == 1
    seated = {s["id"] for t in running["rounds"][0] for s in t["seats"]}
    assert seated == {p.player_id for p in players}
    for table in running["rounds"][0]:
        snapshot = await room_now(players[0], table["room_id"])
        assert snapshot["room"]["status"] == "playing", snapshot["room"]


async def test_watchers_who_ask_at_once_for_a_tournament_not_yet_run_share_one(
    harness: Harness,
) -> None:
    """A tournament scheduled from the command line runs once its first command arrives;
    commands that arrive while it loads reach that same tournament (two copies of it would
    each start it: the log refuses the second, and that copy's watchers hear nothing)."""
    tid = await schedule(harness, "quick", harness.clock.wall() + 60)
    watchers = [await harness.client(f"w{i}") for i in range(6)]
    await asyncio.gather(
        *(w.send({"type": "tournament_watch", "tournament_id": tid}) for w in watchers)
    )
    for w in watchers:
        frames = await sync(w)
        assert not [f for f in frames if f["type"] == "error"], frames
    player = await harness.client("p")
    await register([player], tid)
    for w in watchers:  # each hears of the registration: each watches the one that runs
        await sync(w)
        assert [e["id"] for e in status(w, tid)["registered"]] == [player.player_id]
    assert await log_length(harness, tid) == 2  # scheduled, registered: nothing twice


# -- 6. bad input: a typed error to that client, and nothing changes --------------------------
# (refusals decided by the tournament's state, not by the database: SQLite is enough)


@SQLITE_ONLY
async def test_registering_twice_is_refused(harness: Harness) -> None:
    tid, _, players = await quick(harness, 2)
    watcher = await harness.client("watcher")
    before = (await tournament_now(watcher, tid))["version"], await log_length(harness, tid)
    code = await refusal(players[0], {"type": "tournament_register", "tournament_id": tid})
    assert code == "already_registered"
    now = await tournament_now(watcher, tid)
    assert (now["version"], await log_length(harness, tid)) == before
    assert sorted(e["id"] for e in now["registered"]) == sorted(p.player_id for p in players)


@SQLITE_ONLY
async def test_registering_when_full_or_started_is_refused(harness: Harness) -> None:
    tid, _, players = await quick(harness, 8)
    ninth = await harness.client("ninth")
    watcher = await harness.client("watcher")
    before = (await tournament_now(watcher, tid))["version"], await log_length(harness, tid)
    code = await refusal(ninth, {"type": "tournament_register", "tournament_id": tid})
    assert code == "tournament_full"
    assert ((await tournament_now(watcher, tid))["version"], await log_length(harness, tid)) == (
        before
    )

    harness.advance(61)
    await wait_for(lambda: rooms_open(watcher, tid))
    before = (await tournament_now(watcher, tid))["version"], await log_length(harness, tid)
    code = await refusal(ninth, {"type": "tournament_register", "tournament_id": tid})
    assert code == "registration_closed"
    code = await refusal(ninth, {"type": "tournament_unregister", "tournament_id": tid})
    assert code == "not_registered"
    code = await refusal(players[0], {"type": "tournament_unregister", "tournament_id": tid})
    assert code == "registration_closed"
    now = await tournament_now(watcher, tid)
    assert (now["version"], await log_length(harness, tid)) == before
    assert ninth.player_id not in [e["id"] for e in now["registered"]]


@SQLITE_ONLY
async def test_registering_for_a_cancelled_tournament_is_refused(harness: Harness) -> None:
    tid, _, players = await quick(harness, 1)
    harness.advance(61)
    await wait_for(lambda: status(players[0], tid).get("status") == "cancelled")
    other = await harness.client("other")
    before = await log_length(harness, tid)
    code = await refusal(other, {"type": "tournament_register", "tournament_id": tid})
    assert code == "registration_closed"
    assert await log_length(harness, tid) == before
    row = await (await harness.stores()).tournaments.tournament(tid)
    assert row is not None and row.status == "cancelled"
    # watching it afterwards shows it as it ended, and changes nothing
    shown = await other.request({"type": "tournament_watch", "tournament_id": tid}, "tournament")
    assert shown["type"] == "tournament", shown
    assert shown["tournament"]["status"] == "cancelled" and shown["tournament"]["reason"]
    assert [e["id"] for e in shown["tournament"]["registered"]] == [players[0].player_id]
    assert await log_length(harness, tid) == before


@SQLITE_ONLY
async def test_unregistering_when_not_registered_is_refused(harness: Harness) -> None:
    tid, _, _players = await quick(harness, 1)
    stranger = await harness.client("stranger")
    before = (await tournament_now(stranger, tid))["version"], await log_length(harness, tid)
    code = await refusal(stranger, {"type": "tournament_unregister", "tournament_id": tid})
    assert code == "not_registered"
    code = await refusal(stranger, {"type": "tournament_leave", "tournament_id": tid})
    assert code == "not_registered"
    assert ((await tournament_now(stranger, tid))["version"], await log_length(harness, tid)) == (
        before
    )


@SQLITE_ONLY
async def test_an_unknown_tournament_is_refused(harness: Harness) -> None:
    client = await harness.client("nobody")
    for kind in ("register", "unregister", "leave", "watch"):
        code = await refusal(client, {"type": f"tournament_{kind}", "tournament_id": "t-nope"})
        assert code == "no_such_tournament", kind
    assert (await harness.running())["tournaments"] == []


@SQLITE_ONLY
async def test_acting_at_a_tournament_table_without_a_seat_is_refused(harness: Harness) -> None:
    tid, _, (player,) = await quick(harness, 1, fill=True)
    tables = await started(harness, tid, [player])
    room_id, seat = seat_of(tables, player.player_id)
    mine = await player.request({"type": "resume", "room_id": room_id}, "snapshot")
    assert mine["type"] == "snapshot" and mine["seat"] == seat, mine
    table = player.tables[room_id]
    await wait_for(lambda: table.turn == seat and bool(table.legal))  # the CPUs wait for it
    action, version = table.legal[0], table.version
    outsider = await harness.client("outsider")
    message = {"type": "act", "room_id": room_id, "action": action}
    assert await refusal(outsider, message) == "not_a_member"
    snapshot = await outsider.request({"type": "watch", "room_id": room_id}, "snapshot")
    assert snapshot["type"] == "snapshot" and snapshot["seat"] is None
    assert snapshot["view"]["hand"] == []
    assert (snapshot["version"], snapshot["view"]["turn"]) == (version, seat)
    assert await refusal(outsider, message) == "not_seated"
    after = await room_now(outsider, room_id)
    assert (after["version"], after["view"]["turn"]) == (version, seat)
    # the tournament's own player may act there
    mine = await player.request({"type": "resume", "room_id": room_id}, "snapshot")
    assert mine["seat"] == seat and action in mine["view"]["legal"]
    assert mine["version"] == version


# -- 7. repeat --------------------------------------------------------------------------------


@pytest.mark.parametrize("fill", [False, True], ids=["cancelled", "started"])
async def test_a_daily_tournament_is_scheduled_again(harness: Harness, fill: bool) -> None:
    lobby = await harness.client("lobby")
    lobby.keep = True
    # nobody registered: cancelled (CPUs alone play for nobody); one player and CPUs: played
    tid, start, players = await quick(harness, 1 if fill else 0, fill=fill, repeat="daily")
    await tournament_now(lobby, tid)  # someone looks at it: the server picks it up
    listing = await lobby.request({"type": "lobby_subscribe"}, "lobby")
    assert [t["id"] for t in listing["tournaments"]] == [tid]
    assert listing["tournaments"][0]["repeat"] == "daily"

    harness.advance(61)

    def next_one() -> list[dict]:
        return [
            t
            for t in lobby.tournaments.values()
            if t["id"] != tid and t["start_at"] == start + 86400
        ]

    await wait_for(lambda: bool(next_one()))
    (again,) = next_one()
    assert again["status"] == "scheduled" and again["repeat"] == "daily"
    assert again["format"] == "quick" and again["fill_with_cpu"] is fill
    assert again["registered"] == [] and not again["start_when_full"]

    # the first one: cancelled, it leaves the lobby; played out by CPUs, it stays listed as
    # finished, with its places, for two hours
    def gone() -> bool:
        return any(
            f["type"] == "lobby_tournament_gone" and f["tournament_id"] == tid for f in lobby.seen
        )

    if fill:
        await Bots(players).play_until(finished(players[0], tid))
        await wait_for(lambda: lobby.tournaments.get(tid, {}).get("status") == "finished")
        listing = await lobby.request({"type": "lobby_subscribe"}, "lobby")
        (ended,) = [t for t in listing["tournaments"] if t["id"] == tid]
        assert ended["status"] == "finished" and len(ended["places"]) == 8
        harness.advance(FINISHED_KEPT)
    await sync(lobby)
    listing = await lobby.request({"type": "lobby_subscribe"}, "lobby")
    assert [t["id"] for t in listing["tournaments"]] == [again["id"]]
    assert gone()
    row = await (await harness.stores()).tournaments.tournament(tid)
    assert row is not None and row.status == ("finished" if fill else "cancelled")
    # it is a real tournament: it takes registrations
    await register([await harness.client("next")], again["id"])


# -- 8. the command line ----------------------------------------------------------------------


async def test_a_tournament_scheduled_from_the_command_line_is_listed(harness: Harness) -> None:
    harness.overrides["tournament_poll"] = 0.1  # the server looks for new ones often
    await harness.restart()
    lobby = await harness.client("lobby")
    listing = await lobby.request({"type": "lobby_subscribe"}, "lobby")
    assert listing["tournaments"] == []
    where = harness.database
    if "db" in where:
        env, flags = {}, ["--db", where["db"]]
    else:
        env = {
            "KLAVERJAS_DATABASE_URL": where["database_url"],
            "KLAVERJAS_DATABASE_SCHEMA": where["database_schema"],
        }
        flags = []
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "commands", "tournament", "schedule", "--format", "quick",
        "--at", "2030-01-01T10:00:00", "--fill-with-cpu", *flags,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, cwd=ROOT,
        env={**os.environ, **env},
    )  # fmt: skip
    out, err = await asyncio.wait_for(process.communicate(), timeout=20)
    assert process.returncode == 0, err.decode()
    tid = scheduled_id(out.decode())
    assert "starts 2030-01-01 10:00 UTC (CPUs fill the empty places)" in out.decode(), out
    frame = await lobby.next("lobby_tournament", timeout=10)  # the poller found it
    listed = frame["tournament"]
    assert listed["id"] == tid and listed["status"] == "scheduled"
    assert listed["format"] == "quick" and listed["fill_with_cpu"] is True
    assert listed["start_at"] == parse_time("2030-01-01T10:00:00") == 1893492000.0
    assert listed["repeat"] is None and listed["size"] == 8
    assert (await harness.running())["tournaments"] == [tid]
    # picked up once, not again: a later poll lists a later one (polls load them in order
    # of start time, so a second listing of the first would come before it)
    later = await schedule(harness, "quick", listed["start_at"] + 3600)
    frame = await lobby.next("lobby_tournament", timeout=10)
    assert frame["tournament"]["id"] == later, frame
    assert (await harness.running())["tournaments"] == sorted([tid, later])
