"""A club and its evening across nodes: the club is founded on one node, its evening run from
a console on a second, its season watched from a third; the first node dies after the first
round, and the evening goes on where its console is while the club is loaded where its
watcher is: the evening's end, told across nodes, counts in the season, the hand
computation."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import redis.asyncio as aioredis

from client import GameClient
from tests.multinode.conftest import REDIS_URL, TAKEOVER_SECONDS, Cluster
from tests.multinode.test_sheets import phone
from tests.server.test_clubs import MEMBERS, check_in, club_frame, order, play_round
from tests.server.test_evenings import command

pytestmark = [pytest.mark.multinode, pytest.mark.club]


async def once_moved(client: GameClient, message: dict[str, Any], reply: str) -> dict[str, Any]:
    """``message``'s reply once what it opens runs again (``room_unavailable`` meanwhile)."""
    async with asyncio.timeout(TAKEOVER_SECONDS + 10):
        while True:
            answer = await client.request(message, reply)
            if answer["type"] != "error" or answer["code"] != "room_unavailable":
                return answer
            await asyncio.sleep(0.25)


async def held_by(cluster: Cluster, key: str, node: str) -> None:
    """Once ``node`` holds the lease of ``key`` (it runs that actor)."""
    redis = aioredis.from_url(cluster.redis_url or REDIS_URL, decode_responses=True)
    try:
        async with asyncio.timeout(TAKEOVER_SECONDS + 10):
            while await redis.get(f"{cluster.prefix}:lease:{key}") != node:
                await asyncio.sleep(0.05)
    finally:
        await redis.aclose()


async def test_a_clubs_evening_counts_after_the_loss_of_their_node(cluster: Cluster) -> None:
    n1, n2, n3 = await cluster.start("n1", "n2", "n3")
    boss, desk = await phone(n1.url, "boss"), await phone(n2.url, "desk")
    watch = await phone(n3.url, "watch")
    phones = [await phone(n2.url, f"table{t}") for t in (1, 2)]
    try:
        made = await boss.request({"type": "club_create", "name": "Ruiten Aas"}, "club")
        founder, view, version = made["codes"]["organiser"], made["codes"]["view"], 1
        for name in MEMBERS:
            now = await order(boss, founder, version, "member_add", name=name)
            version = now["version"]
        ids = {m["name"]: m["id"] for m in now["members"]}
        created = await desk.request(
            {"type": "evening_create", "name": "Week 1", "deals": 1, "rounds": 2,
             "club": founder}, "evening",
        )  # fmt: skip
        assert created["type"] == "evening", created
        code = created["codes"]["organiser"]
        await watch.request({"type": "club_open", "code": view}, "club")
        now = await check_in(desk, code, created["version"], [{"member": ids[n]} for n in MEMBERS])
        names = {e["id"]: e["name"] for e in now["evening"]["entrants"]}
        totals = dict.fromkeys(names.values(), 0)
        seen = await play_round(desk, phones, code, now["version"], 1, 1, totals, names)
        closed = await command(desk, code, seen["version"], "close")
        await cluster.kill(n1)  # the node that ran the club and its evening

        again = await once_moved(desk, {"type": "evening_open", "code": code}, "evening")
        assert again["version"] == closed["version"], again
        await held_by(cluster, made["club_id"], "n3")  # the club where its watcher is
        await held_by(cluster, again["evening_id"], "n2")  # the evening where its console is
        seen = await play_round(desk, phones, code, again["version"], 1, 2, totals, names)
        over = await command(desk, code, seen["version"], "close")
        assert over["type"] == "evening" and over["evening"]["drawn"][-1]["closed"], over
        counted = await club_frame(watch, lambda f: f["evenings"][0]["counted"])
        rows = {r["player"]: r["total"] for r in counted["standing"]["standing"]}
        assert rows == totals
    finally:
        for client in (boss, desk, watch, *phones):
            await client.close()
