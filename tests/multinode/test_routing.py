"""Owner routing (``KLAVERJAS_ROUTE``): a client that joins a room another node runs is told
that node's path; following it, every player plays on the owner and nothing crosses Redis;
a client that ignores it plays on through forwarding; a room that moves names its new node.
"""

from __future__ import annotations

import asyncio

import pytest

from tests.multinode.audit import check_table_end
from tests.multinode.conftest import Cluster, Node, http_get
from tests.multinode.players import Bot, Table

pytestmark = pytest.mark.multinode

ROUTE = "/n/{node}/"
CROSSED = 'klaverjas_cluster_forwarded_total{what="%s"}'
REMOTES = "klaverjas_cluster_remote_clients"


async def metric(node: Node, name: str) -> float:
    """One value of ``GET /metrics`` of ``node`` (0 when it is not there yet)."""
    status, body = await http_get(node.port, "/metrics")
    assert status == 200, body
    for line in body.decode().splitlines():
        if line.startswith(name + " "):
            return float(line.rsplit(" ", 1)[1])
    return 0.0


async def no_remote_clients(cluster: Cluster, node: Node, timeout: float = 10.0) -> None:
    """Wait until ``node`` stands in for no connection of another node."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while await metric(node, REMOTES) != 0:
        if loop.time() > end:
            raise AssertionError(
                f"{node.node_id} still serves other nodes' connections\n{cluster.diagnose()}"
            )
        await asyncio.sleep(0.05)


async def crossed(nodes: list[Node]) -> dict[str, float]:
    """Commands and frames every node has sent through Redis so far."""
    return {
        f"{node.node_id} {what}": await metric(node, CROSSED % what)
        for node in nodes
        for what in ("command", "frame")
    }


async def seat_across(cluster: Cluster, host: Node, guest: Node, follow: list[bool]) -> Table:
    """A room made by a bot on ``host``; three bots on ``guest`` take seats 1-3 (bot ``i``
    follows route frames when ``follow[i]``) and are started, nobody ready yet."""
    players = [await cluster.bot(host, "ann")]
    for seat, name in enumerate(("bob", "cid", "dan"), 1):
        players.append(await cluster.bot(guest, name, follow_routes=follow[seat - 1]))
    created = await players[0].request(
        {"type": "create_room", "name": "routed", "rules": {"deals": 1}}, "snapshot"
    )
    room_id = created["room_id"]
    for seat, bot in enumerate(players[1:], 1):
        taken = await bot.request(
            {"type": "take_seat", "room_id": room_id, "seat": seat}, "snapshot"
        )
        assert taken["type"] == "snapshot" and taken["seat"] == seat, taken
    for bot in players:
        bot.start()
    return Table(room_id, players)


def routes(bot: Bot, key: str) -> list[dict]:
    return [f for f in bot.seen() if f["type"] == "route" and key in f.values()]


async def test_players_who_follow_the_route_play_on_the_owner_and_nothing_crosses_redis(
    cluster: Cluster,
) -> None:
    n1, n2 = await cluster.start("n1", "n2", KLAVERJAS_ROUTE=ROUTE)
    table = await seat_across(cluster, n1, n2, [True, True, True])
    owner = await cluster.owner(table.room_id)
    guests = table.players[1:]
    for bot in table.players:  # each welcome names the node that sent it
        welcome = next(f for f in bot.seen() if f["type"] == "welcome")
        assert welcome["node"] == bot.connections[0][0]
    await cluster.until(  # (the bots read on their own: a route frame may still be on its way)
        lambda: all(routes(bot, table.room_id) for bot in guests), 10, "the guests' route frames"
    )
    for bot in guests:  # the snapshot of its seat, then where the room runs
        frames = [f for f in bot.seen(table.room_id) if f["type"] in ("snapshot", "route")]
        assert [f["type"] for f in frames[:2]] == ["snapshot", "route"], frames
        assert frames[1] == {
            "type": "route", "room_id": table.room_id, "node": owner.node_id,
            "path": ROUTE.replace("{node}", owner.node_id),
        }  # fmt: skip
    assert routes(table.players[0], table.room_id) == []  # it was on the owner already

    await cluster.until(
        lambda: all(bot.resumed_on(owner) for bot in table.players), 10, "the guests to move"
    )
    assert all(bot.moves == [owner.node_id] for bot in guests)
    await no_remote_clients(cluster, owner)
    before = await crossed([n1, n2])
    assert before[f"{owner.node_id} frame"] > 0  # the snapshots of the seats crossed

    for bot in table.players:
        await bot.send({"type": "ready", "room_id": table.room_id})
    await cluster.until(table.over, 20, "the match to end")

    check_table_end(table)
    assert await crossed([n1, n2]) == before  # no command, update or frame crossed Redis
    assert all(not bot.closes for bot in table.players)


async def test_a_client_that_ignores_the_route_plays_through_forwarding(
    cluster: Cluster,
) -> None:
    n1, n2 = await cluster.start("n1", "n2", KLAVERJAS_ROUTE=ROUTE)
    table = await seat_across(cluster, n1, n2, [False, True, True])
    bob = table.players[1]
    await cluster.until(
        lambda: all(bot.resumed_on(n1) for bot in table.players if bot is not bob),
        10,
        "cid and dan to move",
    )
    assert [f["node"] for f in routes(bob, table.room_id)] == [n1.node_id]
    before = await crossed([n1, n2])

    for bot in table.players:
        await bot.send({"type": "ready", "room_id": table.room_id})
    await cluster.until(table.over, 20, "the match to end")

    check_table_end(table)
    after = await crossed([n1, n2])
    assert bob.node is n2 and not bob.moves and not bob.closes
    assert after["n2 command"] > before["n2 command"]  # bob's acts, forwarded
    assert after["n1 frame"] > before["n1 frame"]  # bob's updates


async def test_a_room_that_moves_names_its_new_node(cluster: Cluster) -> None:
    n1, n2, n3 = await cluster.start("n1", "n2", "n3", KLAVERJAS_ROUTE=ROUTE)
    ann = await cluster.bot(n1, "ann")
    created = await ann.request({"type": "create_room", "rules": {"deals": 1}}, "snapshot")
    room_id = created["room_id"]
    guests = [await cluster.bot(node, f"on-{node.node_id}") for node in (n2, n3)]
    for bot in guests:
        watched = await bot.request({"type": "watch", "room_id": room_id}, "snapshot")
        assert watched["type"] == "snapshot", watched
        bot.start()
    ann.start()
    await cluster.until(
        lambda: all(routes(bot, room_id) for bot in guests), 5, "the first route frames"
    )

    cluster.terminate(n1)  # hands the room over at once
    await n1.wait()
    owner = await cluster.owner(room_id, exclude=(n1,))
    other = next(bot for bot in guests if bot.node is not owner)
    await cluster.until(
        lambda: routes(other, room_id)[-1]["node"] == owner.node_id,
        10,
        f"{other.nickname} to be told the room runs on {owner.node_id}",
    )
    named = [f["node"] for f in routes(other, room_id)]
    assert named[0] == n1.node_id and set(named[1:]) == {owner.node_id}, named
