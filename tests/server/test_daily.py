"""Solo games and the daily game over real websockets: the same deals and CPUs for
everyone, one attempt a day that a dropped connection resumes, results hidden until you
finish, the seed hidden until the day is over, boards by websocket and HTTP, streaks."""

from __future__ import annotations

import asyncio
import json
import logging
import urllib.error
import urllib.request
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import structlog

from client import GameClient
from engine import Phase
from server.daily.days import closes_at, daily_seed, day_of, moment, previous, streak
from server.table.room_actor import RoomActor
from tests.server.bots_hold import die, hold
from tests.server.conftest import Harness, play_until, running_harness, sync
from tests.server.test_bots import actor, metric

pytestmark = [pytest.mark.server, pytest.mark.daily]

DAY = 86_400.0


@pytest.fixture
async def harness(tmp_path: Path, database: str) -> AsyncIterator[Harness]:
    """A server whose daily game is one deal long (the deals are the point, not their number)."""
    async with running_harness(tmp_path, database, daily_deals=1) as h:
        yield h


def searching(room: RoomActor) -> bool:
    """Whether a CPU's search is asked and not answered (a bid or a card with no other
    choice is decided at once)."""
    return room.pending is not None and not room.pending.answer.done()


async def start_daily(client: GameClient) -> dict[str, Any]:
    snapshot = await client.request({"type": "daily_start"}, "snapshot")
    assert snapshot["type"] == "snapshot", snapshot
    return snapshot


async def finish(client: GameClient, room_id: str, pick=lambda legal: legal[0]) -> None:
    """Play ``client``'s seat until the match is over."""
    await play_until([client], room_id, lambda: client.tables[room_id].over, pick)
    await sync(client)


async def board(client: GameClient, **query: Any) -> dict[str, Any]:
    return await client.request({"type": "daily_board", **query}, "daily_board")


def seed_hidden(frames: list[dict[str, Any]], seed: int) -> None:
    text = json.dumps(frames)
    assert str(seed) not in text


async def today_seed(h: Harness) -> int:
    store = (await h.stores()).daily
    secret = await store.secret("daily", "unused: the server made it")
    return daily_seed(secret, day_of(h.clock.wall()))


# -- solo --------------------------------------------------------------------------------


async def test_new_game_seats_you_with_three_cpus_and_starts(harness: Harness) -> None:
    anna = await harness.client("Anna")
    snap = await anna.request({"type": "new_game", "level": "heuristic"}, "snapshot")
    room = snap["room"]
    assert (snap["seat"], room["mode"], room["status"], room["private"]) == (
        0, "solo", "playing", True,
    )  # fmt: skip
    assert [s["cpu"] for s in room["seats"]] == [False, True, True, True]
    assert {s["level"] for s in room["seats"][1:]} == {"heuristic"}
    assert room["rules"]["end"] == "deals" and room["rules"]["end_value"] == 16
    assert room["hints"] is True
    # nobody else can come in, and the lobby does not list it
    bob = await harness.client("Bob")
    lobby = await bob.request({"type": "lobby_subscribe"}, "lobby")
    assert all(r["id"] != snap["room_id"] for r in lobby["rooms"])
    refused = await bob.request({"type": "watch", "room_id": snap["room_id"]}, "error")
    assert refused["code"] == "solo_game"


async def test_new_game_plays_to_the_end_with_chosen_rules(harness: Harness) -> None:
    anna = await harness.client("Anna")
    message = {"type": "new_game", "rules": {"preset": "rotterdam", "deals": 1}}
    snap = await anna.request(message, "snapshot")
    assert snap["room"]["rules"]["variant"] == "rotterdam"
    assert [s["level"] for s in snap["room"]["seats"][1:]] == ["strong"] * 3  # the default
    await finish(anna, snap["room_id"])
    assert anna.tables[snap["room_id"]].room["status"] == "finished"


