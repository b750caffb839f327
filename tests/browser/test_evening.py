"""A club evening in real browsers (issue 35, item 9): the organiser, on a phone, makes the
evening, checks in nine players and withdraws one, draws a round, sees the tables with
their codes, swaps two players (their tables get new sheets), checks in a late arrival;
two table phones open their sheets by the tables' codes, see where they sit and enter a
deal each; the organiser's tables and standing follow without a reload; the round is
closed (the question names the unfinished tables) and a revoke charged; the players' link
shows the standing and the tables but no control and no table's code.  A pairs evening
checks in pairs and seats their players.  axe-core finds no serious violation on the
console; screenshots are saved to look at."""

from __future__ import annotations

import re

import pytest
from playwright.async_api import Page, expect

from tests.browser.axe import audit, report
from tests.browser.conftest import Site
from tests.browser.test_sheet import PHONE, enter, phone
from tests.browser.ui import SIZES, Tab, cut_labels, shot

pytestmark = [pytest.mark.browser, pytest.mark.club]

CODE = re.compile(r"^[0-9A-Z]{10}$")
NAMES = ("Ann", "Bob", "Cas", "Dee", "Eve", "Fay", "Gus", "Hal")


async def organiser(open_tab) -> Tab:
    """The organiser's page (its policy bypassed for the accessibility audit), welcomed."""
    tab: Tab = await open_tab(size=(PHONE["width"], PHONE["height"]), bypass_csp=True)
    await tab.hello("org")
    return tab


async def create(page: Page, name: str, **fields: str) -> None:
    """The New club evening form, filled and sent: the console shows."""
    await page.locator("#evening-button").click()
    form = page.locator("#evening-new-form")
    await expect(form.get_by_role("button", name="Start the evening")).to_be_visible()
    await form.locator("[name=name]").fill(name)
    for key, value in fields.items():
        control = form.locator(f"[name={key}]")
        if await control.evaluate("e => e.tagName") == "SELECT":
            await control.select_option(value)
        else:
            await control.fill(value)
    await form.get_by_role("button", name="Start the evening").click()
    await expect(page.locator("#evening")).to_have_attribute("data-role", "organiser")
    await expect(page.locator("#evening-title")).to_have_text(name)


async def check_in(page: Page, *names: str) -> None:
    """Each name typed and sent at once, as an organiser at the door does (the page sends
    them one after another)."""
    field = page.locator("#evening-check-in [name=name]")
    for name in names:
        await field.fill(name)
        await field.press("Enter")


async def entrant(page: Page, name: str) -> str:
    row = page.locator("#evening-entrants li", has_text=name)
    found = await row.get_attribute("data-entrant")
    assert found, name
    return found


async def seats(page: Page, table: int) -> list[str]:
    """The entrants at ``table``, by seat (0 to 3)."""
    return [
        await page.locator(
            f'.evening-table[data-table="{table}"] .table-seat[data-seat="{seat}"]'
        ).get_attribute("data-entrant")
        or ""
        for seat in range(4)
    ]


async def table_code(page: Page, table: int) -> str:
    code = await page.locator(f'.evening-table[data-table="{table}"] .table-code code').inner_text()
    assert CODE.match(code), code
    return code


async def links(page: Page) -> dict[str, str]:
    """The organiser's and the players' codes, from the Links tab's two links."""
    await page.locator("#evening-tab-share").click()
    found = {}
    for kind in ("organiser", "view"):
        link = await page.locator(f'#evening-links [data-link="{kind}"] input').input_value()
        found[kind] = link.rsplit("?evening=", 1)[1]
        assert CODE.match(found[kind]), link
    return found


async def no_violations(page: Page, what: str) -> None:
    violations = await audit(page, "#evening")
    assert not violations, f"{what}:\n{report(violations)}"


