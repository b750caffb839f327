"""Tables whose whole match the test knows before it starts.

The server runs in the test's process, so a test can fix the seed a new room draws
(``seed_rooms``). A CPU decides from its seat's view and a seed made of the room's seed and
the count of actions so far (``Room._seed``), with the server's own :func:`server.bots.decide`;
so, with random CPUs (decided at once, no search) and the page's player taking the
actions of a script, the server plays exactly the match :func:`simulate` plays, and a
test can look for a seed that brings the moment it needs (a nat, roem, a card that may
not be played) and know every score in advance.
"""

from __future__ import annotations

import secrets
import types
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from playwright.async_api import expect

from engine import Match, Rules
from engine.actions import Action
from engine.errors import KlaverjasError
from engine.events import DealEnded, TrickTaken
from engine.views import view
from server.runtime.bots import decide
from tests.browser.ui import Tab
from tests.browser.viewports import tap

CPU_LEVEL = "random"


def seed_rooms(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    """Every room made from now on draws ``seed`` (the rest of ``secrets`` unchanged)."""
    import server.table.rooms as rooms

    fixed = types.SimpleNamespace(
        **{name: getattr(secrets, name) for name in dir(secrets) if not name.startswith("_")}
    )
    fixed.randbits = lambda bits: seed
    monkeypatch.setattr(rooms, "secrets", fixed)


@dataclass
class Step:
    """One of the page's decisions: its action, and what the match was when it came."""

    action: str
    deal: int  # the deal it belongs to (0-based)
    tricks_done: int  # finished tricks of that deal before it
    hand: list[str]
    trick: list[tuple[int, str]]  # (seat, card) in play order
    legal: list[str]
    # each card of the hand the engine refuses here, with its reason ("must follow hearts")
    refused: dict[str, str] = field(default_factory=dict)
    # the same cards as the server tells the page why (the view's ``why_not``)
    why_not: dict[str, dict[str, str]] = field(default_factory=dict)
    trump: str | None = None
    chooser: int | None = None


def refusals(match: Match, seat: int, hand: list[str], legal: list[str]) -> dict[str, str]:
    """The engine's own reason for each card of ``hand`` not in ``legal``."""
    out = {}
    if not any(len(a) == 2 for a in legal):
        return out  # not a card play
    for card in hand:
        if card in legal:
            continue
        try:
            match.check(seat, Action.parse(card))
        except KlaverjasError as err:
            out[card] = str(err).split(": ", 1)[-1]
        else:
            raise AssertionError(f"{card} is legal but not in {legal}")
    return out


@dataclass
class Script:
    rules: Rules
    seed: int
    seat: int
    match: Match
    steps: list[Step] = field(default_factory=list)
    # as the protocol sends them: (deal, trick_taken event), and each deal_ended event
    tricks: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    deals: list[dict[str, Any]] = field(default_factory=list)

    def steps_of(self, deal: int) -> list[Step]:
        return [s for s in self.steps if s.deal == deal]


def first_legal(match: Match, legal: list[str]) -> str:
    return legal[0]


def simulate(
    rules: Rules,
    seed: int,
    seat: int = 0,
    policy: Callable[[Match, list[str]], str] = first_legal,
) -> Script:
    """The match a room seeded ``seed`` plays with random CPUs and the page's player in
    ``seat`` taking ``policy``'s action each time."""
    match = Match(rules, seed)
    script = Script(rules, seed, seat, match)
    while not match.over:
        turn = match.turn
        assert turn is not None
        legal = [str(a) for a in match.legal_actions()]
        if turn == seat:
            v = view(match, seat).to_dict()
            trick = [((v["leader"] + i) % 4, c) for i, c in enumerate(v["trick"])]
            text = policy(match, legal)
            step = Step(text, match.deal_number, len(v["tricks"]), v["hand"], trick, legal)
            step.refused = refusals(match, seat, v["hand"], legal)
            step.why_not = v["why_not"]
            step.trump, step.chooser = v["trump"], v["chooser"]
            script.steps.append(step)
        else:
            text, _ = decide(CPU_LEVEL, view(match, turn), f"{seed}/{len(match.actions)}", 0)
        deal = match.deal_number
        for event in match.apply(turn, Action.parse(text)):
            if isinstance(event, TrickTaken):
                script.tricks.append((deal, event.to_dict()))
            elif isinstance(event, DealEnded):
                script.deals.append(event.to_dict())
    return script


def find_seed(
    rules: Rules, wanted: Callable[[Script], bool], seat: int = 0, tries: int = 3000, **kw
) -> Script:
    for seed in range(1, tries + 1):
        script = simulate(rules, seed, seat, **kw)
        if wanted(script):
            return script
    pytest.fail(f"no seed in 1..{tries} plays a match as this test needs")


async def setup_table(tab: Tab, *, deals: int, seat: int = 0, variant: str | None = None,
                      trump_mode: str | None = None, level: str = CPU_LEVEL) -> str:  # fmt: skip
    """Create a room of ``deals`` deals from the lobby's form (the page in ``seat``), fill
    the other seats with CPUs of ``level``; its id. Not ready yet."""
    page = tab.page
    form = page.locator("#create-room")
    create = form.locator("button[type=submit]")  # "Create", in any of the page's languages
    await expect(create).to_be_enabled()
    if variant:
        await form.locator("select[name=variant]").select_option(variant)
    if trump_mode:
        await form.locator("select[name=trump_mode]").select_option(trump_mode)
    await form.locator("select[name=end]").select_option("deals")
    await form.locator("input[name=end_value]").fill(str(deals))
    await form.locator("input[name=move_seconds]").fill("120")
    await form.locator("select[name=seat]").select_option(str(seat))
    await create.click()
    await expect(tab.table).to_be_visible()
    await expect(page.locator('.seat[data-pos="bottom"]')).to_have_attribute("data-seat", str(seat))
    await page.locator("#cpu-level").select_option(level)
    for other in range(4):
        if other != seat:
            await tab.add_cpu(other)
    return await tab.room_id()


def decision(tab: Tab, action: str):
    """The button that takes ``action`` in the page."""
    if action == "pass" or action.startswith("trump:") or action in ("take", "leave"):
        return tab.page.locator(f'button[data-action="{action}"]:visible')
    return tab.page.locator(f'#hand button.card.legal[data-card="{action}"]:enabled')


async def play_steps(tab: Tab, steps: list[Step], before=None) -> None:
    """Take the script's ``steps`` in the page, each once its button shows, tapping it where
    it is (no scrolling); ``before(step)`` is awaited just before each tap."""
    for step in steps:
        button = decision(tab, step.action)
        try:
            await expect(button).to_be_visible()
        except AssertionError:
            raise AssertionError(
                f"the page offers no {step.action!r} (deal {step.deal + 1}, after "
                f"{step.tricks_done} tricks): the match left the script; "
                f"#error: {await tab.error_text()!r}"
            ) from None
        if before is not None:
            await before(step)
        version = await tab.version()
        await tap(tab.page, button)
        try:
            await expect(tab.table).not_to_have_attribute(
                "data-version", str(version), timeout=5_000
            )
        except AssertionError:  # it moved under the finger: once more
            await tap(tab.page, button)
            await expect(tab.table).not_to_have_attribute("data-version", str(version))
