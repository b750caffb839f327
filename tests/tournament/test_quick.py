"""Quick and Classic tournaments end to end, on an injected clock."""

from __future__ import annotations

import pytest

from engine import Match
from tests.server.conftest import Harness
from tests.tournament.conftest import Bots, status

pytestmark = pytest.mark.tournament


async def _registered(harness: Harness, tid: str, n: int, prefix: str = "p") -> list:
    players = [await harness.client(f"{prefix}{i}") for i in range(n)]
    for player in players:
        reply = await player.request(
            {"type": "tournament_register", "tournament_id": tid}, "tournament"
        )
        assert reply["type"] == "tournament", reply
    return players


async def test_a_full_quick_tournament(harness: Harness) -> None:
    services = harness.server.services  # type: ignore[union-attr]
    start = harness.clock.wall() + 60
    actor = await services.schedule_tournament("quick", start, False, False, None)
    tid = actor.t.id
    players = await _registered(harness, tid, 8)
    assert status(players[0], tid)["status"] == "scheduled"
    await harness.advance(61)
    bots = Bots(players)
    await bots.play_until(lambda: status(players[0], tid).get("status") == "finished")
    final = status(players[0], tid)
    assert len(final["rounds"]) == 2 and [len(r) for r in final["rounds"]] == [2, 1]
    places = final["places"]
    assert sorted(p["place"] for p in places) == [1, 1, 2, 2, 3, 3, 3, 3]
    assert {p["prize"] for p in places if p["place"] == 1} == {"grand"}
    assert {p["prize"] for p in places if p["place"] == 2} == {"second"}
    # every table's record is stored and ended at or past 1001 with a winner
    for tables in final["rounds"]:
        for table in tables:
            reply = await players[0].request(
                {"type": "get_record", "match_id": table["room_id"]}, "record"
            )
            match = Match.from_record(reply["record"])
            assert max(match.totals) >= 1001 and match.winner == table["winner"]
            assert match.rules.trump_mode == "dealer" and match.rules.variant == "amsterdam"
