"""Quick and Classic tournaments end to end, on an injected clock."""

from __future__ import annotations

import itertools

import pytest

from engine import Match
from tests.server.conftest import Harness
from tests.tournament.conftest import Bots, record_of, register, schedule, status

pytestmark = pytest.mark.tournament


async def test_a_full_quick_tournament(harness: Harness) -> None:
    start = harness.clock.wall() + 60
    tid = await schedule(harness, "quick", start)
    players = [await harness.client(f"p{i}") for i in range(8)]
    await register(players, tid)
    assert status(players[0], tid)["status"] == "scheduled"
    harness.advance(61)
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
            match = await record_of(players[0], table["room_id"])
            assert max(match.totals) >= 1001 and match.winner == table["winner"]
            assert match.rules.trump_mode == "dealer" and match.rules.variant == "amsterdam"


def _partners(tables: list[dict]) -> dict[str, str]:
    pairs = {}
    for table in tables:
        ids = [s["id"] for s in table["seats"]]
        for a, b in ((0, 2), (1, 3)):
            pairs[ids[a]], pairs[ids[b]] = ids[b], ids[a]
    return pairs


async def test_a_full_classic_tournament_with_reshuffled_partners(harness: Harness) -> None:
    tid = await schedule(harness, "classic", harness.clock.wall() + 10)
    players = [await harness.client(f"c{i}") for i in range(16)]
    await register(players, tid)
    harness.advance(11)
    await Bots(players).play_until(lambda: status(players[0], tid).get("status") == "finished")
    final = status(players[0], tid)
    rounds = final["rounds"]
    assert [len(r) for r in rounds] == [4, 2, 1]
    for before, after in itertools.pairwise(rounds):
        through = {e for t in before for e in (s["id"] for s in t["seats"])}
        seated = [s["id"] for t in after for s in t["seats"]]
        assert set(seated) <= through and len(seated) == len(set(seated))
        winners = {t["seats"][t["winner"]]["id"] for t in before} | {
            t["seats"][t["winner"] + 2]["id"] for t in before
        }
        assert set(seated) == winners, "exactly the winning teams advance"
        old, new = _partners(before), _partners(after)
        assert all(new[p] != old[p] for p in seated), "partners are reshuffled"
    assert sorted(p["place"] for p in final["places"]) == [1] * 2 + [2] * 2 + [3] * 4 + [4] * 8
    assert len({p["entrant"] for p in final["places"]}) == 16


def test_a_tie_at_1001_means_another_deal() -> None:
    """Tournament tables play the tournament preset: equal totals past 1001 play on."""
    import random

    from engine import preset

    rules = preset("tournament")
    probe = Match(rules, 5)
    rng = random.Random(5)
    while not probe.sheet:
        legal = probe.legal_actions()
        probe.apply(probe.turn, legal[int(rng.random() * len(legal))])
    s0, s1 = probe.sheet[0].result.score
    match = Match(rules, 5)
    match.totals = [1001 + s1, 1001 + s0]
    rng = random.Random(5)
    while not match.sheet:
        legal = match.legal_actions()
        match.apply(match.turn, legal[int(rng.random() * len(legal))])
    assert match.totals[0] == match.totals[1] >= 1001
    assert not match.over and match.deal_number == 1
