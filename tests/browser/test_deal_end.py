"""The end of a deal and of the match at the table (issue 14, items 2, 6 and 12).

Seeded matches against random CPUs (``scripted.py``): the test knows every deal's result
before the page shows it. The room pauses between deals (``deal_pause``) until the page's
player continues.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.async_api import expect

from engine import Match, Rules
from tests.browser.conftest import Site
from tests.browser.scripted import Script, Step, find_seed, play_steps, seed_rooms, setup_table
from tests.browser.ui import SCREENSHOTS, TEXT_NODES, Tab, whole_numbers
from tests.browser.viewports import SIZES, outside_viewport, tag, tap

pytestmark = pytest.mark.browser

PAUSE = 30.0  # seconds: long enough that only Continue ends it


@pytest.fixture
def site_settings() -> dict[str, Any]:
    return {"deal_pause": PAUSE}


NATURAL = "AKQJT987"


def roem_cards(cards: list[str], trump: str, parts: dict[str, int]) -> set[str]:
    """The cards of a trick behind its roem, as a player points them out."""
    out: set[str] = set()
    if parts["run"]:
        length = 4 if parts["run"] >= 50 else 3
        for suit in "cdhs":
            ranks = sorted(NATURAL.index(c[0]) for c in cards if c[1] == suit)
            for start in range(len(ranks) - length + 1):
                streak = ranks[start : start + length]
                if streak == list(range(streak[0], streak[0] + length)):
                    out |= {NATURAL[r] + suit for r in streak}
    if parts["four"]:
        out |= set(cards)
    if parts["stuk"]:
        out |= {c for c in cards if c[1] == trump and c[0] in "KQ"}
    return out


def _roem_then_ours(script: Script) -> tuple[dict[str, Any], Step] | None:
    """A trick of deal 0 with roem right before one of the page's card plays (the last
    trick then shows it), and that play."""
    for deal, trick in script.tricks:
        if deal or not trick["roem"]:
            continue
        for step in script.steps_of(0):
            if (
                step.tricks_done == trick["number"]
                and step.action not in ("pass",)
                and ":" not in step.action
            ):
                return trick, step
    return None


def _nat_with_roem_shown(script: Script) -> bool:
    return script.deals[0]["nat"] and _roem_then_ours(script) is not None


async def _team_cells(row, team: int) -> list[int]:
    return whole_numbers(await row.locator(f'td[data-team="{team}"]').evaluate(TEXT_NODES))


@SIZES
async def test_a_deal_ends_with_a_panel_that_explains_a_nat(
    site: Site, open_tab, monkeypatch: pytest.MonkeyPatch, size: dict[str, int]
) -> None:
    rules = Rules.from_dict({"deals": 2})
    script = find_seed(rules, _nat_with_roem_shown)
    seed_rooms(monkeypatch, script.seed)
    tab: Tab = await open_tab()
    page = tab.page
    await page.set_viewport_size(size)
    await tab.hello("ann")
    room_id = await setup_table(tab, deals=2)
    await tab.ready()
    await tab.expect_dealt()

    trick, at = _roem_then_ours(script)  # type: ignore[misc]
    trump = script.deals[0]["trump"]

    async def look_at_the_last_trick(step: Step) -> None:
        if step is not at:
            return
        # the last trick, with the cards of its roem marked, on any screen
        await tap(page, page.locator("#show-last-trick"))
        box = page.locator("#last-trick")
        await expect(box).to_be_visible()
        assert not await outside_viewport(box), await outside_viewport(box)
        shown = await box.locator(".played").evaluate_all("els => els.map(e => e.dataset.card)")
        assert sorted(shown) == sorted(trick["cards"]), (shown, trick)
        marked = await box.locator(".played.roem").evaluate_all(
            "els => els.map(e => e.dataset.card)"
        )
        assert set(marked) == roem_cards(trick["cards"], trump, trick["roem_parts"]), (
            marked,
            trick,
        )
        await tap(page, box.get_by_role("button", name="Close"))
        await expect(box).to_be_hidden()

    await play_steps(tab, script.steps_of(0), before=look_at_the_last_trick)

    # the room pauses: the panel, and no trump choice over it
    end = page.locator("#deal-end")
    await expect(end).to_be_visible()
    await expect(end).to_have_attribute("data-deal", "0")
    await expect(end).to_have_attribute("data-nat", "true")
    await expect(tab.table).to_have_attribute("data-pause", "true")
    await expect(page.locator("#bids")).to_be_hidden()
    await expect(tab.table).to_have_attribute("data-my-turn", "false")

    deal = script.deals[0]
    chooser_name = await page.locator(f'.seat[data-seat="{deal["chooser"]}"] .name').inner_text()
    await expect(end.locator("h2")).to_contain_text(chooser_name)
    for key in ("card_points", "roem", "score", "totals"):
        row = end.locator(f'tr[data-row="{key}"]')
        for team in (0, 1):
            assert await _team_cells(row, team) == [deal[key][team]], (key, team, deal)
    # roem by kind adds up to each team's roem (no pit here)
    for team in (0, 1):
        kinds = 0
        for kind in ("run", "four", "stuk", "bonus"):
            row = end.locator(f'tr[data-row="{kind}"]')
            if await row.count():
                kinds += (await _team_cells(row, team))[0]
        assert kinds == deal["roem"][team], (team, deal)
    # the first column is ours
    await expect(end.locator("thead th[data-team]").first).to_have_attribute("data-team", "0")

    # nat in words: who played, that they did not score more, what the others take
    playing, other = deal["chooser"] % 2, 1 - deal["chooser"] % 2
    verdict = end.locator('.deal-verdict[data-verdict="nat"]')
    await expect(verdict).to_be_visible()
    said = await verdict.inner_text()
    assert re.search(r"\bnat\b", said, re.I) and "did not score more" in said, said
    assert "162" in said and str(deal["score"][other]) in said, said
    made = [deal["card_points"][t] + deal["roem"][t] for t in (0, 1)]
    assert str(made[playing]) in said and str(made[other]) in said, said
    assert ("they take" if other == 1 else "we take") in said, said

    # the sheet says what the award is made of
    award = page.locator(f'#sheet tr[data-deal="0"] td[data-team="{other}"]')
    await expect(award).to_contain_text("162 + all roem")
    assert "did not score more" in (await award.get_attribute("title") or "")

    # who has seen it, the countdown, and Continue
    await expect(page.locator('#deal-end-seen li[data-seat="0"]')).to_have_attribute(
        "data-seen", "false"
    )
    countdown = page.locator("#deal-end-countdown")
    await expect(countdown).to_have_text(re.compile(r"\d+ s"))
    left = whole_numbers(await countdown.inner_text())[0]
    assert 0 < left <= PAUSE, left
    go = page.locator("#continue")
    await expect(go).to_be_enabled()
    assert not await outside_viewport(go), await outside_viewport(go)
    assert not await outside_viewport(end.locator(".overlay-card h2")), (
        "the panel's title is off-screen"
    )
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    await page.screenshot(path=str(SCREENSHOTS / f"deal-end{tag(size)}.png"), animations="disabled")
    await tap(page, go)
    # the only player has seen it: the room resumes and the next deal is played
    await expect(end).to_be_hidden()
    await expect(tab.table).to_have_attribute("data-pause", "false")
    await play_steps(tab, script.steps_of(1))
    await expect(page.locator("#result")).to_be_visible()
    assert await tab.room_id() == room_id
    tab.assert_clean()


def _team_stats(match: Match, team: int) -> dict[str, float]:
    """What the match-end panel is to say of ``team`` (the profile's rules: roem without
    pit bonuses, points per deal to one decimal)."""
    sheet = match.sheet
    chose = [d for d in sheet if d.chooser % 2 == team]
    bonus = sum(
        100 for d in sheet
        if d.result.pit == team and (match.rules.pit_bonus.value == "any" or d.chooser % 2 == team)
    )  # fmt: skip
    return {
        "chooser": sum(not d.result.nat for d in chose),
        "nat": sum(d.result.nat for d in chose),
        "pits": sum(d.result.pit == team for d in sheet),
        "roem": sum(d.result.roem[team] for d in sheet) - bonus,
        "points_per_deal": round(sum(d.result.score[team] for d in sheet) / len(sheet), 1),
    }


HIT = """box => {
    const result = document.querySelector('#result');
    const r = box.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return Boolean(hit && result.contains(hit));
}"""


@SIZES
async def test_the_match_ends_with_its_numbers_and_nothing_over_them(
    site: Site, open_tab, monkeypatch: pytest.MonkeyPatch, size: dict[str, int]
) -> None:
    rules = Rules.from_dict({"deals": 1})
    script = find_seed(rules, lambda s: s.deals[0]["nat"] and len(s.deals) == 1)
    seed_rooms(monkeypatch, script.seed)
    tab: Tab = await open_tab()
    page = tab.page
    await page.set_viewport_size(size)
    await tab.hello("ann")
    room_id = await setup_table(tab, deals=1)
    await tab.ready()
    await tab.expect_dealt()
    await play_steps(tab, script.steps)

    result = page.locator("#result")
    await expect(result).to_be_visible()
    # shown at once, above the last trick: no fade-in while the trick still lies there
    opacity = await result.evaluate("el => getComputedStyle(el).opacity")
    assert opacity == "1", f"#result is shown with opacity {opacity}"
    await expect(page.locator("#last-trick")).to_be_hidden()
    buttons = result.locator("button:visible")
    for button in await buttons.all():
        assert await button.evaluate(HIT), f"{await button.inner_text()!r} is covered"
    for name in ("Rematch", "Review this match", "Back to the lobby"):
        button = result.get_by_role("button", name=name)
        await expect(button).to_be_visible()
        assert not await outside_viewport(button), await outside_viewport(button)

    match = Match.from_record(await site.record(room_id))
    await expect(result).to_have_attribute("data-winner", str(match.winner))
    stats = result.locator("#match-stats")
    await expect(stats).to_be_visible()
    for team in (0, 1):
        wanted = _team_stats(match, team)
        for key, value in wanted.items():
            cell = stats.locator(f'tr[data-stat="{key}"] td[data-team="{team}"]')
            assert float(await cell.get_attribute("data-value") or "nan") == value, (key, team)
            assert str(value).removesuffix(".0") in await cell.inner_text(), (key, team)
    # the teams by their players, the CPUs by their own names
    for seat in (1, 2, 3):
        name = await page.locator(f'.seat[data-seat="{seat}"] .name').inner_text()
        assert re.fullmatch(r"\w+ \(CPU, random\)", name), name
        await expect(stats.locator(f'thead th[data-team="{seat % 2}"]')).to_contain_text(name)
    await expect(result.locator(".deal-verdict")).to_contain_text("Nat")
    await page.screenshot(
        path=str(SCREENSHOTS / f"match-end{tag(size)}.png"), animations="disabled"
    )
    tab.assert_clean()
