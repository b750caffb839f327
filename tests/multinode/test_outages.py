"""Redis restarts and PostgreSQL goes away for a while: play goes on, nothing is lost."""

from __future__ import annotations

import asyncio

import pytest

from tests.multinode.audit import check_finished_match, check_table_end, stored_room
from tests.multinode.conftest import Cluster, Proxy, RedisServer, pg_rows
from tests.multinode.players import seat_table

pytestmark = pytest.mark.multinode


async def test_play_and_the_lobby_survive_a_redis_restart(
    cluster: Cluster, private_redis: RedisServer
) -> None:
    cluster.redis_url = private_redis.url
    nodes = await cluster.start("n1", "n2")
    views = [await cluster.lobby(node, f"watch-{node.node_id}") for node in nodes]
    table = await seat_table(cluster, nodes, {"deals": 3}, pace=0.03, seed=5)
    room_id = table.room_id
    await cluster.until(
        lambda: min(v.version for v in table.views()) >= 20, 10, "play to get going"
    )
    assert not table.over()

    cluster.note("redis killed")
    await private_redis.kill()
    await asyncio.sleep(1.0)
    await private_redis.start()
    cluster.note("redis started again")

    await cluster.until(table.over, 20, "the match to end after the Redis restart")
    check_table_end(table)
    stored = await stored_room(cluster.schema, room_id)
    assert stored.version == table.views()[0].version
    check_finished_match(stored, table.bots)

    # the lobby still works everywhere: new rooms reach the subscribers of both nodes
    new_rooms = set()
    for node in nodes:
        host = await cluster.bot(node, f"host-{node.node_id}")
        created = await host.request({"type": "create_room", "name": "after"}, "snapshot")
        assert created["type"] == "snapshot", created
        new_rooms.add(created["room_id"])
    await cluster.until(
        lambda: all(new_rooms <= set(view.rooms) for view in views),
        10,
        "both new rooms to reach the lobby subscribers of both nodes",
    )
    for view in views:
        assert new_rooms <= set(await view.subscribe())


async def test_a_postgres_outage_refuses_acts_and_play_resumes(
    cluster: Cluster, pg_proxy: Proxy
) -> None:
    cluster.database_url = pg_proxy.url()
    nodes = await cluster.start("n1", "n2")
    table = await seat_table(cluster, nodes, {"deals": 2}, seed=6)
    room_id = table.room_id
    table.hold(lambda t: t.version >= 20 and len(t.trick) >= 1)
    await cluster.until(table.settled, 15, "play to stop in the middle of a trick")
    held = table.views()[0].version
    turn = table.views()[0].turn
    actor = next(bot for bot in table.players if bot.table(room_id).seat == turn)
    action = actor.table(room_id).legal[0]

    cluster.note("postgres cut")
    loop = asyncio.get_running_loop()
    cut = loop.time()
    await pg_proxy.stop()
    mark = len(actor.seen())
    await actor.send(
        {"type": "act", "room_id": room_id, "action": action, "version": held,
         "ref": f"act:{room_id}:{held}"}
    )  # fmt: skip
    reply = await actor.wait_frame(
        lambda f: (
            f.get("ref") == f"act:{room_id}:{held}"
            or (f["type"] == "update" and f.get("room_id") == room_id)
        ),
        15,
        after=mark,
    )
    assert reply["type"] == "error" and reply["code"] == "storage_unavailable", reply
    await asyncio.sleep(max(0.5, cut + 2.0 - loop.time()))  # an outage of two seconds at least
    assert [v.version for v in table.views()] == [held] * 4, "the table moved without storage"
    rows = await pg_rows(
        cluster.schema, "SELECT max(version) AS v FROM room_log WHERE room_id = $1", room_id
    )
    assert rows[0]["v"] == held, f"log at {rows[0]['v']}, the table at {held}"

    await pg_proxy.start()  # the same port
    cluster.note("postgres back")
    table.hold(None)
    await cluster.until(table.over, 20, "the match to end after the outage")
    check_table_end(table)
    stored = await stored_room(cluster.schema, room_id)
    assert stored.version == table.views()[0].version > held
    check_finished_match(stored, table.bots)


async def test_a_match_that_ends_while_redis_is_down_reaches_the_other_node(
    cluster: Cluster, private_redis: RedisServer
) -> None:
    """The four players on n1 (which runs the room), a spectator on n2.  Redis goes down
    just before the last card, so the update that ends the match cannot reach n2.  Once
    Redis is back, nobody runs the room any more (it has ended): the spectator must still
    be told how it ended (before, it waited at the version before the end for ever)."""
    cluster.redis_url = private_redis.url
    n1, n2 = await cluster.start("n1", "n2")
    table = await seat_table(cluster, [n1], {"deals": 1}, pace=0.03, seed=9)
    room_id = table.room_id
    assert await cluster.owner(room_id) is n1
    spectator = await cluster.bot(n2, "spectator")
    watched = await spectator.request({"type": "watch", "room_id": room_id}, "snapshot")
    assert watched["type"] == "snapshot", watched
    spectator.start()
    table.spectator = spectator
    table.hold(lambda t: len(t.hand) == 1 and len(t.trick) == 3)
    await cluster.until(table.settled, 20, "play to stop before the last card")
    last = table.views()[0].version

    await private_redis.kill()
    cluster.note("redis killed")
    table.hold(None)
    await cluster.until(lambda: all(p.table(room_id).over for p in table.players), 10,
                        "the players on n1 to see the end")  # fmt: skip
    await asyncio.sleep(0.5)
    assert spectator.table(room_id).version == last, "the end reached n2 without Redis"
    await private_redis.start()
    cluster.note("redis started again")

    await cluster.until(table.over, 15, "the spectator to hear how the match ended")
    check_table_end(table)
    stored = await stored_room(cluster.schema, room_id)
    assert stored.version == spectator.table(room_id).version == last + 1
    check_finished_match(stored, table.bots)


async def test_a_room_refused_while_redis_is_down_is_not_stored(
    cluster: Cluster, private_redis: RedisServer
) -> None:
    """``create_room`` refused with ``room_unavailable`` (its lease could not be taken)
    leaves nothing behind: no room without an actor to list in the lobby, so the client's
    retry makes the only one."""
    cluster.redis_url = private_redis.url
    (node,) = await cluster.start("n1")
    host = await cluster.bot(node, "host")
    before = await pg_rows(cluster.schema, "SELECT id FROM rooms")
    await private_redis.kill()
    refused = await host.request({"type": "create_room", "name": "in the dark"}, "error")
    assert refused["code"] == "room_unavailable", refused
    assert await pg_rows(cluster.schema, "SELECT id FROM rooms") == before
    await private_redis.start()
    created = None
    for _ in range(50):  # once the node is back in touch with Redis
        created = await host.request({"type": "create_room", "name": "again"}, "snapshot")
        if created["type"] == "snapshot":
            break
        await asyncio.sleep(0.2)
    assert created is not None and created["type"] == "snapshot", created
    rooms = {r["id"] for r in await pg_rows(cluster.schema, "SELECT id FROM rooms")}
    assert rooms - {r["id"] for r in before} == {created["room_id"]}  # refusals left none
