"""Accessibility (issues 14 and 33): axe-core finds no serious or critical violation on the
lobby, the create-table form, the rules page, a table during play, at a deal's end and at
the match's end, the tournament view and the daily board, at both sizes; the focus goes to
the table's heading as you enter it and to the result at the match's end; every control of
the lobby is reached by the keyboard and shows where the focus is; dialogs keep the focus
inside and close with Escape."""

from __future__ import annotations

import time
from typing import Any

import pytest
from playwright.async_api import Page, expect

from tests.browser.axe import audit, report
from tests.browser.conftest import Site
from tests.browser.test_daily import DAY, play_daily
from tests.browser.test_profiles import start_solo
from tests.browser.ui import DECISIONS, SIZES, Tab, shot

pytestmark = pytest.mark.browser


@pytest.fixture
def site_settings() -> dict[str, Any]:
    # (yesterday's results shown from midnight: see tests/browser/test_daily.py)
    return {"quick_when_full": True, "daily_deals": 1, "daily_grace": 0.0}


class Audit:
    """Every screen's serious and critical violations, reported together at the end."""

    def __init__(self, tab: Tab) -> None:
        self.tab = tab
        self.found: list[str] = []

    async def __call__(self, what: str, within: str | None = None) -> None:
        violations = await audit(self.tab.page, within)
        if violations:
            self.found.append(f"{what}:\n{report(violations)}")

    def assert_clean(self) -> None:
        assert not self.found, "\n".join(self.found)


