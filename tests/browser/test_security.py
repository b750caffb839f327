"""Names and chat that hold HTML and script are shown as text, never run: a player named
``<img src=x onerror=pw()>`` makes a public table with a name of HTML, chats a script at
it, and names a score sheet's teams in HTML; the page lists, seats, shows the chat and the
sheet as plain text, holds no element they would have made, and no script of theirs ran
(``pw`` is not defined: calling it would be a page error)."""

from __future__ import annotations

import pytest
from playwright.async_api import expect

from tests.browser.conftest import Site
from tests.browser.ui import Tab

pytestmark = pytest.mark.browser

NICK = "<img src=x onerror=pw()>"
TABLE = "<b>bold</b><img src=x onerror=pw()>"
CHAT = "<script>pw()</script><img src=x onerror=pw()> hi"
TEAM = "<i>W</i><svg onload=pw>"  # 23 characters: a sheet name has at most 24


async def no_markup_made(tab: Tab) -> None:
    page = tab.page
    for selector in ("img[src='x']", "main b", "main i", "svg[onload]", "main script"):
        assert await page.locator(selector).count() == 0, selector


async def test_html_in_names_and_chat_is_shown_as_text(site: Site, open_tab) -> None:
    mallory = await site.bot(NICK)
    made = await mallory.request({"type": "create_room", "name": TABLE}, "snapshot")
    room_id = made["room_id"]
    tab: Tab = await open_tab()
    await tab.hello("ann")
    page = tab.page
    item = page.locator(f'#rooms li[data-room-id="{room_id}"]')
    await expect(item).to_contain_text(TABLE)  # the name, character for character
    await expect(item).to_contain_text(NICK)
    await item.locator("button[data-take-seat]").first.click()
    await expect(tab.table).to_be_visible()
    await mallory.send({"type": "chat", "room_id": room_id, "text": CHAT})
    await expect(page.locator("#chat-log")).to_contain_text(CHAT)
    await expect(page.locator("#table .seat .name").filter(has_text=NICK)).to_have_count(1)
    await no_markup_made(tab)
    # a score sheet whose teams are named in HTML
    sheet = await mallory.request({"type": "sheet_create", "teams": [TEAM, "Zij"]}, "sheet")
    assert sheet["type"] == "sheet", sheet
    await page.goto(f"{site.url}?sheet={sheet['codes']['view']}")
    await expect(page.locator("#scoresheet")).to_be_visible()
    await expect(page.locator("#sheet-head")).to_contain_text(TEAM)
    await no_markup_made(tab)
    tab.assert_clean()  # no page error: pw() was never called
