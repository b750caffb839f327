"""Driving the web client through the hooks of ``server/web/README.md`` only."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable
from pathlib import Path

from playwright.async_api import ConsoleMessage, Error, Locator, Page, expect
from playwright.async_api import TimeoutError as PlaywrightTimeout

from engine import Match

HOOK_TIMEOUT = 20_000  # ms: the longest any hook may take to show up
expect.set_options(timeout=HOOK_TIMEOUT)

SCREENSHOTS = Path(__file__).with_name("screenshots")

# What the player may click to take a decision: a legal card, a trump choice, take/leave.
DECISIONS = ", ".join(
    (
        "#hand button.card.legal:enabled:visible",
        "#bids button[data-action]:enabled:visible",
        "button[data-action='take']:enabled:visible",
        "button[data-action='leave']:enabled:visible",
    )
)

RANKS = {
    "7": "seven", "8": "eight", "9": "nine", "T": "ten",
    "J": "jack", "Q": "queen", "K": "king", "A": "ace",
}  # fmt: skip
SUITS = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}


def card_words(card: str) -> str:
    """``Jh`` -> ``jack of hearts``, the name of a card of ``#hand`` (its words)."""
    return f"{RANKS[card[0]]} of {SUITS[card[1]]}"


def whole_numbers(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"(?<![\d.])\d+(?![\d.])", text)]


# An element's text node by node ("90", "70 + 20 roem"), so that adjacent inline spans do
# not run their numbers together whatever the stylesheet does.
TEXT_NODES = """element => {
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    const texts = [];
    while (walker.nextNode()) texts.push(walker.currentNode.nodeValue.trim());
    return texts.filter(Boolean).join(' | ');
}"""


def holds(numbers: list[int], wanted: list[int] | tuple[int, ...]) -> bool:
    """``numbers`` hold every one of ``wanted`` (a repeated one as often as it repeats)."""
    rest = list(numbers)
    for n in wanted:
        if n not in rest:
            return False
        rest.remove(n)
    return True


async def expect_numbers(
    locator: Locator, wanted: list[int] | tuple[int, ...], seconds: float = 20
) -> None:
    """Wait until the element shows each of ``wanted`` as a whole number."""
    text = ""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while loop.time() < deadline:
        if await locator.count():
            text = await locator.first.evaluate(TEXT_NODES)
            if holds(whole_numbers(text), wanted):
                return
        await asyncio.sleep(0.1)
    raise AssertionError(f"{locator} shows {text!r}, not the numbers {list(wanted)}")


