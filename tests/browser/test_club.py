"""A club and its season in real browsers (issue 35, items 1, 8 and 9): the founder, on a
phone, founds a club, adds members (one renamed, one removed) and a co-organiser, whose
link opens the organisers' screen in a browser of her own; sets the season's rule (best
evening counts, two evenings to be ranked) and reads it in words; makes an evening for the
club and checks its members in with one tap each (one by typing a member's name, and the
buttons are back after a reload of the console); the evening's tables enter their deals
over the websocket and the round is closed.  A second evening of the club, run by the
co-organiser over the websocket, brings four of them to two evenings.  The club's screen
then shows the season's standing as worked out by hand (score, total, evenings, who is
ranked), each player's evenings, the prizes and the points champion as the CSV it
downloads says; the public link shows the standing and the evenings but no code of any
organiser, evening or table.  axe-core finds no serious violation; screenshots are saved
to look at."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Page, expect

from client import GameClient
from server.club.prizes import shared_ranks
from tests.browser.axe import audit, report
from tests.browser.conftest import Site
from tests.browser.test_sheet import PHONE
from tests.browser.ui import SIZES, Tab, cut_labels, shot
from tests.server.test_evenings import all_entered, command, enter, until

pytestmark = [pytest.mark.browser, pytest.mark.club]

CODE = re.compile(r"^[0-9A-Z]{10}$")
MEMBERS = ("Anna", "Bas", "Cor", "Dirk", "Els", "Fenna", "Gijs", "Hans")


async def phone(open_tab, nickname: str, path: str = "/") -> Tab:
    """A page at a phone's size (its policy bypassed for the accessibility audit), welcomed."""
    opened: Tab = await open_tab(path, size=(PHONE["width"], PHONE["height"]), bypass_csp=True)
    await opened.hello(nickname)
    return opened


async def no_violations(page: Page, what: str) -> None:
    violations = await audit(page, "#club")
    assert not violations, f"{what}:\n{report(violations)}"
    assert not await cut_labels(page, "#club"), (what, await cut_labels(page, "#club"))


async def no_violations_evening(page: Page, what: str) -> None:
    violations = await audit(page, "#evening")
    assert not violations, f"{what}:\n{report(violations)}"
    assert not await cut_labels(page, "#evening"), (what, await cut_labels(page, "#evening"))


async def tab(page: Page, view: str) -> None:
    await page.locator(f"#club-tab-{view}").click()
    await expect(page.locator("#club")).to_have_attribute("data-view", view)


async def type_names(page: Page, form: str, *names: str) -> None:
    """Each name typed and sent at once, one after another (the page queues them)."""
    field = page.locator(f"{form} [name=name]")
    for name in names:
        await field.fill(name)
        await field.press("Enter")


async def member_id(page: Page, name: str) -> str:
    found = await page.locator("#club-member-list li", has_text=name).get_attribute("data-member")
    assert found, name
    return found


def code_of(link: str, key: str) -> str:
    code = link.rsplit(f"?{key}=", 1)[1]
    assert CODE.match(code), link
    return code


async def play_tables(phones: list[GameClient], evening: dict[str, Any], pts: list[int],
                      totals: dict[str, int]) -> None:  # fmt: skip
    """Each table of the evening's round enters one deal (team 0 plays and takes ``pts``);
    ``totals`` gets each player's score, by name."""
    names = {e["id"]: e["name"] for e in evening["evening"]["entrants"]}
    for bot, table, points in zip(phones, evening["tables"], pts, strict=True):
        for seat, entrant in enumerate(table["entrants"]):
            totals[names[entrant]] = points if seat % 2 == 0 else 162 - points
        await enter(bot, table["code"], points)


async def second_evening(site: Site, co_code: str, ids: dict[str, str], who: list[str],
                         table: GameClient) -> dict[str, int]:  # fmt: skip
    """An evening of the club run over the websocket by the co-organiser: ``who`` checked in
    by their member ids, one round of one table, closed; each player's total, by name."""
    desk = await site.bot("desk2")
    made = await desk.request(
        {"type": "evening_create", "name": "Week 2", "deals": 1, "rounds": 1, "club": co_code},
        "evening",
    )  # fmt: skip
    assert made["type"] == "evening" and made["evening"]["club"], made
    code, version = made["codes"]["organiser"], made["version"]
    for name in who:
        now = await command(desk, code, version, "check_in", member=ids[name])
        assert now["type"] == "evening", now
        version = now["version"]
    drawn = await command(desk, code, version, "draw")
    assert drawn["type"] == "evening", drawn
    totals: dict[str, int] = {}
    await play_tables([table], drawn, [120], totals)
    done = await until(desk, all_entered(1))
    closed = await command(desk, code, done["version"], "close")
    assert closed["type"] == "evening", closed
    return totals


