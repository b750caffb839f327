"""A tournament as its players see it (issue 14, item 8), at 1280x800 and at 390x844 at
once (two players, one page each): a live countdown to the start and the format in words
(from ``GET /rules``); "N of M registered" while registering only; the page takes each
player to their table as the round starts; tables named in words; CPU entrants by their
own names; the finished tournament stays in the lobby with its places, a prize label for
every place that has one, whoever holds it."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable
from typing import Any

import pytest
from playwright.async_api import expect

from server.tournament.schedule import new_tournament
from tests.browser.conftest import Site
from tests.browser.ui import SIZES, Tab, shot

pytestmark = pytest.mark.browser

START_IN = 14.0  # seconds from scheduling to the start: time to register both pages
PRIZES = {"grand": "Grand Prize", "second": "Second Prize"}


@pytest.fixture
def site_settings() -> dict[str, Any]:
    # the server finds the scheduled tournament at once; CPUs play by rules of thumb
    return {"tournament_poll": 0.2, "bot_budget": 0, "rate": 10_000.0, "burst": 10_000}


async def _until(condition: Callable[[], Any], failure: str, seconds: float = 10) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while not condition():
        assert loop.time() < deadline, failure
        await asyncio.sleep(0.05)


async def test_a_tournament_from_its_countdown_to_its_places(site: Site, open_tab) -> None:
    catalog = await site.get_json("/rules")
    quick = catalog["tournaments"]["quick"]
    start_at = time.time() + START_IN
    tid, _ = await new_tournament(
        site.server.stores.tournaments, "quick", start_at, True, False, None, time.time()
    )
    watcher = await site.bot("watcher")
    await watcher.request({"type": "tournament_watch", "tournament_id": tid}, "tournament")

    tabs: dict[str, Tab] = {}
    for size, nickname in (("desktop", "tara"), ("phone", "uma")):
        tabs[size] = await open_tab(size=SIZES[size])
        await tabs[size].hello(nickname)
    item_css = f'#tournaments li[data-tournament-id="{tid}"]'

    for tab in tabs.values():
        page = tab.page
        item = page.locator(item_css)
        await expect(item).to_be_visible()
        # a live countdown to the start
        countdown = item.locator(".countdown")
        first = int(await countdown.get_attribute("data-left") or 0)
        assert 0 < first <= START_IN, first
        await expect(countdown).not_to_have_attribute("data-left", str(first), timeout=3_000)
        assert int(await countdown.get_attribute("data-left") or 0) < first
        await expect(countdown).to_contain_text(re.compile(r"in \d+ s"))
        await item.locator("button[data-register]").click()
        await expect(item.locator("button[data-unregister]")).to_be_visible()
    for tab in tabs.values():
        await expect(tab.page.locator(item_css)).to_contain_text("2 of 8 registered")

    for size, tab in tabs.items():
        page = tab.page
        await page.locator(f"{item_css} button[data-open-tournament]").click()
        view = page.locator("#tournament")
        await expect(view).to_have_attribute("data-status", "scheduled")
        await expect(view.locator(".banner .countdown")).to_be_visible()
        # the format in words, from the server's description of it
        about = view.locator("#tournament-about")
        rounds = about.locator(".about-rounds li")
        await expect(rounds).to_have_count(quick["rounds"])
        for li, tables in zip(await rounds.all(), quick["tables"], strict=True):
            await expect(li).to_have_attribute("data-tables", str(tables))
        await expect(rounds.last).to_contain_text("Final")
        await expect(about).to_contain_text(f"{quick['players']} players")
        await expect(about).to_contain_text(f"to {quick['target']}")
        await expect(about).to_contain_text(f"{quick['move_seconds']} s a move")
        for words in PRIZES.values():
            await expect(about).to_contain_text(words)
        await expect(view).to_contain_text("Registered (2 of 8)")
        await shot(page, f"tournament-{size}.png")

    # the round starts: each page goes to its own table by itself, at once
    def started() -> dict[str, Any] | None:
        t = watcher.tournaments.get(tid, {})
        rounds = t.get("rounds") or []
        return t if rounds and all(table["room_id"] for table in rounds[0]) else None

    await _until(started, "the tournament did not start", seconds=START_IN + 20)
    tables = {
        seat["nickname"]: table for table in started()["rounds"][0] for seat in table["seats"]
    }
    begun = time.monotonic()
    for tab in tabs.values():
        table = tables[tab.name]
        await expect(tab.table).to_be_visible(timeout=5_000)
        await expect(tab.table).to_have_attribute("data-room-id", table["room_id"])
        # the server's name of the table, with its tournament named apart ("· 14:00")
        await expect(tab.page.locator("#room-name")).to_have_text(
            re.compile(rf"^Quick tournament · \d\d:\d\d.*, round 1, table {table['table']}$")
        )
    assert time.monotonic() - begun < 5, "the pages took too long to reach their tables"
    for table in tables.values():
        assert re.fullmatch(r"Quick tournament, round 1, table \d", table["name"]), table["name"]

    for tab in tabs.values():
        page = tab.page
        await page.locator("#to-lobby").click()
        item = page.locator(item_css)
        await expect(item).to_have_attribute("data-status", "running")
        await expect(item).not_to_contain_text("registered")
        await item.locator("button[data-open-tournament]").click()
        view = page.locator("#tournament")
        await expect(view).to_have_attribute("data-status", "running")
        await expect(view).not_to_contain_text("registered")
        cards = view.locator(".tt[data-room-id]")
        await expect(cards).to_have_count(quick["tables"][0])
        for card in await cards.all():
            room_id = await card.get_attribute("data-room-id")
            (table,) = [t for t in started()["rounds"][0] if t["room_id"] == room_id]
            await expect(card.locator(".tt-name")).to_have_text(table["name"])
            for team in (0, 1):
                names = [table["seats"][team]["nickname"], table["seats"][team + 2]["nickname"]]
                await expect(card.locator(f'.tt-team[data-team="{team}"] .tt-names')).to_have_text(
                    " & ".join(names)
                )
        bare = view.locator(".tt-names", has_text=re.compile(r"^CPU & CPU$"))
        await expect(bare).to_have_count(0)
        await expect(view.locator(".tt-names", has_text="(CPU")).not_to_have_count(0)

    # both leave: CPUs take their seats and play the tournament out
    for tab in tabs.values():
        tab.page.once("dialog", lambda dialog: dialog.accept())
        await tab.page.locator(f'#tournament button[data-leave-tournament="{tid}"]').click()
    await _until(
        lambda: watcher.tournaments.get(tid, {}).get("status") == "finished",
        "the tournament did not finish",
        seconds=240,
    )
    final = watcher.tournaments[tid]
    names = {e["id"]: e["nickname"] for r in final["rounds"] for t in r for e in t["seats"]}
    for size, tab in tabs.items():
        page = tab.page
        view = page.locator("#tournament")
        await expect(view).to_have_attribute("data-status", "finished")
        places = view.locator("#places li[data-place]")
        await expect(places).to_have_count(len(final["places"]))
        for place in final["places"]:
            li = view.locator(f'#places li[data-entrant="{place["entrant"]}"]')
            await expect(li).to_have_attribute("data-place", str(place["place"]))
            await expect(li.locator(".place-name")).to_contain_text(names[place["entrant"]])
            if place.get("prize"):
                await expect(li.locator(".prize")).to_have_text(PRIZES[place["prize"]])
        assert {p.get("prize") for p in final["places"] if p["place"] == 1} == {"grand"}
        await shot(page, f"tournament-finished-{size}.png")
        # the lobby keeps it, with its places
        await page.locator("#tournament button[data-go=lobby]").click()
        item = page.locator(item_css)
        await expect(item).to_have_attribute("data-status", "finished")
        podium = item.locator(".podium li")
        await expect(podium).to_have_count(2)
        await expect(podium.first).to_contain_text("Grand Prize")
        winners = [names[p["entrant"]] for p in final["places"] if p["place"] == 1]
        for name in winners:
            await expect(podium.first).to_contain_text(name)
        await expect(podium.last).to_contain_text("Second Prize")
        await expect(item).not_to_contain_text("registered")
        await shot(page, f"lobby-tournament-finished-{size}.png")
        tab.assert_clean()
