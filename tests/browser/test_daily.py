"""Solo games and the daily game in the page (issue 12): the lobby's New game with its
remembered rules, a daily game played to the end and its board, a past day's revealed
deals, and the all-time board."""

from __future__ import annotations

import asyncio
import re
import time
from typing import Any

import pytest
from playwright.async_api import expect

from client import GameClient
from server.daily.days import day_of
from tests.browser.conftest import Site
from tests.browser.ui import DECISIONS, SCREENSHOTS, Tab, expect_numbers, whole_numbers

pytestmark = [pytest.mark.browser, pytest.mark.daily]

DAY = 86_400.0


@pytest.fixture
def site_settings() -> dict[str, Any]:
    # A daily game of one deal (the deals are the point); yesterday's results shown from
    # midnight rather than two hours after it, so that the tests that play yesterday's game
    # find its board revealed whatever the time of day.
    return {"daily_deals": 1, "daily_grace": 0.0}


async def play_daily(client: GameClient, pick=lambda legal: legal[0]) -> dict[str, Any]:
    """``client``'s daily game, played to the end (its first legal action each time, or
    the one ``pick`` chooses); the snapshot it started from."""
    snap = await client.request({"type": "daily_start"}, "snapshot")
    assert snap["type"] == "snapshot", snap
    room_id = snap["room_id"]
    table = client.tables[room_id]
    async with asyncio.timeout(60):
        while not table.over:
            if table.legal and table.turn == table.seat:
                action, table.legal = pick(table.legal), []
                await client.send({"type": "act", "room_id": room_id, "action": action})
            await asyncio.sleep(0.01)
    return snap


async def shot(tab: Tab, name: str) -> None:
    await tab.page.screenshot(path=str(SCREENSHOTS / name), full_page=True, animations="disabled")


async def options(select) -> list[str]:
    return await select.locator("option").evaluate_all("(els) => els.map((o) => o.value)")


async def test_new_game_is_one_click_and_remembers_the_rules(site: Site, open_tab) -> None:
    catalog = await site.get_json("/rules")
    tab: Tab = await open_tab()
    await tab.hello("ann")
    page = tab.page
    dialog = page.locator("#new-game")
    form = page.locator("#new-game-form")
    level = form.locator("select[name=level]")
    end, end_value = form.locator("select[name=end]"), form.locator("input[name=end_value]")
    choice = page.locator("#new-game-choice")

    # one click: a game at once, on the defaults (strong CPUs, Amsterdam, 16 deals)
    await expect(choice).to_have_text("Strong CPUs · Amsterdam · 16 deals")
    await shot(tab, "lobby-new-game.png")
    await page.locator("#new-game-button").click()
    await expect(dialog).to_be_hidden()
    await expect(tab.table).to_be_visible()
    await expect(tab.table).to_have_attribute("data-status", "playing")
    first = await tab.room_id()
    await expect(page.locator('.seat[data-level="strong"]')).to_have_count(3)
    await expect(page.locator("#room-mode")).to_have_attribute("data-mode", "solo")
    await expect(page.locator("#room-rules")).to_contain_text("16 deals")
    await page.locator("#to-lobby").click()

    # "Change rules": the form, the server's levels and default level, 16 deals to start with
    await page.locator("#new-game-rules").click()
    await expect(dialog).to_be_visible()
    play = form.get_by_role("button", name="Play")
    await expect(play).to_be_enabled()
    assert await options(level) == catalog["cpu"]["levels"]
    await expect(level).to_have_value(catalog["cpu"]["default"])
    await expect(level).to_be_focused()
    await expect(end).to_have_value("deals")
    await expect(end_value).to_have_value(str(catalog["options"]["deals"]["default"]))
    # Escape closes it; nothing is sent
    await page.keyboard.press("Escape")
    await expect(dialog).to_be_hidden()
    await expect(page.locator("#lobby")).to_be_visible()

    await page.locator("#new-game-rules").click()
    await level.select_option("heuristic")
    await form.locator("select[name=preset]").select_option("rotterdam")
    await expect(form.locator("select[name=variant]")).to_have_value("rotterdam")
    await expect(end).to_have_value("deals")  # a preset leaves the length alone
    await end_value.fill("1")
    await form.locator("input[name=move_seconds]").fill("120")
    await shot(tab, "new-game.png")
    await play.click()  # the table opens, started

    await expect(dialog).to_be_hidden()
    await expect(tab.table).to_be_visible()
    await expect(tab.table).not_to_have_attribute("data-room-id", first)  # a new table
    await expect(tab.table).to_have_attribute("data-status", "playing")
    room_id = await tab.room_id()
    await expect(page.locator(".seat .badge-cpu")).to_have_count(3)
    await expect(page.locator('.seat[data-level="heuristic"]')).to_have_count(3)
    await expect(page.locator('.seat[data-pos="bottom"] .badge-you')).to_be_visible()
    await expect(page.locator("#room-mode")).to_contain_text("Solo game")
    await expect(page.locator("#room-rules")).to_contain_text("Rotterdam")
    await expect(page.locator("#room-rules")).to_contain_text("1 deal")
    await expect(page.locator(".chat-panel")).to_be_hidden()  # nobody to talk to
    await tab.expect_dealt()
    await shot(tab, "solo-table.png")

    # after a reload the page goes back to a game of its own; in the lobby New game names
    # the rules last chosen, and one click starts a game on them
    mine = re.compile(f"^({first}|{room_id})$")
    await page.reload()
    await expect(tab.table).to_be_visible()
    await expect(tab.table).to_have_attribute("data-room-id", mine)
    await page.locator("#to-lobby").click()
    await expect(page.locator("#my-rooms li[data-my-room-id]")).to_have_count(2)
    await expect(choice).to_have_text("Easy CPUs · Rotterdam · 1 deal")
    await page.locator("#new-game-button").dblclick()  # a double click starts one game
    await expect(tab.table).to_be_visible()
    await expect(tab.table).not_to_have_attribute("data-room-id", mine)
    await expect(page.locator('.seat[data-level="heuristic"]')).to_have_count(3)
    await expect(page.locator("#room-rules")).to_contain_text("Rotterdam")
    await expect(page.locator("#room-rules")).to_contain_text("1 deal")
    await page.locator("#to-lobby").click()
    await expect(page.locator("#my-rooms li[data-my-room-id]")).to_have_count(3)


