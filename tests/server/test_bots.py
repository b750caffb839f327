"""Strong CPU players in real rooms (issue 11): levels, the worker pool, fallbacks, hints.

Over real websockets against a real server, as the other server suites.  The pool is made
full deterministically: with one worker and no queue, a job that waits for a file
(``tests/server/bots_hold.py``) holds the only place until the test lets it go.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from client import GameClient
from engine import Action, Match, Phase, Rules
from engine.policies import HeuristicPolicy, StrongPolicy
from engine.views import View, view
from server.core.metrics import Metrics
from server.runtime.actor_messages import ReplaceWithCpu
from server.runtime.bots import Bots, decide, fallback, size
from server.table.room_actor import RoomActor
from tests.server.bots_hold import hold
from tests.server.conftest import (
    Harness,
    play_until,
    room_now,
    running_harness,
    settle,
    sync,
)

pytestmark = [pytest.mark.server, pytest.mark.bots]

BUDGET = 2  # the tests' search budget (tests/server/conftest.py)
ONE_DEAL = {"deals": 1}


@pytest.fixture
def database() -> str:
    """SQLite only: the store is not what these tests are about."""
    return "sqlite"


def actor(h: Harness, room_id: str) -> RoomActor:
    assert h.server is not None
    return h.server.router.actors[room_id]  # type: ignore[return-value]


def metric(h: Harness, name: str, **labels: str) -> float:
    assert h.server is not None
    return h.server.metrics.registry.get_sample_value(name, labels) or 0.0


async def refused(client: GameClient, message: dict[str, Any], code: str) -> dict[str, Any]:
    """The one reply to ``message`` (besides updates) is the error ``code``."""
    await sync(client)
    await client.send(message)
    frames = [f for f in await sync(client) if f["type"] != "update"]
    assert [f.get("code", f["type"]) for f in frames] == [code], frames
    return frames[0]


@asynccontextmanager
async def held(h: Harness, tmp_path: Path) -> AsyncIterator[None]:
    """Every place of the pool taken by jobs that wait until the block ends."""
    assert h.server is not None
    bots = h.server.bots
    flag = tmp_path / "let-go"
    jobs = [bots.submit(hold, str(flag)) for _ in range(bots.capacity)]
    assert all(job is not None for job in jobs) and bots.submit(hold, str(flag)) is None
    try:
        yield
    finally:
        flag.touch()
        await asyncio.gather(*jobs)  # type: ignore[arg-type]


def replay(record: dict[str, Any], cpus: set[int]) -> Iterator[tuple[View, str, str]]:
    """Each CPU decision of a match record, replayed: (view, seed text, action played).
    The ``i``-th action was decided with the seed ``{room seed}/{i}`` (the actions before
    it), whatever else the room's log holds."""
    match = Match(Rules.from_dict(record["rules"]), record["seed"], record["first_dealer"])
    for index, text in enumerate(record["actions"]):
        seat = match.turn
        if seat in cpus:
            yield view(match, seat), f"{record['seed']}/{index}", text
        assert seat is not None
        match.apply(seat, Action.parse(text))


def opening_lead(seed: int) -> View:
    """The opening lead's view of a one-deal match ``seed`` bid by heuristic players (a
    trump choice needs no worker)."""
    match, players = Match(Rules.from_dict(ONE_DEAL), seed, 0), HeuristicPolicy()
    while match.deal.phase is Phase.TRUMP:
        seat = match.turn
        assert seat is not None
        match.apply(seat, players.act(view(match, seat), random.Random(seed)))
    seat = match.turn
    assert seat is not None
    return view(match, seat)


# -- a match through the pool ------------------------------------------------------------


async def with_each_level(ann: GameClient) -> str:
    """A one-deal room of ``ann``'s with a random, a heuristic and a strong CPU (seats 1-3)."""
    created = await ann.request({"type": "create_room", "rules": ONE_DEAL}, "snapshot")
    room_id = created["room_id"]
    for seat, level in ((1, "random"), (2, "heuristic"), (3, "strong")):
        await ann.send({"type": "add_cpu", "room_id": room_id, "seat": seat, "level": level})
    return room_id