async def test_an_evening_from_the_organisers_phone(site: Site, open_tab) -> None:
    org = await organiser(open_tab)
    o = org.page
    await create(o, "Vrijdag", rounds="3")
    await expect(o.locator("#evening")).to_have_attribute("data-view", "players")
    code = await links(o)
    await o.locator("#evening-tab-players").click()
    await expect(o.locator("#evening-round")).to_have_attribute("data-state", "none")

    # nine check in at the door, typed one after another; one goes home before the draw
    await check_in(o, *NAMES, "Ivo")
    await expect(o.locator("#evening-entrants li")).to_have_count(9)
    ivo = await entrant(o, "Ivo")
    await o.locator(f'button[data-withdraw="{ivo}"]').click()
    await expect(o.locator('dialog#confirm[data-kind="withdraw"]')).to_be_visible()
    await expect(o.locator("#confirm-title")).to_contain_text("Ivo")
    await o.locator('#confirm [data-confirm="yes"]').click()
    await expect(o.locator(f'#evening-entrants li[data-entrant="{ivo}"]')).to_have_attribute(
        "data-withdrawn", "true"
    )
    await expect(o.locator("#evening-round")).to_contain_text("8 players here")
    await expect(o.locator(f'button[data-withdraw="{ivo}"]')).to_have_count(0)
    ids = {name: await entrant(o, name) for name in NAMES}
    names = {e: name for name, e in ids.items()}
    await no_violations(o, "check-in")
    assert not await cut_labels(o, "#evening"), await cut_labels(o, "#evening")
    await shot(o, "evening-checkin-phone.png")

    # the draw: two tables of four, each with its code and its sheet's link and QR code
    await o.locator("#evening-draw").click()
    await expect(o.locator("#evening")).to_have_attribute("data-view", "tables")
    await expect(o.locator("#evening-round")).to_have_attribute("data-state", "open")
    await expect(o.locator(".evening-table")).to_have_count(2)
    await expect(o.locator("#evening-sitting-out")).to_contain_text("Nobody sits out")
    drawn = {t: await seats(o, t) for t in (1, 2)}
    assert sorted(drawn[1] + drawn[2]) == sorted(ids.values())
    before = {t: await table_code(o, t) for t in (1, 2)}
    link = o.locator('.evening-table[data-table="1"] a[data-sheet-link]')
    await expect(link).to_have_attribute("href", f"/?sheet={before[1]}")
    qr = o.locator('.evening-table[data-table="1"] img.qr')
    src = await qr.get_attribute("src") or ""
    assert src.startswith("/qr.svg?text=") and f"%3Fsheet%3D{before[1]}" in src, src

    # a swap: one of table 1 and one of table 2 change places; both tables get new sheets
    a, b = drawn[1][0], drawn[2][1]
    await o.locator(f'button[data-pick="{a}"]').click()
    await o.locator(f'button[data-pick="{b}"]').click()
    await expect(o.locator(f'button[data-pick="{a}"]')).to_have_attribute("aria-pressed", "true")
    await expect(o.locator("#evening-swap")).to_be_enabled()
    await o.locator("#evening-swap").click()
    await expect(
        o.locator('.evening-table[data-table="1"] .table-seat[data-seat="0"]')
    ).to_have_attribute("data-entrant", b)
    await expect(
        o.locator('.evening-table[data-table="2"] .table-seat[data-seat="1"]')
    ).to_have_attribute("data-entrant", a)
    codes = {t: await table_code(o, t) for t in (1, 2)}
    assert codes[1] != before[1] and codes[2] != before[2], (before, codes)
    seated = {t: await seats(o, t) for t in (1, 2)}

    # a late arrival plays from the next round
    await o.locator("#evening-tab-players").click()
    await check_in(o, "Jan")
    jan = o.locator("#evening-entrants li", has_text="Jan")
    await expect(jan.locator(".chip.late")).to_have_text("from round 2")
    await o.locator("#evening-tab-tables").click()
    await no_violations(o, "the tables")
    assert not await cut_labels(o, "#evening"), await cut_labels(o, "#evening")
    await shot(o, "evening-tables-phone.png")

    # two table phones open their sheets by the tables' codes: the evening, round and table
    # above the sheet, with the way to the standing; each enters a deal
    view = code["view"]
    tables: dict[int, Tab] = {}
    for t in (1, 2):
        tab = await phone(open_tab, f"table{t}", f"/?sheet={codes[t]}")
        page = tab.page
        await expect(page.locator("#scoresheet")).to_have_attribute("data-role", "edit")
        where = page.locator("#sheet-evening")
        await expect(where).to_be_visible()
        await expect(where).to_contain_text("Vrijdag")
        await expect(where).to_contain_text(f"round 1, table {t}")
        await expect(where).to_have_attribute("data-table", str(t))
        await expect(where.locator("a[data-evening-link]")).to_have_attribute(
            "href", f"/?evening={view}"
        )
        for e in seated[t]:
            await expect(page.locator("#scoresheet")).to_contain_text(names[e])
        tables[t] = tab
    await shot(tables[1].page, "evening-table-sheet-phone.png")
    for t, points in ((1, 100), (2, 70)):
        page = tables[t].page
        await page.locator("#sheet-new-deal").click()
        await enter(page, 0, points)
        await expect(page.locator('#sheet-head .sheet-team[data-team="0"]')).to_have_attribute(
            "data-total", str(points if points > 81 else 0)
        )

    # the organiser's page follows, without a reload: totals, deals, the standing
    await expect(o.locator('.evening-table[data-table="1"]')).to_have_attribute(
        "data-totals", "100,62"
    )
    await expect(o.locator('.evening-table[data-table="2"]')).to_have_attribute(
        "data-totals", "0,162"
    )
    await expect(o.locator('.evening-table[data-table="1"]')).to_have_attribute(
        "data-state", "playing"
    )
    await o.locator("#evening-tab-standing").click()
    score = {seated[1][0]: 100, seated[1][1]: 62, seated[2][0]: 0, seated[2][1]: 162}
    for who, total in score.items():
        row = o.locator(f'#evening-standing-table tr[data-entrant="{who}"]')
        await expect(row).to_have_attribute("data-total", str(total))
        await expect(row.locator('td.round[data-round="1"]')).to_have_attribute(
            "data-mark", "playing"
        )
    top = o.locator("#evening-standing-table tbody tr").first
    await expect(top).to_have_attribute("data-total", "162")
    await expect(top).to_have_attribute("data-prize", "place")
    await no_violations(o, "the standing")
    await shot(o, "evening-standing-phone.png")

    # closing the round asks first, naming the tables that have not finished
    await o.locator("#evening-close").click()
    await expect(o.locator('dialog#confirm[data-kind="close"]')).to_be_visible()
    for t in (1, 2):
        await expect(o.locator("#confirm-body")).to_contain_text(f"Table {t}: not finished")
    await shot(o, "evening-close-phone.png")
    await o.locator('#confirm [data-confirm="yes"]').click()
    await expect(o.locator("#evening-round")).to_have_attribute("data-state", "closed")
    row = o.locator(f'#evening-standing-table tr[data-entrant="{seated[1][0]}"]')
    await expect(row.locator('td.round[data-round="1"]')).to_have_attribute(
        "data-mark", "unfinished"
    )
    await expect(o.locator("#evening-draw")).to_have_text("Draw round 2")

    # a revoke: 20 of that player's own points, in round 1
    await o.locator(".evening-penalty summary").click()
    form = o.locator("#evening-penalty")
    await form.locator("[name=entrant]").select_option(seated[1][0])
    await form.locator("[name=points]").fill("20")
    await form.get_by_role("button", name="Charge the penalty").click()
    await expect(row).to_have_attribute("data-total", "80")

    # the players' link: the standing and the tables, no control, no table's code
    await o.locator("#evening-tab-share").click()
    players_link = await o.locator('#evening-links [data-link="view"] input').input_value()
    assert players_link.endswith(f"/?evening={view}"), players_link
    await expect(o.locator("#evening-wall")).to_have_attribute(
        "href", f"/wall?evening={code['organiser']}"
    )
    await expect(o.locator("#evening-print-draw")).to_have_attribute(
        "href", re.compile(r"^/evenings/\w+/print/draw$")
    )
    await expect(o.locator("#evening-qr")).to_have_attribute("src", re.compile(r"^/qr\.svg\?text="))
    await no_violations(o, "the links")
    await shot(o, "evening-links-phone.png")

    player = await phone(open_tab, "dee", f"/?evening={view}")
    p = player.page
    await expect(p.locator("#evening")).to_have_attribute("data-role", "view")
    await expect(p.locator("#evening-title")).to_have_text("Vrijdag")
    await expect(p.locator(".evening-table")).to_have_count(2)
    for hook in ("#evening-draw", "#evening-close", "#evening-undo", "#evening-check-in",
                 "button[data-withdraw]", "[data-pick]", "#evening-tab-players",
                 "#evening-tab-share", ".table-code", "#evening-penalty"):  # fmt: skip
        await expect(p.locator(hook)).to_have_count(0)
    html = await p.content()
    for secret in (*codes.values(), *before.values(), code["organiser"]):
        assert secret not in html, secret
    await p.locator("#evening-tab-standing").click()
    await expect(
        p.locator(f'#evening-standing-table tr[data-entrant="{seated[1][0]}"]')
    ).to_have_attribute("data-total", "80")
    await shot(p, "evening-view-phone.png")

    await o.set_viewport_size({"width": SIZES["desktop"][0], "height": SIZES["desktop"][1]})
    await o.locator("#evening-tab-tables").click()
    assert not await cut_labels(o, "#evening"), await cut_labels(o, "#evening")
    await shot(o, "evening-tables-desktop.png")
    for tab in (org, player, *tables.values()):
        tab.assert_clean()