async def test_the_daily_game_to_the_end_then_its_board(site: Site, open_tab) -> None:
    dora = await site.bot("dora")
    await play_daily(dora)  # someone else on today's board
    today = day_of(time.time())

    tab: Tab = await open_tab()
    await tab.hello("ann")
    page = tab.page
    body = page.locator("#board-body")

    # today's board waits until you have played: the page says so and offers the game
    await page.locator("#boards-button").click()
    await expect(page.locator("#boards")).to_be_visible()
    await expect(body).to_have_attribute("data-state", "daily_not_finished")
    await expect(body).to_contain_text("once you have finished today")
    await body.locator("button[data-play-daily]").click()
    await page.locator('#confirm[data-kind="daily"] [data-confirm="yes"]').click()  # one attempt

    await expect(tab.table).to_be_visible()
    await expect(page.locator("#room-mode")).to_have_attribute("data-mode", "daily")
    await expect(page.locator("#room-name")).to_have_text(f"Daily game {today}")
    await expect(page.locator(DECISIONS).first).to_be_visible(timeout=30_000)
    await expect(page.locator("#hint")).to_be_hidden()  # no hints in the daily game
    await tab.play(until="#result", seconds=120)
    total = whole_numbers(await page.locator('#totals [data-team="0"] .team-total').inner_text())
    assert len(total) == 1

    see = page.locator("#result button[data-open-boards]")
    await expect(see).to_have_text("See today\u2019s board")
    # no rematch of the daily game, and no review before its day is over
    await expect(page.locator("#result button[data-rematch]")).to_have_count(0)
    await expect(page.locator("#result button[data-review-match]")).to_have_count(0)
    await shot(tab, "daily-result.png")
    await see.click()
    await expect(page.locator("#boards")).to_be_visible()
    await expect(body).to_have_attribute("data-state", "board")
    await expect(body).to_have_attribute("data-date", today)
    await expect(page.locator("#board-table tbody tr")).to_have_count(2)
    mine = page.locator("#board-table tbody tr.you")
    await expect(mine).to_have_count(1)
    await expect(mine).to_have_attribute("aria-current", "true")
    await expect(mine.locator("th")).to_contain_text("ann")
    await expect_numbers(mine.locator(".total"), total)
    other = page.locator("#board-table tbody tr:not(.you)")
    await expect(other).to_have_attribute("data-player-id", dora.player_id)
    await expect_numbers(page.locator("#board-you"), total)
    await expect(page.locator("#board-streak")).to_contain_text("1 day")
    # today's field, deal by deal; no hands before the day is over
    await expect(page.locator("#board-deals .deal[data-deal]")).to_have_count(1)
    await expect(page.locator("#board-deals details")).to_have_count(0)
    await expect(page.locator('#boards [data-board-day="next"]')).to_be_disabled()
    await shot(tab, "daily-board.png")

    # a second daily game today: refused, said plainly, with the board on offer
    await page.locator("#boards button[data-go=lobby]").click()
    await page.locator("#daily-button").click()
    note = page.locator("#daily-note")
    await expect(note).to_be_visible()
    await expect(note).to_contain_text("You have played today\u2019s daily game")
    await expect(page.locator("#lobby")).to_be_visible()
    await shot(tab, "daily-played.png")
    await note.locator("button[data-open-boards]").click()
    await expect(body).to_have_attribute("data-state", "board")
    await expect(mine).to_have_count(1)
    tab.assert_clean()