async def test_strong_cpus_play_a_whole_match_through_the_worker_pool(harness: Harness) -> None:
    room_id, (solo,) = await harness.table("solo", cpu=[1, 2, 3], rules=ONE_DEAL)
    seats = solo.tables[room_id].room["seats"]
    assert [s["level"] for s in seats] == [None, "strong", "strong", "strong"]
    await play_until([solo], room_id, lambda: solo.tables[room_id].over)
    searched = metric(harness, "klaverjas_bot_searches_total", level="strong", purpose="move")
    assert searched >= 24  # at least three of every trick's cards, and the bidding
    assert metric(harness, "klaverjas_bot_fallbacks_total", purpose="move") == 0
    status, body, _ = await harness.http_get("/metrics")
    assert status == 200 and b'klaverjas_bot_searches_total{level="strong",purpose="move"}' in body

    # every CPU move is the pure function of its view and seed, as this process decides it
    record = (await solo.request({"type": "get_record", "match_id": room_id}, "record"))["record"]
    moves = list(replay(record, cpus={1, 2, 3}))
    assert len(moves) == searched
    # a move with one legal action, or a trump choice, is decided at once: only the others
    # reach a worker
    pooled = sum(StrongPolicy(BUDGET).searches(seen) for seen, _, _ in moves)
    assert searched - pooled >= 3  # at least the last trick's three cards
    assert metric(harness, "klaverjas_bot_search_seconds_count") == pooled
    assert metric(harness, "klaverjas_bot_budgets_total", budget=str(BUDGET)) == pooled
    for seen, seed, played in moves[-12:]:  # the last tricks: cheap to search again here
        assert decide("strong", seen, seed, BUDGET)[0] == played


async def test_each_level_plays_as_its_policy(harness: Harness) -> None:
    ann = await harness.client("ann")
    room_id = await with_each_level(ann)
    await ann.send({"type": "ready", "room_id": room_id})
    await play_until([ann], room_id, lambda: ann.tables[room_id].over)
    record = (await ann.request({"type": "get_record", "match_id": room_id}, "record"))["record"]
    for seat, level in ((1, "random"), (2, "heuristic")):
        for seen, seed, played in replay(record, {seat}):
            assert decide(level, seen, seed, BUDGET)[0] == played
    for level in ("random", "heuristic", "strong"):
        assert metric(harness, "klaverjas_bot_searches_total", level=level, purpose="move") > 0


# -- a full pool -------------------------------------------------------------------------


async def test_a_saturated_pool_plays_heuristic_moves_and_refuses_hints(tmp_path: Path) -> None:
    async with running_harness(tmp_path, bot_workers=1, bot_queue=0) as h:
        ann = await h.client("ann")
        created = await ann.request({"type": "create_room", "rules": ONE_DEAL}, "snapshot")
        room_id = created["room_id"]
        for seat in (1, 2, 3):
            await ann.send({"type": "add_cpu", "room_id": room_id, "seat": seat})
        table = ann.tables[room_id]
        async with held(h, tmp_path):
            await ann.send({"type": "ready", "room_id": room_id})
            await play_until([ann], room_id, lambda: bool(table.legal) and table.turn == 0)
            hint = {"type": "hint", "room_id": room_id, "ref": "h1"}  # needs the pool too
            busy = await refused(ann, hint, "bots_busy")  # our condition: no strike
            assert busy["retry_after"] > 0 and busy["ref"] == "h1"
            await play_until([ann], room_id, lambda: table.over)
        fallbacks = metric(h, "klaverjas_bot_fallbacks_total", purpose="move")
        strong = metric(h, "klaverjas_bot_searches_total", level="strong", purpose="move")
        assert metric(h, "klaverjas_bot_fallbacks_total", purpose="hint") == 1
        record = (await ann.request({"type": "get_record", "match_id": room_id}, "record"))[
            "record"
        ]
        moves = list(replay(record, {1, 2, 3}))
        assert len(moves) == strong
        # every move that needed a search fell back (heuristic, with the same seed); one
        # that needs none (one legal action, a trump choice) is strong's, decided at once
        assert fallbacks == sum(StrongPolicy(BUDGET).searches(seen) for seen, _, _ in moves)
        assert fallbacks >= 8  # at least the cards of the first tricks
        for seen, seed, played in moves:
            if StrongPolicy(BUDGET).searches(seen):
                assert fallback(seen, seed) == played
            else:
                assert decide("strong", seen, seed, BUDGET)[0] == played


