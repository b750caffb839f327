"""One player and three CPUs: a whole match through the page, and a reload mid-deal."""

from __future__ import annotations

import re

import pytest
from playwright.async_api import expect

from engine import Match
from tests.browser.conftest import Site
from tests.browser.ui import SCREENSHOTS, Tab, card_words, whole_numbers

pytestmark = pytest.mark.browser

TOKEN = re.compile(r"[A-Za-z0-9_-]{16,128}")  # what `welcome.token` looks like


async def _table_with_cpus(tab: Tab, nickname: str) -> str:
    """Say hello, create a one-deal room, fill it with three CPUs, be ready; its id."""
    await tab.hello(nickname)
    room_id = await tab.create_room(deals=1)
    for seat in (1, 2, 3):
        await tab.add_cpu(seat)
    await expect(tab.page.locator(".seat .badge-cpu")).to_have_count(3)
    await tab.ready()
    await tab.expect_dealt()
    return room_id


async def _finished(site: Site, room_id: str) -> Match:
    record = await site.record(room_id)
    assert record["rules"]["end"] == "deals" and record["rules"]["end_value"] == 1, record
    match = Match.from_record(record)
    tied_first = match.sheet[0].result.score[0] == match.sheet[0].result.score[1]
    assert len(match.sheet) == 1 or tied_first, "a one-deal match went on"
    return match


async def test_a_whole_match_against_cpus(site: Site, open_tab) -> None:
    # someone else's public room, so that the lobby lists one
    dora = await site.bot("dora")
    listed = await dora.request({"type": "create_room", "name": "dora's table"}, "snapshot")
    assert listed["type"] == "snapshot", listed

    tab: Tab = await open_tab()
    await tab.hello("ann")
    page = tab.page
    await expect(page.locator("#lobby")).to_be_visible()
    room = page.locator(f'#rooms li[data-room-id="{listed["room_id"]}"]')
    await expect(room).to_be_visible()
    await expect(room).to_contain_text("dora")
    await expect(room.locator("button[data-take-seat]")).to_have_count(3)
    await expect(room.locator("button[data-watch]")).to_have_count(1)
    await expect(page.locator("#online")).to_have_text(re.compile(r"^\s*\d+\s*$"))
    assert whole_numbers(await page.locator("#online").inner_text())[0] >= 2
    await page.screenshot(
        path=str(SCREENSHOTS / "lobby.png"), full_page=True, animations="disabled"
    )

    room_id = await tab.create_room(deals=1)
    assert room_id != listed["room_id"]
    await expect(page.locator('.seat[data-pos="bottom"] .name')).to_contain_text("ann")
    for seat in (1, 2, 3):
        await tab.add_cpu(seat)
    await expect(page.locator("button[data-add-cpu]:visible")).to_have_count(0)
    await tab.ready()
    hand = await tab.expect_dealt()
    assert len(set(hand)) == 8, hand
    for card in hand:  # each card named in words
        named = page.locator("#hand").get_by_role("button", name=card_words(card))
        await expect(named).to_have_attribute("data-card", card)

    shot = SCREENSHOTS / "table-mid-trick.png"
    shot.unlink(missing_ok=True)
    taken = await tab.play("#result", mid_trick_shot=shot)
    assert taken >= 8, f"the page took only {taken} decisions in a whole deal"
    assert shot.is_file(), "no moment with 1-3 cards in #trick before the page's turn"

    match = await _finished(site, room_id)
    await tab.expect_result_matches(match)
    assert await tab.room_id() == room_id
    tab.assert_clean()


async def test_a_reload_mid_deal_resumes_the_same_table(site: Site, open_tab) -> None:
    tab: Tab = await open_tab()
    page = tab.page
    room_id = await _table_with_cpus(tab, "rita")

    async def two_cards_down() -> bool:
        return await page.locator("#hand button.card").count() <= 6

    await tab.play("#result", stop=two_cards_down)
    # the page's turn again: nothing moves until it acts (move_seconds is 120)
    await expect(page.locator("#hand button.card.legal:enabled").first).to_be_visible()
    hand, version = await tab.hand(), await tab.version()
    assert len(hand) == 6, hand
    token = await page.evaluate("localStorage.getItem('klaverjas.token')")
    assert token and TOKEN.fullmatch(token), f"no token in localStorage: {token!r}"

    await page.reload()
    await expect(page.locator("#status")).to_have_attribute("data-state", "open")
    await expect(tab.table).to_be_visible()
    await expect(tab.table).to_have_attribute("data-room-id", room_id)
    await expect(page.locator("#hand button.card")).to_have_count(6)
    assert sorted(await tab.hand()) == sorted(hand)
    assert await tab.version() >= version
    await expect(page.locator("#me")).to_contain_text("rita")
    await expect(page.locator("#hello-form")).to_be_hidden()
    await expect(page.locator("#hand button.card.legal:enabled").first).to_be_visible()

    await tab.play("#result")
    await tab.expect_result_matches(await _finished(site, room_id))
    tab.assert_clean()