async def test_leaving_a_solo_game_resigns_it(harness: Harness) -> None:
    """The player's ``leave_room`` ends the game unfinished: closed, no record, gone from
    the player's tables; a resume shows it as it ended."""
    anna = await harness.client("Anna")
    snap = await anna.request({"type": "new_game", "level": "random"}, "snapshot")
    room_id = snap["room_id"]
    while anna.tables[room_id].turn != 0:  # the CPUs act up to anna's turn
        await anna.next("update", room_id=room_id)
    act = {"type": "act", "room_id": room_id, "action": anna.tables[room_id].legal[0]}
    await anna.send({"type": "leave_room", "room_id": room_id})
    closed = await anna.next("update", room_id=room_id, kind="closed")
    assert closed["room"]["status"] == "closed" and closed["turn"] is None
    await sync(anna)
    assert (await anna.request(act, "error"))["code"] == "room_closed"
    again = await harness.client()
    welcome = await again.hello(token=anna.token)
    assert welcome["rooms"] == []
    ended = await again.request({"type": "resume", "room_id": room_id}, "snapshot")
    assert ended["room"]["status"] == "closed"
    record = await again.request({"type": "get_record", "match_id": room_id}, "record")
    assert record["type"] == "error", record  # resigned: no result, no record


async def test_new_game_refuses_wrong_types(harness: Harness) -> None:
    anna = await harness.client("Anna")
    for bad in ({"level": "grandmaster"}, {"move_seconds": "30"}, {"rules": {"deals": 1.0}}):
        error = await anna.request({"type": "new_game", **bad}, "error")
        assert error["code"] == "invalid_field", (bad, error)
    assert not anna.tables


# -- the daily game ------------------------------------------------------------------------


async def test_everyone_gets_the_same_deal_seat_and_cpus(harness: Harness) -> None:
    anna, bob = await harness.client("Anna"), await harness.client("Bob")
    a, b = await start_daily(anna), await start_daily(bob)
    assert a["room_id"] != b["room_id"]
    assert a["seat"] == b["seat"] == 0
    assert a["view"]["hand"] == b["view"]["hand"]
    names = [[s["nickname"] for s in snap["room"]["seats"][1:]] for snap in (a, b)]
    assert names[0] == names[1]
    assert a["room"]["mode"] == "daily" and a["room"]["hints"] is False
    assert a["room"]["day"] == day_of(harness.clock.wall())
    hint = await anna.request({"type": "hint", "room_id": a["room_id"]}, "error")
    assert hint["code"] == "hints_not_allowed"
    # the same play meets the same CPU play: the same game, card for card
    anna.keep = bob.keep = True
    await finish(anna, a["room_id"])
    await finish(bob, b["room_id"])

    def plays(client: GameClient) -> list[tuple[int, str]]:
        return [
            (e["seat"], e["card"])
            for f in client.seen if f["type"] == "update"
            for e in f["events"] if e["type"] == "card_played"
        ]  # fmt: skip

    assert plays(anna) == plays(bob) and len(plays(anna)) == 32
    seed_hidden(anna.seen + bob.seen, await today_seed(harness))
    day = await board(anna, ref="board-1")
    assert day["ref"] == "board-1"
    assert [row["total"] for row in day["rows"]] == [day["you"]["total"]] * 2
    assert [row["rank"] for row in day["rows"]] == [1, 1]  # equal totals share a rank
    assert day["you"]["difference"] == 0


async def actions(h: Harness, room_id: str) -> list[str]:
    """Every action of a finished game, from its stored record."""
    record = await (await h.stores()).rooms.match(room_id)
    assert record is not None
    return record["actions"]