async def test_a_move_not_expected_in_time_is_played_by_heuristic_at_once(
    tmp_path: Path,
) -> None:
    """A move's search that would queue behind more than the CPU delay's worth of searches
    (as the workers' answers taught the pool) is played by ``heuristic`` at once; one the
    daily game asks waits; a free worker takes a search however long it is expected."""
    metrics = Metrics()
    bots = Bots(1, 4, BUDGET, metrics, within=0.5)
    seen, seed = opening_lead(7), "7/0"
    searched = decide("strong", seen, seed, BUDGET)[0]
    fallbacks = metrics.bot_fallbacks.labels("move")
    try:
        assert await bots.decide("strong", seen, seed) == searched  # a free worker: searched
        slow, first, second = ("slow",), tmp_path / "first", tmp_path / "second"
        job = bots.submit(hold, str(first), kind=slow)
        await asyncio.sleep(0.6)  # the job holds its (running) worker at least this long
        first.touch()
        await job  # type: ignore[misc]
        job = bots.submit(hold, str(second), kind=slow)  # expected to hold it 0.6 s more
        late = bots.decide("strong", seen, seed)
        assert late.done() and late.result() == fallback(seen, seed)
        assert fallbacks._value.get() == 1
        waits = bots.decide("strong", seen, seed, wait=True)  # the daily game's never falls back
        assert not waits.done()
        second.touch()
        await job  # type: ignore[misc]
        assert await waits == searched and fallbacks._value.get() == 1
    finally:
        await bots.close()


async def test_a_busy_pool_searches_with_a_smaller_budget_before_falling_back(
    tmp_path: Path,
) -> None:
    """Degrade by budget, not by level: a move whose search at the server's budget would be
    late searches with the largest smaller budget expected in time; ``heuristic`` plays it
    only when even the smallest would be late."""
    metrics = Metrics()
    bots = Bots(1, 4, 16, metrics, within=1.0)  # a queued search must end within 0.6 s
    assert bots.budgets == [16, 4, 1]
    seen, seed = opening_lead(7), "7/0"
    kind = size(seen)
    # what the workers' answers would have taught it: the full budget is slow here
    taught = {16: 1.0, 4: 0.5}  # and budget 1 not yet measured: 1/16 of the server's
    bots._seconds.update({("move", b, *kind): s for b, s in taught.items()} | {("slow",): 0.3})
    budgets = metrics.bot_budgets
    fallbacks = metrics.bot_fallbacks.labels("move")
    flag = tmp_path / "go"
    try:
        job = bots.submit(hold, str(flag), kind=("slow",))  # 0.3 s ahead on the one worker
        first = bots.decide("strong", seen, seed)  # 0.3 + 1.0, 0.3 + 0.5 late; 0.3 + 1/16
        assert budgets.labels("1")._value.get() == 1 and fallbacks._value.get() == 0
        bots._seconds[("move", 1, *kind)] = 0.45  # now even the smallest would be late
        late = bots.decide("strong", seen, seed)
        assert late.done() and late.result() == fallback(seen, seed)
        assert fallbacks._value.get() == 1
        flag.touch()
        await job  # type: ignore[misc]
        assert await first == decide("strong", seen, seed, 1)[0]
        assert await bots.decide("strong", seen, seed) == decide("strong", seen, seed, 16)[0]
        assert budgets.labels("16")._value.get() == 1  # a free worker: the server's budget
    finally:
        await bots.close()


