"""The server's own tournament schedule (issue 33, item 12): out of the box a newcomer finds
a Quick tournament with a start time, the next of an hourly series whose empty places CPUs
fill; it is made once whoever looks for it, skips the hours a stopped server missed, and the
setting (``KLAVERJAS_QUICK_SCHEDULE``) moves it or turns it off."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from client import GameClient
from server.core.config import Settings
from server.tournament.schedule import parse_schedule
from tests.server.conftest import Harness, running_harness
from tests.tournament.conftest import BOT_SETTINGS, Bots, finished, register, status, wait_for

pytestmark = pytest.mark.tournament

HOUR = 3600.0
SHIPPED = Settings().quick_schedule  # what a server runs with when nobody sets it


@pytest.fixture
async def harness(tmp_path: Path, database: str) -> AsyncIterator[Harness]:
    """A server on the shipped schedule (the other tournament tests turn it off)."""
    settings = {**BOT_SETTINGS, "quick_schedule": SHIPPED}
    async with running_harness(tmp_path, database, **settings) as h:
        yield h


async def listed(client: GameClient) -> list[dict[str, Any]]:
    """The lobby's tournaments, as a newcomer's first look shows them."""
    listing = await client.request({"type": "lobby_subscribe"}, "lobby")
    return listing["tournaments"]


async def listed_once(
    client: GameClient, condition: Callable[[list[dict[str, Any]]], bool]
) -> list[dict[str, Any]]:
    """The lobby's tournaments once ``condition`` holds for them (what the clock set going
    reaches the lobby a moment later: asked again until it has)."""
    async with asyncio.timeout(10):
        while not condition(tournaments := await listed(client)):
            await asyncio.sleep(0.01)
    return tournaments


def upcoming(client: GameClient) -> list[dict[str, Any]]:
    """The scheduled tournaments ``client`` has heard of (lobby and tournament frames)."""
    return [t for t in client.tournaments.values() if t["status"] == "scheduled"]


def next_hour(wall: float) -> float:
    return (wall // HOUR + 1) * HOUR


async def test_a_newcomer_finds_an_hourly_quick_that_cpus_fill(harness: Harness) -> None:
    assert SHIPPED == "hourly"  # on out of the box
    newcomer = await harness.client("newcomer")
    (quick,) = await listed(newcomer)
    start = next_hour(harness.clock.wall())
    assert quick["status"] == "scheduled" and quick["format"] == "quick"
    assert quick["start_at"] == start > harness.clock.wall()  # a countdown to show
    assert (quick["repeat"], quick["fill_with_cpu"], quick["start_when_full"]) == (
        "hourly", True, False,
    )  # fmt: skip

    # one registers; at the start time CPUs fill the seven other places
    newcomer.keep = True
    await register([newcomer], quick["id"])
    harness.advance(start - harness.clock.wall() + 1)
    await wait_for(lambda: bool(status(newcomer, quick["id"]).get("rounds")))
    now = status(newcomer, quick["id"])
    assert now["status"] == "running" and now["started_at"] == pytest.approx(start + 1)
    seats = [s for table in now["rounds"][0] for s in table["seats"]]
    assert len(seats) == 8
    assert [s["id"] for s in seats if not s["cpu"]] == [newcomer.player_id]
    # and the next of the series is announced for the hour after
    await wait_for(lambda: any(t["start_at"] == start + HOUR for t in upcoming(newcomer)))
    (following,) = upcoming(newcomer)
    assert following["repeat"] == "hourly" and following["fill_with_cpu"] is True
    # the newcomer plays it out against and beside the CPUs
    await Bots([newcomer]).play_until(finished(newcomer, quick["id"]), limit=120)
    assert len(status(newcomer, quick["id"])["places"]) == 8


def _replaced(listed: list[dict[str, Any]], gone: dict[str, Any]) -> bool:
    """The lobby lists a tournament, and not ``gone`` (between the two it lists none)."""
    return bool(listed) and gone["id"] not in [t["id"] for t in listed]


async def test_nobody_registered_cancels_it_and_the_next_is_announced(
    harness: Harness,
) -> None:
    watcher = await harness.client("watcher")
    (first,) = await listed(watcher)
    harness.advance(first["start_at"] - harness.clock.wall())
    # CPUs alone play for nobody: cancelled, it leaves the lobby; the next hour's is listed
    (second,) = await listed_once(watcher, lambda ts: _replaced(ts, first))
    assert second["status"] == "scheduled"
    assert second["start_at"] == first["start_at"] + HOUR
    row = await (await harness.stores()).tournaments.tournament(first["id"])
    assert row is not None and row.status == "cancelled"
    assert (await harness.running())["rooms"] == []  # no table was opened


async def test_made_once_across_restarts_and_missed_hours_skipped(harness: Harness) -> None:
    first = (await listed(await harness.client("a")))[0]
    await harness.restart()  # the server looks for it again: it is there
    again = await listed(await harness.client("b"))
    assert [t["id"] for t in again] == [first["id"]]

    await harness.stop()  # down for three hours and a bit
    harness.advance(first["start_at"] - harness.clock.wall() + 3 * HOUR + 60)
    await harness.start()
    wall = harness.clock.wall()
    watcher = await harness.client("c")
    # the missed one was cancelled (late, and nobody came); one upcoming, the next hour's,
    # whoever scheduled it (the series, or the server's own schedule)
    (now,) = await listed_once(watcher, lambda ts: _replaced(ts, first))
    assert now["status"] == "scheduled" and now["start_at"] == next_hour(wall)
    row = await (await harness.stores()).tournaments.tournament(first["id"])
    assert row is not None and row.status == "cancelled"
    assert (await harness.running())["tournaments"] == [now["id"]]


async def test_the_setting_moves_the_schedule_or_turns_it_off(harness: Harness) -> None:
    first = (await listed(await harness.client("a")))[0]
    harness.overrides["quick_schedule"] = "daily@19:30"
    await harness.restart()
    wall = harness.clock.wall()
    daily = [t for t in await listed(await harness.client("b")) if t["repeat"] == "daily"]
    (evening,) = daily
    assert evening["start_at"] % (24 * HOUR) == 19.5 * HOUR
    assert wall < evening["start_at"] <= wall + 24 * HOUR

    # off: nothing new is announced; those already announced take place, and end there
    harness.overrides["quick_schedule"] = "off"
    await harness.restart()
    watcher = await harness.client("c")
    assert {t["id"] for t in await listed(watcher)} == {first["id"], evening["id"]}
    harness.advance(evening["start_at"] - harness.clock.wall() + 1)
    assert await listed_once(watcher, lambda ts: not ts) == []
    assert (await harness.running())["tournaments"] == []


@pytest.mark.parametrize(("text", "plan"), [
    ("hourly", ("hourly", 0.0)), ("hourly@30", ("hourly", 1800.0)), ("daily", ("daily", 0.0)),
    ("daily@19:00", ("daily", 19 * HOUR)), (" Daily@07:05 ", ("daily", 7 * HOUR + 300)),
    ("off", None), ("OFF", None),
])  # fmt: skip
def test_schedule_values(text: str, plan: tuple[str, float] | None) -> None:
    assert parse_schedule(text) == plan


@pytest.mark.parametrize("text", ["weekly", "hourly@60", "daily@24:00", "hourly@01:30", ""])
def test_bad_schedule_values_are_refused(text: str) -> None:
    with pytest.raises(ValueError, match="KLAVERJAS_QUICK_SCHEDULE"):
        parse_schedule(text)
