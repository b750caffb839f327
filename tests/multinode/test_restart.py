"""A killed node started again (on a new port) is found where it says it is (issue 33, 4)."""

from __future__ import annotations

import pytest

from tests.multinode.audit import check_finished_match, check_table_end, stored_room
from tests.multinode.conftest import TAKEOVER_SECONDS, Cluster
from tests.multinode.players import seat_table

pytestmark = pytest.mark.multinode


async def test_a_restarted_node_is_reached_on_its_new_port(cluster: Cluster) -> None:
    n1, n2 = await cluster.start("n1", "n2")
    table = await seat_table(cluster, [n1, n2], {"deals": 1}, pace=0.02, seed=7)
    table.hold(lambda t: t.version >= 12)
    await cluster.until(table.settled, 15, "play to stop at version 12")

    await cluster.kill(n1)
    await cluster.until(
        lambda: all(bot.resumed_on(n2) for bot in table.bots),
        TAKEOVER_SECONDS + 20,
        "every bot to resume on n2",
    )
    await n1.start()
    cluster.note(f"n1 started again on :{n1.port}")
    assert len(n1.logs) == 2
    assert (await n1.cluster())["node"] == "n1", "another server answers on n1's port"

    await cluster.kill(n2)  # now every bot must come back to the restarted n1
    await cluster.until(
        lambda: all(bot.resumed_on(n1) for bot in table.bots),
        TAKEOVER_SECONDS + 20,
        "every bot to resume on the restarted n1",
    )
    table.hold(None)
    await cluster.until(table.over, 30, "the match to finish on the restarted n1")

    check_table_end(table)
    stored = await stored_room(cluster.schema, table.room_id)
    assert stored.version == table.views()[0].version
    assert check_finished_match(stored, table.bots) > 0
