"""A newcomer's flows, tried again as a new player meets them (issue 33, items 5, 6, 14, 15
and 18): the score sheet on a phone, table talk after a reload, the Dutch lobby's word for
the CPUs, leaving a solo game, and the daily game's one attempt. Each at the size where it
was found, asserting what the player sees, with a screenshot of each screen to look at."""

from __future__ import annotations

import pytest
from playwright.async_api import Page, expect

from tests.browser.conftest import Site
from tests.browser.ui import SIZES, Tab, shot
from tests.browser.viewports import outside_viewport

pytestmark = [pytest.mark.browser]

PHONE = SIZES["phone"]
DESKTOP = SIZES["desktop"]

# An element's text fits its box: nothing cut off at its right edge.
FITS = "e => e.scrollWidth <= e.clientWidth"
# How many lines of text an element's own text takes.
LINES = """e => {
    const style = getComputedStyle(e);
    const line = parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.2;
    const inner = e.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom);
    return Math.round(inner / line);
}"""


async def welcomed(open_tab, nickname: str, size: tuple[int, int], path: str = "/") -> Tab:
    """A new player's page, welcomed under ``nickname`` (in any language)."""
    tab: Tab = await open_tab(path, size=size)
    tab.name = nickname
    page = tab.page
    await expect(page.locator("#status")).to_have_attribute("data-state", "open")
    await page.locator("#nickname").fill(nickname)
    await page.locator("#hello-form button[type=submit]").click()
    await expect(page.locator("#me")).to_contain_text(nickname)
    return tab


# -- item 14: the score sheet on a phone ---------------------------------------------------------


async def open_sheet_form(page: Page) -> None:
    await page.locator("#sheet-button").click()
    await expect(page.locator("#sheet-new-form").get_by_role("button")).not_to_have_count(0)


async def test_a_new_sheet_names_the_teams_in_the_pages_language(site: Site, open_tab) -> None:
    """The New score sheet form's team names are the page's words for "we" and "they"."""
    for path, wanted in (("/", ("Us", "Them")), ("/?lang=nl", ("Wij", "Zij"))):
        tab = await welcomed(open_tab, f"ann{len(path)}", PHONE, path)
        page = tab.page
        await page.locator("#sheet-button").click()
        form = page.locator("#sheet-new-form")
        await expect(form.locator("[name=team0]")).to_have_value(wanted[0])
        await expect(form.locator("[name=team1]")).to_have_value(wanted[1])
        tab.assert_clean()
    pt = await welcomed(open_tab, "bia", PHONE, "/?lang=pt")
    await pt.page.locator("#sheet-button").click()
    team0 = await pt.page.locator("#sheet-new-form [name=team0]").input_value()
    assert team0 not in ("Us", "Wij", ""), team0  # Portuguese words, not another language's
    await shot(pt.page, "flows-sheet-new-pt-phone.png")


async def enter_deal(page: Page, playing: int, points: int) -> None:
    await page.locator("#sheet-new-deal").click()
    form = page.locator("#sheet-entry")
    await form.locator(f'[data-set="playing:{playing}"]').click()
    await form.locator('[data-set="side:0"]').click()
    await form.locator("#sheet-points").fill(str(points))
    await form.get_by_role("button", name="Save").click()
    await expect(form).to_be_hidden()


async def test_the_sheet_on_a_phone_fits_and_says_what_undo_did(site: Site, open_tab) -> None:
    """Teams called after their players: the totals' headers keep to one line (the whole
    names in their titles), the five tabs keep to one row, and Undo / Redo say what they
    changed in a status line."""
    ann = await welcomed(open_tab, "ann", PHONE)
    page = ann.page
    await page.locator("#sheet-button").click()
    form = page.locator("#sheet-new-form")
    await form.locator("[name=team0]").fill("")
    await form.locator("[name=team1]").fill("")
    await form.get_by_text("Player names (optional)").click()
    for seat, name in enumerate(("Annemieke", "Bob", "Cornelis", "Dee")):
        await form.locator(f"[name=p{seat}]").fill(name)
    await form.get_by_role("button", name="Make the sheet").click()
    await expect(page.locator("#scoresheet")).to_be_visible()
    await enter_deal(page, playing=0, points=100)  # 100 - 62
    await enter_deal(page, playing=1, points=92)  # Bob & Dee played and got 70: nat, 0 - 162

    heads = page.locator("#sheet-deals thead th")
    await expect(heads).to_have_count(6)
    one_line = await heads.first.evaluate(LINES)
    for i in (1, 2, 4, 5):
        th = heads.nth(i)
        team = "Annemieke & Cornelis" if i in (1, 4) else "Bob & Dee"
        assert await th.evaluate(LINES) == one_line == 1, await th.inner_text()
        assert team in (await th.get_attribute("title") or ""), await th.get_attribute("title")
    table = page.locator("#sheet-deals table")
    inside = "p => p.querySelector('table').getBoundingClientRect().right"
    inside += " <= p.getBoundingClientRect().right"
    assert await page.locator("#sheet-deals").evaluate(inside), "the deals' table sticks out"
    assert not await outside_viewport(table)

    tabs = page.locator("#scoresheet [role=tab]")
    tops = {round((await tabs.nth(i).bounding_box())["y"]) for i in range(5)}
    assert len(tops) == 1, f"the sheet's tabs wrap onto {len(tops)} rows"
    assert not await outside_viewport(tabs)
    for i in range(5):
        assert await tabs.nth(i).evaluate(FITS), await tabs.nth(i).inner_text()

    said = page.locator("#sheet-said")
    await page.locator("#sheet-undo").click()
    await expect(said).to_be_visible()
    await expect(said).to_have_attribute("role", "status")
    await expect(said).to_contain_text("Undone")
    await expect(said).to_contain_text("Deal 2")
    await expect(said).to_contain_text("162")
    await expect(page.locator("#sheet-deals tbody tr")).to_have_count(1)
    assert not await outside_viewport(said)
    await shot(page, "flows-sheet-undone-phone.png")
    await page.locator("#sheet-redo").click()
    await expect(said).to_contain_text("Redone")
    await expect(said).to_contain_text("Deal 2")
    await expect(page.locator("#sheet-deals tbody tr")).to_have_count(2)
    await shot(page, "flows-sheet-phone.png")
    ann.assert_clean()


