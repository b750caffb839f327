"""Ratings across nodes: a rated match whose table moves to another node mid-match is
rated once, and so is one whose end is published again when a node adopts it afresh."""

from __future__ import annotations

import asyncio
import json

import pytest

from tests.multinode.conftest import TAKEOVER_SECONDS, Cluster, http_get, pg_rows
from tests.multinode.players import seat_table

pytestmark = [pytest.mark.multinode, pytest.mark.daily]


async def poll(cluster: Cluster, query: str, *args: object, want: object, what: str) -> None:
    """Until ``query``'s first value is ``want`` (a few seconds at most)."""
    async with asyncio.timeout(15):
        while (await pg_rows(cluster.schema, query, *args))[0][0] != want:
            await asyncio.sleep(0.05)
    cluster.note(what)


async def test_a_rated_match_finished_across_a_takeover_is_rated_once(cluster: Cluster) -> None:
    nodes = await cluster.start("n1", "n2")
    table = await seat_table(cluster, nodes, {"deals": 2}, pace=0.03, seed=5)
    room_id = table.room_id
    owner = await cluster.owner(room_id)
    await cluster.until(
        lambda: min(v.version for v in table.views()) >= 16, 15, "play to get going"
    )
    await cluster.kill(owner)
    await cluster.owner(room_id, timeout=TAKEOVER_SECONDS, exclude=(owner,))
    await cluster.until(table.over, 30, "the match to finish on another node")
    status = "SELECT status FROM rooms WHERE id = $1"
    await poll(cluster, status, room_id, want="finished", what="the room settled")
    ids = [bot.player_id for bot in table.bots]

    async def ratings() -> list[tuple[str, int, float]]:
        rows = await pg_rows(
            cluster.schema,
            "SELECT player_id, matches, mu FROM ratings WHERE player_id = ANY($1::text[])"
            " ORDER BY player_id",
            ids,
        )
        return [tuple(row) for row in rows]

    rated = await ratings()
    assert [matches for _, matches, _ in rated] == [1, 1, 1, 1], rated

    # a node that stopped after publishing the end but before storing the room's status:
    # the next node to adopt the room replays it and publishes its end again
    await pg_rows(cluster.schema, "UPDATE rooms SET status = 'playing' WHERE id = $1", room_id)
    (late,) = await cluster.start("n3")
    await poll(cluster, status, room_id, want="finished", what="the room settled again")
    assert await ratings() == rated
    for query in (
        "SELECT count(*) FROM recorded_matches WHERE match_id = $1",
        "SELECT count(*) / 4 FROM rating_history WHERE match_id = $1",
        "SELECT count(*) / 4 FROM player_matches WHERE match_id = $1",
    ):
        assert (await pg_rows(cluster.schema, query, room_id))[0][0] == 1, query
    for node in (late, *(n for n in nodes if n is not owner)):
        code, body = await http_get(node.port, f"/players/{ids[0]}")
        assert code == 200
        shown = json.loads(body)
        assert shown["matches"] == 1 and shown["rating"]["matches"] == 1, shown