class Tab:
    """One page of the client, with every console message and page error it produced."""

    def __init__(self, page: Page, url: str) -> None:
        self.page = page
        self.url = url
        self.name = ""
        self.log: list[str] = []
        self.errors: list[str] = []
        page.on("console", self._console)
        page.on("pageerror", self._page_error)

    def _console(self, message: ConsoleMessage) -> None:
        where = message.location.get("url") or ""
        line = f"[{message.type}] {message.text}" + (f" ({where})" if where else "")
        self.log.append(line)
        if message.type == "error":
            self.errors.append(line)

    def _page_error(self, error: Error) -> None:
        line = f"[pageerror] {error.message}"
        self.log.append(line)
        self.errors.append(line)

    def assert_clean(self) -> None:
        assert not self.errors, f"{self.name or 'the page'} logged errors: {self.errors}"

    # -- hooks --------------------------------------------------------------------------

    @property
    def table(self):
        return self.page.locator("#table")

    async def room_id(self) -> str:
        room_id = await self.table.get_attribute("data-room-id")
        assert room_id, "#table has no data-room-id"
        return room_id

    async def version(self) -> int:
        raw = await self.table.get_attribute("data-version")
        assert raw is not None and raw.isdigit(), f"#table[data-version] is {raw!r}"
        return int(raw)

    async def hand(self) -> list[str]:
        return await self.page.locator("#hand button.card").evaluate_all(
            "buttons => buttons.map(b => b.dataset.card)"
        )

    async def error_text(self) -> str:
        error = self.page.locator("#error")
        return (await error.inner_text()) if await error.is_visible() else ""

    # -- steps --------------------------------------------------------------------------

    async def hello(self, nickname: str) -> None:
        """Say who we are in the nickname form, and wait to be welcomed."""
        self.name = nickname
        page = self.page
        await expect(page.locator("#status")).to_have_attribute("data-state", "open")
        await expect(page.locator("#hello-form")).to_be_visible()
        await page.locator("#nickname").fill(nickname)
        await page.locator("#hello-form").get_by_role("button", name="Play").click()
        await expect(page.locator("#me")).to_contain_text(nickname)
        await expect(page.locator("#hello-form")).to_be_hidden()

    async def create_room(
        self, *, deals: int | None = None, private: bool = False, move_seconds: int = 120
    ) -> str:
        """Fill ``#create-room`` and submit it; the new room's id once its table shows."""
        form = self.page.locator("#create-room")
        await expect(form).to_be_visible()
        if deals is not None:
            await form.locator("select[name=end]").select_option("deals")
            await form.locator("input[name=end_value]").fill(str(deals))
        await form.locator("input[name=move_seconds]").fill(str(move_seconds))
        if private:
            await form.locator("input[name=private]").check()
        left = await self.table.get_attribute("data-room-id")  # a room left before, if any
        await form.get_by_role("button", name="Create").click()
        await expect(self.table).to_be_visible()
        await expect(self.table).to_have_attribute("data-room-id", re.compile(r"^r_\w+$"))
        if left:
            await expect(self.table).not_to_have_attribute("data-room-id", left)
        await expect(self.page.locator("#lobby")).to_be_hidden()
        return await self.room_id()

    async def add_cpu(self, seat: int | None = None) -> None:
        """Click an owner's ``add CPU`` button (for ``seat``, or the first one shown)."""
        badges = self.page.locator(".seat .badge-cpu")
        before = await badges.count()
        which = "" if seat is None else f'="{seat}"'
        await self.page.locator(f"button[data-add-cpu{which}]:visible").first.click()
        await expect(badges).to_have_count(before + 1)

    async def ready(self) -> None:
        await self.page.locator("#ready").click()

    async def solo_naming_trump(self) -> None:
        """Start a solo game from the New game dialog in which the dealer names trump: the
        page, the first dealer, is to choose at once (its trump buttons shown)."""
        page = self.page
        await page.locator("#new-game-rules").click()
        form = page.locator("#new-game-form")
        await expect(form.get_by_role("button", name="Play")).to_be_enabled()
        await form.locator("select[name=trump_mode]").select_option("dealer")
        await form.get_by_role("button", name="Play").click()
        await expect(page.locator("#bids button[data-action]").first).to_be_visible()

    async def expect_dealt(self) -> list[str]:
        """Wait for a full hand of eight cards; those cards."""
        await expect(self.page.locator("#hand button.card")).to_have_count(8)
        return await self.hand()

    async def play(
        self,
        until: str,
        *,
        stop: Callable[[], Awaitable[bool]] | None = None,
        seconds: float = 60,
        mid_trick_shot: Path | None = None,
    ) -> int:
        """Take every decision the page offers (the first legal card, trump choice or
        take/leave shown) until ``until`` (a selector) is visible or ``stop()`` is true;
        the number of decisions taken. Each click must move ``#table[data-version]`` on.

        ``mid_trick_shot``: where to save one screenshot taken while 1-3 cards lie in
        ``#trick``."""
        page = self.page
        loop = asyncio.get_running_loop()
        deadline = loop.time() + seconds
        done = page.locator(f"{until}:visible")
        decisions = page.locator(DECISIONS)
        either = page.locator(f"{DECISIONS}, {until}:visible").first
        taken = 0
        while True:
            if stop is not None and await stop():
                return taken
            left = deadline - loop.time()
            assert left > 0, f"{until} did not show within {seconds} s ({taken} decisions)"
            try:
                await either.wait_for(state="visible", timeout=min(left, 20) * 1000)
            except PlaywrightTimeout:
                raise AssertionError(
                    f"nothing to click and no {until} for 20 s after {taken} decisions; "
                    f"#error: {await self.error_text()!r}"
                ) from None
            if await done.count() or (stop is not None and await stop()):
                return taken
            version = await self.version()
            if mid_trick_shot is not None and await self._shot_mid_trick(mid_trick_shot):
                mid_trick_shot = None
            target = decisions.first
            try:
                what = await target.evaluate(
                    "b => b.dataset.card || b.dataset.action || b.outerHTML", timeout=2_000
                )
                await target.click(timeout=5_000)
            except PlaywrightTimeout:
                continue  # it went away under us (re-rendered): look again
            try:
                await expect(self.table).not_to_have_attribute(
                    "data-version", str(version), timeout=10_000
                )
            except AssertionError:
                raise AssertionError(
                    f"clicking {what!r} did not move #table[data-version] from {version}; "
                    f"#error: {await self.error_text()!r}"
                ) from None
            taken += 1
            # also just after our own card: a page that leads every trick still gets one
            if mid_trick_shot is not None and await self._shot_mid_trick(mid_trick_shot):
                mid_trick_shot = None

    async def _shot_mid_trick(self, path: Path) -> bool:
        """Save a screenshot if 1-3 cards lie in ``#trick`` now."""
        if not 1 <= await self.page.locator("#trick .played").count() < 4:
            return False
        path.parent.mkdir(parents=True, exist_ok=True)
        await self.page.screenshot(path=str(path), full_page=True, animations="disabled")
        return True

    async def expect_result_matches(self, match: Match) -> None:
        """``#result``, ``#totals`` and ``#sheet`` agree with the replayed server record."""
        page = self.page
        assert match.winner is not None, "the record is of an unfinished match"
        await expect(page.locator("#result")).to_be_visible()
        await expect(page.locator("#result")).to_have_attribute("data-winner", str(match.winner))
        rows = page.locator("#sheet tr[data-deal]")
        await expect(rows).to_have_count(len(match.sheet))
        for row, deal in zip(await rows.all(), match.sheet, strict=True):
            await expect_numbers(row, deal.result.score, seconds=1)
        for team in (0, 1):
            await expect_numbers(
                page.locator(f'#totals [data-team="{team}"]'), [match.totals[team]]
            )


