"""Whose fault: an outage of ours is an error with a retry hint and never a strike; a
client's refusals still are.

The server runs on a real PostgreSQL behind a TCP relay; cutting the relay is a real
storage outage.  With a strike limit of 3, six commands during the outage must all be
answered ``storage_unavailable`` and the connection must stay open; counting them as
strikes (as the server once did) closes it with 1008 after the third.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from client import GameClient
from tests.postgres import Proxy, fresh_schema
from tests.server.conftest import Harness, running_harness

pytestmark = pytest.mark.server

STRIKES = 3


async def reply_to(client: GameClient, message: dict[str, Any]) -> dict[str, Any]:
    """The answer to ``message`` (a ``ready``): its error, or the update it caused.  No
    other message is sent meanwhile: any success would reset the strike count."""
    await client.send(message)
    async with asyncio.timeout(15):
        while True:
            frame = await client.frames.get()
            if frame["type"] == "error" or frame.get("kind") == "ready":
                return frame


async def test_a_storage_outage_is_not_the_clients_fault(tmp_path: Path) -> None:
    proxy = Proxy.to_postgres()
    await proxy.start()
    async with (
        fresh_schema() as schema,
        running_harness(
            tmp_path, database_url=proxy.url(), database_schema=schema, strikes=STRIKES
        ) as h,
    ):  # fmt: skip
        ann = await h.client("ann")
        room = await ann.request({"type": "create_room", "seat": 0}, "snapshot")
        ready = {"type": "ready", "room_id": room["room_id"], "ready": True, "ref": "r"}

        await proxy.stop()  # the database is out of reach
        for _ in range(2 * STRIKES):
            error = await reply_to(ann, ready)
            assert error["code"] == "storage_unavailable", error
            assert error["retry_after"] > 0 and error["ref"] == "r"
        assert ann.ws.close_code is None  # not a single strike

        await proxy.start()  # it is back: the same command goes through, once
        async with asyncio.timeout(30):
            while (answer := await reply_to(ann, ready))["type"] != "update":
                assert answer["code"] == "storage_unavailable", answer
                await asyncio.sleep(answer["retry_after"] / 4)
        snapshot = await ann.request({"type": "resume", "room_id": room["room_id"]}, "snapshot")
        assert snapshot["room"]["seats"][0]["ready"] is True

        # the client's own mistakes still count: three in a row close the connection
        for _ in range(STRIKES):
            await ann.send({"type": "take_seat", "room_id": room["room_id"], "seat": 0})
        async with asyncio.timeout(10):
            await ann.ws.wait_closed()
        assert ann.ws.close_code == 1008
    await proxy.stop()


async def answer(client: GameClient, message: dict[str, Any]) -> dict[str, Any]:
    await client.send(message)
    return await client.next(timeout=10)


async def test_a_write_reported_failed_that_went_in_is_folded_in(harness: Harness) -> None:
    """An append the server was told had failed went in after all (its connection lost as
    it committed; here, written behind the server's back).  The room's next write finds
    the log ahead of it: that command is refused with room_unavailable (no strike, try
    again), the room is loaded again from its log with the entry folded in, its spectator
    re-attached; the same command then goes through (before, every later write of the room
    was storage_unavailable for ever)."""
    ann, bob, sam = [await harness.client(n) for n in ("ann", "bob", "sam")]
    created = await ann.request({"type": "create_room", "seat": 0}, "snapshot")
    room_id, version = created["room_id"], created["version"]
    assert (await sam.request({"type": "watch", "room_id": room_id}, "snapshot"))["seat"] is None
    store = (await harness.stores()).logs
    await store.append(room_id, version + 1, {"t": "ready", "seat": 0, "ready": True})

    take = {"type": "take_seat", "room_id": room_id, "seat": 1}
    refused = await answer(bob, take)
    assert refused["code"] == "room_unavailable" and refused["retry_after"] > 0, refused
    async with asyncio.timeout(10):
        while (reply := await answer(bob, take))["type"] == "error":
            assert reply["code"] == "room_unavailable", reply
            await asyncio.sleep(0.05)
    assert reply["type"] == "snapshot" and reply["version"] == version + 2, reply
    assert reply["room"]["seats"][0]["ready"] is True  # the entry that went in, folded in
    seen = await sam.next("update", kind="seat", seat=1, room_id=room_id)
    assert seen["version"] == version + 2
    assert sam.tables[room_id].room["seats"][1]["player_id"] == bob.player_id
    log = [e.entry for e in await store.log(room_id)]
    assert [e["t"] for e in log] == ["created", "seat", "ready", "seat"]
