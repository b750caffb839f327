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
from tests.server.conftest import running_harness

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
