"""Playing at the table, on a desktop and on a phone (issue 14, items 1, 3, 4 and 11, and
the turn alerts).

Seeded matches against random CPUs (``scripted.py``), the page's decisions tapped where
they are on the screen (never scrolled to).
"""

from __future__ import annotations

import re

import pytest
from playwright.async_api import expect

from engine import Match, Rules
from tests.browser.conftest import Site
from tests.browser.scripted import (
    Script,
    Step,
    decision,
    play_steps,
    seed_rooms,
    setup_table,
    simulate,
)
from tests.browser.ui import SCREENSHOTS, TEXT_NODES, Tab, whole_numbers
from tests.browser.viewports import DESKTOP, PHONE, SIZES, outside_viewport, scroll_y, tag, tap

pytestmark = pytest.mark.browser

SEED = 11


async def _seated(tab: Tab, script: Script, size: dict[str, int], **kw) -> str:
    page = tab.page
    await page.set_viewport_size(size)
    await tab.hello("ann")
    room_id = await setup_table(tab, deals=len(script.deals), seat=script.seat, **kw)
    return room_id


async def _shot(tab: Tab, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    await tab.page.screenshot(path=str(SCREENSHOTS / name), animations="disabled")


# -- item 1: everything of the play on the screen, without scrolling ---------------------------


@SIZES
async def test_the_table_fits_the_screen_without_scrolling(
    site: Site, open_tab, monkeypatch: pytest.MonkeyPatch, size: dict[str, int]
) -> None:
    # the dealer names trump: the page (seat 0, the first dealer) chooses in deal 1
    rules = Rules.from_dict({"deals": 1, "trump_mode": "dealer"})
    script = simulate(rules, SEED)
    seed_rooms(monkeypatch, SEED)
    tab: Tab = await open_tab()
    page = tab.page
    await _seated(tab, script, size, trump_mode="dealer")
    # the lobby's form is far down a phone's page: the table opens at its top
    assert await scroll_y(page) == 0
    ready = page.locator("#ready")
    await expect(ready).to_be_visible()
    assert not await outside_viewport(ready), await outside_viewport(ready)
    await tap(page, ready)
    await tab.expect_dealt()
    assert await scroll_y(page) == 0

    moments = {"trump": 0, "trick": 0}

    async def everything_in_sight(step: Step) -> None:
        assert await scroll_y(page) == 0, "the page scrolled"
        wanted = [
            "#trump-info .ti-deal", '#scoreline [data-team="0"]', '#scoreline [data-team="1"]',
            "#hand button.card", "#timer",
        ]  # fmt: skip
        if step.action.startswith("trump:"):
            wanted.append("#bids button[data-action]")
            moments["trump"] += 1
            await _shot(tab, f"trump-choice{tag(size)}.png")
        else:
            wanted += ["#trump-info .ti-trump", "#trump-info .ti-chooser"]
        if step.trick:
            await expect(page.locator("#trick .played")).to_have_count(len(step.trick))
            wanted.append("#trick .played")
            if step.trump:
                moments["trick"] += 1
                if moments["trick"] == 2:
                    await _shot(tab, f"table-play{tag(size)}.png")
        for selector in wanted:
            located = page.locator(selector)
            assert await located.count(), f"no {selector}"
            assert not await outside_viewport(located), await outside_viewport(located)
        if step.trump:
            await expect(page.locator("#trump-info")).to_have_attribute("data-trump", step.trump)
            await expect(page.locator("#trump-info .ti-chooser")).to_have_text("by you")
        await expect(page.locator("#trump-info .ti-deal")).to_have_text("Deal 1 of 1")
        if moments["trick"] == 3:  # the last trick, shown on any screen
            await tap(page, page.locator("#show-last-trick"))
            box = page.locator("#last-trick")
            await expect(box.locator(".played")).to_have_count(4)
            assert not await outside_viewport(box), await outside_viewport(box)
            await tap(page, box.get_by_role("button", name="Close"))
            await expect(box).to_be_hidden()

    await play_steps(tab, script.steps, before=everything_in_sight)
    assert moments["trump"] == 1 and moments["trick"] >= 3, moments
    await expect(page.locator("#result")).to_be_visible()
    assert await scroll_y(page) == 0
    tab.assert_clean()


# -- item 3: CPUs by their own names --------------------------------------------------------

CPU_NAME = re.compile(r"\w+ \(CPU, random\)")
BARE_CPU = re.compile(r"\bCPU\b")


async def _no_bare_cpu(tab: Tab) -> None:
    """Nothing on the table calls a player just "CPU" (or "CPU left")."""
    text = await tab.table.inner_text()
    rest = CPU_NAME.sub("", text)
    assert not BARE_CPU.search(rest), rest[max(0, BARE_CPU.search(rest).start() - 80) :][:160]


ENTRANT = """async (t) => {
  const lobby = await import('/web/lobby.js');
  return t.registered.map((r) => lobby.entrantName(t, r.id));
}"""


@SIZES
async def test_cpus_are_called_by_their_own_names(
    site: Site, open_tab, monkeypatch: pytest.MonkeyPatch, size: dict[str, int]
) -> None:
    rules = Rules.from_dict({"deals": 1})
    script = simulate(rules, SEED)
    seed_rooms(monkeypatch, SEED)
    tab: Tab = await open_tab()
    page = tab.page
    await _seated(tab, script, size)
    names = {
        seat: await page.locator(f'.seat[data-seat="{seat}"] .name').inner_text()
        for seat in (1, 2, 3)
    }
    assert all(CPU_NAME.fullmatch(n) for n in names.values()) and len(set(names.values())) == 3, (
        names
    )
    await tab.ready()
    await tab.expect_dealt()
    chooser = script.deals[0]["chooser"]

    async def look(step: Step) -> None:
        await _no_bare_cpu(tab)
        if step.trump and chooser != 0:
            await expect(page.locator("#trump-info .ti-chooser")).to_have_text(
                f"by {names[chooser]}"
            )
        if step.tricks_done and not step.trick and ":" not in step.action:
            # the last trick says who won it
            await tap(page, page.locator("#show-last-trick"))
            box = page.locator("#last-trick")
            await expect(box).to_contain_text(re.compile(r"Won by (you|\w+ \(CPU, random\)):"))
            await tap(page, box.get_by_role("button", name="Close"))

    await play_steps(tab, script.steps, before=look)
    await expect(page.locator("#result")).to_be_visible()
    await _no_bare_cpu(tab)
    announce = page.locator("#announce")
    for seat, name in names.items():
        if seat == chooser:
            await expect(announce).to_contain_text(f"{name} chooses")
    await expect(page.locator('#sheet tr[data-deal="0"] td.trump')).to_contain_text(
        "ann" if chooser == 0 else names[chooser]
    )
    for seat, name in names.items():
        await expect(
            page.locator(f'#match-stats thead th[data-team="{seat % 2}"]')
        ).to_contain_text(name)

    # a tournament's CPU entrants by their names (the tournament view's lists and places)
    summary = {"registered": [
        {"id": "p_1", "nickname": "ann", "cpu": False},
        {"id": "c_1", "nickname": "Anna (CPU, strong)", "cpu": True},
    ], "rounds": []}  # fmt: skip
    assert await page.evaluate(ENTRANT, summary) == ["ann", "Anna (CPU, strong)"]
    tab.assert_clean()


# -- item 4: a reload keeps the table talk and the chat -----------------------------------------


@SIZES
async def test_a_reload_keeps_the_table_talk_and_the_chat(
    site: Site, open_tab, monkeypatch: pytest.MonkeyPatch, size: dict[str, int]
) -> None:
    rules = Rules.from_dict({"deals": 1})
    script = simulate(rules, SEED)
    seed_rooms(monkeypatch, SEED)
    tab: Tab = await open_tab()
    page = tab.page
    room_id = await _seated(tab, script, size)
    await page.locator("#chat-input").fill("hello table")
    await page.locator("#chat-input").press("Enter")
    await expect(page.locator("#chat-log")).to_contain_text("hello table")
    await tab.ready()
    await tab.expect_dealt()
    await play_steps(tab, script.steps[:3])
    announce = page.locator("#announce li")
    await expect(announce.filter(has_text="The match starts")).to_have_count(1)
    before = await announce.all_inner_texts()
    talk = before[next(i for i, t in enumerate(before) if "The match starts" in t) :]
    assert len(talk) >= 4, talk

    await page.reload()
    await expect(tab.table).to_be_visible()
    await expect(tab.table).to_have_attribute("data-room-id", room_id)
    await expect(page.locator("#chat-log")).to_contain_text("hello table")
    await expect(announce.filter(has_text="The match starts")).to_have_count(1)
    after = await announce.all_inner_texts()
    start = next(i for i, t in enumerate(after) if "The match starts" in t)
    assert after[start : start + len(talk)] == talk, (talk, after)  # (play went on meanwhile)

    await play_steps(tab, script.steps[3:])
    await expect(page.locator("#result")).to_be_visible()
    await expect(page.locator("#announce")).to_contain_text("the match")
    await expect(page.locator("#chat-log li")).to_have_count(1)
    tab.assert_clean()


# -- item 11: the sheet is "Us | Them" from any seat ---------------------------------------------


@pytest.mark.parametrize(
    ("size", "seat"), [(DESKTOP, 1), (PHONE, 3)], ids=["desktop-seat1", "phone-seat3"]
)
async def test_the_sheet_says_us_then_them_from_any_seat(
    site: Site, open_tab, monkeypatch: pytest.MonkeyPatch, size: dict[str, int], seat: int
) -> None:
    rules = Rules.from_dict({"deals": 1})
    script = simulate(rules, SEED, seat=seat)
    seed_rooms(monkeypatch, SEED)
    tab: Tab = await open_tab()
    page = tab.page
    room_id = await _seated(tab, script, size)
    await tab.ready()
    await tab.expect_dealt()
    await play_steps(tab, script.steps)
    await expect(page.locator("#result")).to_be_visible()
    match = Match.from_record(await site.record(room_id))
    us, them = seat % 2, 1 - seat % 2

    heads = page.locator("#sheet thead th[data-team]")
    await expect(heads).to_have_text(["Us", "Them"])
    assert [await h.get_attribute("data-team") for h in await heads.all()] == [str(us), str(them)]
    row = page.locator('#sheet tr[data-deal="0"] td.score')
    assert [await c.get_attribute("data-team") for c in await row.all()] == [str(us), str(them)]
    score = match.sheet[0].result.score
    for cell, team in zip(await row.all(), (us, them), strict=True):
        assert whole_numbers(await cell.locator(".score-main").inner_text()) == [score[team]]
    totals = page.locator("#sheet tfoot td.total")
    assert [whole_numbers(t) for t in await totals.all_inner_texts()] == [
        [match.totals[us]],
        [match.totals[them]],
    ]
    for where in (
        "#totals .team-score",
        "#scoreline [data-team]",
        "#match-stats thead th[data-team]",
    ):
        teams = await page.locator(where).evaluate_all("els => els.map(e => e.dataset.team)")
        assert teams == [str(us), str(them)], (where, teams)
    await expect(page.locator("#totals .team-score").first).to_contain_text("Us")
    first = await page.locator("#result .final-score").evaluate(TEXT_NODES)
    assert first.startswith(f"Us {match.totals[us]}"), first
    tab.assert_clean()


# -- turn alerts: a sound, the title ------------------------------------------------------------

FAKE_AUDIO = """
window.__tones = 0;
class FakeAudio {
  constructor() { this.state = 'running'; this.currentTime = 0; this.destination = {}; }
  resume() { return Promise.resolve(); }
  createOscillator() {
    return {
      type: '', frequency: { value: 0 }, connect: (n) => n, stop() {},
      start: () => { window.__tones += 1; },
    };
  }
  createGain() {
    return { gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} }, connect: (n) => n };
  }
}
window.AudioContext = FakeAudio;
"""


@SIZES
async def test_your_turn_is_heard_and_in_the_title(
    site: Site, open_tab, monkeypatch: pytest.MonkeyPatch, size: dict[str, int]
) -> None:
    rules = Rules.from_dict({"deals": 1})
    script = simulate(rules, SEED)
    seed_rooms(monkeypatch, SEED)
    tab: Tab = await open_tab()
    page = tab.page
    await page.context.add_init_script(FAKE_AUDIO)
    await page.reload()
    room_id = await _seated(tab, script, size)
    sound = page.locator("#sound")
    await expect(sound).to_have_attribute("aria-pressed", "true")
    await tab.ready()
    await tab.expect_dealt()
    first, rest = script.steps[0], script.steps[1:]
    await expect(decision(tab, first.action)).to_be_visible()
    assert await page.evaluate("window.__tones") > 0, "no sound on the first turn"
    assert "Your turn" in await page.title()

    # the title says so on any screen
    await tap(page, page.locator("#to-lobby"))
    await expect(page.locator("#lobby")).to_be_visible()
    assert "Your turn" in await page.title(), await page.title()
    await page.locator(f'#my-rooms button[data-open-room="{room_id}"]').click()
    await expect(tab.table).to_be_visible()

    # switched off, remembered
    await tap(page, sound)
    await expect(sound).to_have_attribute("aria-pressed", "false")
    assert await page.evaluate("localStorage.getItem('klaverjas.sound')") == "off"
    await play_steps(tab, [first])
    tones = await page.evaluate("window.__tones")
    await play_steps(tab, rest[:2])
    assert await page.evaluate("window.__tones") == tones, "a sound while switched off"
    await page.reload()
    await expect(page.locator("#sound")).to_have_attribute("aria-pressed", "false")
    await expect(tab.table).to_be_visible()
    tab.assert_clean()
