"""The two screens the table is tested on, and whether an element is seen on them."""

from __future__ import annotations

import pytest
from playwright.async_api import Locator, Page

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}

# ``@SIZES`` on a test: it runs on both screens, with the fixture-like argument ``size``.
SIZES = pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])


def tag(size: dict[str, int]) -> str:
    """A screenshot's suffix: "" on the desktop, "-phone" on the phone."""
    return "-phone" if size == PHONE else ""


BOX = """el => {
    const r = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    const shown = style.visibility !== 'hidden' && style.display !== 'none'
        && !el.closest('[hidden]');
    return {left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width,
            height: r.height, vw: window.innerWidth, vh: window.innerHeight, shown};
}"""


async def outside_viewport(locator: Locator) -> list[str]:
    """Each element of ``locator`` that is not wholly inside the viewport (or not shown),
    described; empty when all are seen without scrolling."""
    out = []
    for i, box in enumerate(await locator.evaluate_all(f"els => els.map({BOX})")):
        inside = (
            box["shown"] and box["width"] > 0 and box["height"] > 0
            and box["left"] >= -0.5 and box["top"] >= -0.5
            and box["right"] <= box["vw"] + 0.5 and box["bottom"] <= box["vh"] + 0.5
        )  # fmt: skip
        if not inside:
            out.append(f"{locator} #{i}: {box}")
    return out


async def scroll_y(page: Page) -> float:
    return await page.evaluate("window.scrollY")


async def tap(page: Page, locator: Locator) -> None:
    """Click ``locator`` where it is on the screen now, as a finger would: once it stands
    still, at its centre, without scrolling (Playwright's own click scrolls when it
    retries, which would hide a page that leaves the table scrolled)."""
    await locator.wait_for(state="visible")
    box, last = None, None
    for _ in range(60):
        box = await locator.bounding_box()
        if box and box == last:
            break
        last = box
        await page.wait_for_timeout(40)
    assert box, f"{locator} has no box to tap"
    await page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