# The two sizes every page is tested at (issue 14): a laptop and a phone.
SIZES = {"desktop": (1280, 800), "phone": (390, 844)}


async def shot(page: Page, name: str) -> Path:
    """A full-page screenshot in ``screenshots/`` (git-ignored), to look at."""
    path = SCREENSHOTS / name
    path.parent.mkdir(parents=True, exist_ok=True)
    await page.screenshot(path=str(path), full_page=True, animations="disabled")
    return path


async def cut_labels(page: Page, scope: str) -> list[str]:
    """What a player would see cut off under ``scope``: a visible label, legend, button or
    summary wider than its box (``scrollWidth > clientWidth``), or a select with an option
    wider than the select can show (its arrow included)."""
    return await page.locator(scope).evaluate(
        """root => {
            const shown = (e) => e.offsetParent !== null && !e.closest('.sr-only');
            const cut = [...root.querySelectorAll('label, legend, button, summary, th')]
                .filter(e => shown(e) && e.scrollWidth > e.clientWidth)
                .map(e => `${e.tagName.toLowerCase()} "${e.innerText.trim().slice(0, 60)}": `
                    + `${e.scrollWidth} > ${e.clientWidth}`);
            const ctx = document.createElement('canvas').getContext('2d');
            for (const select of root.querySelectorAll('select')) {
                if (!shown(select)) continue;
                const style = getComputedStyle(select);
                ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
                const room = select.clientWidth - parseFloat(style.paddingLeft)
                    - parseFloat(style.paddingRight) - 20;  // the arrow
                for (const option of select.options) {
                    const wide = ctx.measureText(option.text).width;
                    if (wide > room) {
                        const what = `select[name=${select.name}] "${option.text}"`;
                        cut.push(`${what}: ${Math.ceil(wide)} > ${room}`);
                    }
                }
            }
            return cut;
        }"""
    )