async def test_a_move_that_would_queue_searches_with_less_than_the_servers_budget(
    tmp_path: Path,
) -> None:
    """The server's budget (inference from play included) only on a free worker: a move
    that would queue searches with a smaller budget, though the server's would be in time."""
    metrics = Metrics()
    bots = Bots(1, 4, 16, metrics, within=10.0)
    seen, seed = opening_lead(7), "7/0"
    kind = size(seen)
    bots._seconds.update({("move", b, *kind): 0.01 for b in bots.budgets} | {("slow",): 0.3})
    budgets = metrics.bot_budgets
    flag = tmp_path / "go"
    try:
        job = bots.submit(hold, str(flag), kind=("slow",))  # the one worker is busy
        queued = bots.decide("strong", seen, seed)
        assert budgets.labels("4")._value.get() == 1 and budgets.labels("16")._value.get() == 0
        flag.touch()
        await job  # type: ignore[misc]
        assert await queued == decide("strong", seen, seed, 4)[0]
    finally:
        await bots.close()


async def test_a_budget_of_zero_turns_searching_off(tmp_path: Path) -> None:
    async with running_harness(tmp_path, bot_budget=0) as h:
        room_id, (solo,) = await h.table("solo", cpu=[1, 2, 3], rules=ONE_DEAL)
        table = solo.tables[room_id]
        await play_until([solo], room_id, lambda: bool(table.legal) and table.turn == 0)
        await refused(solo, {"type": "hint", "room_id": room_id}, "bots_busy")
        await play_until([solo], room_id, lambda: table.over)
        record = (await solo.request({"type": "get_record", "match_id": room_id}, "record"))[
            "record"
        ]
        for seen, seed, played in replay(record, {1, 2, 3}):
            assert fallback(seen, seed) == played  # strong plays as heuristic
        assert metric(h, "klaverjas_bot_search_seconds_count") == 0  # nothing searched
        assert metric(h, "klaverjas_bot_fallbacks_total", purpose="move") == 0  # by choice


# -- hints -------------------------------------------------------------------------------


async def four(h: Harness) -> tuple[str, list[GameClient]]:
    room_id, players = await h.table("ann", "bob", "cas", "dee", rules=ONE_DEAL, rated=False)
    await settle(players)  # not rated: a rated match gives no hints
    return room_id, players


def name_trump(legal: list[str]) -> str:
    """A pick for :func:`play_until` that names a trump where it may (never all passes)."""
    return next((a for a in legal if a.startswith("trump")), legal[0])


def playing(h: Harness, room_id: str) -> bool:
    """Whether the room's deal has its trump (its cards are being played)."""
    match = actor(h, room_id).room.match
    return match is not None and match.deal.phase is Phase.PLAY


def on_turn(players: list[GameClient], room_id: str) -> GameClient:
    (player,) = [p for p in players if p.tables[room_id].turn == p.tables[room_id].seat]
    return player


async def expect_hint(h: Harness, players: list[GameClient], room_id: str) -> dict[str, Any]:
    """The hint of the player on turn: the strong advice for its own seat, to it alone."""
    player = on_turn(players, room_id)
    room = actor(h, room_id).room
    seat = player.tables[room_id].seat
    assert seat is not None and room.match is not None
    own = view(room.match, seat)
    seed = f"{room.seed}/{len(room.match.actions)}"  # the actions so far
    advice = StrongPolicy(BUDGET).advise(own, random.Random(seed))
    reply = await player.request({"type": "hint", "room_id": room_id, "ref": "x"}, "hint")
    assert reply == {
        "type": "hint", "room_id": room_id, "version": room.version, "seat": seat,
        "action": str(advice.action), "reason": advice.reason, "why": advice.why,
        "values": {str(a): round(v, 1) for a, v in advice.values.items()}, "ref": "x",
    }  # fmt: skip
    assert set(reply["values"]) == {str(a) for a in own.legal}  # every choice valued
    for other in players:
        if other is not player:
            assert [f for f in await sync(other) if f["type"] == "hint"] == []
    return reply


