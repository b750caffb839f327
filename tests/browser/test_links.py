"""Links a new player opens on a phone (issue 33 item 10): an invite link says above the
nickname field who invited you to which table, and a score sheet's link for the table which
sheet and teams; an onlooker's sheet link shows the sheet at once, live, without a
nickname. Each screen saved to look at."""

from __future__ import annotations

import pytest
from playwright.async_api import Page, expect

from tests.browser.conftest import Site
from tests.browser.ui import SIZES, Tab, shot
from tests.browser.viewports import outside_viewport

pytestmark = [pytest.mark.browser]

PHONE = SIZES["phone"]
FITS = "e => e.scrollWidth <= e.clientWidth"


async def says_above_the_field(page: Page, kind: str, *texts: str) -> None:
    """The nickname screen tells, above its field, what a link of ``kind`` opens."""
    context = page.locator("#hello-context")
    await expect(context).to_have_attribute("data-kind", kind)
    for text in texts:
        await expect(context).to_contain_text(text)
    await above_the_field(page)


async def nickname(tab: Tab, name: str) -> None:
    tab.name = name
    await tab.page.locator("#nickname").fill(name)
    await tab.page.locator("#hello-form button[type=submit]").click()


async def above_the_field(page: Page) -> None:
    """``#hello-context`` is whole on the screen, nothing in it cut off, right above the
    nickname field."""
    context = page.locator("#hello-context")
    await expect(context).to_be_visible()
    assert not await outside_viewport(context)
    assert not await outside_viewport(page.locator("#nickname"))
    assert await context.evaluate(FITS)
    for line in await context.locator("p").all():
        assert await line.evaluate(FITS), await line.inner_text()
    box, field = await context.bounding_box(), await page.locator("#nickname").bounding_box()
    assert box and field and box["y"] + box["height"] <= field["y"], (box, field)


async def test_an_invite_link_says_who_invited_you_to_which_table(site: Site, open_tab) -> None:
    ann = await site.bot("ann")
    made = await ann.request(
        {"type": "create_room", "name": "Friday night", "private": True, "seat": 0,
         "rules": {"preset": "rotterdam", "deals": 8}},
        "snapshot",
    )  # fmt: skip
    code = made["invite_code"]
    await ann.request({"type": "add_cpu", "room_id": made["room_id"], "seat": 1}, "update")

    tab: Tab = await open_tab(f"/?invite={code}", size=PHONE)
    page = tab.page
    await expect(page.locator("#hello-context")).to_have_attribute("data-state", "room")
    await says_above_the_field(
        page, "invite", "ann invited you to the table “Friday night”", "Rotterdam", "8 deals",
        "2 seats free",
    )  # fmt: skip
    await shot(page, "links-invite-phone.png")

    # the nickname: then the table, and the question where to sit
    await nickname(tab, "bob")
    await expect(page.locator("dialog#join-seat")).to_be_visible()
    await expect(page.locator("#join-seat-title")).to_have_text("ann invited you")
    tab.assert_clean()

    # a link of no table says so, before any nickname
    wrong: Tab = await open_tab("/?invite=NOSUCHCODE", size=PHONE)
    await expect(wrong.page.locator("#hello-context")).to_have_attribute("data-state", "bad_invite")
    await says_above_the_field(wrong.page, "invite", "opens no table")


async def test_an_onlooker_watches_a_sheet_without_a_nickname(site: Site, open_tab) -> None:
    ann = await site.bot("ann")
    made = await ann.request(
        {"type": "sheet_create", "players": ["Annemieke", "Bob", "Cor", "Dee"]}, "sheet"
    )
    codes = made["codes"]

    # the onlookers' link: the sheet at once, no nickname asked, following every deal
    tab: Tab = await open_tab(f"/?sheet={codes['view']}", size=PHONE)
    page = tab.page
    sheet = page.locator("#scoresheet")
    await expect(sheet).to_be_visible()
    await expect(sheet).to_have_attribute("data-role", "view")
    await expect(page.locator("#hello")).to_be_hidden()
    await expect(page.locator("#me")).to_have_text("")
    names = page.locator("#sheet-head .sheet-team-name")
    await expect(names).to_have_text(["Annemieke & Cor", "Bob & Dee"])
    deal = {"type": "sheet_deal", "code": codes["edit"], "version": 1, "playing": 0,
            "points": [100, None]}  # fmt: skip
    await ann.request(deal, "sheet_update")
    await expect(page.locator('#sheet-head .sheet-team[data-team="0"]')).to_have_attribute(
        "data-total", "100"
    )
    await expect(page.locator("#sheet-new-deal")).to_be_hidden()
    assert not await outside_viewport(page.locator("#sheet-head"))
    await shot(page, "links-sheet-onlooker-phone.png")
    tab.assert_clean()

    # the table's link: the nickname first, with the sheet it opens said above the field
    cor: Tab = await open_tab(f"/?sheet={codes['edit']}", size=PHONE)
    page = cor.page
    await says_above_the_field(
        page, "sheet", "ann invited you to keep score", "Annemieke & Cor \u2013 Bob & Dee",
        "Annemieke, Bob, Cor, Dee",
    )  # fmt: skip
    await shot(page, "links-sheet-edit-phone.png")
    await nickname(cor, "cor")
    await expect(page.locator("#scoresheet")).to_have_attribute("data-role", "edit")
    await expect(page.locator("#sheet-new-deal")).to_be_visible()
    cor.assert_clean()
