"""The daily board deal by deal, as its player sees it (issue 33, item 11): each deal shows
your own points and their difference from the field's mean, beside the field's mean, in
view and not cut off, on the desktop and on a phone."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.async_api import expect

from client import GameClient
from tests.browser.conftest import Site
from tests.browser.test_daily import play_daily
from tests.browser.ui import Tab, shot
from tests.browser.viewports import SIZES, outside_viewport, tag
from tests.server.test_daily_board_deals import deal_scores

pytestmark = [pytest.mark.browser, pytest.mark.daily]

DEALS = 3


@pytest.fixture
def site_settings() -> dict[str, Any]:
    return {"daily_deals": DEALS}


async def played(
    site: Site, nickname: str, pick=lambda legal: legal[0]
) -> tuple[GameClient, list[int]]:
    """``nickname``'s daily game played to its end; its team's score in each deal."""
    client = await site.bot(nickname)
    client.keep = True
    snap = await play_daily(client, pick)  # (the last update holds the last deal's end)
    return client, deal_scores(client, snap["room_id"])


MINUS = "\u2212"  # the page's minus sign


def signed(x: float) -> str:
    """A difference as the English page writes it: "+21.0", "\u22123.5", "\u00b10.0"."""
    text = f"{abs(x):.1f}"
    return f"+{text}" if x > 0 else f"{MINUS}{text}" if x < 0 else f"\u00b1{text}"


# Each element under the root wider than its own box (its text cut off).
CUT = """root => [...root.querySelectorAll('.deal-head, .deal-head > span')]
    .filter(e => e.scrollWidth > e.clientWidth + 0.5 || e.getBoundingClientRect().right
        > root.getBoundingClientRect().right + 0.5)
    .map(e => `${e.className} "${e.innerText}": ${e.scrollWidth} > ${e.clientWidth}`)"""


# A deal's number, your points, the field's mean and your difference side by side.
ONE_LINE = """li => {
    const tops = [...li.querySelectorAll('.deal-no, .deal-you, .deal-mean, .deal-diff')]
        .map(e => e.getBoundingClientRect().top);
    return Math.max(...tops) - Math.min(...tops) < 4;
}"""


WIDEST = """li => {
    const copy = li.cloneNode(true);
    li.after(copy);
    const set = (sel, text) => { copy.querySelector(sel).firstChild.nodeValue = text; };
    set('.deal-no', 'Deal 16');
    set('.deal-you', 'you 282');
    set('.deal-mean', 'field 281.5');
    set('.deal-diff', '\u2212281.5');
    const tops = [...copy.querySelectorAll('.deal-no, .deal-you, .deal-mean, .deal-diff')]
        .map(e => e.getBoundingClientRect().top);
    const fits = Math.max(...tops) - Math.min(...tops) < 4;
    copy.remove();
    return fits;
}"""


@SIZES
async def test_each_deal_shows_your_points_and_difference(
    site: Site, open_tab, size: dict[str, int]
) -> None:
    ann, mine = await played(site, "ann")
    _, theirs = await played(site, "dora", pick=lambda legal: legal[-1])
    assert len(mine) >= DEALS and len(theirs) >= DEALS  # more only after equal totals
    assert mine != theirs, "both played the same game: no difference to show"

    tab: Tab = await open_tab(size=(size["width"], size["height"]))
    page = tab.page
    await page.evaluate("token => localStorage.setItem('klaverjas.token', token)", ann.token)
    await page.reload()  # the page comes back as ann, who has played today's game
    await expect(page.locator("#me")).to_contain_text("ann")
    await page.locator("#boards-button").click()
    body = page.locator("#board-body")
    await expect(body).to_have_attribute("data-state", "board")

    deals = page.locator("#board-deals .deal[data-deal]")
    await expect(deals).to_have_count(len(mine))
    for number, points in enumerate(mine):
        deal = page.locator(f'#board-deals .deal[data-deal="{number}"]')
        you, diff = deal.locator(".deal-you"), deal.locator(".deal-diff")
        field = [points, *theirs[number : number + 1]]  # a deal after equal totals: who played it
        mean = sum(field) / len(field)
        await expect(you).to_have_text(f"you {points}")
        await expect(deal.locator(".deal-mean")).to_have_text(f"field {mean:.1f}")
        await expect(diff).to_contain_text(signed(points - mean))
        await expect(diff).to_have_class("deal-diff diff" + (
            " up" if points > mean else " down" if points < mean else ""
        ))  # fmt: skip
        await deal.scroll_into_view_if_needed()
        shown = deal.locator(".deal-no, .deal-you, .deal-mean, .deal-diff")
        assert await outside_viewport(shown) == []
        assert await deal.evaluate(CUT) == []
        assert await deal.evaluate(ONE_LINE), f"deal {number + 1} does not fit on one line"
    # the widest line a deal can have (16 deals, a pit with roem) fits as well: a copy of
    # the last deal's line, with its numbers made as long as they come
    widest = await deals.last.evaluate(WIDEST)
    assert widest, "the widest deal line does not fit on one line"
    # nobody else's deals before the day is over: only the field's mean beside yours
    await expect(page.locator("#board-deals .deal-best")).to_have_count(0)
    await expect(page.locator("#board-deals .deal-you")).to_have_count(len(mine))

    await page.locator("#board-deals").scroll_into_view_if_needed()
    await shot(page, f"daily-board-deals{tag(size)}.png")
    tab.assert_clean()
