"""The club evening's screen on the wall (issue 35, items 6 and 7): a 1920 by 1080
screen opened once at ``/wall?evening=<organiser code>`` follows the evening by itself: the draw
with a QR code per table, each table's live score as its phone enters deals, the standing,
the next round; after a lost connection it connects and follows again; it asks nothing of
anywhere but the server, fits the screen without scrolling with 50 tables too (taking
turns, page by page), and nobody clicks anything.  Screenshots: ``screenshots/wall-*.png``."""

from __future__ import annotations

from urllib.parse import quote, urlsplit

import pytest
from playwright.async_api import Page, expect

from client import GameClient
from tests.browser.conftest import Site
from tests.browser.ui import Tab, shot
from tests.server.test_evenings import command, enter

pytestmark = [pytest.mark.browser, pytest.mark.club]

WALL = (1920, 1080)
NAMES = ["Ann", "Bob", "Cas", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jan"]

# What does not fit: the page scrolls, an element of the screen reaches outside the window
# or out of its table's box, or a box that hides what overflows it (a name, a table) has
# more than it shows.
DOES_NOT_FIT = """() => {
    const out = [];
    const root = document.scrollingElement;
    if (root.scrollHeight > innerHeight || root.scrollWidth > innerWidth) out.push('scrolls');
    const inside = (r, box) => r.left >= box.left - 1 && r.top >= box.top - 1
        && r.right <= box.right + 1 && r.bottom <= box.bottom + 1;
    const screen = {left: 0, top: 0, right: innerWidth, bottom: innerHeight};
    for (const el of document.querySelectorAll('#wall *')) {
        const r = el.getBoundingClientRect();
        if (!r.width && !r.height) continue;
        const what = el.textContent.slice(0, 30);
        const where = `${el.tagName.toLowerCase()}.${el.className} "${what}"`;
        if (!inside(r, screen)) out.push(`outside: ${where}`);
        const card = el.parentElement.closest('.wall-table, .wall-row');
        if (card && !inside(r, card.getBoundingClientRect())) out.push(`out of its box: ${where}`);
        const style = getComputedStyle(el);
        if (style.overflowX !== 'visible' || style.overflowY !== 'visible') {
            if (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1) {
                const size = `${el.scrollWidth}x${el.scrollHeight}`;
                out.push(`cut: ${where} ${size} in ${el.clientWidth}x${el.clientHeight}`);
            }
        }
    }
    return out;
}"""


async def evening(site: Site, names: list[str], deals: int = 2) -> tuple[GameClient, dict]:
    """An organiser with an evening of two rounds, ``names`` checked in, the first round
    drawn: the organiser's frame."""
    organiser = await site.bot("organiser")
    made = await organiser.request(
        {"type": "evening_create", "name": "Vrijdagavond", "deals": deals, "rounds": 2}, "evening"
    )
    code, version = made["codes"]["organiser"], made["version"]
    for name in names:
        version = (await command(organiser, code, version, "check_in", name=name))["version"]
    drawn = await command(organiser, code, version, "draw")
    assert drawn["type"] == "evening", drawn
    return organiser, drawn


async def open_wall(open_tab, code: str, extra: str = "") -> tuple[Tab, list[str]]:
    """The wall screen at 1920 by 1080, every request it makes recorded."""
    tab: Tab = await open_tab("/", size=WALL)
    tab.name = "the wall"
    asked: list[str] = []
    tab.page.on("request", lambda r: asked.append(r.url))
    await tab.page.goto(f"{tab.url}wall?evening={code}{extra}")
    await expect(tab.page.locator("#wall")).to_have_attribute("data-state", "open")
    return tab, asked


async def fits(page: Page) -> None:
    assert await page.evaluate(DOES_NOT_FIT) == []


async def qr_codes_shown(page: Page) -> list[str]:
    """The texts of the QR codes the screen shows, loaded (the page's policy lets them)."""
    images = page.locator("img.wall-qr")
    for i in range(await images.count()):
        await expect(images.nth(i)).to_have_js_property("complete", True)
        assert await images.nth(i).evaluate("img => img.naturalWidth") > 0
    sources = await images.evaluate_all("imgs => imgs.map(i => i.getAttribute('src'))")
    return sorted(sources)


def qr_source(text: str) -> str:
    return f"/qr.svg?text={quote(text, safe='')}"


async def test_the_wall_follows_the_evening_by_itself(site: Site, open_tab) -> None:
    organiser, drawn = await evening(site, NAMES)
    code, view = drawn["codes"]["organiser"], drawn["codes"]["view"]
    tab, asked = await open_wall(open_tab, code)
    page = tab.page
    wall = page.locator("#wall")
    await expect(wall).to_have_attribute("data-phase", "draw")
    await page.evaluate("() => { window.sameDocument = true; }")  # gone if it ever reloads
    cards = page.locator(".wall-table")
    await expect(cards).to_have_count(2)
    origin = site.url.rstrip("/")
    name = {e["id"]: e["name"] for e in drawn["evening"]["entrants"]}
    for table in drawn["tables"]:
        card = page.locator(f".wall-table[data-table='{table['table']}']")
        await expect(card.locator(".wall-number")).to_have_text(str(table["table"]))
        for entrant in table["entrants"]:
            await expect(card).to_contain_text(name[entrant])
        await expect(card.locator("img.wall-table-qr")).to_have_count(1)
    assert await qr_codes_shown(page) == sorted(
        [qr_source(f"{origin}/?sheet={t['code']}") for t in drawn["tables"]]
        + [qr_source(f"{origin}/?evening={view}")]
    )
    out = [name[e] for e in drawn["evening"]["drawn"][0]["sitting_out"]]
    await expect(page.locator("#wall-out")).to_contain_text(", ".join(out))
    await expect(page.locator("#wall-name")).to_have_text("Vrijdagavond")
    await expect(page.locator("#wall-round")).to_have_attribute("data-round", "1")
    await shot(page, "wall-draw.png")
    await fits(page)

    first, second = drawn["tables"]
    await enter(await site.bot("table1"), first["code"], 100)
    table1 = page.locator(".wall-table[data-table='1']")
    await expect(table1).to_have_attribute("data-totals", "100,62")
    await expect(wall).to_have_attribute("data-phase", "playing")
    await expect(table1.locator(".wall-total")).to_have_text(["100", "62"])
    await expect(table1.locator("img")).to_have_count(0)  # started: its code is done with
    await expect(page.locator(".wall-table[data-table='2'] img.wall-table-qr")).to_have_count(1)
    top = page.locator("#wall-standing li").first
    await expect(top).to_have_attribute("data-total", "100")
    await expect(top).to_have_attribute("data-prize", "place")
    await expect(page.locator("#wall-standing li[data-prize='lowest']").first).to_be_visible()
    await expect(page.locator("#wall-standing li[data-sat-out='1']")).to_have_count(len(out))
    await shot(page, "wall-playing.png")
    await fits(page)

    # The connection lost: the screen connects, says hello as itself and follows again.
    token = await page.evaluate("() => localStorage.getItem('klaverjas.wall-token')")
    assert token and len(token) >= 16
    screens = [c for c in site.server.clients if c.nickname.startswith("Wall")]
    assert len(screens) == 1
    player = screens[0].player_id
    await screens[0].ws.close()
    phone = await site.bot("table2")
    await enter(phone, second["code"], 90)
    table2 = page.locator(".wall-table[data-table='2']")
    await expect(table2).to_have_attribute("data-totals", "90,72")
    again = [c for c in site.server.clients if c.nickname.startswith("Wall")]
    assert [c.player_id for c in again] == [player]  # the same identity, no question asked
    await expect(wall).to_have_attribute("data-state", "open")
    await expect(page.locator("#wall-offline")).to_have_count(0)

    closed = await command(organiser, code, drawn["version"], "close")
    await expect(wall).to_have_attribute("data-phase", "between")
    await expect(page.locator("#wall-round")).to_contain_text("after round 1 of 2")
    await expect(page.locator("#wall-standing li")).to_have_count(len(NAMES))
    await shot(page, "wall-between.png")
    await fits(page)

    nxt = await command(organiser, code, closed["version"], "draw")
    await expect(wall).to_have_attribute("data-phase", "draw")
    await expect(page.locator("#wall-round")).to_have_attribute("data-round", "2")
    sheets = sorted(qr_source(f"{origin}/?sheet={t['code']}") for t in nxt["tables"])
    assert not {t["code"] for t in nxt["tables"]} & {first["code"], second["code"]}
    await expect(page.locator("img.wall-table-qr")).to_have_count(2)
    assert [s for s in await qr_codes_shown(page) if "sheet" in s] == sheets
    await shot(page, "wall-round2.png")
    await fits(page)
    await command(organiser, code, nxt["version"], "close")  # nothing entered: the end
    await expect(wall).to_have_attribute("data-phase", "over")
    await expect(page.locator("#wall-round")).to_have_text("Final standing")
    await expect(page.locator("img.wall-table-qr")).to_have_count(0)
    await shot(page, "wall-over.png")
    await fits(page)

    assert await page.evaluate("() => window.sameDocument") is True  # never reloaded
    own = urlsplit(site.url).netloc
    assert asked and [u for u in asked if urlsplit(u).netloc not in (own, "")] == []
    tab.assert_clean()


async def test_the_names_checked_in_show_as_they_come(site: Site, open_tab) -> None:
    organiser = await site.bot("organiser")
    made = await organiser.request({"type": "evening_create", "name": "Dinsdag"}, "evening")
    code, version = made["codes"]["organiser"], made["version"]
    tab, _ = await open_wall(open_tab, code)
    page = tab.page
    await expect(page.locator("#wall")).to_have_attribute("data-phase", "checkin")
    await expect(page.locator("#wall-checkin li")).to_have_count(0)
    names = [f"Speler {i:02d} van de Club" for i in range(1, 41)]
    for name in names:
        version = (await command(organiser, code, version, "check_in", name=name))["version"]
    await expect(page.locator("#wall-checkin h2")).to_have_text("40 players checked in")
    await expect(page.locator("#wall-checkin li")).to_have_text(names)  # all at once
    await shot(page, "wall-checkin.png")
    await fits(page)
    tab.assert_clean()


async def test_twelve_tables_show_at_once(site: Site, open_tab) -> None:
    names = [f"Speler {i:02d} van de Club" for i in range(1, 49)]  # long names: type shrinks
    _, drawn = await evening(site, names, deals=16)
    assert len(drawn["tables"]) == 12
    tab, _ = await open_wall(open_tab, drawn["codes"]["organiser"])
    page = tab.page
    tables = page.locator("#wall-tables")
    await expect(page.locator("#wall")).to_have_attribute("data-phase", "draw")
    await expect(tables).to_have_attribute("data-pages", "1")
    await expect(page.locator(".wall-table img.wall-table-qr")).to_have_count(12)
    await shot(page, "wall-12-draw.png")
    await fits(page)
    await enter(await site.bot("table3"), drawn["tables"][2]["code"], 120)
    await expect(page.locator("#wall")).to_have_attribute("data-phase", "playing")
    await expect(tables).to_have_attribute("data-pages", "1")
    await expect(page.locator(".wall-table")).to_have_count(12)
    await expect(page.locator(".wall-table[data-table='3']")).to_have_attribute(
        "data-totals", "120,42"
    )
    await shot(page, "wall-12-playing.png")
    await fits(page)
    tab.assert_clean()


async def test_fifty_tables_take_turns_and_fit(site: Site, open_tab) -> None:
    names = [f"Speler {i:03d}" for i in range(1, 201)]
    _, drawn = await evening(site, names, deals=16)
    assert len(drawn["tables"]) == 50
    tab, _ = await open_wall(open_tab, drawn["codes"]["organiser"], "&seconds=3")
    page = tab.page
    tables = page.locator("#wall-tables")
    await expect(page.locator("#wall")).to_have_attribute("data-phase", "draw")
    pages = int(await tables.get_attribute("data-pages") or 0)
    shown = await page.locator(".wall-table").count()
    assert pages > 1 and shown * pages >= 50 and shown * (pages - 1) < 50, (pages, shown)
    await expect(page.locator(".wall-table").first).to_have_attribute("data-table", "1")
    await shot(page, "wall-50-draw.png")
    await fits(page)
    await expect(tables).to_have_attribute("data-page", "2")  # its turn, with nobody asking
    await expect(page.locator(".wall-table").first).to_have_attribute("data-table", str(shown + 1))
    await fits(page)

    await enter(await site.bot("table7"), drawn["tables"][6]["code"], 120)
    await expect(page.locator("#wall")).to_have_attribute("data-phase", "playing")
    standing = page.locator("#wall-standing")
    await expect(standing.locator("li").first).to_be_visible()
    assert int(await standing.get_attribute("data-pages") or 0) > 1
    await shot(page, "wall-50-playing.png")
    await fits(page)
    # Each page comes round in turn: table 7's and the standing's first, live.
    await expect(page.locator(".wall-table[data-table='7']")).to_have_attribute(
        "data-totals", "120,42"
    )
    leaders = standing.locator("li[data-rank='1']")
    await expect(leaders).to_have_count(2, timeout=90_000)  # its page's turn: 3 s a page
    await expect(leaders.first).to_have_attribute("data-total", "120")
    tab.assert_clean()


async def test_what_the_wall_shows_by_its_code(site: Site, open_tab) -> None:
    _, drawn = await evening(site, NAMES[:8])
    tab, _ = await open_wall(open_tab, drawn["codes"]["view"])  # anyone's code
    page = tab.page
    await expect(page.locator("#wall")).to_have_attribute("data-role", "view")
    await expect(page.locator(".wall-table")).to_have_count(2)
    await expect(page.locator("img.wall-table-qr")).to_have_count(0)  # no table's code
    await expect(page.locator("img.wall-qr")).to_have_count(1)  # the view link's
    await expect(page.locator(".wall-foot")).to_contain_text("organiser code")
    await page.goto(f"{tab.url}wall?evening=WRONGCODE1")
    await expect(page.locator("#wall")).to_have_attribute("data-phase", "problem")
    problem = page.locator(".wall-problem[data-code='bad_evening_code']")
    await expect(problem).to_contain_text("evening")
    await page.goto(f"{tab.url}wall")  # no code: nothing to connect for
    await expect(page.locator("#wall")).to_have_attribute("data-phase", "problem")
    await expect(page.locator(".wall-problem[data-code='no_code']")).to_contain_text(
        "/wall?evening="
    )
    tab.assert_clean()