@pytest.mark.parametrize("size", SIZES)
async def test_no_serious_violation_on_any_screen(
    site: Site, open_tab, size: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # yesterday's daily game, played by someone: a board with rows and revealed hands
    monkeypatch.setattr(site.server.clock, "wall", lambda: time.time() - DAY)
    await play_daily(await site.bot("dora"))
    monkeypatch.undo()

    tab: Tab = await open_tab(size=SIZES[size], bypass_csp=True)
    page = tab.page
    clean = Audit(tab)
    await expect(page.locator("#hello-form")).to_be_visible()
    await clean("the nickname screen")
    await tab.hello("ann")
    await expect(page.locator("#tournaments li[data-tournament-id]")).to_have_count(1)
    await expect(page.locator("#create-room button[type=submit]")).to_be_enabled()
    await clean("the lobby")
    await clean("the create-table form", "#create-room")
    await page.locator("#create-room select[name=trump_mode]").select_option("turned")
    await expect(page.locator("#create-room select[name=preset]")).to_have_value("custom")
    await clean("the create-table form, custom", "#create-room")
    await page.locator("#rules-button").click()
    await expect(page.locator("#rules")).to_be_visible()
    await clean("the rules page")
    await page.keyboard.press("Escape")

    await page.locator("#tournaments button[data-open-tournament]").click()
    await expect(page.locator("#tournament")).to_have_attribute("data-status", "scheduled")
    await clean("the tournament view")
    await page.locator("#tournament button[data-go=lobby]").click()

    await page.locator("#boards-button").click()
    await page.locator('#boards .day-nav [data-board-day="prev"]').click()
    await expect(page.locator("#board-body")).to_have_attribute("data-state", "board")
    await clean("the daily board")
    await page.locator("#boards button[data-go=lobby]").click()

    await page.locator("#new-game-rules").click()  # the dialog, then Play
    await page.locator("#new-game-form button[type=submit]").click()
    await expect(tab.table).to_have_attribute("data-status", "playing")
    await expect(page.locator("#hand button.card")).to_have_count(8)
    await expect(page.locator("#trick .played, #bids button").first).to_be_visible()
    await clean("a table mid-deal")
    clean.assert_clean()
    tab.assert_clean()


# the room pauses between deals until the player continues (the end-of-deal panel stays up)
@pytest.mark.parametrize("site_settings", [{"deal_pause": 30.0}])
@pytest.mark.parametrize("size", SIZES)
async def test_the_table_from_its_first_card_to_the_match_end(
    site: Site, open_tab, size: str, site_settings: dict[str, Any]
) -> None:
    """During play, at a deal's end and at the match's end, on both screens: no serious
    or critical violation, and the focus where the player is (never left on the body)."""
    tab: Tab = await open_tab(size=SIZES[size], bypass_csp=True)
    page = tab.page
    clean = Audit(tab)
    await tab.hello("ann")
    await start_solo(tab, 2)
    await expect(page.locator("#table-title")).to_be_focused()  # entering: the table's name
    await expect(page.locator("#table-title")).to_have_text("ann's game")
    await expect(page.locator(DECISIONS).first).to_be_visible(timeout=30_000)
    await clean("the table during play")
    await tab.play(until="#deal-end")
    await expect(page.locator("#continue")).to_be_enabled()
    await clean("the table at a deal's end")
    await shot(page, f"a11y-deal-end-{size}.png")
    await page.locator("#continue").click()
    await tab.play(until="#result")
    await expect(page.locator("#result-title")).to_be_focused()  # the match's end: its result
    await clean("the table at the match's end")
    await shot(page, f"a11y-match-end-{size}.png")
    clean.assert_clean()
    tab.assert_clean()


# Everything the keyboard can reach, in the page's order, and how the focus shows there.
CONTROLS = """() => [...document.querySelectorAll(
        'a[href], button, input:not([type=hidden]), select, textarea, summary')]
    .filter(e => !e.disabled && e.getClientRects().length && !e.closest('dialog:not([open])')
        && getComputedStyle(e).visibility !== 'hidden')
    .map(e => e.id || e.getAttribute('data-key') || e.outerHTML.slice(0, 90))"""
FOCUSED = """() => {
    const e = document.activeElement;
    if (!e || e === document.body) return null;
    const s = getComputedStyle(e);
    const ring = (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0)
        || s.boxShadow !== 'none';
    return { id: e.id || e.getAttribute('data-key') || e.outerHTML.slice(0, 90), ring };
}"""


async def walk(page: Page, wanted: list[str]) -> list[str]:
    """Tab through the page from the top: the controls of ``wanted`` never reached, and
    those reached without a visible focus ring."""
    await page.evaluate("() => document.activeElement && document.activeElement.blur()")
    reached: set[str] = set()
    bare: list[str] = []
    for _ in range(len(wanted) * 2 + 10):
        await page.keyboard.press("Tab")
        now = await page.evaluate(FOCUSED)
        if now is None:
            continue
        reached.add(now["id"])
        if not now["ring"]:
            bare.append(now["id"])
    return [w for w in wanted if w not in reached] + [f"no focus ring: {b}" for b in bare]


@pytest.mark.parametrize("size", SIZES)
async def test_every_control_by_keyboard_with_a_visible_focus(
    site: Site, open_tab, size: str
) -> None:
    tab: Tab = await open_tab(size=SIZES[size])
    page = tab.page
    await tab.hello("ann")
    await expect(page.locator("#create-room button[type=submit]")).to_be_enabled()
    await expect(page.locator("#tournaments li[data-tournament-id]")).to_have_count(1)
    controls = await page.evaluate(CONTROLS)
    assert len(controls) > 15, controls
    assert await walk(page, controls) == [], "the lobby"

    # a dialog keeps the keyboard, and Escape closes it
    await page.locator("#new-game-rules").focus()
    await page.keyboard.press("Enter")
    dialog = page.locator("#new-game")
    await expect(dialog).to_be_visible()
    for _ in range(20):
        await page.keyboard.press("Tab")
        inside = await page.evaluate("() => !!document.activeElement.closest('#new-game')")
        assert inside, "Tab left the New game dialog"
    await page.keyboard.press("Escape")
    await expect(dialog).to_be_hidden()

    # at a table mid-deal: every card and button, by keyboard
    await page.locator("#new-game-rules").click()  # the dialog, then Play
    await page.locator("#new-game-form button[type=submit]").click()
    await expect(tab.table).to_have_attribute("data-status", "playing")
    await expect(page.locator("#hand button.card")).to_have_count(8)
    mine = page.locator("#hand button.card:enabled, #bids button")
    await expect(mine.first).to_be_visible(timeout=30_000)
    controls = await page.evaluate(CONTROLS)
    missing = await walk(page, controls)
    # the table moves on while we walk: only what is still there counts
    still = await page.evaluate(CONTROLS)
    assert [m for m in missing if m.removeprefix("no focus ring: ") in still] == [], "the table"
    tab.assert_clean()