async def test_a_hint_is_the_strong_advice_for_the_seat_to_move(harness: Harness) -> None:
    room_id, players = await four(harness)
    await expect_hint(harness, players, room_id)  # the bidding
    player = on_turn(players, room_id)  # names trump: the play begins
    name = next(a for a in player.tables[room_id].legal if a.startswith("trump:"))
    await player.send({"type": "act", "room_id": room_id, "action": name})
    await settle(players)
    reply = await expect_hint(harness, players, room_id)  # a card: one of its own
    hand = on_turn(players, room_id).tables[room_id].hand
    assert reply["action"] in hand and set(reply["values"]) <= set(hand)
    assert metric(harness, "klaverjas_bot_searches_total", level="strong", purpose="hint") == 2


async def test_hints_are_refused_where_they_must_be(harness: Harness) -> None:
    ann = await harness.client("ann")
    created = await ann.request({"type": "create_room", "rules": ONE_DEAL}, "snapshot")
    hint = {"type": "hint", "room_id": created["room_id"]}
    await refused(ann, hint, "not_playing")  # no match running yet

    room_id, players = await four(harness)
    hint = {"type": "hint", "room_id": room_id}
    off_turn = next(p for p in players if p is not on_turn(players, room_id))
    await refused(off_turn, hint, "not_your_turn")
    sam = await harness.client("sam")
    await refused(sam, hint, "not_a_member")  # not following the room
    await sam.request({"type": "watch", "room_id": room_id}, "snapshot")
    await refused(sam, hint, "not_seated")
    await refused(sam, {"type": "hint", "room_id": "r_0000000000000000"}, "not_a_member")


# -- timeouts and late answers -------------------------------------------------------------


async def test_a_timeout_is_played_by_strong(harness: Harness) -> None:
    room_id, players = await four(harness)
    room = actor(harness, room_id).room
    decision = room.decision_due()
    assert decision is not None and decision.level == "strong"
    expected = decide("strong", decision.view, decision.seed, BUDGET)[0]
    await room_now(players[0], room_id)
    harness.advance(room.move_seconds)
    update = await players[0].next("update", kind="act", by="timeout", timeout=30)
    assert update["seat"] == decision.seat
    assert update["events"][0] == (
        {"type": "passed", "seat": decision.seat}
        if expected == "pass"
        else {"type": "trump_chosen", "seat": decision.seat, "suit": expected[-1]}
    )


async def test_an_answer_that_comes_after_the_player_acted_is_dropped(tmp_path: Path) -> None:
    async with running_harness(tmp_path, bot_workers=1, bot_queue=1) as h:
        room_id, players = await four(h)
        bots = h.server.bots  # type: ignore[union-attr]
        flag = tmp_path / "let-go"
        await play_until(players, room_id, lambda: playing(h, room_id), pick=name_trump)
        await settle(players)  # the bidding's updates read
        job = bots.submit(hold, str(flag))  # the worker is busy: the timeout's search waits
        assert job is not None
        await room_now(players[0], room_id)
        version = actor(h, room_id).room.version
        h.advance(actor(h, room_id).room.move_seconds)
        await room_now(players[0], room_id)  # the deadline has passed: its search is queued
        pending = actor(h, room_id).pending
        assert pending is not None and pending.due and not pending.answer.done()
        player = on_turn(players, room_id)
        card = player.tables[room_id].legal[0]  # the opening lead (a trump choice needs none)
        await player.send({"type": "act", "room_id": room_id, "action": card})
        update = await player.next("update", kind="act", timeout=10)
        assert (update["by"], update["version"]) == ("player", version + 1)
        assert pending.answer.cancelled() and actor(h, room_id).pending is None  # dropped
        flag.touch()
        await job
        await settle(players)
        assert actor(h, room_id).room.version == version + 1  # nothing more was written