async def test_a_club_and_its_season_from_the_organisers_phone(site: Site, open_tab) -> None:
    org = await phone(open_tab, "joke")
    o = org.page

    # a club, from the lobby
    await o.locator("#club-button").click()
    form = o.locator("#club-new-form")
    await expect(form.get_by_role("button", name="Found the club")).to_be_visible()
    await form.locator("[name=name]").fill("De Troefkaart")
    await shot(o, "club-new-phone.png")
    await form.get_by_role("button", name="Found the club").click()
    await expect(o.locator("#club")).to_have_attribute("data-role", "organiser")
    await expect(o.locator("#club-title")).to_have_text("De Troefkaart")
    await expect(o.locator("#club")).to_have_attribute("data-view", "members")
    assert "?club=" in o.url

    # members, typed one after another; one renamed, one removed (asked first)
    await type_names(o, "#club-member-add", *MEMBERS[:3], "Dik", *MEMBERS[4:], "Ivo")
    await expect(o.locator("#club-member-list li")).to_have_count(9)
    dik = await member_id(o, "Dik")
    await o.locator(f'button[data-rename-member="{dik}"]').click()
    rename = o.locator(f'form.club-rename[data-member="{dik}"]')
    await rename.locator("[name=name]").fill("Dirk")
    await rename.get_by_role("button", name="Save").click()
    await expect(o.locator(f'#club-member-list li[data-member="{dik}"]')).to_have_text(
        re.compile(r"^Dirk")
    )
    ivo = await member_id(o, "Ivo")
    await o.locator(f'button[data-remove-member="{ivo}"]').click()
    await expect(o.locator('dialog#confirm[data-kind="remove_member"]')).to_be_visible()
    await expect(o.locator("#confirm-title")).to_contain_text("Ivo")
    await o.locator('#confirm [data-confirm="yes"]').click()
    await expect(o.locator("#club-member-list li")).to_have_count(8)
    ids = {name: await member_id(o, name) for name in MEMBERS}
    await expect(o.locator("#club-head")).to_contain_text("8 members")
    await no_violations(o, "the members")
    await shot(o, "club-members-phone.png")

    # a co-organiser: her link, with a QR code, opens the organisers' screen in her browser
    await tab(o, "share")
    await type_names(o, "#club-organiser-add", "Bea")
    bea = o.locator('#club-organiser-list li[data-organiser="o2"]')
    await expect(bea).to_contain_text("Bea")
    co_link = await bea.locator("input").input_value()
    co_code = code_of(co_link, "club")
    qr = await bea.locator("img.qr").get_attribute("src") or ""
    assert qr.startswith("/qr.svg?text=") and f"%3Fclub%3D{co_code}" in qr, qr
    links = o.locator("#club-links")
    founder = code_of(await links.locator('[data-link="organiser"] input').input_value(), "club")
    view = code_of(await links.locator('[data-link="view"] input').input_value(), "club")
    assert len({founder, view, co_code}) == 3
    await expect(o.locator("#club-qr")).to_have_attribute("src", re.compile(r"^/qr\.svg\?text="))
    await no_violations(o, "the links and organisers")
    await shot(o, "club-links-phone.png")

    co = await phone(open_tab, "bea", co_link.removeprefix(site.url.rstrip("/")))
    c = co.page
    await expect(c.locator("#club")).to_have_attribute("data-role", "organiser")
    await expect(c.locator("#club-title")).to_have_text("De Troefkaart")
    await tab(c, "share")
    await expect(
        c.locator('#club-organiser-list li[data-organiser="o2"] .chip.you')
    ).to_be_visible()
    await expect(c.locator('#club-links [data-link="organiser"] input')).to_have_value(co_link)
    await tab(c, "members")
    await expect(c.locator("#club-member-list li")).to_have_count(8)

    # the season's rule: each player's best evening counts, two evenings to be ranked, the
    # top two and the lowest win; the page says so in words before it is saved
    await tab(o, "season")
    season = o.locator("#club-season-form")
    await season.locator("[name=count]").select_option("best")
    await season.locator("[name=best]").fill("1")
    await season.locator("[name=minimum]").fill("2")
    await season.locator("[name=top]").fill("2")
    explain = o.locator("#club-season-explain")
    await expect(explain).to_contain_text("best evening counts.")
    await expect(explain).to_contain_text("A player needs 2 evenings to be ranked")
    await expect(explain).to_contain_text("The top 2 places win a prize.")
    await season.locator("[name=periods]").select_option("starts")
    await expect(season.locator("[name=period_start]")).to_have_count(0)
    await season.locator("[data-add-start]").click()
    await expect(season.locator("[name=period_start]")).to_have_count(1)
    await season.locator("[name=period_start]").fill("2020-01-06")
    await expect(explain).to_contain_text("Periods start on")
    await season.locator("[name=periods]").select_option("none")  # not for this club after all
    await no_violations(o, "the season's rule")
    await shot(o, "club-season-phone.png")
    await season.get_by_role("button", name="Save the rule").click()
    await expect(o.locator("#club-season-reset")).to_have_count(0)  # saved: no draft left
    await tab(c, "standing")  # the co-organiser's screen follows
    await expect(c.locator("#club-rule")).to_contain_text("A player needs 2 evenings")

    # an evening for the club: its members checked in with one tap each
    await tab(o, "evenings")
    await o.locator("#club-new-evening").click()
    evening_form = o.locator("#evening-new-form")
    await expect(o.locator("#en-title")).to_have_text("New evening of De Troefkaart")
    await evening_form.locator("[name=name]").fill("Week 1")
    await evening_form.locator("[name=rounds]").fill("1")
    await evening_form.locator("[name=end_value]").fill("1")
    await evening_form.get_by_role("button", name="Start the evening").click()
    await expect(o.locator("#evening")).to_have_attribute("data-role", "organiser")
    await expect(o.locator("#evening-title")).to_have_text("Week 1")
    buttons = o.locator("#evening-members button[data-check-in-member]")
    await expect(buttons).to_have_count(8)
    for name in MEMBERS[:3]:
        await o.locator(f'button[data-check-in-member="{ids[name]}"]').click()
    await expect(o.locator("#evening-entrants li")).to_have_count(3)
    await expect(buttons).to_have_count(5)
    await no_violations_evening(o, "the check-in")
    await shot(o, "club-checkin-phone.png")

    # the console reloaded: the club's members come back from this device's memory
    await o.reload()
    await expect(o.locator("#evening")).to_have_attribute("data-role", "organiser")
    await expect(buttons).to_have_count(5)
    # typing filters the buttons; a member's name typed in full checks that member in
    field = o.locator("#evening-check-in [name=name]")
    await field.fill("i")
    await expect(buttons).to_have_count(2)  # Dirk, Gijs
    await field.fill("dirk")
    await expect(buttons).to_have_count(1)
    await field.press("Enter")
    await expect(o.locator("#evening-entrants li", has_text="Dirk")).to_have_count(1)
    await expect(buttons).to_have_count(4)
    for name in MEMBERS[4:]:
        await o.locator(f'button[data-check-in-member="{ids[name]}"]').click()
    await expect(o.locator("#evening-entrants li")).to_have_count(8)
    await expect(o.locator("#evening-members")).to_contain_text("Every member is here.")
    assert not await o.locator("#evening-entrants").get_by_text("dirk", exact=True).count()

    # the round: drawn here, each table's deal entered at the table, closed here
    desk = await site.bot("desk")  # the co-organiser's desk over the websocket
    club = await desk.request({"type": "club_open", "code": co_code}, "club")
    assert club["type"] == "club" and club["role"] == "organiser", club
    week1 = club["evenings"][0]["code"]
    opened = await desk.request({"type": "evening_open", "code": week1}, "evening")
    assert opened["type"] == "evening", opened
    assert {e["member"] for e in opened["evening"]["entrants"]} == set(ids.values())
    await o.locator("#evening-draw").click()
    await expect(o.locator(".evening-table")).to_have_count(2)
    drawn = await until(desk, lambda f: len(f["tables"]) == 2)
    tables = [await site.bot(f"table{t}") for t in (1, 2)]
    first: dict[str, int] = {}
    await play_tables(tables, drawn, [100, 90], first)
    for table in (1, 2):
        await expect(o.locator(f'.evening-table[data-table="{table}"]')).to_have_attribute(
            "data-state", "finished"
        )
    await o.locator("#evening-close").click()
    await o.locator('#confirm [data-confirm="yes"]').click()
    await expect(o.locator("#evening-round")).to_have_attribute("data-state", "over")

    # a second evening, run by the co-organiser: four of them come
    second = await second_evening(site, co_code, ids, list(MEMBERS[:4]), tables[0])

    # back to the club: the season's standing, by hand
    await o.locator("#evening-club").click()
    await expect(o.locator("#club")).to_have_attribute("data-role", "organiser")
    await tab(o, "evenings")
    await expect(o.locator("#club-evening-list li")).to_have_count(2)
    await expect(o.locator('#club-evening-list li[data-counted="true"]')).to_have_count(2)
    await shot(o, "club-evenings-phone.png")
    await tab(o, "standing")
    rows = o.locator("#club-standing-table tbody tr[data-member]")
    await expect(rows).to_have_count(8)
    expected = {}
    for name in MEMBERS:
        there = [t for t in (first.get(name), second.get(name)) if t is not None]
        expected[name] = (str(max(there)), str(sum(there)), str(len(there)), len(there) >= 2)
    shown = {}
    for row in await rows.all():
        name = await row.locator("th .who-button").inner_text()
        shown[name] = (
            await row.get_attribute("data-score"), await row.get_attribute("data-total"),
            await row.get_attribute("data-attended"),
            await row.get_attribute("data-qualified") == "true",
        )  # fmt: skip
    assert shown == expected
    ranked = [r for r in await rows.all() if await r.get_attribute("data-qualified") == "true"]
    scores = [int(await r.get_attribute("data-score") or -1) for r in ranked]
    assert scores == sorted(scores, reverse=True) and len(scores) == 4
    assert [int(await r.get_attribute("data-rank") or 0) for r in ranked] == shared_ranks(scores)
    await expect(o.locator("#club-standing-table tr.club-unranked")).to_contain_text(
        "fewer than 2 evenings"
    )
    # a player of both evenings: one counted, the other dropped
    both = MEMBERS[0]
    await o.locator(f'button[data-history="{ids[both]}"]').click()
    history = o.locator(f'tr[data-history-of="{ids[both]}"] li')
    await expect(history).to_have_count(2)
    played = {await li.get_attribute("data-status"): await li.get_attribute("data-total")
              for li in await history.all()}  # fmt: skip
    assert played == {"counted": str(max(first[both], second[both])),  # the earlier on a tie
                      "dropped": str(min(first[both], second[both]))}  # fmt: skip
    await expect(o.locator(f'button[data-history="{ids[both]}"]')).to_have_attribute(
        "aria-expanded", "true"
    )
    await no_violations(o, "the standing")
    await shot(o, "club-standing-phone.png")

    # the CSV it downloads says the same: ranks, prizes, the points champion
    async with o.expect_download() as caught:
        await o.locator("#club-csv").click()
    download = await caught.value
    table = list(csv.DictReader(io.StringIO(Path(await download.path()).read_text("utf-8"))))
    assert [r["player"] for r in table] == [await r.locator("th .who-button").inner_text()
                                            for r in await rows.all()]  # fmt: skip
    for line in table:
        row = o.locator(f'#club-standing-table tr[data-member="{ids[line["player"]]}"]')
        await expect(row).to_have_attribute("data-rank", line["rank"])
        await expect(row).to_have_attribute("data-prize", line["prize"])
        await expect(row).to_have_attribute(
            "data-champion", "true" if line["points_champion"] == "yes" else "false"
        )
        assert line["score"] == expected[line["player"]][0]
    assert any(r["points_champion"] == "yes" for r in table)
    champion = next(r["player"] for r in table if r["points_champion"] == "yes")
    await expect(
        o.locator(f'#club-standing-table tr[data-member="{ids[champion]}"] .champion')
    ).to_be_visible()

    # the public link: the standing and the evenings, no control, no code but its own
    watcher = await phone(open_tab, "fan", f"/?club={view}")
    w = watcher.page
    await expect(w.locator("#club")).to_have_attribute("data-role", "view")
    await expect(w.locator("#club-standing-table tbody tr[data-member]")).to_have_count(8)
    for hook in ("#club-tab-members", "#club-tab-season", "#club-tab-share",
                 "#club-new-evening", "[data-rename-member]", "[data-remove-member]",
                 "[data-revoke]"):  # fmt: skip
        await expect(w.locator(hook)).to_have_count(0)
    await no_violations(w, "the public view")
    await shot(w, "club-view-phone.png")
    await tab(w, "evenings")
    await expect(w.locator("#club-evening-list li")).to_have_count(2)
    html = await w.content()
    secrets = {founder, co_code, week1, *(t["code"] for t in drawn["tables"])}
    secrets |= {e["code"] for e in club["evenings"]}
    for secret in secrets:
        assert secret not in html, secret
    await w.locator("#club-evening-list li", has_text="Week 1").get_by_role("link").click()
    await expect(w.locator("#evening")).to_have_attribute("data-role", "view")
    await expect(w.locator("#evening-title")).to_have_text("Week 1")

    # the co-organiser revoked (asked first): her screen turns to the public view
    await tab(o, "share")
    await o.locator('button[data-revoke="o2"]').click()
    await expect(o.locator('dialog#confirm[data-kind="revoke"]')).to_be_visible()
    await expect(o.locator("#confirm-title")).to_contain_text("Bea")
    await o.locator('#confirm [data-confirm="yes"]').click()
    await expect(o.locator('#club-organiser-list li[data-organiser="o2"]')).to_have_count(0)
    await expect(c.locator("#club")).to_have_attribute("data-role", "view")
    await expect(c.locator("#club-tab-share")).to_have_count(0)
    assert f"?club={view}" in c.url and co_code not in c.url  # a reload opens the public view

    await tab(o, "standing")
    await o.set_viewport_size({"width": SIZES["desktop"][0], "height": SIZES["desktop"][1]})
    assert not await cut_labels(o, "#club"), await cut_labels(o, "#club")
    await shot(o, "club-standing-desktop.png")
    for page_tab in (org, co, watcher):
        page_tab.assert_clean()


