"""The lobby's list of public tables stays true (issue 14, item 9): a table whose players
have all gone is closed by the server after ``abandon_after`` and leaves every lobby, at
both sizes; a page watching it goes back to the lobby and says why."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.async_api import expect

from tests.browser.conftest import Site
from tests.browser.ui import SIZES, Tab, shot

pytestmark = pytest.mark.browser


@pytest.fixture
def site_settings() -> dict[str, Any]:
    return {"abandon_after": 1.0}


async def test_an_abandoned_table_leaves_the_lobby(site: Site, open_tab) -> None:
    desk: Tab = await open_tab(size=SIZES["desktop"])
    await desk.hello("dee")
    phone: Tab = await open_tab(size=SIZES["phone"])
    await phone.hello("pia")
    ann: Tab = await open_tab()
    await ann.hello("ann")
    room_id = await ann.create_room()

    listed = f'#rooms li[data-room-id="{room_id}"]'
    for tab in (desk, phone):
        await expect(tab.page.locator(listed)).to_be_visible()
        await expect(tab.page.locator(f"{listed} button[data-take-seat]")).to_have_count(3)
        await expect(tab.page.locator("#rooms-empty")).to_be_hidden()
    await shot(desk.page, "lobby-desktop.png")
    await shot(phone.page, "lobby-phone.png")
    await phone.page.locator(f"{listed} button[data-watch]").click()
    await expect(phone.table).to_have_attribute("data-room-id", room_id)

    await ann.page.context.close()  # the creator goes, and nobody else sits there
    for tab in (desk, phone):
        await expect(tab.page.locator("#lobby")).to_be_visible()
        await expect(tab.page.locator(listed)).to_have_count(0)
        await expect(tab.page.locator("#rooms-empty")).to_be_visible()
    await expect(phone.page.locator("#error")).to_contain_text("closed")
    desk.assert_clean()
    phone.assert_clean()
