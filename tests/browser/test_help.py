"""Rules and tips in the page (issue 14, item 7): a rules page reachable from every
screen (a dialog: focus kept inside, Escape closes it and gives the focus back), and the
strategy tips at the moment they matter, dismissible, switched off for good and back on."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.async_api import Page, expect

from tests.browser.conftest import Site
from tests.browser.ui import DECISIONS, SIZES, Tab, shot

pytestmark = pytest.mark.browser

SECTIONS = {
    "rules-game": ["32 cards", "three, then two, then three"],
    "rules-cards": ["162"],
    "rules-trump": ["Bidding", "The dealer names it", "first player names it", "turned-up card"],
    "rules-play": ["Amsterdam", "Rotterdam", "even over your partner"],
    "rules-roem": ["20", "50", "200", "Stuk", "king and queen of trump"],
    "rules-score": ["Nat", "Pit", "100"],
    "rules-end": ["1500", "1001", "16", "Equal totals"],
    "rules-tips": ["jack", "Pulling trumps", "Loading", "Denying roem"],
}


async def in_view(page: Page, selector: str) -> bool:
    box = await page.locator(selector).bounding_box()
    size = page.viewport_size
    assert box is not None and size is not None, selector
    return (
        box["x"] >= 0 and box["y"] >= 0
        and box["x"] + box["width"] <= size["width"] and box["y"] + box["height"] <= size["height"]
    )  # fmt: skip


async def focus_stays_in(page: Page, selector: str, presses: int = 40) -> None:
    for _ in range(presses):
        await page.keyboard.press("Tab")
        inside = await page.evaluate(
            "(sel) => document.querySelector(sel).contains(document.activeElement)", selector
        )
        assert inside, f"Tab left {selector}"


async def read_rules(page: Page) -> None:
    """Open the rules from the top bar, check them, and close them with Escape."""
    button = page.locator("#rules-button")
    await expect(button).to_be_visible()
    assert await in_view(page, "#rules-button"), "the Rules button is off screen"
    await button.focus()
    await page.keyboard.press("Enter")
    rules = page.locator("#rules")
    await expect(rules).to_be_visible()
    await expect(page.locator("#rules-close")).to_be_focused()
    await page.keyboard.press("Escape")
    await expect(rules).to_be_hidden()
    await expect(button).to_be_focused()


@pytest.mark.parametrize("size", SIZES)
async def test_the_rules_from_every_screen(site: Site, open_tab, size: str) -> None:
    tab: Tab = await open_tab(size=SIZES[size])
    page = tab.page
    await expect(page.locator("#hello-form")).to_be_visible()
    await page.locator("#rules-button").click()
    rules = page.locator("#rules")
    await expect(rules).to_be_visible()
    await expect(rules.locator("#rules-title")).to_have_text("How to play Klaverjas")
    for section, words in SECTIONS.items():
        part = rules.locator(f"#{section}")
        await expect(part.locator("h3")).to_be_visible()
        for word in words:
            await expect(part).to_contain_text(word)
    table = rules.locator("table.rules-cards tbody tr")
    await expect(table).to_have_count(8)
    await expect(table.first).to_contain_text("J")
    await expect(table.first).to_contain_text("20")
    await shot(page, f"rules-{size}.png")
    # the contents lead to each section
    await rules.locator('.rules-contents a[href="#rules-roem"]').click()
    await expect(rules.locator("#rules-roem h3")).to_be_in_viewport()
    await focus_stays_in(page, "#rules")
    await rules.locator("#rules-close").click()
    await expect(rules).to_be_hidden()

    await tab.hello("ann")
    await read_rules(page)  # the lobby
    await page.locator("#boards-button").click()
    await expect(page.locator("#boards")).to_be_visible()
    await read_rules(page)
    await page.locator("#boards button[data-go=lobby]").click()
    await page.locator("#tournaments-empty, #tournaments li").first.wait_for()
    await page.locator("#me").click()
    await expect(page.locator("#profile")).to_be_visible()
    await read_rules(page)
    await page.locator("#profile button[data-profile-back]").click()
    await page.locator("#new-game-rules").click()  # the dialog, then Play
    await page.locator("#new-game-form button[type=submit]").click()
    await expect(tab.table).to_have_attribute("data-status", "playing")
    await read_rules(page)
    await expect(tab.table).to_be_visible()  # the table stays behind the rules
    # a link to the rules opens them
    await page.goto(site.url + "#rules")
    await expect(rules).to_be_visible()
    tab.assert_clean()


TIP_CASES: list[tuple[str, dict[str, Any], str | None]] = [
    # (what, the model's view and legal actions (seat 0), the tip)
    ("choosing, pass allowed", {"phase": "trump", "legal": ["pass", "trump:h"]}, "trump"),
    ("choosing, must name", {"phase": "trump", "legal": ["trump:h", "trump:s"]}, "trumpMust"),
    ("we lead, we named it", {"chooser": 2, "hand": ["Jc", "Ah"], "legal": ["Jc", "Ah"]}, "pull"),
    ("we lead, they named it", {"chooser": 1, "hand": ["Jc", "Ah"], "legal": ["Jc", "Ah"]}, None),
    ("leading, no trump out", {
        "chooser": 0, "hand": ["Jc", "Ah"], "legal": ["Jc", "Ah"],
        "tricks": [{"cards": ["9c", "Ac", "Tc", "Kc"]}, {"cards": ["Qc", "8c", "7c", "7d"]}],
    }, None),
    ("partner wins, I play last", {
        "leader": 1, "trick": ["7h", "Ah", "8h"], "hand": ["Th", "Ks"], "legal": ["Th"],
    }, "load"),
    ("partner wins, an opponent may still trump it", {
        "leader": 2, "trick": ["Ah", "8h"], "hand": ["Th", "Ks"], "legal": ["Th"],
    }, None),
    ("partner wins with the top trump, nothing to add", {
        "leader": 1, "trick": ["7c", "Jc", "8c"], "hand": ["9d", "8s"], "legal": ["9d", "8s"],
    }, None),
    ("they win, a card of mine would make their run", {
        "leader": 2, "trick": ["9h", "Th"], "hand": ["8h", "Kh"], "legal": ["8h", "Kh"],
    }, "deny"),
    ("they win, no roem in my cards", {
        "leader": 2, "trick": ["9h", "Th"], "hand": ["7h", "Kh"], "legal": ["7h", "Kh"],
    }, None),
]  # fmt: skip


async def test_a_link_to_the_rules_right_after_closing_them_opens_them(open_tab) -> None:
    tab: Tab = await open_tab()
    page = tab.page
    await page.locator("#rules-button").click()
    await expect(page.locator("#rules")).to_be_visible()
    # the rules are opened by a link to them before their close has been handled (a
    # close that, when handled, takes '#rules' off the address)
    await page.evaluate(
        "() => { document.querySelector('#rules').close(); window.location.hash = '#rules'; }"
    )
    await expect(page.locator("#rules")).to_be_visible()
    tab.assert_clean()


async def test_when_each_tip_is_shown(site: Site, open_tab) -> None:
    tab: Tab = await open_tab()
    await expect(tab.page.locator("#hello-form")).to_be_visible()
    # the tips weigh cards by the server's tables (GET /rules): once they came
    await tab.page.evaluate("async () => (await import('/web/catalog.js')).loadCatalog()")
    for what, case, wanted in TIP_CASES:
        view = {
            "phase": "play", "trump": "c", "chooser": 0, "leader": 0, "trick": [], "tricks": [],
            "hand": [], **{k: v for k, v in case.items() if k != "legal"},
        }  # fmt: skip
        if view["phase"] == "trump":
            view["trump"] = None
        model = {
            "seat": 0, "view": view, "legal": case["legal"], "result": None,
            "room": {"status": "playing", "hints": True},
        }  # fmt: skip
        got = await tab.page.evaluate(
            "async (m) => (await import('/web/tips.js')).tipFor(m)", model
        )
        assert got == wanted, what
        no_hints = {**model, "room": {"status": "playing", "hints": False}}
        quiet = await tab.page.evaluate(
            "async (m) => (await import('/web/tips.js')).tipFor(m)", no_hints
        )
        assert quiet is None, f"{what}, in a game without hints"


@pytest.fixture
def site_settings() -> dict[str, Any]:
    return {"cpu_delay": 0.3}


@pytest.mark.parametrize("size", SIZES)
async def test_a_tip_at_the_trump_choice_hidden_switched_off_and_on(
    site: Site, open_tab, size: str
) -> None:
    tab: Tab = await open_tab(size=SIZES[size])
    page = tab.page
    await tab.hello("ann")
    await tab.solo_naming_trump()
    tip = page.locator("#tip")
    await expect(tip).to_be_visible()
    await expect(tip).to_have_attribute("data-tip", "trumpMust")
    await expect(tip).to_contain_text("jack")
    assert await in_view(page, "#tip"), "the tip is off screen"
    await shot(page, f"tip-{size}.png")
    # hidden: gone for this kind of moment at this table
    await tip.locator("button[data-tip-hide]").click()
    await expect(tip).to_be_hidden()
    await page.reload()
    await expect(page.locator("#bids button[data-action]").first).to_be_visible()
    await expect(tip).to_have_attribute("data-tip", "trumpMust")  # a new page: shown again
    # switched off: remembered
    await tip.locator("button[data-tips-off]").click()
    await expect(tip).to_be_hidden()
    await page.reload()
    await expect(page.locator("#bids button[data-action]").first).to_be_visible()
    await expect(tip).to_be_hidden()
    # and on again from the rules page
    await page.locator("#rules-button").click()
    switch = page.locator("#tips-on")
    await expect(switch).not_to_be_checked()
    await switch.check()
    await page.keyboard.press("Escape")
    await expect(tip).to_be_visible()
    # the tips follow the play: whatever shows is for the decision on screen
    await page.locator(DECISIONS).first.click()
    await expect(page.locator("#tip:visible[data-tip^=trump]")).to_have_count(0)
    tab.assert_clean()
