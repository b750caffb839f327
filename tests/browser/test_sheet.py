"""The score sheet in real browsers at a phone's size (390x844): two phones keep one sheet,
one enters a deal and the other sees it at once, the other corrects it and undoes, a
refusal keeps what was typed, a phone that went offline catches up, and the chart and the
CSV export say what the sheet says."""

from __future__ import annotations

import asyncio
import csv
import io
import urllib.request

import pytest
from playwright.async_api import Page, expect

from tests.browser.conftest import Site
from tests.browser.ui import SCREENSHOTS, Tab
from tests.postgres import Proxy

pytestmark = [pytest.mark.browser, pytest.mark.sheet]

PHONE = {"width": 390, "height": 844}


async def phone(open_tab, nickname: str, path: str = "/") -> Tab:
    tab: Tab = await open_tab(path)
    await tab.page.set_viewport_size(PHONE)
    await tab.hello(nickname)
    return tab


async def make_sheet(page: Page, **fields: str) -> None:
    await page.locator("#sheet-button").click()
    form = page.locator("#sheet-new-form")
    await expect(form.get_by_role("button", name="Make the sheet")).to_be_enabled()
    for name, value in fields.items():
        field = form.locator(f"[name={name}]")
        if not await field.is_visible():  # the player names fold away
            await form.get_by_text("Player names (optional)").click()
        if await field.evaluate("e => e.tagName") == "SELECT":
            await field.select_option(value)
        else:
            await field.fill(value)
    await form.get_by_role("button", name="Make the sheet").click()
    await expect(page.locator("#scoresheet")).to_be_visible()


async def enter(page: Page, playing: int, points: int, side: int = 0, roem: tuple = ()) -> None:
    """Fill the open entry form and save it."""
    form = page.locator("#sheet-entry")
    await expect(form).to_be_visible()
    await form.locator(f'[data-set="playing:{playing}"]').click()
    await form.locator(f'[data-set="side:{side}"]').click()
    await form.locator("#sheet-points").fill(str(points))
    for team, step in roem:
        await form.locator(f'[data-roem-add="{team}:{step}"]').first.click()
    await form.get_by_role("button", name="Save").click()


async def totals(page: Page) -> list[int]:
    cells = page.locator("#sheet-head .sheet-team")
    return [int(await cells.nth(t).get_attribute("data-total") or -1) for t in (0, 1)]


async def expect_totals(page: Page, wanted: list[int]) -> None:
    for team, value in enumerate(wanted):
        cell = page.locator(f'#sheet-head .sheet-team[data-team="{team}"]')
        await expect(cell).to_have_attribute("data-total", str(value))


async def in_view(page: Page, selector: str) -> None:
    """``selector`` is inside the phone's viewport, without scrolling."""
    box = await page.locator(selector).bounding_box()
    assert box is not None, selector
    height = PHONE["height"]
    assert box["y"] >= 0 and box["y"] + box["height"] <= height, (selector, box)
    assert box["x"] + box["width"] <= PHONE["width"], (selector, box)


async def get_text(site: Site, path: str) -> str:
    def fetch() -> str:
        direct = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # loopback
        with direct.open(site.url + path.lstrip("/"), timeout=10) as reply:
            return reply.read().decode()

    return await asyncio.to_thread(fetch)