# -- item 15: table talk and chat after a reload ---------------------------------------------


async def say(page: Page, text: str) -> None:
    count = await page.locator("#chat-log li").count()
    await page.locator("#chat-input").fill(text)
    await page.locator("#chat-input").press("Enter")
    await expect(page.locator("#chat-log li")).to_have_count(count + 1)


async def test_a_reload_brings_back_the_whole_table_talk(site: Site, open_tab) -> None:
    """Three chat lines and a deal and a half of table talk: after a reload the talk of
    every deal so far and every chat line are back, in their order."""
    ann: Tab = await welcomed(open_tab, "ann", DESKTOP)
    page = ann.page
    room_id = await ann.create_room(deals=3)
    for _ in range(3):
        await ann.add_cpu()
    bob = await site.bot("bob")
    await bob.request({"type": "watch", "room_id": room_id}, "snapshot")
    await say(page, "good luck all")
    await bob.send({"type": "chat", "room_id": room_id, "text": "have fun"})
    await expect(page.locator("#chat-log li")).to_have_count(2)
    await ann.ready()
    await ann.expect_dealt()

    async def second_deal_under_way() -> bool:  # the first deal on the sheet, a card played
        return bool(await page.locator("#sheet tr[data-deal]").count()) and (
            await page.locator("#hand button.card").count() < 8
        )

    await ann.play("#result", stop=second_deal_under_way)
    await say(page, "nice deal")
    talk = page.locator("#announce li")
    before = await talk.all_inner_texts()
    for deal in ("Deal 1", "Deal 2"):
        assert any(t.startswith(deal) for t in before), (deal, before)
    chat = await page.locator("#chat-log li").all_inner_texts()
    assert len(chat) == 3, chat

    await page.reload()
    await expect(ann.table).to_have_attribute("data-room-id", room_id)
    await expect(talk.filter(has_text="The match starts")).to_have_count(1)
    after = await talk.all_inner_texts()
    assert after[: len(before)] == before, (before, after)  # (the CPUs may have played on)
    await expect(page.locator("#chat-log li")).to_have_text(chat)
    assert not await outside_viewport(page.locator("#announce"))
    await shot(page, "flows-talk-after-reload.png")
    ann.assert_clean()


# -- item 18: the Dutch lobby says CPU, as everywhere else -------------------------------------


async def test_the_dutch_pages_say_cpu_everywhere(site: Site, open_tab) -> None:
    """The Dutch lobby's New game line, a public table's CPU and its tooltip, and the
    table's CPU badge all say "CPU", never "computer"."""
    owner = await site.bot("bob")
    made = await owner.request({"type": "create_room", "seat": 0}, "snapshot")
    await owner.request({"type": "add_cpu", "room_id": made["room_id"], "seat": 1}, "update")
    tab = await welcomed(open_tab, "anneke", DESKTOP, "/?lang=nl")
    page = tab.page
    choice = page.locator("#new-game-choice")
    await expect(choice).to_contain_text("CPU")
    chip = page.locator("#rooms .chip.cpu")
    await expect(chip).to_have_count(1)
    await expect(chip).to_have_attribute("title", "Een CPU-speler")
    words = await page.evaluate(
        """() => [document.body.innerText,
            ...[...document.querySelectorAll('[title], [aria-label]')].map(
                e => `${e.title || ''} ${e.getAttribute('aria-label') || ''}`)].join(' ')"""
    )
    assert "omputer" not in words, [w for w in words.split("\n") if "omputer" in w]
    await shot(page, "flows-lobby-nl.png")

    await page.locator("#new-game-button").click()
    await expect(page.locator("#table")).to_be_visible()
    badge = page.locator(".seat .badge-cpu").first
    await expect(badge).to_be_visible()
    assert "omputer" not in (await badge.get_attribute("title") or "")
    assert "omputer" not in await page.locator("#table").inner_text()
    tab.assert_clean()