@pytest.mark.parametrize("language", ("en", "nl", "fr", "pt", "bg", "tl"))
async def test_the_club_in_every_language(site: Site, open_tab, language: str) -> None:
    """The New club form and each tab of the organisers' screen at a phone's size in each
    language: no label cut off, screenshots to look at."""
    page_tab: Tab = await open_tab(f"/?lang={language}", size=(PHONE["width"], PHONE["height"]))
    page = page_tab.page
    await page.locator("#nickname").fill("joke")
    await page.locator("#hello-form button[type=submit]").click()
    await page.locator("#club-button").click()
    form = page.locator("#club-new-form")
    await expect(form.locator("button[type=submit]")).to_be_visible()
    assert not await cut_labels(page, "#club-new"), await cut_labels(page, "#club-new")
    await form.locator("[name=name]").fill("De Troefkaart")
    await form.locator("button[type=submit]").click()
    await expect(page.locator("#club")).to_have_attribute("data-role", "organiser")
    await type_names(page, "#club-member-add", "Anna", "Bas")
    await expect(page.locator("#club-member-list li")).to_have_count(2)
    await tab(page, "share")
    await type_names(page, "#club-organiser-add", "Bea")
    await expect(page.locator("#club-organiser-list > li")).to_have_count(2)
    for view in ("standing", "evenings", "members", "season", "share"):
        await tab(page, view)
        if view == "season":
            await page.locator("#club-season-form [name=count]").select_option("drop")
            await page.locator("#club-season-form [name=periods]").select_option("starts")
            await page.locator("#club-season-form [data-add-start]").click()
            await expect(page.locator("#club-season-explain li").first).to_be_visible()
        assert not await cut_labels(page, "#club"), (view, await cut_labels(page, "#club"))
        if view in ("members", "season"):
            await shot(page, f"club-{language}-{view}-phone.png")
    page_tab.assert_clean()