async def test_two_phones_keep_one_sheet(site: Site, open_tab) -> None:
    ann = await phone(open_tab, "ann")
    a = ann.page
    await make_sheet(a, team0="Wij", team1="Zij", p0="Ann", p1="Bob", p2="Cas", p3="Dee",
                     first_dealer="1")  # fmt: skip
    await expect_totals(a, [0, 0])
    await expect(a.locator("#sheet-dealer")).to_have_attribute("data-seat", "1")
    await expect(a.locator("#sheet-dealer")).to_contain_text("Bob")
    await expect(a.locator("#sheet-leader")).to_contain_text("Cas")
    for hook in ("#sheet-head", "#sheet-new-deal", "#sheet-undo"):
        await in_view(a, hook)  # the scores and New deal: no scrolling on a phone
    await a.locator("#sheet-tab-share").click()
    edit = await a.locator('[data-link="edit"] input').input_value()
    view = await a.locator('[data-link="view"] input').input_value()
    assert edit != view and "?sheet=" in edit

    # bob opens the edit link on his phone, cas the view link (an onlooker: no nickname)
    bob = await phone(open_tab, "bob", edit.split("/", 3)[3])
    b = bob.page
    await expect(b.locator("#scoresheet")).to_be_visible()
    await expect(b.locator("#scoresheet")).to_have_attribute("data-role", "edit")
    cas: Tab = await open_tab(view.split("/", 3)[3], size=(PHONE["width"], PHONE["height"]))
    cas.name = "cas"
    c = cas.page
    await expect(c.locator("#scoresheet")).to_have_attribute("data-role", "view")
    await expect(c.locator("#sheet-new-deal")).to_be_hidden()  # onlookers only watch

    # ann enters the first deal: Wij played, 94 points and 20 roem; everyone sees it at once
    await a.locator("#sheet-tab-deals").click()
    await a.locator("#sheet-new-deal").click()
    await expect(a.locator("#sheet-entry-title")).to_have_text("Deal 1")
    await a.locator("#sheet-entry [data-set='side:0']").click()
    await a.locator("#sheet-points").fill("94")
    await expect(a.locator("#sheet-other-points")).to_have_text("68")  # 162 minus
    await a.screenshot(path=str(SCREENSHOTS / "sheet-entry-phone.png"), full_page=True)
    await enter(a, playing=0, points=94, roem=((0, 20),))
    for page in (a, b, c):
        await expect_totals(page, [114, 68])
        await expect(page.locator("#sheet-deals tbody tr")).to_have_count(1)
    await expect(a.locator("#sheet-entry")).to_be_hidden()  # done: the form closes
    await expect(b.locator("#sheet-dealer")).to_contain_text("Cas")  # the next dealer

    # bob, on the other phone (ann entered the deal), corrects it (80 points: 100 to 82) and
    # undoes his correction; every phone sees both
    row = b.locator("#sheet-deals tbody tr").first
    await row.locator("button[data-edit-deal]").click()
    await expect(b.locator("#sheet-entry-title")).to_have_text("Correct deal 1")
    await expect(b.locator("#sheet-points")).to_have_value("94")  # as it was entered
    await b.locator("#sheet-points").fill("80")
    await b.locator("#sheet-entry").get_by_role("button", name="Save").click()
    for page in (a, b, c):
        await expect_totals(page, [100, 82])
    await expect(b.locator("#sheet-entry")).to_be_hidden()  # his correction went in
    await expect(b.locator("#sheet-undo")).to_have_attribute(
        "title", "Undo: Deal 1 corrected: Wij 100, Zij 82"
    )
    await b.locator("#sheet-undo").click()
    for page in (a, b, c):
        await expect_totals(page, [114, 68])
    await expect(a.locator("#sheet-redo")).to_have_attribute(
        "title", "Redo: Deal 1 corrected: Wij 100, Zij 82"
    )
    await a.locator("#sheet-tab-changes").click()
    log = a.locator("#sheet-changes li")
    await expect(log).to_have_count(3)
    await expect(log.first).to_contain_text("Undone: Deal 1 corrected: Wij 100, Zij 82")
    for line, who in ((0, "bob"), (1, "bob"), (2, "ann")):  # the latest first
        await expect(log.nth(line).locator(".muted")).to_contain_text(who)

    # two more deals, a nat and a pit, from both phones
    await a.locator("#sheet-tab-deals").click()
    await b.locator("#sheet-new-deal").click()
    await enter(b, playing=1, points=91)  # Zij played, got 71: nat
    await expect_totals(c, [276, 68])
    await a.locator("#sheet-new-deal").click()
    await a.locator("#sheet-entry [data-set='pit:0']").click()  # every trick: 162
    await expect(a.locator("#sheet-points")).to_have_value("162")
    await a.locator("#sheet-entry [data-set='playing:0']").click()
    await a.locator("#sheet-entry").get_by_role("button", name="Save").click()
    await expect_totals(c, [538, 68])
    rows = c.locator("#sheet-deals tbody tr")
    await expect(rows.nth(1)).to_have_attribute("data-nat", "true")
    await expect(rows.nth(2)).to_have_attribute("data-pit", "0")
    await c.screenshot(path=str(SCREENSHOTS / "sheet-phone.png"), full_page=True)

    # the chart and the CSV say what the sheet says
    await c.locator("#sheet-tab-chart").click()
    lines = c.locator("#sheet-chart-svg polyline")
    await expect(lines).to_have_count(2)
    chart = [await lines.nth(t).get_attribute("data-totals") for t in (0, 1)]
    code = view.rsplit("=", 1)[1]
    rows_csv = list(csv.reader(io.StringIO(await get_text(site, f"/sheets/{code}.csv"))))
    header, body = rows_csv[0], rows_csv[1:]
    assert header[-2:] == ["total Wij", "total Zij"] and len(body) == 3
    assert chart == [
        ",".join(["0", *(r[-2] for r in body)]), ",".join(["0", *(r[-1] for r in body)]),
    ]  # fmt: skip
    assert [r[-2:] for r in body] == [["114", "68"], ["276", "68"], ["538", "68"]]
    await c.screenshot(path=str(SCREENSHOTS / "sheet-chart-phone.png"), full_page=True)

    # the printable page, from the onlooker's Share tab: every deal, the totals, no script
    await c.locator("#sheet-tab-share").click()
    async with c.context.expect_page() as opened:
        await c.locator("#sheet-print").click()
    printed = await opened.value
    problems: list[str] = []
    printed.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    printed.on("pageerror", lambda e: problems.append(str(e)))
    await printed.set_viewport_size(PHONE)
    await expect(printed.locator("h1")).to_have_text("Wij \u2013 Zij")
    await expect(printed.locator("h2")).to_have_text("Game 1 (to 1500 points)")
    rows = printed.locator("tbody tr")
    await expect(rows).to_have_count(3)
    await expect(rows.nth(1)).to_contain_text("nat")
    await expect(rows.nth(2)).to_contain_text("pit")
    foot = printed.locator("tfoot td")
    assert [await foot.nth(i).inner_text() for i in range(3)] == ["not finished", "538", "68"]
    assert printed.url.endswith(f"/sheets/{code}/print")
    await printed.screenshot(path=str(SCREENSHOTS / "sheet-print-phone.png"), full_page=True)
    assert problems == []
    for tab in (ann, bob, cas):
        tab.assert_clean()


