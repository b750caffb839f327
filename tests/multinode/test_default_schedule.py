"""The server's own tournament schedule on several nodes (issue 33, item 12): nodes that
start together, and a node started again, announce one tournament, not one each."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.multinode.conftest import Cluster, Node, pg_rows
from tests.multinode.players import open_client

pytestmark = pytest.mark.multinode

HOUR = 3600


def half_an_hour_away() -> tuple[str, float]:
    """A schedule whose next start is about half an hour off (so no start falls inside the
    test), and that start."""
    now = time.time()
    minute = (int(now // 60) + 30) % 60
    start = now // HOUR * HOUR + minute * 60
    return f"hourly@{minute:02d}", start if start > now else start + HOUR


async def lobby_tournaments(node: Node) -> list[dict[str, Any]]:
    client = await open_client(node)
    try:
        welcome = await client.hello("look")
        assert welcome["type"] == "welcome", welcome
        listing = await client.request({"type": "lobby_subscribe"}, "lobby")
        return listing["tournaments"]
    finally:
        await client.close()


async def test_nodes_announce_one_tournament_of_the_schedule(cluster: Cluster) -> None:
    schedule, start = half_an_hour_away()
    await cluster.start("n1", "n2", "n3", KLAVERJAS_QUICK_SCHEDULE=schedule)

    async def one_everywhere() -> str:
        rows = await pg_rows(cluster.schema, "SELECT id, start_at FROM tournaments")
        assert [row["start_at"] for row in rows] == [start], rows
        (tid,) = [row["id"] for row in rows]
        for node in cluster.alive():
            listed = await lobby_tournaments(node)
            assert [(t["id"], t["start_at"], t["repeat"]) for t in listed] == [
                (tid, start, "hourly")
            ], (node.node_id, listed)
        owners = [n for n, a in (await cluster.ownership()).items() if tid in a["tournaments"]]
        assert len(owners) == 1, owners
        return tid

    first = await one_everywhere()
    owner = await cluster.owner(first, kind="tournaments")
    await cluster.kill(owner)  # its tournament moves to another node ...
    await cluster.owner(first, kind="tournaments", timeout=30, exclude=(owner,))
    await owner.start()  # ... and the node, started again, looks for the schedule's next
    assert await one_everywhere() == first
