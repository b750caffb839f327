"""The web client (``server/web``) in a real Chromium against an in-process server.

Chromium is Debian's ``/usr/bin/chromium``; Playwright never downloads a browser. When it
is missing, a session fixture installs it with ``apt-get`` (as root) and otherwise fails:
these tests never skip, in CI or anywhere else.

The server runs in the test's event loop on a loopback port (like ``tests/server``'s
Harness) but on the real clock: CPU seats act after ``cpu_delay`` on the server's clock,
so a ManualClock would stall every match. Turn timers are kept out of the way by long
``move_seconds`` instead.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import urllib.request
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Browser, async_playwright

from client import GameClient
from server.app import Server
from server.core.config import Settings
from tests.browser.ui import Tab

os.environ.setdefault("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")

CHROMIUM = Path("/usr/bin/chromium")

# Quick CPUs (strong ones search little), no stray tournaments; each test module may
# override ``site_settings``.
SITE_DEFAULTS: dict[str, Any] = {
    "cpu_delay": 0.05, "quick_when_full": False, "quick_schedule": "off", "bot_budget": 2,
    "deal_pause": 0.0,  # a module that tests the pause between deals sets it in site_settings
    "max_per_address": 1000,  # every page and bot comes from 127.0.0.1
    "rate": 1000.0, "burst": 1000,  # websocket bots act far faster than people
    "check_frames": True,  # every frame sent matches the published schema
}  # fmt: skip


@dataclass
class Site:
    """A running server: its page's address, websocket bots, and its HTTP endpoints."""

    server: Server
    bots: list[GameClient] = field(default_factory=list)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.port}/"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.server.port}/"

    async def bot(self, nickname: str) -> GameClient:
        """A websocket player, welcomed under ``nickname``."""
        client = await GameClient.connect(self.ws_url)
        self.bots.append(client)
        welcome = await client.hello(nickname)
        assert welcome["type"] == "welcome", welcome
        return client

    async def get_json(self, path: str) -> Any:
        def fetch() -> Any:
            direct = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # loopback
            with direct.open(self.url + path.lstrip("/"), timeout=10) as reply:
                return json.loads(reply.read())

        return await asyncio.to_thread(fetch)

    async def record(self, match_id: str) -> dict[str, Any]:
        """The finished match's record, over HTTP (``/matches/<id>``)."""
        return await self.get_json(f"/matches/{match_id}")


def _apt_install_chromium() -> None:
    if os.geteuid() != 0:
        pytest.fail(
            f"{CHROMIUM} is missing and these tests are not running as root, so they cannot "
            "install it: run `apt-get install -y chromium` (Debian's package; Playwright "
            "must not download a browser). Browser tests never skip."
        )
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    install = ["apt-get", "install", "-y", "--no-install-recommends", "chromium"]
    done = subprocess.run(install, env=env, capture_output=True, text=True, timeout=900)
    if done.returncode != 0:  # stale package lists: refresh once and try again
        subprocess.run(["apt-get", "update"], env=env, capture_output=True, timeout=600)
        done = subprocess.run(install, env=env, capture_output=True, text=True, timeout=900)
    if done.returncode != 0 or not CHROMIUM.exists():
        pytest.fail(
            f"`{' '.join(install)}` failed (exit {done.returncode}), so {CHROMIUM} is "
            f"missing:\n{done.stderr[-2000:]}"
        )


@pytest.fixture(scope="session")
def chromium() -> str:
    """The path of Debian's Chromium, installed first if need be (fails, never skips)."""
    if not CHROMIUM.exists():
        _apt_install_chromium()
    return str(CHROMIUM)


@pytest.fixture
def site_settings() -> dict[str, Any]:
    return {}


@pytest.fixture
async def site(tmp_path: Path, site_settings: dict[str, Any]) -> AsyncIterator[Site]:
    settings = Settings(
        port=0, db=str(tmp_path / "klaverjas.sqlite3"), **{**SITE_DEFAULTS, **site_settings}
    )
    server = Server(settings)
    await server.start()
    running = Site(server)
    try:
        yield running
    finally:
        for bot in running.bots:
            await bot.close()
        await server.stop()


@pytest.fixture
async def browser(chromium: str, site: Site) -> AsyncIterator[Browser]:
    """Headless Chromium; closed before the server stops (it depends on ``site``)."""
    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(
            executable_path=chromium, args=["--no-sandbox"], headless=True
        )
        try:
            yield launched
        finally:
            await launched.close()


@pytest.fixture
async def open_tab(browser: Browser, site: Site) -> AsyncIterator[Callable[..., Awaitable[Tab]]]:
    """``await open_tab(path="/")``: a fresh browser context (its own localStorage) with
    one page on the site, watched for console errors and page errors.  ``size``: the
    viewport, ``(width, height)``; ``bypass_csp``: let the test inject scripts (the
    accessibility audit only: the page's own Content-Security-Policy refuses them)."""
    tabs: list[Tab] = []

    async def open_one(
        path: str = "/", *, size: tuple[int, int] = (1280, 860), bypass_csp: bool = False
    ) -> Tab:
        width, height = size
        context = await browser.new_context(
            viewport={"width": width, "height": height}, bypass_csp=bypass_csp
        )
        page = await context.new_page()
        tab = Tab(page, site.url)
        tabs.append(tab)
        await page.goto(site.url + path.lstrip("/"))
        return tab

    yield open_one
    for tab in tabs:  # shown with a failing test's captured output
        print(f"--- console of {tab.name or 'a tab'} ---", *tab.log, sep="\n")
