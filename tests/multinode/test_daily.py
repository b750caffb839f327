"""The daily game across nodes: one secret, one board, one result per player."""

from __future__ import annotations

import pytest

from tests.multinode.conftest import Cluster, http_get

pytestmark = [pytest.mark.multinode, pytest.mark.daily]


async def test_two_players_finish_the_same_daily_on_two_nodes(cluster: Cluster) -> None:
    n1, n2 = await cluster.start("n1", "n2", KLAVERJAS_DAILY_DEALS="1")
    ann, bob = await cluster.bot(n1, "ann", seed=1), await cluster.bot(n2, "bob", seed=2)
    started = [await bot.request({"type": "daily_start"}, "snapshot") for bot in (ann, bob)]
    for snap in started:
        assert snap["type"] == "snapshot" and snap["seat"] == 0, snap
    # the secret lives in the shared database: both nodes dealt the same cards
    assert started[0]["view"]["hand"] == started[1]["view"]["hand"]
    games = [(ann, started[0]["room_id"]), (bob, started[1]["room_id"])]
    for bot, _ in games:
        bot.start()
    await cluster.until(
        lambda: all(bot.tables[room].over for bot, room in games), 30, "both daily games to end"
    )
    await ann.stop()
    await bob.stop()
    assert not ann.problems and not bob.problems, ann.problems + bob.problems

    boards = []
    for bot in (ann, bob):
        assert bot.client is not None
        again = await bot.client.request({"type": "daily_start"}, "error")
        assert again["code"] == "daily_played", again  # on any node
        board = await bot.client.request({"type": "daily_board"}, "daily_board")
        assert board["type"] == "daily_board", board
        boards.append(board)
    for board in boards:
        assert board["players"] == 2 and board["field"][0]["players"] == 2
        assert sorted(r["nickname"] for r in board["rows"]) == ["ann", "bob"]
        assert board["streak"] == 1
    assert boards[0]["rows"] == boards[1]["rows"]
    mean = boards[0]["field"][0]["mean"]
    totals = {r["nickname"]: r["total"] for r in boards[0]["rows"]}
    assert mean == pytest.approx((totals["ann"] + totals["bob"]) / 2, abs=0.05)
    # today's board is not public, on either node
    for node in (n1, n2):
        status, _ = await http_get(node.port, "/leaderboard/daily")
        assert status == 403
