"""The daily game's integrity: nobody plays a player's moves into a ranked result.

When a daily player's time runs out, or it walked away, it is marked away and the game
waits for it (no timer runs, no CPU plays its seat) until it comes back, or until the
day's games close, when the game ends unfinished.  A result on the board holds only moves
its player made: even a game whose log has a move made for its player (written before
this rule) is not ranked.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from server.daily.days import day_of
from tests.server.conftest import Harness, room_now, running_harness
from tests.server.test_daily import board, finish, my_turn, start_daily, to_before_midnight

pytestmark = [pytest.mark.server, pytest.mark.daily]

MOVE_SECONDS = 30  # the daily game's turn timer


@pytest.fixture
async def harness(tmp_path: Path, database: str) -> AsyncIterator[Harness]:
    async with running_harness(tmp_path, database, daily_deals=1) as h:
        yield h


async def walk_away(h: Harness) -> tuple[str, str]:
    """Anna starts the daily game and closes her browser on her turn: her token and the
    game's room."""
    anna = await h.client("Anna")
    room_id = (await start_daily(anna))["room_id"]
    await my_turn(anna, room_id)
    await anna.close()
    return anna.token, room_id


async def seat_zero_moves(h: Harness, room_id: str) -> list[dict[str, Any]]:
    """The moves written for seat 0 (Anna's), whoever made them."""
    log = await (await h.stores()).logs.log(room_id)
    return [e.entry for e in log if e.entry["t"] == "act" and e.entry["seat"] == 0]


async def test_an_absent_player_is_waited_for_never_played_for(harness: Harness) -> None:
    token, room_id = await walk_away(harness)
    spy = await harness.client(token=token)  # Anna's second tab: it watches, never acts
    before = await room_now(spy, room_id)
    moves = await seat_zero_moves(harness, room_id)
    harness.advance(MOVE_SECONDS + 1)  # her time runs out: marked away, nothing played
    after = await room_now(spy, room_id)
    assert after["room"]["seats"][0]["away"] is True
    assert after["version"] == before["version"] + 1  # the away mark, and only that
    assert after["view"]["turn"] == 0 and after["deadline"] is None  # no timer runs now
    for _ in range(6):  # an hour later, the game still waits for her
        harness.advance(600)
        later = await room_now(spy, room_id)
        assert later["version"] == after["version"] and later["room"]["status"] == "playing"
    assert await seat_zero_moves(harness, room_id) == moves
    store = (await harness.stores()).daily
    attempt = await store.daily_attempt(day_of(harness.clock.wall()), spy.player_id)
    assert attempt is not None and not attempt.finished
    assert (await board(spy))["code"] == "daily_not_finished"  # no result, no board


async def test_a_player_who_comes_back_continues_and_is_ranked(harness: Harness) -> None:
    token, room_id = await walk_away(harness)
    harness.advance(MOVE_SECONDS * 10)
    anna = await harness.client(token=token)
    resumed = await start_daily(anna)  # back where she stood, her turn, her cards
    assert resumed["room_id"] == room_id and resumed["view"]["turn"] == 0
    assert resumed["view"]["legal"]
    back = await anna.next("update", room_id=room_id, kind="away")
    assert back["room"]["seats"][0]["away"] is False and back["deadline"] is not None
    await finish(anna, room_id)
    moves = await seat_zero_moves(harness, room_id)
    assert moves and {move["by"] for move in moves} == {"player"}
    mine = await board(anna)
    assert mine["you"] is not None and [r["nickname"] for r in mine["rows"]] == ["Anna"]


async def test_the_days_close_ends_an_absent_players_game(harness: Harness) -> None:
    day = await to_before_midnight(harness, 3600)
    token, room_id = await walk_away(harness)
    spy = await harness.client(token=token)
    harness.advance(MOVE_SECONDS + 1)  # away: waited for
    assert (await room_now(spy, room_id))["room"]["seats"][0]["away"] is True
    harness.advance(3600)  # midnight: within the grace, it still waits
    assert (await room_now(spy, room_id))["room"]["status"] == "playing"
    harness.advance(2 * 3600)  # the two hours' grace are over: closed
    closed = await spy.next("update", room_id=room_id, kind="closed")
    assert closed["room"]["status"] == "closed"
    again = await harness.client(token=token)
    ended = await again.request({"type": "resume", "room_id": room_id}, "snapshot")
    assert ended["room"]["status"] == "closed"
    assert all(move["by"] == "player" for move in await seat_zero_moves(harness, room_id))
    store = (await harness.stores()).daily
    attempt = await store.daily_attempt(day, again.player_id)
    assert attempt is not None and not attempt.finished  # unfinished: no result
    shown = await board(again, date=day)  # revealed now, to anyone
    assert shown["players"] == 0 and shown["rows"] == [] and shown["you"] is None


async def test_a_game_with_a_move_made_for_its_player_is_not_ranked(harness: Harness) -> None:
    """A game in play across the upgrade to this rule: its log holds a move the server
    made for Anna (a timeout, as the rule before allowed); she finishes it, unranked."""
    anna = await harness.client("Anna")
    token = anna.token
    room_id = (await start_daily(anna))["room_id"]
    legal = await my_turn(anna, room_id)
    version = anna.tables[room_id].version
    await harness.stop()
    stores = await harness.stores()
    entry = {"t": "act", "seat": 0, "action": legal[0], "by": "timeout"}
    await stores.logs.append(room_id, version + 1, entry)
    await harness.start()
    again = await harness.client(token=token)
    resumed = await start_daily(again)
    assert resumed["version"] >= version + 1
    await finish(again, room_id)
    assert again.tables[room_id].over
    assert (await board(again))["code"] == "daily_not_finished"
    attempt = await stores.daily.daily_attempt(day_of(harness.clock.wall()), again.player_id)
    assert attempt is not None and not attempt.finished
    refused = await again.request({"type": "daily_start"}, "error")
    assert refused["code"] == "daily_played"  # played, but not ranked: no second attempt
    day = day_of(harness.clock.wall())
    harness.advance(86_400)  # a day on: its board is revealed, without her
    shown = await board(again, date=day)
    assert shown["rows"] == [] and shown["you"] is None