async def test_a_pairs_evening_checks_in_pairs(site: Site, open_tab) -> None:
    org = await organiser(open_tab)
    o = org.page
    await create(o, "Paren", format="pairs", rounds="2")
    form = o.locator("#evening-check-in")
    pairs = (("Noord", "Ann", "Cas"), ("Oost", "Bob", "Dee"), ("Zuid", "Eve", "Gus"),
             ("West", "Fay", "Hal"))  # fmt: skip
    for name, first, second in pairs:
        await form.locator("[name=name]").fill(name)
        await form.locator("[name=member1]").fill(first)
        await form.locator("[name=member2]").fill(second)
        await form.locator("[name=member2]").press("Enter")
    await expect(o.locator("#evening-entrants li")).to_have_count(4)
    await expect(o.locator("#evening-entrants")).to_contain_text("Noord (Ann & Cas)")
    await expect(o.locator("#evening-round")).to_contain_text("4 pairs here")
    await o.locator("#evening-draw").click()
    await expect(o.locator(".evening-table")).to_have_count(2)
    table = o.locator('.evening-table[data-table="1"]')
    await expect(table.locator(".team")).to_have_count(2)
    await expect(table.locator(".table-seat")).to_have_count(4)  # each pair's two players, seated
    await expect(table.locator("button[data-pick]")).to_have_count(2)  # a pair swaps whole
    await no_violations(o, "a pairs round")
    await shot(o, "evening-pairs-phone.png")
    org.assert_clean()


