"""The accessibility audit: axe-core (from the npm registry, installed by ``make install``
into ``.venv/node``) injected into a page of the client.

The page's Content-Security-Policy refuses injected scripts, so an audited page is opened
in a context that bypasses it (``open_tab(..., bypass_csp=True)``), and only there."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Page

from tests.engine.helpers import ROOT

AXE = ROOT / ".venv" / "node" / "node_modules" / "axe-core" / "axe.min.js"
SERIOUS = ("serious", "critical")


def axe_script() -> Path:
    """axe-core's script, installed with npm first if missing (fails, never skips)."""
    if AXE.exists():
        return AXE
    npm = shutil.which("npm")
    if npm is None:
        pytest.fail(f"{AXE} is missing and there is no npm to install it: run `make install`")
    done = subprocess.run(
        [npm, "install", "--prefix", str(AXE.parents[2]), "--no-audit", "--no-fund",
         "axe-core@4"],
        capture_output=True, text=True, timeout=300, env={**os.environ},
    )  # fmt: skip
    if done.returncode != 0 or not AXE.exists():
        pytest.fail(f"`npm install axe-core@4` failed ({done.returncode}):\n{done.stderr[-2000:]}")
    return AXE


async def audit(page: Page, within: str | None = None) -> list[dict[str, Any]]:
    """axe-core's serious and critical violations of the page (or of ``within``, a
    selector), each with the elements it names, once the page's finite animations have
    ended (a control that fades in is not yet its colour: axe would measure the fade)."""
    if not await page.evaluate("() => typeof window.axe === 'object'"):
        await page.add_script_tag(path=str(axe_script()))
    result = await page.evaluate(
        """async (within) => {
            const context = within ? document.querySelector(within) : document;
            const finite = document.getAnimations().filter(
                (a) => a.effect && a.effect.getTiming().iterations !== Infinity);
            await Promise.all(finite.map((a) => a.finished.catch(() => null)));
            const r = await axe.run(context, { resultTypes: ['violations'] });
            return r.violations.map(v => ({
                id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.map(n => `${n.target.join(' ')}: ${n.failureSummary}`).slice(0, 8),
            }));
        }""",
        within,
    )
    return [v for v in result if v["impact"] in SERIOUS]


def report(violations: list[dict[str, Any]]) -> str:
    lines = []
    for v in violations:
        lines.append(f"{v['impact']} {v['id']}: {v['help']}")
        lines.extend(f"    {node}" for node in v["nodes"])
    return "\n".join(lines)