async def test_a_full_pool_never_changes_the_daily_cpus(tmp_path: Path) -> None:
    """With the pool full (one worker, held), a daily CPU's move is not played by heuristic:
    it waits for the place, and Bob's game is Anna's, move for move."""
    settings = {"daily_deals": 1, "bot_workers": 1, "bot_queue": 0}
    async with running_harness(tmp_path, "sqlite", **settings) as h:
        anna, bob = await h.client("Anna"), await h.client("Bob")
        first = (await start_daily(anna))["room_id"]
        await finish(anna, first)
        assert h.server is not None
        bots, flag = h.server.bots, tmp_path / "let-go"
        job = bots.submit(hold, str(flag))
        assert job is not None and bots.submit(hold, str(flag)) is None  # full
        try:
            started = await start_daily(bob)
            room = actor(h, started["room_id"])
            await play_until([bob], started["room_id"], lambda: searching(room))  # as Anna
            pending = room.pending  # a CPU's first card (a bid needs no search): it waits
            assert pending is not None and pending.decision.view.phase is Phase.PLAY
            assert room.room.version == pending.decision.version
            assert metric(h, "klaverjas_bot_waits_total") == 1
            assert bots.submit(hold, str(flag)) is None  # nothing goes before it
        finally:
            flag.touch()
            await job
        await finish(bob, started["room_id"])
        played = await actions(h, first)
        assert await actions(h, started["room_id"]) == played and len(played) >= 32
        assert metric(h, "klaverjas_bot_fallbacks_total", purpose="move") == 0


async def test_a_failed_search_is_searched_again_in_the_daily_game(tmp_path: Path) -> None:
    """A worker dies with the daily CPU's search queued behind it: the search fails with the
    pool, and is searched again (not played by heuristic)."""
    settings = {"daily_deals": 1, "bot_workers": 1, "bot_queue": 1}
    async with running_harness(tmp_path, "sqlite", **settings) as h:
        anna, bob = await h.client("Anna"), await h.client("Bob")
        first = (await start_daily(anna))["room_id"]
        await finish(anna, first)
        assert h.server is not None
        searched = metric(h, "klaverjas_bot_searches_total", level="strong", purpose="move")
        bots, flag = h.server.bots, tmp_path / "crash"
        job = bots.submit(die, str(flag))
        assert job is not None
        try:
            started = await start_daily(bob)
            room = actor(h, started["room_id"])
            await play_until([bob], started["room_id"], lambda: searching(room))  # as Anna
            pending = room.pending
            assert pending is not None and not pending.answer.done()  # behind the crash
        finally:
            flag.touch()
            with pytest.raises(Exception, match="terminated abruptly"):
                await job
        await finish(bob, started["room_id"])
        assert await actions(h, started["room_id"]) == await actions(h, first)
        again = metric(h, "klaverjas_bot_searches_total", level="strong", purpose="move")
        assert again == 2 * searched + 1  # Bob's CPUs searched as Anna's, and once more