@pytest.mark.parametrize("language", ("en", "nl", "fr", "pt", "bg", "tl"))
async def test_the_console_in_every_language(site: Site, open_tab, language: str) -> None:
    """The New club evening form and the console's tabs at a phone's size in each language:
    no label cut off, screenshots to look at."""
    tab: Tab = await open_tab(f"/?lang={language}", size=(PHONE["width"], PHONE["height"]))
    page = tab.page
    await page.locator("#nickname").fill("org")
    await page.locator("#hello-form button[type=submit]").click()
    await page.locator("#evening-button").click()
    form = page.locator("#evening-new-form")
    await expect(form.locator("button[type=submit]")).to_be_visible()
    await form.locator("details summary").click()  # the prizes
    await form.locator("[name=sit_out]").select_option("fixed")
    assert not await cut_labels(page, "#evening-new"), await cut_labels(page, "#evening-new")
    await shot(page, f"evening-{language}-new-phone.png")
    await form.locator("[name=name]").fill("Vrijdag")
    await form.locator("button[type=submit]").click()
    await expect(page.locator("#evening")).to_have_attribute("data-role", "organiser")
    await check_in(page, *NAMES[:5])
    await expect(page.locator("#evening-entrants li")).to_have_count(5)
    await page.locator("#evening-draw").click()
    await expect(page.locator(".evening-table")).to_have_count(1)
    for view in ("players", "tables", "standing", "fairness", "share"):
        await page.locator(f"#evening-tab-{view}").click()
        await expect(page.locator("#evening")).to_have_attribute("data-view", view)
        assert not await cut_labels(page, "#evening"), (view, await cut_labels(page, "#evening"))
        if view in ("tables", "standing"):
            await shot(page, f"evening-{language}-{view}-phone.png")
    tab.assert_clean()