async def test_a_stopped_room_drops_its_search(tmp_path: Path) -> None:
    async with running_harness(tmp_path, bot_workers=1, bot_queue=1) as h:
        bots = h.server.bots  # type: ignore[union-attr]
        flag = tmp_path / "let-go"
        job = bots.submit(hold, str(flag))  # the worker is busy: the CPU's search waits
        assert job is not None
        try:
            room_id, (ann,) = await h.table("ann", cpu=[1, 2, 3], rules=ONE_DEAL)
            room = actor(h, room_id)

            def searching() -> bool:  # a CPU's search asked (its bids need none)
                pending = room.pending
                return pending is not None and not pending.answer.done()

            await play_until([ann], room_id, searching, pick=name_trump)
            pending = room.pending
            assert pending is not None and pending.decision.view.phase is Phase.PLAY
            assert room.room.version == pending.decision.version
            await room.stop()  # as a server that stops, or a table that moves, does
            assert pending.answer.cancelled() and room.pending is None
        finally:
            flag.touch()
            await job


# -- levels, names, validation, replay -------------------------------------------------------


async def test_add_cpu_takes_a_level_and_refuses_anything_else(harness: Harness) -> None:
    ann = await harness.client("ann")
    created = await ann.request({"type": "create_room"}, "snapshot")
    add = {"type": "add_cpu", "room_id": created["room_id"], "seat": 1}
    for wrong in (5, None, "expert", "Strong", ["strong"]):
        error = await refused(ann, {**add, "level": wrong}, "invalid_field")
        assert error["message"].startswith("level: "), error
    await ann.send({**add, "level": "random"})
    await ann.send({**add, "seat": 2})  # the default
    await settle([ann])
    seats = ann.tables[created["room_id"]].room["seats"]
    assert [(s["cpu"], s["level"]) for s in seats] == [
        (False, None), (True, "random"), (True, "strong"), (False, None),
    ]  # fmt: skip
    names = [s["nickname"] for s in seats[1:3]]
    assert names[0].endswith(" (CPU, random)") and names[1].endswith(" (CPU, strong)")
    assert names[0].split()[0] != names[1].split()[0]  # a name per seat


async def test_cpu_levels_and_names_survive_a_restart(harness: Harness) -> None:
    ann = await harness.client("ann")
    room_id = await with_each_level(ann)
    await settle([ann])
    before = ann.tables[room_id].room["seats"]
    await harness.restart()
    back = await harness.client(token=ann.token)
    again = await back.request({"type": "resume", "room_id": room_id}, "snapshot")
    assert again["room"]["seats"] == before
    assert [s["level"] for s in before] == [None, "random", "heuristic", "strong"]
    await back.send({"type": "ready", "room_id": room_id})  # and they play at their levels
    await play_until([back], room_id, lambda: back.tables[room_id].over)


async def test_tournament_tables_play_strong_and_give_no_hints(harness: Harness) -> None:
    ann, bob = await harness.client("ann"), await harness.client("bob")
    assert harness.server is not None
    seats = [ann.player_id, None, bob.player_id, None]
    rules = Rules.from_dict({"preset": "tournament", **ONE_DEAL})
    names = (None, "Bram (CPU, strong)", None, "Daan (CPU, strong)")
    room_id = await harness.server.rooms.open_table("t_1", "table 1", rules, 30, seats, names)
    snapshot = await ann.request({"type": "resume", "room_id": room_id}, "snapshot")
    room = snapshot["room"]
    assert [s["level"] for s in room["seats"]] == [None, "strong", None, "strong"]
    assert [s["nickname"] for s in room["seats"]] == ["ann", names[1], "bob", names[3]]
    assert room["hints"] is False and room["tournament"] == "t_1"
    await refused(ann, {"type": "hint", "room_id": room_id}, "hints_not_allowed")
    actor(harness, room_id).deliver(ReplaceWithCpu(bob.player_id))  # bob abandoned
    update = await ann.next("update", kind="seat", seat=2)
    assert update["room"]["seats"][2]["level"] == "strong"
    assert update["room"]["seats"][2]["nickname"].endswith(" (CPU, strong)")


def test_the_catalog_lists_the_levels() -> None:
    from server.http.catalog import describe

    assert describe()["cpu"] == {"levels": ["random", "heuristic", "strong"], "default": "strong"}