async def test_a_past_day_shows_its_deals_and_an_empty_day_says_so(
    site: Site, open_tab, monkeypatch: pytest.MonkeyPatch
) -> None:
    # yesterday's daily game: the server's clock a day back while dora plays it
    monkeypatch.setattr(site.server.clock, "wall", lambda: time.time() - DAY)
    dora = await site.bot("dora")
    snap = await play_daily(dora)
    monkeypatch.undo()
    yesterday, today = snap["room"]["name"].split()[-1], day_of(time.time())
    assert yesterday == day_of(time.time() - DAY)
    total = dora.tables[snap["room_id"]].room["totals"][0]

    tab: Tab = await open_tab()
    await tab.hello("ann")
    page = tab.page
    body = page.locator("#board-body")
    await page.locator("#boards-button").click()
    await expect(body).to_have_attribute("data-state", "daily_not_finished")
    await body.locator('button[data-board-day="prev"]').click()  # "See yesterday's board"

    await expect(body).to_have_attribute("data-state", "board")
    await expect(body).to_have_attribute("data-date", yesterday)
    await expect(page.locator("#board-date")).to_have_value(yesterday)
    rows = page.locator("#board-table tbody tr")
    await expect(rows).to_have_count(1)
    await expect(rows).to_have_attribute("data-player-id", dora.player_id)
    await expect(page.locator("#board-table tbody tr.you")).to_have_count(0)
    await expect(body).to_contain_text("You did not play this daily game")
    await expect(page.locator("#board-best")).to_contain_text("dora")

    # the deal as dealt: four hands, dora's (seat 0) the one she was dealt
    deal = page.locator('#board-deals .deal[data-deal="0"]')
    await expect_numbers(deal.locator(".deal-best"), [total])
    hands = deal.locator(".hand-line")
    await expect(hands.first).to_be_hidden()
    await deal.locator("summary").click()
    await expect(hands).to_have_count(4)
    await expect(hands.first).to_be_visible()
    dealt = [set((await hand.get_attribute("data-cards")).split()) for hand in await hands.all()]
    assert dealt[0] == set(snap["view"]["hand"])
    assert all(len(cards) == 8 for cards in dealt) and len(set().union(*dealt)) == 32
    await expect(deal.locator(".hand-line .dealer-mark")).to_have_count(1)
    await shot(tab, "daily-past-day.png")
    await page.locator('#boards [data-board-view="day"]').click()  # redrawn: still open
    await expect(hands.first).to_be_visible()

    # the day before: nobody played
    await page.locator('#boards .day-nav [data-board-day="prev"]').click()
    await expect(body).to_have_attribute("data-state", "empty")
    await expect(body).to_have_attribute("data-date", day_of(time.time() - 2 * DAY))
    await expect(body).to_contain_text("Nobody finished the daily game")
    # a day to come: refused, with the way back to today
    await page.locator("#board-date").fill("2999-01-01")
    await expect(body).to_have_attribute("data-state", "no_such_day")
    await expect(body).to_contain_text("has not come yet")
    await body.locator('button[data-board-day="today"]').click()
    await expect(body).to_have_attribute("data-state", "daily_not_finished")
    await expect(page.locator("#board-date")).to_have_value(today)
    await expect(page.locator('#boards .day-nav [data-board-day="next"]')).to_be_disabled()

    # the all-time board: its rule stated, nobody on it yet; arrow keys move between tabs
    alltime = page.locator('#boards [role="tab"][data-board-view="alltime"]')
    await alltime.click()
    await expect(alltime).to_have_attribute("aria-selected", "true")
    all_body = page.locator("#alltime-body")
    await expect(all_body).to_have_attribute("data-state", "empty")
    await expect(page.locator("#alltime-rule")).to_have_attribute("data-min-days", "5")
    await expect(page.locator("#alltime-rule")).to_contain_text("at least 5 daily games")
    await page.keyboard.press("ArrowLeft")
    await expect(page.locator('#boards [role="tab"][data-board-view="day"]')).to_be_focused()
    await expect(page.locator("#board-day")).to_be_visible()
    await expect(all_body).to_be_hidden()
    tab.assert_clean()


async def test_a_long_board_comes_in_pages(
    site: Site, open_tab, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(site.server.clock, "wall", lambda: time.time() - DAY)  # yesterday
    players = [await site.bot(f"p{n:02}") for n in range(21)]
    await asyncio.gather(*(play_daily(player) for player in players))
    monkeypatch.undo()

    tab: Tab = await open_tab()
    await tab.hello("ann")
    page = tab.page
    body = page.locator("#board-body")
    await page.locator("#boards-button").click()
    await expect(body).to_have_attribute("data-state", "daily_not_finished")
    await page.locator('#boards .day-nav [data-board-day="prev"]').click()
    await expect(body).to_have_attribute("data-state", "board")
    rows = page.locator("#board-table tbody tr")
    await expect(rows).to_have_count(20)
    pager = page.locator("#board-body .pager")
    await expect(pager).to_contain_text("1\u201320 of 21")
    await expect(pager.locator('[data-board-page="prev"]')).to_be_disabled()
    await pager.locator('[data-board-page="next"]').click()
    await expect(rows).to_have_count(1)
    await expect(pager).to_contain_text("21 of 21")
    await expect(pager.locator('[data-board-page="next"]')).to_be_disabled()
    rank = int(await rows.get_attribute("data-rank") or 0)
    assert 1 <= rank <= 21
    await pager.locator('[data-board-page="prev"]').click()
    await expect(rows).to_have_count(20)
    tab.assert_clean()