async def test_players_without_team_names_and_a_deal_of_an_earlier_game(
    site: Site, open_tab
) -> None:
    ann = await phone(open_tab, "ann")
    a = ann.page
    await make_sheet(a, team0="", team1="", p0="Ann", p1="Bob", p2="Cas", p3="Dee",
                     end="deals", end_value="1")  # fmt: skip
    names = a.locator("#sheet-head .sheet-team-name")
    await expect(names).to_have_text(["Ann & Cas", "Bob & Dee"])
    await a.locator("#sheet-new-deal").click()
    await enter(a, playing=0, points=100)
    await expect(a.locator("#sheet-winner")).to_have_attribute("data-winner", "0")
    await a.locator("#sheet-new-game").click()
    await expect(a.locator("#sheet-head")).to_contain_text("Game 2")
    await a.locator("#sheet-new-deal").click()
    await enter(a, playing=1, points=50)
    await expect_totals(a, [50, 112])
    earlier = a.locator('#sheet-deals section.sheet-earlier[data-game="1"]')
    await expect(earlier.locator("h3")).to_contain_text("Ann & Cas won")
    await earlier.locator("button[data-edit-deal]").click()  # game 1 was Bob & Dee's: 40
    await expect(a.locator("#sheet-entry-title")).to_have_text("Correct deal 1 of game 1")
    await expect(a.locator("#sheet-points")).to_have_value("100")
    await a.locator("#sheet-entry [data-set='playing:1']").click()
    await a.locator("#sheet-points").fill("40")
    await a.locator("#sheet-entry").get_by_role("button", name="Save").click()
    await expect(earlier.locator("h3")).to_contain_text("Bob & Dee won")
    await expect(earlier.locator("td.total")).to_have_text(["40", "122"])
    await expect_totals(a, [50, 112])  # the game being played is as it was
    await a.screenshot(path=str(SCREENSHOTS / "sheet-earlier-game-phone.png"), full_page=True)
    width = await a.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], width  # long team names wrap: no sideways scrolling
    await a.locator("#sheet-tab-changes").click()
    await expect(a.locator("#sheet-changes li").first).to_contain_text(
        "Game 1, deal 1 corrected: Ann & Cas 40, Bob & Dee 122"
    )
    ann.assert_clean()


