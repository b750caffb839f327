"""Partitions, not crashes: one node cut from Redis alone, one node cut from PostgreSQL
alone, and a client cut from its node without its socket closing (half-open).

Each node reaches PostgreSQL and Redis through relays of its own (``Cluster.start_linked``);
a cut is a relay that stops passing anything either way while every socket stays open (a
black hole: calls time out, as across a real partition; what was sent meanwhile may still
arrive once the link is back).  In each case: the durable log replays (versions 1..N, every
action a client saw acknowledged in it exactly once, the record agrees), the fencing epochs
that wrote it never go down (no two nodes appending for the room), the clients are told
(documented error and close codes) and recover, and the cut node serves again once its
link is back.
"""

from __future__ import annotations

import asyncio

import pytest

from tests.multinode.audit import (
    check_finished_match,
    check_hands,
    check_table_end,
    log_epochs,
    stored_room,
)
from tests.multinode.conftest import Cluster, Node, http_get
from tests.multinode.players import Table, seat_table
from tests.postgres import Proxy

pytestmark = pytest.mark.multinode

CUT_OFF = "cut off from the other servers: reconnect and resume"


def versions(table: Table) -> int:
    return min(view.version for view in table.views())


async def moves_on(cluster: Cluster, table: Table, steps: int, what: str) -> None:
    start = versions(table)
    await cluster.until(
        lambda: table.over() or versions(table) >= start + steps, 30, f"play to go on {what}"
    )


async def serves_again(cluster: Cluster, node: Node, other: Node, name: str) -> None:
    """``node`` makes a room (its lease and the store), a client of ``other`` sits in it
    (forwarded to ``node``) and ``node``'s clients hear of it (forwarded back)."""
    host = await cluster.bot(node, f"host-{name}")
    guest = await cluster.bot(other, f"guest-{name}")
    created = await host.request({"type": "create_room", "name": name}, "snapshot", timeout=10)
    assert created["type"] == "snapshot", created
    room_id = created["room_id"]
    assert await cluster.owner(room_id) is node
    taken = await guest.request(
        {"type": "take_seat", "room_id": room_id, "seat": 2}, "snapshot", timeout=10
    )
    assert taken["type"] == "snapshot" and taken["seat"] == 2, taken
    assert host.client is not None
    seat = await host.client.next("update", kind="seat", seat=2, room_id=room_id)
    assert seat["room"]["seats"][2]["player_id"] == guest.player_id


async def audit(cluster: Cluster, table: Table) -> list[int]:
    """The end as every bot saw it, the log against it; the epochs that wrote the log."""
    check_table_end(table)
    stored = await stored_room(cluster.schema, table.room_id)
    assert stored.version == table.views()[0].version
    assert check_finished_match(stored, table.bots) > 30
    assert check_hands(stored, table.bots) > 100  # nobody was shown another seat's cards
    return await log_epochs(cluster.schema, table.room_id)


def told(table: Table) -> dict[str, int]:
    """The "try again" errors the bots were given, by code."""
    out: dict[str, int] = {}
    for bot in table.bots:
        for code, count in bot.retried.items():
            out[code] = out.get(code, 0) + count
    return out


async def test_a_node_cut_from_redis_alone(cluster: Cluster) -> None:
    """n1, which runs the room, loses Redis but not PostgreSQL.  n2 takes the room over
    once n1's lease lapses (a new epoch); n1 sees the fence move and lets the room go, and
    closes the connections that follow it (1013, cut off): they resume at n2 and the match
    goes on there while n1 is still cut off.  When the link returns, n1 serves again."""
    n1, n2 = await cluster.start_linked("n1", "n2")
    table = await seat_table(cluster, [n1, n2], {"deals": 2}, spectator=True, pace=0.03, seed=11)
    room_id = table.room_id
    assert await cluster.owner(room_id) is n1
    await cluster.until(lambda: versions(table) >= 15, 10, "play to get going")
    on_n1 = [bot for bot in table.bots if bot.node is n1]
    assert on_n1 and table.spectator is not None and table.spectator.node is n2

    assert n1.redis is not None
    cluster.note("n1 cut from redis")
    n1.redis.pause()
    assert await cluster.owner(room_id, timeout=20, exclude=(n1,)) is n2
    await cluster.until(
        lambda: all(bot.node is n2 for bot in on_n1), 20, "n1's players to move to n2"
    )
    await moves_on(cluster, table, 10, "at n2 while n1 is cut off")
    n1.redis.resume()
    cluster.note("n1 back on redis")

    await cluster.until(table.over, 30, "the match to end")
    epochs = await audit(cluster, table)
    assert len(epochs) >= 2, f"no takeover in the log's epochs: {epochs}"
    for bot in on_n1:  # told to go elsewhere, with the documented close
        cut = [client for node_id, client in bot.connections if node_id == "n1"]
        assert cut and all(c.ws.close_code == 1013 for c in cut), bot.closes
        assert {c.ws.close_reason for c in cut} == {CUT_OFF}, bot.closes
    for bot in table.bots:
        if bot not in on_n1:
            assert not bot.closes, f"{bot.nickname} lost n2: {bot.closes}"
    await serves_again(cluster, n1, n2, "redis")
    assert room_id not in (await n1.cluster())["rooms"]


