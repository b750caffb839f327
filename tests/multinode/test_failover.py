"""A table's owner goes away (``kill -9``, ``SIGTERM``) and the match finishes elsewhere."""

from __future__ import annotations

import asyncio
import secrets

import pytest

from tests.multinode.audit import check_finished_match, check_table_end, stored_room
from tests.multinode.conftest import TAKEOVER_SECONDS, Cluster
from tests.multinode.players import seat_table

pytestmark = pytest.mark.multinode


async def test_kill_9_of_the_owner_mid_trick(cluster: Cluster) -> None:
    nodes = await cluster.start("n1", "n2", "n3")
    table = await seat_table(cluster, nodes, {"deals": 2}, spectator=True, pace=0.04, seed=3)
    room_id = table.room_id
    owner = await cluster.owner(room_id)
    cards = 1 + secrets.randbelow(3)  # cards of the trick on the table when the owner dies
    cluster.note(f"holding at {cards} card(s) of a trick")
    table.hold(lambda t: t.version >= 24 and len(t.trick) == cards)
    await cluster.until(
        lambda: table.settled() and all(len(v.trick) == cards for v in table.views()),
        15,
        f"play to stop with {cards} card(s) of a trick down",
    )
    held = table.views()[0].version
    on_owner = [bot for bot in table.bots if bot.node is owner]
    elsewhere = [bot for bot in table.bots if bot.node is not owner]
    assert on_owner and elsewhere

    await cluster.kill(owner)
    table.hold(None)
    moved = asyncio.get_running_loop().time()
    new_owner = await cluster.owner(room_id, timeout=TAKEOVER_SECONDS, exclude=(owner,))
    cluster.note(
        f"{room_id} owned by {new_owner.node_id} "
        f"{asyncio.get_running_loop().time() - moved:.2f}s after the kill"
    )
    await cluster.until(table.over, 20, "the match to finish on another node")

    check_table_end(table)
    for bot in on_owner:
        assert bot.closes and bot.node is not owner, f"{bot.nickname} did not move: {bot.closes}"
    for bot in elsewhere:
        assert not bot.closes, f"{bot.nickname} was disconnected: {bot.closes}"
    stored = await stored_room(cluster.schema, room_id)
    assert stored.version == table.views()[0].version > held
    assert check_finished_match(stored, table.bots) > 60


async def test_sigterm_hands_the_table_over_at_once(cluster: Cluster) -> None:
    nodes = await cluster.start("n1", "n2")
    table = await seat_table(cluster, nodes, {"deals": 3}, pace=0.03, seed=4)
    room_id = table.room_id
    owner = await cluster.owner(room_id)
    await cluster.until(
        lambda: min(v.version for v in table.views()) >= 20, 10, "play to get going"
    )
    on_owner = [bot for bot in table.bots if bot.node is owner]

    loop = asyncio.get_running_loop()
    signalled = loop.time()
    cluster.terminate(owner)
    new_owner = await cluster.owner(room_id, timeout=2.0, exclude=(owner,))
    took = loop.time() - signalled
    cluster.note(f"{room_id} owned by {new_owner.node_id} {took:.2f}s after SIGTERM")
    assert took < 2.0
    assert not table.over(), "the match ended before the handoff could be seen"
    assert await owner.wait() == 0

    await cluster.until(table.over, 20, "the match to finish after the handoff")
    check_table_end(table)
    for bot in on_owner:
        assert [code for _, code in bot.closes] == [1012], bot.closes
    for bot in table.bots:
        if bot not in on_owner:
            assert not bot.closes, f"{bot.nickname} was disconnected: {bot.closes}"
    stored = await stored_room(cluster.schema, room_id)
    assert stored.version == table.views()[0].version
    check_finished_match(stored, table.bots)


async def test_a_spectator_that_resumed_up_to_date_follows_the_room_when_it_moves(
    cluster: Cluster,
) -> None:
    """The spectator's connection drops while play stands still; it reconnects to a third
    node and resumes at the version it has, so nothing is sent.  The owner then hands the
    room over (SIGTERM): the spectator must be re-attached where it runs now like everyone
    (before, a resume that sent nothing left the connection following the room without a
    version to resume from, and it heard nothing more)."""
    nodes = await cluster.start("n1", "n2", "n3")
    table = await seat_table(cluster, nodes[:2], {"deals": 1}, spectator=True, pace=0.03, seed=8)
    room_id, spectator = table.room_id, table.spectator
    assert spectator is not None
    owner = await cluster.owner(room_id)
    table.hold(lambda t: t.version >= 12)
    await cluster.until(table.settled, 15, "play to stand still")
    held = table.views()[0].version
    assert spectator.client is not None
    spectator.client.ws.transport.abort()
    await cluster.until(
        lambda: spectator.node not in (owner,) and len(spectator.welcomes) == 1
        and not spectator._resuming and not spectator._resume_at,
        10, "the spectator to reconnect and resume",
    )  # fmt: skip
    assert spectator.table(room_id).version == held
    resumed = [f for f in spectator.connections[-1][1].seen if f.get("room_id") == room_id]
    assert resumed == [], f"an up-to-date resume sent {resumed}"

    cluster.terminate(owner)
    await cluster.owner(room_id, timeout=5.0, exclude=(owner,))
    table.hold(None)
    await cluster.until(table.over, 20, "the match to finish after the handoff")
    check_table_end(table)
    stored = await stored_room(cluster.schema, room_id)
    check_finished_match(stored, table.bots)