async def test_the_seed_is_never_sent_or_logged_before_the_day_is_revealed(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Every frame from the first (the welcome), every HTTP body, and every log line of the
    server (structlog's and the standard library's) while a day's game is played, resumed
    and finished, its board and profile read: none holds the day's seed."""
    caplog.set_level(logging.DEBUG)
    with structlog.testing.capture_logs() as logs:
        async with running_harness(tmp_path, "sqlite", daily_deals=1) as h:
            anna = await GameClient.connect(h.url)
            h.clients.append(anna)
            anna.keep = True
            await anna.hello("Anna")
            room_id = (await start_daily(anna))["room_id"]
            again = await GameClient.connect(h.url)  # a second connection resumes it
            h.clients.append(again)
            again.keep = True
            await again.hello(token=anna.token)
            await start_daily(again)
            await finish(anna, room_id)
            await board(anna)
            await anna.request({"type": "get_profile"}, "profile")
            await anna.request({"type": "get_record", "match_id": room_id}, "error")
            await anna.request({"type": "review", "match_id": room_id}, "error")
            bodies = [
                (await http(h, path, anna.token))[1].decode()
                for path in ("/leaderboard/daily", f"/players/{anna.player_id}",
                             f"/matches/{room_id}", "/leaderboard/daily/alltime")
            ]  # fmt: skip
            seed = await today_seed(h)
    assert anna.seen[0]["type"] == "welcome" and again.seen[0]["type"] == "welcome"
    assert any(f["type"] == "snapshot" and f["room_id"] == room_id for f in again.seen)
    assert any(entry["event"] == "daily_finished" for entry in logs)  # the logs were read
    said = json.dumps([anna.seen, again.seen, bodies, logs], default=str)
    said += "\n".join(record.getMessage() for record in caplog.records)
    for form in (str(seed), hex(seed), f"{seed:x}"):
        assert form not in said


async def test_one_attempt_a_day_resumed_after_a_drop(harness: Harness) -> None:
    anna = await harness.client("Anna")
    token = anna.token
    first = await start_daily(anna)
    room_id = first["room_id"]
    await play_until([anna], room_id, lambda: anna.tables[room_id].version > first["version"])
    await sync(anna)
    seen = anna.tables[room_id].version
    await anna.close()
    again = await harness.client(token=token)
    resumed = await start_daily(again)
    assert resumed["room_id"] == room_id and resumed["version"] >= seen
    await finish(again, room_id)
    refused = await again.request({"type": "daily_start"}, "error")
    assert refused["code"] == "daily_played"
    # a new day, a new game with other cards
    harness.advance(DAY)
    tomorrow = await start_daily(again)
    assert tomorrow["room_id"] != room_id
    assert tomorrow["view"]["hand"] != first["view"]["hand"]


async def test_results_hidden_until_you_finish(harness: Harness) -> None:
    anna, bob = await harness.client("Anna"), await harness.client("Bob")
    a = await start_daily(anna)
    await finish(anna, a["room_id"])
    refused = await board(bob)
    assert refused["type"] == "error" and refused["code"] == "daily_not_finished"
    b = await start_daily(bob)
    refused = await board(bob)
    assert refused["code"] == "daily_not_finished"
    status, body, _ = await harness.http_get("/leaderboard/daily")
    assert status == 403 and json.loads(body)["error"] == "daily_not_finished"
    # your own today's board with your token over HTTP
    status, body, headers = await http(harness, "/leaderboard/daily", anna.token)
    assert status == 200 and headers["Cache-Control"] == "private, no-store"
    assert [row["nickname"] for row in json.loads(body)["rows"]] == ["Anna"]
    await finish(bob, b["room_id"], pick=lambda legal: legal[-1])
    mine = await board(bob)
    assert mine["players"] == 2 and mine["you"] is not None
    field = sum(f["mean"] for f in mine["field"])
    for row in mine["rows"]:
        assert row["difference"] == pytest.approx(row["total"] - field, abs=0.1)
    assert sum(row["difference"] for row in mine["rows"]) == pytest.approx(0, abs=0.2)


async def test_the_record_and_the_deals_show_once_the_day_is_over(harness: Harness) -> None:
    anna = await harness.client("Anna")
    a = await start_daily(anna)
    seed = await today_seed(harness)
    day = day_of(harness.clock.wall())
    await finish(anna, a["room_id"])
    refused = await anna.request({"type": "get_record", "match_id": a["room_id"]}, "error")
    assert refused["code"] == "daily_not_over"
    status, _, _ = await harness.http_get(f"/matches/{a['room_id']}")
    assert status == 403
    assert "deals" not in await board(anna)
    harness.advance(DAY)
    record = await anna.request({"type": "get_record", "match_id": a["room_id"]}, "record")
    assert record["record"]["seed"] == seed and record["record"]["daily"] == day
    past = await board(anna, date=day)
    assert sorted(past["deals"][0]["hands"][0]) == sorted(a["view"]["hand"])  # as dealt
    assert past["best"][0]["nickname"] == "Anna"
    assert past["best"][0]["total"] == sum(past["best"][0]["points"])
    # and over HTTP, for anyone, cached a little
    status, body, headers = await http(harness, f"/leaderboard/daily?date={day}")
    assert status == 200 and headers["Cache-Control"].startswith("public")
    assert json.loads(body)["rows"][0]["nickname"] == "Anna"


async def to_before_midnight(h: Harness, seconds: float) -> str:
    """Move the clock to ``seconds`` before the next midnight (UTC); the day then."""
    h.advance(DAY - h.clock.wall() % DAY - seconds)
    return day_of(h.clock.wall())


async def my_turn(client: GameClient, room_id: str) -> list[str]:
    """Until it is ``client``'s turn (the CPUs before it have acted): its legal actions."""
    table = client.tables[room_id]
    async with asyncio.timeout(10):
        while not (table.legal and table.turn == table.seat):
            await client.next("update")
    return table.legal


async def test_a_game_started_before_midnight_closes_before_its_day_is_revealed(
    harness: Harness,
) -> None:
    """A daily game may be finished after midnight, within the grace (2 hours); nothing of
    its day is revealed meanwhile, and a game still running when the grace ends is closed
    unfinished: nobody plays a day's deals once they are shown."""
    day = await to_before_midnight(harness, 20)
    anna, bob = await harness.client("Anna"), await harness.client("Bob")
    b = await start_daily(bob)
    await finish(bob, b["room_id"])
    a = await start_daily(anna)
    room_id = a["room_id"]
    legal = await my_turn(anna, room_id)
    harness.advance(25)  # the next day; Anna's move timer (30 s) has not run out
    assert day_of(harness.clock.wall()) > day
    refused = await bob.request({"type": "get_record", "match_id": b["room_id"]}, "error")
    assert refused["code"] == "daily_not_over"
    status, _, _ = await harness.http_get(f"/matches/{b['room_id']}")
    assert status == 403
    shown = await board(bob, date=day)
    assert shown["players"] == 1 and "deals" not in shown and "best" not in shown
    status, body, _ = await harness.http_get(f"/leaderboard/daily?date={day}")
    assert status == 403 and json.loads(body)["error"] == "daily_not_finished"
    status, _, headers = await http(harness, f"/leaderboard/daily?date={day}", bob.token)
    assert status == 200 and headers["Cache-Control"] == "private, no-store"
    assert (await board(anna, date=day))["code"] == "daily_not_finished"
    # Anna's game goes on after midnight
    version = anna.tables[room_id].version
    await anna.send({"type": "act", "room_id": room_id, "action": legal[0]})
    await anna.next("update", room_id=room_id, kind="act", seat=0)
    assert anna.tables[room_id].version > version

    harness.advance(2 * 3600)  # the grace is over: her game closes, unfinished
    closed = await anna.next("update", room_id=room_id, kind="closed")
    assert closed["room"]["status"] == "closed"
    refused = await anna.request({"type": "act", "room_id": room_id, "action": legal[0]}, "error")
    assert refused["code"] == "room_closed"
    shown = await board(bob, date=day)
    assert [row["nickname"] for row in shown["rows"]] == ["Bob"] and shown["players"] == 1
    assert len(shown["deals"]) == 1 and shown["best"][0]["nickname"] == "Bob"
    record = await bob.request({"type": "get_record", "match_id": b["room_id"]}, "record")
    assert record["record"]["daily"] == day
    store = (await harness.stores()).daily
    attempt = await store.daily_attempt(day, anna.player_id)
    assert attempt is not None and not attempt.finished  # forfeited: no result
    assert (await board(anna, date=day))["you"] is None


async def test_a_game_loaded_after_its_day_closed_is_closed(harness: Harness) -> None:
    day = await to_before_midnight(harness, 20)
    anna = await harness.client("Anna")
    token = anna.token
    room_id = (await start_daily(anna))["room_id"]
    await my_turn(anna, room_id)
    await harness.stop()
    harness.advance(3 * 3600)
    await harness.start()
    again = await harness.client(token=token)
    ended = await again.request({"type": "resume", "room_id": room_id, "version": 0}, "snapshot")
    assert ended["type"] == "snapshot" and ended["room"]["status"] == "closed", ended  # as it ended
    stores = await harness.stores()
    assert (await stores.rooms.room(room_id)).status == "closed"  # type: ignore[union-attr]
    assert not (await stores.daily.daily_attempt(day, again.player_id)).finished  # type: ignore[union-attr]


async def test_streaks_and_the_alltime_board(harness: Harness) -> None:
    anna = await harness.client("Anna")
    for _ in range(5):
        snap = await start_daily(anna)
        await finish(anna, snap["room_id"])
        harness.advance(DAY)
    empty = await anna.request({"type": "daily_alltime"}, "daily_alltime")
    assert empty["players"] == 0  # yesterday's game does not count yet
    harness.advance(DAY)
    alltime = await anna.request({"type": "daily_alltime"}, "daily_alltime")
    assert alltime["min_days"] == 5 and alltime["players"] == 1
    assert alltime["rows"][0]["days"] == 5 and alltime["rows"][0]["average"] == 0
    last = previous(previous(day_of(harness.clock.wall())))
    assert (await board(anna, date=last))["streak"] == 0  # yesterday was missed
    snap = await start_daily(anna)
    await finish(anna, snap["room_id"])
    assert (await board(anna))["streak"] == 1


def test_streak_counts_consecutive_days() -> None:
    assert streak([], "2027-01-10") == 0
    assert streak(["2027-01-10", "2027-01-09", "2027-01-07"], "2027-01-10") == 2
    assert streak(["2027-01-09", "2027-01-08"], "2027-01-10") == 2
    assert streak(["2027-01-08"], "2027-01-10") == 0


def test_a_day_closes_after_its_midnight_and_the_grace() -> None:
    assert moment(closes_at("2027-01-15", 7200)) == "02:00 UTC on 2027-01-16"
    assert moment(closes_at("2027-12-31", 0)) == "00:00 UTC on 2028-01-01"
    assert closes_at("2027-01-15", 10 * DAY) == closes_at("2027-01-16", 0)  # at most a day
    assert closes_at("2027-01-15", -5) == closes_at("2027-01-15", 0)


def test_each_day_has_its_own_seed() -> None:
    seeds = {daily_seed("secret", f"2027-01-{d:02}") for d in range(1, 29)}
    assert len(seeds) == 28
    assert daily_seed("other", "2027-01-01") != daily_seed("secret", "2027-01-01")


@pytest.mark.parametrize("database", ["sqlite"])
async def test_bad_board_queries(harness: Harness) -> None:
    anna = await harness.client("Anna")
    for bad in ({"date": "2027-13-01"}, {"date": 20270101}, {"limit": 0}, {"offset": "1"}):
        error = await board(anna, **bad)
        assert error["code"] in ("invalid_field", "no_such_day"), (bad, error)
    error = await board(anna, date="2999-01-01")
    assert error["code"] == "no_such_day"
    for path in ("?date=x", "?limit=1000", "?offset=-1", "?what=1", "?limit=1&limit=2"):
        status, body, _ = await harness.http_get(f"/leaderboard/daily{path}")
        assert status == 400 and json.loads(body)["error"] == "invalid_field", path
    status, _, _ = await http(harness, "/leaderboard/daily", "x" * 20)
    assert status == 400


async def http(h: Harness, path: str, token: str | None = None) -> tuple[int, bytes, Any]:
    """A GET with an optional bearer token: status, body, headers."""
    assert h.server is not None
    request = urllib.request.Request(f"http://127.0.0.1:{h.server.port}{path}")
    if token is not None:
        request.add_header("Authorization", f"Bearer {token}")

    def get() -> tuple[int, bytes, Any]:
        direct = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        try:
            with direct.open(request, timeout=10) as response:
                return response.status, response.read(), response.headers
        except urllib.error.HTTPError as err:
            return err.code, err.read(), err.headers

    return await asyncio.to_thread(get)
