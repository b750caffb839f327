"""A Quick tournament whose node is killed in the middle of a round."""

from __future__ import annotations

import asyncio
import contextlib
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from tests.multinode.audit import (
    check_finished_match,
    log_entries,
    stored_room,
    version_problems,
)
from tests.multinode.conftest import TAKEOVER_SECONDS, Cluster, pg_rows
from tests.multinode.players import Bot

pytestmark = pytest.mark.multinode


def _summary(bots: list[Bot], tid: str) -> dict[str, Any]:
    """The latest summary any bot has of the tournament."""
    known = [bot.tournaments[tid] for bot in bots if tid in bot.tournaments]
    return max(known, key=lambda s: s.get("version", 0), default={})


async def test_a_quick_tournament_finishes_after_its_node_is_killed(cluster: Cluster) -> None:
    # a whole tournament is played: its CPUs do not search (strong plays as heuristic)
    nodes = await cluster.start(
        "n1", "n2", "n3", KLAVERJAS_CPU_DELAY="0.01", KLAVERJAS_BOT_BUDGET="0"
    )
    start_at = datetime.now(UTC) + timedelta(seconds=4)
    tid = await cluster.schedule_tournament("quick", start_at, fill_with_cpu=True)
    owner = await cluster.owner(tid, kind="tournaments", timeout=5)
    bots = [await cluster.bot(nodes[i % 3], f"t{i}", seed=7) for i in range(3)]
    for bot in bots:
        bot.register(tid)
        bot.start()
    await cluster.until(lambda: all(b.registered(tid) for b in bots), 3, "the registrations")

    def round_one_under_way() -> bool:
        summary = _summary(bots, tid)
        rounds = summary.get("rounds", [])
        if summary.get("status") != "running" or len(rounds) != 1:
            return False
        versions = [t.version for b in bots for rid, t in b.tables.items()]
        return all(t["room_id"] for t in rounds[0]) and max(versions, default=0) >= 30

    await cluster.until(round_one_under_way, 15, "round 1 to be under way")
    first_round = _summary(bots, tid)["rounds"][0]
    assert all(t["winner"] is None for t in first_round), "a round-1 table ended too soon"
    on_owner = [bot for bot in bots if bot.node is owner]

    loop = asyncio.get_running_loop()
    survivors: dict[str, float] = {}  # node id -> seconds after the kill it was seen owning

    async def watch_ownership() -> None:
        while True:
            with contextlib.suppress(OSError, TimeoutError, AssertionError):
                for node_id, answer in (await cluster.ownership()).items():
                    if tid in answer.get("tournaments", []):
                        survivors.setdefault(node_id, loop.time() - killed)
            await asyncio.sleep(0.1)

    await cluster.kill(owner)
    killed = loop.time()
    watcher = asyncio.create_task(watch_ownership())
    try:
        await cluster.until(
            lambda: _summary(bots, tid).get("status") == "finished",
            60,
            "the tournament to finish on another node",
        )
    finally:
        watcher.cancel()
        await asyncio.gather(watcher, return_exceptions=True)

    final = _summary(bots, tid)
    assert [len(r) for r in final["rounds"]] == [2, 1], final["rounds"]
    assert sorted(p["place"] for p in final["places"]) == [1, 1, 2, 2, 3, 3, 3, 3]
    assert {bot.player_id for bot in bots} <= {p["entrant"] for p in final["places"]}
    cluster.note(f"{tid} seen owned by {survivors} (seconds after the kill)")
    assert survivors and owner.node_id not in survivors, survivors
    assert min(survivors.values()) < TAKEOVER_SECONDS, survivors
    problems = [f"{b.nickname}: {p}" for b in bots for p in b.problems]
    assert not problems, problems
    for bot in on_owner:
        assert bot.closes, f"{bot.nickname} was on the killed node but never moved"

    rows = await pg_rows(cluster.schema, "SELECT status FROM tournaments WHERE id = $1", tid)
    assert rows[0]["status"] == "finished"
    await log_entries(cluster.schema, tid)  # contiguous
    for tables in final["rounds"]:
        for t in tables:
            stored = await stored_room(cluster.schema, t["room_id"])
            check_finished_match(stored, bots)
            assert stored.room.match is not None and stored.room.match.winner == t["winner"]
            for bot in bots:
                assert not version_problems(bot, t["room_id"])