async def test_a_refusal_keeps_what_was_typed_and_a_phone_catches_up(site: Site, open_tab) -> None:
    ann = await phone(open_tab, "ann")
    a = ann.page
    await make_sheet(a, team0="Us", team1="Them", end="deals", end_value="2")
    await a.locator("#sheet-tab-share").click()
    edit = await a.locator('[data-link="edit"] input').input_value()
    # bob's phone reaches the server through a relay the test can cut (its network)
    relay = Proxy("127.0.0.1", site.server.port)
    await relay.start()
    bob: Tab = await open_tab()
    b = bob.page
    await b.set_viewport_size(PHONE)
    await b.goto(f"http://127.0.0.1:{relay.port}/{edit.split('/', 3)[3]}")
    await bob.hello("bob")
    await expect(b.locator("#scoresheet")).to_be_visible()

    # both open a new deal; ann saves first, bob's (made on the old sheet) is refused, and
    # his phone keeps what he typed
    await a.locator("#sheet-new-deal").click()
    await b.locator("#sheet-new-deal").click()
    await b.locator("#sheet-entry [data-set='playing:1']").click()
    await b.locator("#sheet-points").fill("60")
    await enter(a, playing=0, points=100)
    await expect_totals(b, [100, 62])
    await b.locator("#sheet-entry").get_by_role("button", name="Save").click()
    error = b.locator("#sheet-error")
    await expect(error).to_have_attribute("data-code", "stale_version")
    await expect(error).to_contain_text("changed since you looked")
    await expect(b.locator("#sheet-points")).to_have_value("60")
    await expect(b.locator("#sheet-entry")).to_be_visible()
    await expect_totals(b, [100, 62])  # nothing merged
    # an impossible entry: the server's words, nothing stored
    await b.locator("#sheet-points").fill("170")
    await b.locator("#sheet-entry").get_by_role("button", name="Save").click()
    await expect(error).to_have_attribute("data-code", "invalid_deal")
    await expect(error).to_contain_text("must be 0 to 162")
    await b.locator("#sheet-points").fill("60")
    await b.locator("#sheet-entry").get_by_role("button", name="Save").click()
    await expect_totals(a, [100 + 60, 62 + 102])

    # the game is over after two deals: the winner, and what can come next
    await expect(a.locator("#sheet-winner")).to_have_attribute("data-winner", "1")
    await expect(a.locator("#sheet-new-deal")).to_be_disabled()

    # bob taps deal 1 to correct it and types; then his phone loses the network; ann starts
    # a new game meanwhile; back online, bob's phone shows it without him doing anything,
    # and what he typed is still there
    await b.locator("#sheet-deals tbody tr").first.locator("td.total").first.click()
    await expect(b.locator("#sheet-entry-title")).to_have_text("Correct deal 1")
    await b.locator("#sheet-points").fill("99")
    await relay.stop()
    await expect(b.locator("#status")).not_to_have_attribute("data-state", "open")
    await expect(b.locator("#sheet-offline")).to_be_visible()
    await a.locator("#sheet-new-game").click()
    await expect(a.locator("#sheet-head")).to_contain_text("Game 2")
    await relay.start()
    await expect(b.locator("#status")).to_have_attribute("data-state", "open", timeout=30_000)
    await expect(b.locator("#sheet-head")).to_contain_text("Game 2")
    await expect(b.locator("#sheet-offline")).to_be_hidden()
    await expect_totals(b, [0, 0])
    await expect(b.locator("#sheet-points")).to_have_value("99")
    await b.locator("#sheet-entry").get_by_role("button", name="Save").click()
    await expect(error).to_have_attribute("data-code", "stale_version")  # made on game 1
    await relay.stop()
    for tab in (ann, bob):
        tab.assert_clean()
