"""A quick tournament joined from the lobby; seven websocket bots take the other places."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any

import pytest
from playwright.async_api import expect

from tests.browser.conftest import Site
from tests.browser.ui import Tab, expect_numbers
from tests.tournament.conftest import Bots, status

pytestmark = pytest.mark.browser

OPENER = '#tournaments li[data-tournament-id="{tid}"] button[data-open-tournament]'


@pytest.fixture
def site_settings() -> dict[str, Any]:
    # the server keeps one "start when full" quick tournament open; bots act fast
    return {"quick_when_full": True, "rate": 10_000.0, "burst": 10_000}


async def test_a_tournament_joined_from_the_lobby(site: Site, open_tab) -> None:
    # the server keeps one open "start when full" tournament: the lobby lists it
    scout = await site.bot("scout")
    lobby = await scout.request({"type": "lobby_subscribe"}, "lobby")
    assert lobby["type"] == "lobby", lobby
    (tid,) = [
        t["id"]
        for t in lobby["tournaments"]
        if t["status"] == "scheduled" and t["start_when_full"] and t["format"] == "quick"
    ]

    tab: Tab = await open_tab()
    page = tab.page
    await tab.hello("tara")
    entry = page.locator(f'#tournaments li[data-tournament-id="{tid}"]')
    await expect(entry).to_be_visible()
    await expect(entry).to_contain_text("quick", ignore_case=True)
    await entry.locator("button[data-register]").click()
    await expect(entry.locator("button[data-unregister]")).to_be_visible()

    bots = [await site.bot(f"bot{i}") for i in range(7)]
    for bot in bots:
        bot.keep = True
        reply = await bot.request(
            {"type": "tournament_register", "tournament_id": tid}, "tournament"
        )
        assert reply["type"] == "tournament", reply
    stop = asyncio.Event()
    playing = asyncio.create_task(Bots(bots).play_until(stop.is_set, limit=80))
    try:
        await _until(lambda: _seated(status(bots[0], tid)), "the tournament never started")
        (table,) = [
            t
            for t in status(bots[0], tid)["rounds"][0]
            if any(s["nickname"] == "tara" for s in t["seats"])
        ]
        mine = table["room_id"]
        seat = [s["nickname"] for s in table["seats"]].index("tara")

        # the round starts: the page takes the player to the table by itself
        await expect(tab.table).to_be_visible()
        await expect(tab.table).to_have_attribute("data-room-id", mine)
        await expect(page.locator('.seat[data-pos="bottom"]')).to_have_attribute(
            "data-seat", str(seat)
        )

        # the tournament view shows it too, and opens it again
        view = page.locator("#tournament")
        opener = page.locator(OPENER.format(tid=tid))
        await page.locator("#to-lobby").click()
        await opener.click()
        await expect(view).to_be_visible()
        await expect(view).to_have_attribute("data-tournament-id", tid)
        await expect(view).to_have_attribute("data-status", "running")
        await expect(view.locator(".round")).to_have_count(1)
        await expect(view.locator(".tt[data-room-id]")).to_have_count(2)
        await expect(view.locator(f'.tt[data-room-id="{mine}"]')).to_contain_text("tara")
        await page.locator("#my-table").click()
        await expect(tab.table).to_be_visible()
        await expect(tab.table).to_have_attribute("data-room-id", mine)

        async def deal_over() -> bool:
            return await page.locator("#sheet tr[data-deal]").count() >= 1

        taken = await tab.play("#result", stop=deal_over, seconds=40)
        assert taken >= 8, f"the page took only {taken} decisions in a whole deal"
        at_table = next(b for b in bots if mine in b.tables)
        by_page = [
            e["card"]
            for f in at_table.seen
            if f["type"] == "update" and f["room_id"] == mine and f.get("by") == "player"
            for e in f["events"]
            if e["type"] == "card_played" and e["seat"] == seat
        ]
        assert len(by_page) >= 8, f"a bot at the table saw the page play only {by_page}"

        def totals_now() -> list[int]:
            (row,) = [t for t in status(bots[0], tid)["rounds"][0] if t["room_id"] == mine]
            return row.get("totals") or [0, 0]

        await _until(lambda: any(totals_now()), "no totals in the tournament after a deal")
        totals = totals_now()
        await expect_numbers(page.locator("#totals"), totals)

        # back to the tournament view through the lobby: the table's live totals
        await page.locator("#to-lobby").click()
        await expect(page.locator("#lobby")).to_be_visible()
        await opener.click()
        await expect(view).to_be_visible()
        await expect_numbers(view.locator(f'.tt[data-room-id="{mine}"]'), totals)

        # leaving for good: a CPU takes the seat
        page.once("dialog", lambda dialog: dialog.accept())  # "Leave the tournament for good?"
        await view.locator(f'button[data-leave-tournament="{tid}"]').click()
        await _until(
            lambda: at_table.tables[mine].room["seats"][seat]["cpu"],
            "leaving the tournament did not put a CPU in the page's seat",
        )
        tab.assert_clean()
    finally:
        stop.set()
        with contextlib.suppress(asyncio.CancelledError, TimeoutError):
            await playing


async def _until(condition: Callable[[], Any], failure: str, seconds: float = 10) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while not condition():
        assert loop.time() < deadline, failure
        await asyncio.sleep(0.02)


def _seated(tournament: dict[str, Any]) -> bool:
    """Running, with a room open for every table of the first round."""
    rounds = tournament.get("rounds") or [[]]
    return tournament.get("status") == "running" and all(t["room_id"] for t in rounds[0])
