"""The daily board deal by deal: your own points in each deal and their difference from the
field's mean, shown to you alone, and only once you have finished (issue 33, item 11)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from client import GameClient
from engine import Match
from server.daily.days import day_of
from tests.server.conftest import Harness, running_harness
from tests.server.test_daily import DAY, board, finish, http, start_daily

pytestmark = [pytest.mark.server, pytest.mark.daily]

DEALS = 3


@pytest.fixture
async def harness(tmp_path: Path, database: str) -> AsyncIterator[Harness]:
    async with running_harness(tmp_path, database, daily_deals=DEALS) as h:
        yield h


def deal_scores(client: GameClient, room_id: str) -> list[int]:
    """Seat 0's team's score in each deal, as ``client`` saw the deals end."""
    return [
        event["score"][0]
        for frame in client.seen
        if frame.get("type") == "update" and frame.get("room_id") == room_id
        for event in frame.get("events", [])
        if event["type"] == "deal_ended"
    ]


async def played(
    harness: Harness, nickname: str, pick=lambda legal: legal[0]
) -> tuple[GameClient, list[int]]:
    """``nickname``'s daily game, played to its end (its frames kept); its team's score in
    each deal, as the player saw the deals end."""
    client = await harness.client(nickname)
    client.keep = True
    snap = await start_daily(client)
    await finish(client, snap["room_id"], pick)
    return client, deal_scores(client, snap["room_id"])


def means(reply: dict[str, Any]) -> dict[int, float]:
    return {f["number"]: f["mean"] for f in reply["field"]}


async def test_your_points_and_difference_deal_by_deal(harness: Harness) -> None:
    anna, a = await played(harness, "Anna")
    bob, b = await played(harness, "Bob", pick=lambda legal: legal[-1])
    day = day_of(harness.clock.wall())

    for player, seen in ((anna, a), (bob, b)):
        mine = await board(player)
        you = mine["you"]
        assert len(seen) >= DEALS  # more only after equal totals
        assert you["points"] == seen  # the points of the deals the player played
        assert sum(you["points"]) == you["total"]
        field = means(mine)
        for number, (points, difference) in enumerate(
            zip(you["points"], you["differences"], strict=True)
        ):
            assert difference == pytest.approx(points - field[number], abs=0.05)
        assert sum(you["differences"]) == pytest.approx(you["difference"], abs=0.1 * DEALS)
        # nobody else's deals: the rows carry totals only, the best games wait for the day
        assert all(set(row) == {"rank", "player_id", "nickname", "total", "difference"}
                   for row in mine["rows"])  # fmt: skip
        assert "best" not in mine and "deals" not in mine

    # the field's means are the two games' deals together
    field = means(await board(anna))
    for number in range(max(len(a), len(b))):  # a deal after equal totals: who played it
        scores = [deals[number] for deals in (a, b) if number < len(deals)]
        assert field[number] == pytest.approx(sum(scores) / len(scores), abs=0.05)

    # over HTTP with the player's token: the same deals, never cached for others
    status, body, headers = await http(harness, "/leaderboard/daily", anna.token)
    assert status == 200 and headers["Cache-Control"] == "private, no-store"
    assert json.loads(body)["you"]["points"] == a

    # once the day is revealed: the record agrees; someone who did not play gets no "you",
    # and a board fetched with a token is not cached for everyone
    harness.advance(DAY)
    room_id = next(iter(anna.tables))
    record = await anna.request({"type": "get_record", "match_id": room_id}, "record")
    match = Match.from_record(record["record"])
    assert [deal.result.score[0] for deal in match.sheet] == a
    past = await board(anna, date=day)
    assert past["you"]["points"] == a
    cara = await harness.client("Cara")
    theirs = await board(cara, date=day)
    assert theirs["players"] == 2 and theirs["you"] is None
    status, body, headers = await http(harness, f"/leaderboard/daily?date={day}", anna.token)
    assert status == 200 and json.loads(body)["you"]["points"] == a
    assert headers["Cache-Control"].startswith("private")
    status, body, headers = await http(harness, f"/leaderboard/daily?date={day}")
    assert json.loads(body)["you"] is None and headers["Cache-Control"].startswith("public")


async def test_an_unfinished_game_shows_no_deals(harness: Harness) -> None:
    anna, a = await played(harness, "Anna")
    bob = await harness.client("Bob")
    await start_daily(bob)  # started, never finished: the board stays closed to him
    refused = await board(bob)
    assert refused["type"] == "error" and refused["code"] == "daily_not_finished"
    assert (await board(anna))["you"]["points"] == a
    day = day_of(harness.clock.wall())
    harness.advance(DAY)  # his game closes unfinished; the day is revealed to everyone
    revealed = await board(bob, date=day)
    assert revealed["players"] == 1 and revealed["you"] is None
    assert [row["nickname"] for row in revealed["rows"]] == ["Anna"]