async def test_a_node_cut_from_postgres_alone(cluster: Cluster) -> None:
    """n1, which runs the room, loses PostgreSQL but not Redis: its appends fail
    (``storage_unavailable``, retried), and once its store has failed for a lease it hands
    the room over (released): n2 adopts it with a new epoch, and every client, n1's too,
    plays on through n2 without reconnecting.  When the link returns, n1 serves again."""
    n1, n2 = await cluster.start_linked("n1", "n2")
    table = await seat_table(cluster, [n1, n2], {"deals": 2}, spectator=True, pace=0.03, seed=12)
    room_id = table.room_id
    assert await cluster.owner(room_id) is n1
    await cluster.until(lambda: versions(table) >= 15, 10, "play to get going")

    assert n1.pg is not None
    cluster.note("n1 cut from postgres")
    n1.pg.pause()
    assert await cluster.owner(room_id, timeout=25, exclude=(n1,)) is n2
    await moves_on(cluster, table, 10, "at n2 while n1 is cut off")
    n1.pg.resume()
    cluster.note("n1 back on postgres")

    await cluster.until(table.over, 30, "the match to end")
    epochs = await audit(cluster, table)
    assert len(epochs) >= 2, f"no takeover in the log's epochs: {epochs}"
    assert set(told(table)) & {"storage_unavailable", "room_unavailable"}, told(table)
    for bot in table.bots:
        assert not bot.closes, f"{bot.nickname} lost its connection: {bot.closes}"
    await serves_again(cluster, n1, n2, "postgres")


async def connections(node: Node) -> int:
    status, body = await http_get(node.port, "/metrics")
    assert status == 200
    (line,) = [x for x in body.decode().splitlines() if x.startswith("klaverjas_connections ")]
    return int(float(line.split()[1]))


async def test_a_client_cut_from_its_node_half_open(cluster: Cluster) -> None:
    """p0 reaches n1 through a relay that stops passing anything, its socket open at both
    ends.  n1's keepalive drops the silent connection (its pings unanswered), p0's own
    keepalive notices too; p0 reconnects (to n2) with its token, resumes, and plays on.
    Nobody else is disturbed; once the relay passes again, p0 can come back through it."""
    n1, n2 = await cluster.start(
        "n1", "n2", KLAVERJAS_PING_INTERVAL="1", KLAVERJAS_PING_TIMEOUT="1"
    )
    relay = Proxy("127.0.0.1", n1.port)
    await relay.start()
    cluster.relays.append(relay)
    table = await seat_table(
        cluster, [n1, n2], {"deals": 2}, spectator=True, pace=0.03, seed=13,
        options={0: {"via": {"n1": relay.port}, "keepalive": 1.0}},
    )  # fmt: skip
    cut = table.players[0]
    await cluster.until(lambda: versions(table) >= 15, 10, "play to get going")
    before = await connections(n1)

    cluster.note("p0's link to n1 goes silent")
    relay.pause()
    await cluster.until(lambda: cut.node is n2, 15, "p0 to notice and reconnect to n2")
    loop = asyncio.get_running_loop()
    end = loop.time() + 10
    while (now := await connections(n1)) != before - 1:  # n1 let the silent one go
        assert loop.time() < end, f"n1 still holds {now} connections, {before} before"
        await asyncio.sleep(0.1)
    await moves_on(cluster, table, 10, "after p0 came back")
    relay.resume()

    await cluster.until(table.over, 30, "the match to end")
    await audit(cluster, table)
    assert len(cut.welcomes) == 1 and cut.welcomes[0]["token"] is None  # its identity back
    for bot in table.bots:
        if bot is not cut:
            assert not bot.closes, f"{bot.nickname} was disturbed: {bot.closes}"
    # the link passes again: a new connection through it is served
    came_back = await cluster.bot(n1, "back-through", via={"n1": relay.port})
    assert came_back.client is not None
    reply = await came_back.client.request({"type": "ping", "ref": "x"}, "pong")
    assert reply["ref"] == "x", reply
