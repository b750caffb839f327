"""What the server sends a browser protects the page: every reply carries
``X-Content-Type-Options: nosniff``, ``Referrer-Policy: no-referrer`` (a page's address may
hold an invite or a sheet code) and a Content-Security-Policy (the page: its own scripts
only, no inline script; anything else: no document at all); and a websocket opened by a
page of another site is refused, unless the operator allows that site."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from tests.server.conftest import Harness, running_harness

pytestmark = pytest.mark.server


async def headers(h: Harness, path: str) -> dict[str, str]:
    assert h.server is not None
    reader, writer = await asyncio.open_connection("127.0.0.1", h.server.port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
    head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")[1:]
    writer.close()
    return {k.lower(): v.strip() for k, v in (line.split(":", 1) for line in head if line)}


async def test_every_reply_carries_the_headers_and_the_page_its_policy(harness: Harness) -> None:
    for path in ("/", "/web/app.js", "/rules", "/healthz", "/matches/none", "/sheets/x.csv"):
        got = await headers(harness, path)
        assert got["x-content-type-options"] == "nosniff", path
        assert got["referrer-policy"] == "no-referrer", path
        assert "frame-ancestors 'none'" in got["content-security-policy"], path
    page = (await headers(harness, "/"))["content-security-policy"]
    script = next(d for d in page.split(";") if d.strip().startswith("script-src"))
    assert script.split()[1:] == ["'self'"]  # no 'unsafe-inline', nothing from elsewhere
    assert "connect-src 'self'" in page and "object-src 'none'" in page
    assert (await headers(harness, "/rules"))["content-security-policy"].startswith(
        "default-src 'none'"
    )


async def can_connect(url: str, origin: str | None) -> bool:
    try:
        async with connect(url, origin=origin, proxy=None) as ws:  # type: ignore[arg-type]
            await ws.send('{"type":"ping"}')
            return "pong" in await ws.recv()
    except InvalidStatus as err:
        assert err.response.status_code == 403
        return False


async def test_a_page_of_another_site_may_not_open_a_websocket(harness: Harness) -> None:
    assert harness.server is not None
    own = f"http://127.0.0.1:{harness.server.port}"
    assert await can_connect(harness.url, None)  # no page: a bot, a test, a load generator
    assert await can_connect(harness.url, own)  # our own page
    assert not await can_connect(harness.url, "https://evil.example")
    assert not await can_connect(harness.url, f"http://127.0.0.1:{harness.server.port + 1}")


async def test_the_operator_names_the_sites_that_may(tmp_path: Path) -> None:
    allowed = "https://klaverjas.example, https://cafe.example"
    async with running_harness(tmp_path, "sqlite", allowed_origins=allowed) as h:
        assert h.server is not None
        assert await can_connect(h.url, "https://cafe.example")
        assert not await can_connect(h.url, "https://evil.example")
        assert await can_connect(h.url, "https://klaverjas.example")
        assert await can_connect(h.url, f"http://127.0.0.1:{h.server.port}")  # its own still
        assert await can_connect(h.url, None)
