"""A club's hall has one laptop and its Wi-Fi, no internet (issue 35, item 6): every page a
player opens asks nothing of anywhere but the server it came from.  A table's phone opens
its evening table's sheet by the table's code and enters a deal, the lobby and the rules
are looked at; every request the browser makes is recorded, and none leaves the server."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from playwright.async_api import expect

from tests.browser.conftest import Site
from tests.browser.test_sheet import enter, phone

pytestmark = [pytest.mark.browser, pytest.mark.club]


async def test_a_table_phone_needs_nothing_but_the_server(site: Site, open_tab) -> None:
    organiser = await site.bot("organiser")
    made = await organiser.request(
        {"type": "evening_create", "name": "Vrijdag", "deals": 16}, "evening"
    )
    code, version = made["codes"]["organiser"], made["version"]
    for name in ("Ann", "Bob", "Cas", "Dee"):
        got = await organiser.request({"type": "evening_check_in", "code": code,
                                       "version": version, "name": name}, "evening")  # fmt: skip
        version = got["version"]
    await organiser.send({"type": "evening_draw", "code": code, "version": version})
    drawn = await organiser.next("evening", version=version + 1)
    (table,) = drawn["tables"]

    tab = await phone(open_tab, "ann", f"/?sheet={table['code']}")
    asked: list[str] = []
    page = tab.page
    page.on("request", lambda r: asked.append(r.url))
    await page.reload()  # the whole page again, every request of it recorded
    await expect(page.locator("#scoresheet")).to_be_visible()
    names = [drawn["evening"]["entrants"][int(e[1:]) - 1]["name"] for e in table["entrants"]]
    for name in names:  # the sheet the evening made, with the table's four players
        await expect(page.locator("#scoresheet")).to_contain_text(name)
    await page.locator("#sheet-new-deal").click()
    await enter(page, 0, 100)
    seen = await organiser.next("evening", timeout=20, version=version + 1)
    while seen["tables"][0]["deals"] == 0:
        seen = await organiser.next("evening", timeout=20, version=version + 1)
    assert seen["tables"][0]["totals"] == [100, 62]

    await page.goto(site.url)  # the lobby and the rules, as a player looks around
    await expect(page.locator("#lobby")).to_be_visible()
    await page.locator("#rules-button").click()
    await expect(page.locator("dialog#rules")).to_be_visible()

    own = urlsplit(site.url).netloc
    elsewhere = [url for url in asked if urlsplit(url).netloc not in (own, "")]
    assert asked and elsewhere == [], elsewhere
    tab.assert_clean()
