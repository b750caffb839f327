"""Strong CPU players in the page (issue 11): a level for each CPU added, the CPUs' names
and levels at the table, and the Hint button."""

from __future__ import annotations

import pytest
from playwright.async_api import expect

from server.http.catalog import describe
from tests.browser.ui import Tab

pytestmark = [pytest.mark.browser, pytest.mark.bots]


async def test_cpu_levels_names_and_a_hint(open_tab) -> None:
    tab: Tab = await open_tab()
    await tab.hello("ann")
    page = tab.page
    await tab.create_room(deals=1)

    # the level choice is the server's catalog; each CPU shows its name and level
    level = page.locator("#cpu-level")
    await expect(level).to_be_visible()
    offered = await level.locator("option").evaluate_all("options => options.map(o => o.value)")
    cpu = describe()["cpu"]
    assert offered == cpu["levels"] and await level.input_value() == cpu["default"]
    for seat, choice in ((1, "random"), (2, "heuristic"), (3, "strong")):
        await level.select_option(choice)
        await tab.add_cpu(seat)
        at = page.locator(f'.seat[data-seat="{seat}"]')
        await expect(at).to_have_attribute("data-level", choice)
        await expect(at.locator(".name")).to_contain_text(f"(CPU, {choice})")
    names = await page.locator(".seat[data-level] .name").all_inner_texts()
    assert len({n.split(" ")[0] for n in names}) == 3, names  # a name per seat
    await expect(level).to_be_hidden()  # no free seat left
    hint = page.locator("#hint")
    await expect(hint).to_be_hidden()  # no match yet
    await tab.ready()
    await tab.expect_dealt()

    # until the page must play a card: a hint in the bidding too, if it comes to us
    reason = page.locator("#hint-reason")
    card = page.locator("#hand button.card.legal:enabled")
    either = page.locator("#hand button.card.legal:enabled, #bids button[data-action]:visible")
    while True:
        await expect(either.first).to_be_visible(timeout=30_000)
        if await card.count():
            break
        await expect(hint).to_be_visible()
        await hint.click()
        await expect(reason).to_be_visible()
        action = await reason.get_attribute("data-action")
        await expect(page.locator(f'#bids button.hinted[data-action="{action}"]')).to_have_count(1)
        name = page.locator('#bids button[data-action^="trump:"]')  # end the bidding
        await (name.first if await name.count() else page.locator("#bids button").first).click()
        await expect(reason).to_be_hidden()

    await expect(hint).to_be_visible()
    await expect(reason).to_be_hidden()
    await hint.click()
    await expect(reason).to_be_visible()
    assert (await reason.inner_text()).strip()  # the reason, in words
    action = await reason.get_attribute("data-action")
    assert action in await tab.hand()
    suggested = page.locator(f'#hand button.card.hinted[data-card="{action}"]')
    await expect(suggested).to_have_count(1)
    await expect(page.locator("#hand button.card.hinted")).to_have_count(1)
    await expect(hint).to_be_disabled()  # answered for this decision
    await suggested.click()  # playing it ends the hint
    await expect(reason).to_be_hidden()
    await expect(page.locator("#hand button.card.hinted")).to_have_count(0)
    tab.assert_clean()
