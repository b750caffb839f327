"""A score sheet across nodes: phones on two nodes keep one sheet, the node that runs it
dies, and the phones on the other node go on with it (the sheet loaded from its log there
because they follow it, and they are attached to it again)."""

from __future__ import annotations

import pytest

from client import GameClient
from tests.multinode.conftest import TAKEOVER_SECONDS, Cluster

pytestmark = [pytest.mark.multinode, pytest.mark.sheet]


def deal(code: str, version: int, points: int) -> dict:
    return {"type": "sheet_deal", "code": code, "version": version, "playing": 0,
            "points": [points, None]}  # fmt: skip


async def phone(url: str, nickname: str) -> GameClient:
    client = await GameClient.connect(url)
    welcome = await client.hello(nickname)
    assert welcome["type"] == "welcome", welcome
    return client


async def test_phones_on_two_nodes_keep_one_sheet_through_the_loss_of_its_node(
    cluster: Cluster,
) -> None:
    n1, n2 = await cluster.start("n1", "n2")
    ann, bob = await phone(n1.url, "ann"), await phone(n2.url, "bob")
    eve = await phone(n2.url, "eve")
    try:
        made = await ann.request({"type": "sheet_create", "teams": ["Wij", "Zij"]}, "sheet")
        assert made["type"] == "sheet", made
        sheet_id, codes = made["sheet_id"], made["codes"]
        assert (await cluster.owner(sheet_id, kind="sheets")) is n1
        for client, code in ((bob, codes["edit"]), (eve, codes["view"])):
            opened = await client.request({"type": "sheet_open", "code": code}, "sheet")
            assert opened["type"] == "sheet" and opened["version"] == 1, opened
        # bob, on the other node, enters; everyone sees it
        await bob.send(deal(codes["edit"], 1, 100))
        for client in (ann, bob, eve):
            update = await client.next("sheet_update", version=2)
            assert update["sheet"]["game"]["totals"] == [100, 62]
        # ann and bob enter the next deal at the same moment: one wins, the other is refused
        await ann.send(deal(codes["edit"], 2, 90))
        await bob.send(deal(codes["edit"], 2, 80))
        seen = await eve.next("sheet_update", version=3)
        assert len(seen["sheet"]["game"]["deals"]) == 2
        loser = bob if seen["change"]["by"] == "ann" else ann
        refused = await loser.next("error")
        assert refused["code"] == "stale_version", refused
        # the node that runs the sheet dies; the node of its other followers loads it (they
        # follow it) and attaches them again: eve, who sends nothing, sees bob's next deal
        await cluster.kill(n1)
        owner = await cluster.owner(sheet_id, kind="sheets", timeout=TAKEOVER_SECONDS + 5)
        assert owner is n2
        await bob.send(deal(codes["edit"], 3, 120))
        after = await eve.next("sheet_update", version=4, timeout=10)
        totals = after["sheet"]["game"]["totals"]
        first, second = seen["sheet"]["game"]["deals"]
        assert totals == [first["score"][0] + second["score"][0] + 120,
                          first["score"][1] + second["score"][1] + 42]  # fmt: skip
    finally:
        for client in (ann, bob, eve):
            await client.close()