# -- items 5 and 6: a question before a step that cannot be undone -----------------------------


async def expect_question(page: Page, kind: str, size: tuple[int, int]) -> None:
    """``dialog#confirm`` asks (``kind``), whole on the screen, its safe answer focused."""
    dialog = page.locator("#confirm")
    await expect(dialog).to_be_visible()
    await expect(dialog).to_have_attribute("data-kind", kind)
    await expect(dialog.locator('[data-confirm="no"]')).to_be_focused()
    assert not await outside_viewport(dialog), f"the question is not whole on a {size} screen"
    for button in await dialog.locator("button").all():
        assert await button.evaluate(FITS), await button.inner_text()


async def test_ending_a_solo_game_asks_and_really_ends_it(site: Site, open_tab) -> None:
    """In a solo game "Lobby" keeps the game under Your tables; "End game" asks first
    (Enter or Escape keep playing) and then ends it for good: gone from Your tables, also
    after a reload."""
    ann = await welcomed(open_tab, "ann", PHONE)
    page = ann.page
    await page.locator("#new-game-button").click()
    await expect(ann.table).to_have_attribute("data-status", "playing")
    await expect(page.locator("#room-mode")).to_have_attribute("data-mode", "solo")
    room_id = await ann.room_id()
    leave = page.locator("#leave")
    await expect(leave).to_have_text("End game")
    assert "Your tables" in (await page.locator("#to-lobby").get_attribute("title") or "")

    # asked: Enter (on the focused "Keep playing") and Escape both keep the game
    await leave.click()
    await expect_question(page, "resign", PHONE)
    await expect(page.locator("#confirm-body")).to_contain_text("Your tables")
    await shot(page, "flows-end-solo-game-phone.png")
    await page.keyboard.press("Enter")
    await expect(page.locator("#confirm")).to_be_hidden()
    await expect(leave).to_be_focused()
    await leave.click()
    await expect_question(page, "resign", PHONE)
    await page.keyboard.press("Escape")
    await expect(page.locator("#confirm")).to_be_hidden()
    await expect(ann.table).to_have_attribute("data-status", "playing")

    # Lobby: the game waits under Your tables, and opens again where it was
    await page.locator("#to-lobby").click()
    mine = page.locator(f'#my-rooms li[data-my-room-id="{room_id}"]')
    await expect(mine).to_be_visible()
    await expect(mine.locator("button[data-open-room]")).to_have_text("Continue")
    await shot(page, "flows-solo-kept-phone.png")
    await mine.locator("button[data-open-room]").click()
    await expect(ann.table).to_have_attribute("data-room-id", room_id)

    # End game, said yes to: the lobby, and the game is gone for good
    await leave.click()
    await expect_question(page, "resign", PHONE)
    await page.locator('#confirm [data-confirm="yes"]').click()
    await expect(page.locator("#lobby")).to_be_visible()
    await expect(mine).to_have_count(0)
    await page.reload()
    await expect(page.locator("#lobby")).to_be_visible()
    await expect(page.locator("#me")).to_contain_text("ann")
    await expect(ann.table).to_be_hidden()  # nothing to go back to
    await expect(mine).to_have_count(0)
    ann.assert_clean()


async def test_the_daily_game_asks_before_its_one_attempt(site: Site, open_tab) -> None:
    """ "Daily game" says first that it is the day's one attempt and that an absent player's
    game waits; "Not now" starts nothing; once started, going on does not ask again."""
    ann = await welcomed(open_tab, "ann", DESKTOP)
    page = ann.page
    daily = page.locator("#daily-button")
    await daily.click()
    await expect_question(page, "daily", DESKTOP)
    body = page.locator("#confirm-body")
    await expect(body).to_contain_text("one attempt a day")
    await expect(body).to_contain_text("waits for you")
    await shot(page, "flows-daily-question.png")
    await page.locator('#confirm [data-confirm="no"]').click()
    await expect(page.locator("#confirm")).to_be_hidden()
    await expect(daily).to_be_focused()
    await page.reload()  # nothing was started: the page has no game to go back to
    await expect(page.locator("#me")).to_contain_text("ann")
    await expect(page.locator("#lobby")).to_be_visible()
    await expect(page.locator("#my-rooms li")).to_have_count(0)
    await expect(daily).to_have_text("Daily game")

    await daily.click()
    await expect_question(page, "daily", DESKTOP)
    await page.locator('#confirm [data-confirm="yes"]').click()
    await expect(page.locator("#room-mode")).to_have_attribute("data-mode", "daily")
    room_id = await ann.room_id()
    await expect(page.locator("#leave")).to_be_hidden()  # only Lobby: the game waits
    await page.locator("#to-lobby").click()
    await expect(daily).to_have_text("Continue the daily game")
    await daily.click()  # under way: no question
    await expect(ann.table).to_have_attribute("data-room-id", room_id)
    await expect(page.locator("#confirm")).to_be_hidden()
    ann.assert_clean()
