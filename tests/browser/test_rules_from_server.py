"""The page keeps no rule table of its own (issue 34 item 11): the cards' orders and points
come from the server (``GET /rules``). Served other tables than the engine's, the page
shows those in its rules and sorts a hand by them; with a table of its own it would not."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.async_api import Route, expect

from tests.browser.conftest import Site
from tests.browser.ui import SIZES, Tab, shot
from tests.browser.viewports import outside_viewport

pytestmark = pytest.mark.browser

HAND_SUITS = "chsd"  # the page's hand order: colours alternate (no trump chosen yet)


def changed(catalog: dict[str, Any]) -> dict[str, Any]:
    """The server's catalog with other card tables: each order turned around, each card
    worth its place in it."""
    for kind in ("trump", "plain"):
        table = catalog["cards"][kind]
        table["order"].reverse()
        table["points"] = {rank: 30 + i for i, rank in enumerate(table["order"])}
    return catalog


@pytest.mark.parametrize("size", SIZES)
async def test_the_page_shows_and_sorts_by_the_servers_tables(
    site: Site, open_tab, size: str
) -> None:
    served = changed(await site.get_json("/rules"))

    async def rules(route: Route) -> None:
        await route.fulfill(json=served)

    tab: Tab = await open_tab(size=SIZES[size])
    page = tab.page
    await page.route("**/rules", rules)
    await page.reload()
    # the rules page's card table: the served orders and points, row by row
    await page.locator("#rules-button").click()
    rows = page.locator("#rules table.rules-cards tbody tr")
    await expect(rows).to_have_count(8)
    trump, plain = served["cards"]["trump"], served["cards"]["plain"]
    shown = [(t.replace("T", "10"), trump["points"][t], p.replace("T", "10"), plain["points"][p])
             for t, p in zip(trump["order"], plain["order"], strict=True)]  # fmt: skip
    cells = await rows.evaluate_all(
        "rows => rows.map(r => [...r.cells].map(c => c.textContent.trim()))"
    )
    assert cells == [[a, str(b), c, str(d)] for a, b, c, d in shown]
    table = page.locator("#rules table.rules-cards")
    await table.scroll_into_view_if_needed()
    assert not await outside_viewport(table)
    assert await table.evaluate("t => t.scrollWidth <= t.parentElement.clientWidth + 0.5")
    await shot(page, f"rules-served-{size}.png")
    await page.keyboard.press("Escape")
    # a hand, before trump: each suit strongest first by the served plain order
    await tab.hello("ann")
    await tab.solo_naming_trump()
    hand = await tab.hand()
    assert len(hand) == 8
    wanted = sorted(hand, key=lambda c: (HAND_SUITS.index(c[1]), plain["order"].index(c[0])))
    assert hand == wanted
    await shot(page, f"hand-served-{size}.png")
    tab.assert_clean()
