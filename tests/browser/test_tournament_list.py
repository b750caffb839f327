"""The lobby's tournament list as a newcomer finds it out of the box (issue 33, item 12):
the server's own hourly Quick with a start time, said in the player's time zone with the
zone, counting down; every tournament named apart from the others, also once a "when full"
one has started and the next is open; on the desktop in English and on a phone in
Portuguese."""

from __future__ import annotations

import re
import time
from collections.abc import AsyncIterator
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from playwright.async_api import Browser, expect

from server.core.config import Settings
from tests.browser.conftest import Site
from tests.browser.ui import Tab, shot
from tests.browser.viewports import DESKTOP, PHONE, outside_viewport

pytestmark = pytest.mark.browser

HOUR = 3600


@pytest.fixture
def site_settings() -> dict[str, Any]:
    # as shipped, the hourly Quick (tests/tournament/test_schedule_default.py runs the
    # shipped value itself) and the one that starts when full; its minute half an hour
    # away, so that none starts while a test looks at it
    assert Settings().quick_schedule == "hourly"
    minute = (int(time.time() // 60) + 30) % 60
    return {"quick_schedule": f"hourly@{minute:02d}", "quick_when_full": True}


# A newcomer on each screen: its language, its time zone, what its page calls a Quick
# tournament, and how it writes a start's time and zone.
NEWCOMERS = {
    "desktop": ("en-US", "Europe/Amsterdam", DESKTOP, "Quick tournament"),
    "phone": ("pt-BR", "America/Sao_Paulo", PHONE, "Torneio rápido"),
}


def local_time(at: float, locale: str, zone: str) -> tuple[str, str]:
    """A start's time of day in ``zone`` as ``locale`` writes it (a pattern), and the
    short name of the zone then."""
    moment = datetime.fromtimestamp(at, ZoneInfo(zone))
    offset = int((moment.utcoffset() or 0).total_seconds() // 3600)  # type: ignore[union-attr]
    if locale.startswith("en"):
        return moment.strftime(r"%I:%M\s?%p"), f"GMT{offset:+d}"
    return moment.strftime("%H:%M"), {"America/Sao_Paulo": "BRT"}[zone]


def name_time(at: float, locale: str, zone: str) -> str:
    """How a tournament's name says its start (a pattern): the time of day when it is
    today in ``zone``, else its weekday first ("Sun 12:09 AM", "dom., 00:09")."""
    clock, _ = local_time(at, locale, zone)
    moment = datetime.fromtimestamp(at, ZoneInfo(zone))
    if moment.date() == datetime.now(ZoneInfo(zone)).date():
        return clock
    weekday = moment.strftime("%a") if locale.startswith("en") else r"\S+"
    return rf"{weekday},?\s{clock}"


@pytest.fixture
async def newcomer(browser: Browser, site: Site, request: pytest.FixtureRequest) -> AsyncIterator:
    """Open the site as a newcomer on one screen: ``(tab, locale, zone, quick, size)``."""
    locale, zone, size, quick = NEWCOMERS[request.param]
    context = await browser.new_context(viewport=size, locale=locale, timezone_id=zone)
    page = await context.new_page()
    tab = Tab(page, site.url)
    await page.goto(site.url)
    yield tab, locale, zone, quick, request.param
    print(f"--- console of {request.param} ---", *tab.log, sep="\n")
    await context.close()


# Each listed tournament's name: cut off (wider than its box) or not.
TITLES = """els => els.map(e => ({text: e.innerText, cut: e.scrollWidth > e.clientWidth + 0.5}))"""


@pytest.mark.parametrize("newcomer", ["desktop", "phone"], indirect=True)
async def test_the_list_names_them_apart_and_counts_down_in_your_zone(
    site: Site, newcomer: tuple
) -> None:
    tab, locale, zone, quick, screen = newcomer
    page = tab.page
    await expect(page.locator("#hello-form")).to_be_visible()
    await page.locator("#nickname").fill("nova")
    await page.locator("#hello-form button[type=submit]").click()
    await expect(page.locator("#hello-form")).to_be_hidden()

    scout = await site.bot("scout")
    listing = (await scout.request({"type": "lobby_subscribe"}, "lobby"))["tournaments"]
    (hourly,) = [t for t in listing if t["repeat"] == "hourly"]
    (when_full,) = [t for t in listing if t["start_when_full"]]
    start = hourly["start_at"]
    assert 0 < start - time.time() <= HOUR

    items = page.locator("#tournaments li[data-tournament-id]")
    await expect(items).to_have_count(2)
    item = page.locator(f'#tournaments li[data-tournament-id="{hourly["id"]}"]')
    time_text, zone_name = local_time(start, locale, zone)
    name = f"^{quick} · {name_time(start, locale, zone)}$"
    await expect(item.locator(".item-title")).to_have_text(re.compile(name))
    start_line = item.locator(".start-line time")
    await expect(start_line).to_contain_text(re.compile(time_text))
    await expect(start_line).to_contain_text(zone_name)  # the zone is said
    countdown = item.locator(".countdown")
    await expect(countdown).to_be_visible()
    assert 0 < int(await countdown.get_attribute("data-left") or 0) <= HOUR
    other = page.locator(f'#tournaments li[data-tournament-id="{when_full["id"]}"] .item-title')
    await expect(other).not_to_have_text(re.compile(f"^{quick}$"))  # not just the format

    titles = await items.locator(".item-title").evaluate_all(TITLES)
    assert len({t["text"] for t in titles}) == 2, titles  # named apart
    assert not [t for t in titles if t["cut"]], titles
    await item.scroll_into_view_if_needed()
    assert await outside_viewport(item.locator(".item-title, .start-line, .countdown")) == []
    await shot(page, f"tournament-list-{screen}.png")

    # its page says the same name, and the start with the zone
    await item.locator("button[data-open-tournament]").click()
    view = page.locator("#tournament")
    await expect(view).to_have_attribute("data-tournament-id", hourly["id"])
    await expect(view.locator("h1")).to_have_text(re.compile(name))
    await expect(view.locator(".banner")).to_contain_text(zone_name)
    await expect(view.locator(".banner .countdown")).to_be_visible()
    heading = view.locator("h1")
    assert await heading.evaluate("e => e.scrollWidth <= e.clientWidth + 0.5")
    assert await outside_viewport(view.locator("h1, .banner .countdown")) == []
    await shot(page, f"tournament-hourly-{screen}.png")
    tab.assert_clean()


async def test_a_full_tournament_and_the_next_open_one_are_named_apart(
    site: Site, open_tab
) -> None:
    tab: Tab = await open_tab(size=(DESKTOP["width"], DESKTOP["height"]))
    await tab.hello("tara")
    scout = await site.bot("scout")
    listing = (await scout.request({"type": "lobby_subscribe"}, "lobby"))["tournaments"]
    (full,) = [t for t in listing if t["start_when_full"]]
    for i in range(8):  # eight register: it starts, and a new one opens
        bot = await site.bot(f"bot{i}")
        reply = await bot.request(
            {"type": "tournament_register", "tournament_id": full["id"]}, "tournament"
        )
        assert reply["type"] == "tournament", reply

    page = tab.page
    started = page.locator(f'#tournaments li[data-tournament-id="{full["id"]}"]')
    await expect(started).to_have_attribute("data-status", "running")
    items = page.locator("#tournaments li[data-tournament-id]")
    await expect(items).to_have_count(3)  # the running one, the next open one, the hourly
    await expect(started.locator(".item-title")).to_have_text(
        re.compile(r"^Quick tournament · full at \d\d:\d\d")
    )
    titles = await items.locator(".item-title").evaluate_all(TITLES)
    assert len({t["text"] for t in titles}) == 3, titles
    assert not [t for t in titles if t["cut"]], titles
    await shot(page, "tournament-list-full.png")
    tab.assert_clean()
