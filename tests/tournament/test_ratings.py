"""Tournament tables are rated: a whole Quick tournament of eight humans, played through its
real rooms and the tournament's actor, changes each table's four players' ratings once, and
counts in their profiles with its places."""

from __future__ import annotations

import pytest

from client import GameClient
from tests.server.conftest import Harness, sync
from tests.tournament.conftest import Bots, finished, register, schedule, status

pytestmark = [pytest.mark.tournament, pytest.mark.daily]


async def profile(client: GameClient) -> dict:
    await sync(client)
    reply = await client.request({"type": "get_profile", "limit": 100}, "profile")
    assert reply["type"] == "profile", reply
    return reply


async def test_a_tournaments_tables_rate_their_four_humans(harness: Harness) -> None:
    tid = await schedule(harness, "quick", harness.clock.wall() + 60)
    players = [await harness.client(f"p{i}") for i in range(8)]
    await register(players, tid)
    harness.advance(61)
    await Bots(players).play_until(finished(players[0], tid))
    final = status(players[0], tid)
    tables = [table for tables in final["rounds"] for table in tables]
    assert len(tables) == 3  # two in the first round, then the final
    place = {p["entrant"]: p["place"] for p in final["places"]}
    for player in players:
        mine = await profile(player)
        played = {
            t["room_id"]: (seat % 2 == t["winner"])
            for t in tables
            for seat, s in enumerate(t["seats"])
            if s["id"] == player.player_id
        }
        lines = mine["history"]
        assert {line["match_id"]: line["won"] for line in lines} == played
        assert all(line["rated"] and line["tournament"] == tid for line in lines)
        assert all(line["rating_change"] is not None for line in lines)
        assert mine["matches"] == len(played) and mine["wins"] == sum(played.values())
        rating = mine["rating"]
        assert rating is not None and rating["matches"] == len(played)  # once a table
        assert {r["match_id"] for r in mine["rating_history"]} == set(played)
        last = [t["room_id"] for t in tables if t["room_id"] in played][-1]  # (the clock
        # stood still: the history's order by time says nothing here)
        (after,) = [r for r in mine["rating_history"] if r["match_id"] == last]
        assert rating["rating"] == after["rating"]
        if len(set(played.values())) == 1:  # won (or lost) every table
            assert (rating["mu"] > 25) == all(played.values())
        assert mine["tournaments"]["played"] == 1
        assert mine["tournaments"]["recent"][0]["place"] == place[player.player_id]
