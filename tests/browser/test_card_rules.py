"""A card that may not be played says why, in words (issue 14, item 7), in both variants.

The server says why (``why_not``: a code and the suit or card it names) and the page puts
it in words; the words are checked against the engine's own refusals (``Match.check``):
every refused card of many random positions through the page's ``cardrules.js``, and in a
real match, a tap on such a card in the page.
"""

from __future__ import annotations

import pytest
from playwright.async_api import expect

from engine import Rules
from tests.browser.conftest import Site
from tests.browser.scripted import (
    Script,
    Step,
    find_seed,
    play_steps,
    seed_rooms,
    setup_table,
    simulate,
)
from tests.browser.ui import Tab
from tests.browser.viewports import SIZES, outside_viewport, tap

pytestmark = pytest.mark.browser

SUIT = {"clubs": "c", "diamonds": "d", "hearts": "h", "spades": "s"}
WHY = """async (cases) => {
  const rules = await import('/web/cardrules.js');
  return cases.map(([card, why]) => rules.whyWords(card, why));
}"""


def agrees(engine: str, page: str, trump: str, led: str) -> bool:
    """Whether the page's sentence says what the engine's reason says."""
    if engine.startswith("must follow "):
        suit = engine.removeprefix("must follow ")
        if SUIT[suit] == trump:
            return f"Trump was led: you must play a trump ({suit})" in page
        return f"You must follow {suit}" in page
    if engine == "must play a higher trump":
        return page.startswith("Trump was led: you must play a trump higher than the")
    if engine.startswith("must trump higher"):
        return "You must trump higher than the" in page
    if engine == "may not undertrump":  # a lower trump: undertrumping, or not trumping over
        return "may not undertrump" in page or "You must trump higher than the" in page
    if engine == "must trump":
        return "must trump" in page
    return False


KINDS = (
    "must follow",
    "must play a higher trump",
    "must trump higher",
    "may not undertrump",
    "must trump",
)


def kind(reason: str) -> str:
    return next(k for k in KINDS if reason.startswith(k))


def trump_rule(reason: str) -> bool:
    return not reason.startswith("must follow")


def cases(script: Script) -> list[tuple[tuple[str, dict], str, Step]]:
    """Each refused card of the script: (the card and the server's reason, the engine's
    reason, its step)."""
    out = []
    for step in script.steps:
        assert set(step.why_not) == set(step.refused), step
        for card, reason in step.refused.items():
            out.append(((card, step.why_not[card]), reason, step))
    return out


async def test_every_refusal_is_explained_as_the_engine_does(open_tab) -> None:
    tab: Tab = await open_tab()
    seen: set[tuple[str, str]] = set()
    for variant in ("amsterdam", "rotterdam"):
        rules = Rules.from_dict({"deals": 1, "variant": variant})
        for seed in range(1, 200):
            found = cases(simulate(rules, seed))
            if not found:
                continue
            said = await tab.page.evaluate(WHY, [case for case, _, _ in found])
            for (case, reason, step), page in zip(found, said, strict=True):
                led = step.trick[0][1][1]
                assert agrees(reason, page, step.trump, led), (variant, reason, page, case)
                assert "{" not in page and page.endswith("."), page
                seen.add((variant, kind(reason)))
    # every kind of refusal came up, in both variants
    for variant in ("amsterdam", "rotterdam"):
        assert {k for v, k in seen if v == variant} == set(KINDS), (variant, seen)
    tab.assert_clean()


def _trump_refusal(script: Script) -> bool:
    return any(trump_rule(r) for s in script.steps for r in s.refused.values())


@pytest.mark.parametrize("variant", ["amsterdam", "rotterdam"])
@SIZES
async def test_a_card_that_may_not_be_played_says_why(
    site: Site, open_tab, monkeypatch: pytest.MonkeyPatch, size: dict[str, int], variant: str
) -> None:
    rules = Rules.from_dict({"deals": 1, "variant": variant})
    script = find_seed(rules, _trump_refusal)
    seed_rooms(monkeypatch, script.seed)
    tab: Tab = await open_tab()
    page = tab.page
    await page.set_viewport_size(size)
    await tab.hello("ann")
    await setup_table(tab, deals=1, variant=variant)
    await tab.ready()
    await tab.expect_dealt()
    told: list[str] = []
    toast = page.locator("#toast")
    live = page.locator("#live")

    async def tap_a_refused_card(step: Step) -> None:
        if not step.refused:
            return
        # the page marks exactly the cards the engine refuses, and they stay tappable
        marked = await page.locator('#hand button.card[aria-disabled="true"]').evaluate_all(
            "els => els.map(e => e.dataset.card)"
        )
        assert sorted(marked) == sorted(step.refused), (marked, step.refused)
        card = next((c for c, r in step.refused.items() if trump_rule(r)), next(iter(step.refused)))
        version = await tab.version()
        await tap(page, page.locator(f'#hand button.card[data-card="{card}"]'))
        await expect(toast).to_have_attribute("data-kind", "illegal")
        await expect(toast).to_have_attribute("data-card", card)
        await expect(toast).to_have_class("toast visible")
        # (the page draws on its next frame: the toast of an earlier tap on the same card may
        # still be up, with that tap's reason, until then)
        reason = step.refused[card]
        said = await toast.inner_text()
        for _ in range(50):
            if agrees(reason, said, step.trump or "", step.trick[0][1][1]):
                break
            await page.wait_for_timeout(20)
            said = await toast.inner_text()
        assert agrees(reason, said, step.trump or "", step.trick[0][1][1]), (reason, said)
        # read out (a status, not hidden from screen readers), on the screen, nothing played
        await expect(toast).to_have_attribute("role", "status")
        assert await toast.get_attribute("aria-hidden") is None
        assert not await outside_viewport(toast), await outside_viewport(toast)
        assert await tab.version() == version
        told.append(reason)
        # screen readers hear the others' cards and their turn
        await expect(live).to_have_attribute("aria-live", "polite")
        await expect(live).to_contain_text("Your turn: play a card.")
        if step.trick:
            await expect(live).to_contain_text("plays the")

    await play_steps(tab, script.steps, before=tap_a_refused_card)
    await expect(page.locator("#result")).to_be_visible()
    assert any(trump_rule(r) for r in told), told
    tab.assert_clean()
