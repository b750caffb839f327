"""Limits by client address and in all, as a client behind a proxy or a crowd meets them.

Behind a trusted proxy (``trust_forwarded``) a client's address is the last entry of
``X-Forwarded-For``: the one the proxy appended (``deploy/nginx.conf`` uses
``$proxy_add_x_forwarded_for``).  Whatever a client writes in the header itself comes
before it, so a forged header never gets a client round a limit.  Here the test plays the
proxy: each connection says it comes from ``PROXIED`` after whatever the client forged.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import urllib.error
import urllib.request
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from server.core.errors import Refused
from server.edge.limits import FailedAttempts
from tests.server.conftest import Harness, running_harness

pytestmark = pytest.mark.server

PROXIED = "198.51.100.7"  # the client's real address, as the proxy appends it
OTHER = "198.51.100.8"  # another client behind the same proxy
TOO_MANY = (1013, "too many connections: try again later")


def forged(index: int, real: str = PROXIED) -> list[tuple[str, str]]:
    """The headers a proxy passes on for a client that forged its own ``X-Forwarded-For``
    (a new address each time, as an attacker would)."""
    return [("X-Forwarded-For", f"203.0.113.{index}, 10.0.{index}.1, {real}")]


@contextlib.asynccontextmanager
async def ws(h: Harness, headers: list[tuple[str, str]]) -> AsyncIterator[ClientConnection]:
    async with connect(h.url, additional_headers=headers, close_timeout=1) as conn:
        yield conn


async def hello(conn: ClientConnection, message: dict[str, Any]) -> dict[str, Any] | None:
    """The reply to a hello, or None if the connection was closed instead."""
    try:
        await conn.send(json.dumps({"type": "hello", **message}))
        return json.loads(await asyncio.wait_for(conn.recv(), 5))
    except ConnectionClosed:
        return None


async def closed(conn: ClientConnection) -> tuple[int | None, str]:
    with contextlib.suppress(ConnectionClosed):
        async with asyncio.timeout(5):
            async for _ in conn:
                pass
    return conn.close_code, conn.close_reason or ""


async def http_get(h: Harness, path: str, headers: list[tuple[str, str]]) -> int:
    assert h.server is not None
    request = urllib.request.Request(f"http://127.0.0.1:{h.server.port}{path}")
    for name, value in headers:
        request.add_header(name, value)

    def get() -> int:
        direct = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        try:
            with direct.open(request, timeout=10) as response:
                return response.status
        except urllib.error.HTTPError as err:
            return err.code

    return await asyncio.to_thread(get)


# -- behind a proxy ------------------------------------------------------------------------


async def test_a_forged_forwarded_header_does_not_raise_max_per_address(tmp_path: Path) -> None:
    async with (
        running_harness(tmp_path, trust_forwarded=True, max_per_address=2) as h,
        ws(h, forged(1)) as first,
        ws(h, forged(2)) as second,
    ):
        for n, conn in enumerate((first, second)):
            assert (await hello(conn, {"nickname": f"ann{n}"}))["type"] == "welcome"
        async with ws(h, forged(3)) as third:
            assert await closed(third) == TOO_MANY  # the same client, whatever it forged
        # two headers read as one list: still the proxy's entry last
        two = [("X-Forwarded-For", "203.0.113.9"), ("X-Forwarded-For", f"1.2.3.4, {PROXIED}")]
        async with ws(h, two) as fourth:
            assert await closed(fourth) == TOO_MANY
        async with ws(h, forged(4, real=OTHER)) as other:  # another client is let in
            assert (await hello(other, {"nickname": "bob"}))["type"] == "welcome"
        without = [("X-Forwarded-For", PROXIED)]  # what a client that forges nothing sends
        async with ws(h, without) as plain:
            assert await closed(plain) == TOO_MANY


async def test_a_forged_forwarded_header_does_not_reset_wrong_attempts(tmp_path: Path) -> None:
    async with running_harness(tmp_path, trust_forwarded=True, attempts=3) as h:
        for n in range(3):
            async with ws(h, forged(n)) as conn:
                reply = await hello(conn, {"token": "x" * 32})
                assert reply is not None and reply["code"] == "bad_token", reply
        async with ws(h, forged(7)) as conn:
            reply = await hello(conn, {"token": "y" * 32})
            assert reply is not None and reply["code"] == "too_many_attempts", reply
        # wrong sheet codes over HTTP count against the same address, and are refused alike
        assert await http_get(h, "/sheets/WRONGCODE9.csv", forged(8)) == 429
        assert await http_get(h, "/sheets/WRONGCODE9.csv", forged(8, real=OTHER)) == 404
        async with ws(h, forged(9, real=OTHER)) as conn:
            reply = await hello(conn, {"token": "z" * 32})
            assert reply is not None and reply["code"] == "bad_token", reply


async def test_without_trust_the_forwarded_header_is_ignored(tmp_path: Path) -> None:
    """A server not told it is behind a proxy counts the socket's address alone."""
    async with running_harness(tmp_path, max_per_address=1) as h, ws(h, forged(1)) as first:
        assert (await hello(first, {"nickname": "ann"}))["type"] == "welcome"
        async with ws(h, forged(2, real=OTHER)) as second:
            assert await closed(second) == TOO_MANY


# -- in all ----------------------------------------------------------------------------------


async def test_the_total_connection_cap(tmp_path: Path) -> None:
    """``max_connections`` caps the connections of every address together: one more is
    closed at once with 1013, and once one goes a new one is let in."""
    async with running_harness(
        tmp_path, trust_forwarded=True, max_connections=3, max_per_address=10
    ) as h:
        addresses = [f"198.51.100.{n}" for n in range(1, 5)]
        async with contextlib.AsyncExitStack() as stack:
            held = [await stack.enter_async_context(ws(h, forged(n, a)))
                    for n, a in enumerate(addresses[:3])]  # fmt: skip
            for n, conn in enumerate(held):
                assert (await hello(conn, {"nickname": f"p{n}"}))["type"] == "welcome"
            async with ws(h, forged(9, addresses[3])) as fourth:
                assert await closed(fourth) == TOO_MANY
            await held[0].close()
            async with asyncio.timeout(5):
                while len(h.server.clients) > 2:  # type: ignore[union-attr]
                    await asyncio.sleep(0.01)
            async with ws(h, forged(9, addresses[3])) as again:
                assert (await hello(again, {"nickname": "late"}))["type"] == "welcome"
            for conn in held[1:]:  # the others were never disturbed
                await conn.send(json.dumps({"type": "ping", "ref": "still"}))
                assert json.loads(await conn.recv())["ref"] == "still"


# -- the memory of wrong attempts ------------------------------------------------------------


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def test_wrong_attempts_forget_addresses_whose_window_has_passed() -> None:
    """An address that failed once and never came back is not kept for ever: the next
    failure anywhere, a window later, forgets it."""
    clock = Clock()
    attempts = FailedAttempts(3, 60.0, clock)
    for n in range(5000):
        attempts.failed(f"10.1.{n // 256}.{n % 256}")
        clock.t += 0.001
    assert len(attempts.failures) == 5000
    clock.t += 30.0
    attempts.failed("10.9.9.9")
    assert len(attempts.failures) == 5001  # still within their window
    clock.t += 31.0
    attempts.failed("10.9.9.8")
    assert set(attempts.failures) == {"10.9.9.9", "10.9.9.8"}
    clock.t += 60.0
    attempts.failed("10.9.9.7")
    assert set(attempts.failures) == {"10.9.9.7"}


def test_wrong_attempts_keep_a_bounded_number_of_addresses_and_still_limit() -> None:
    clock = Clock()
    attempts = FailedAttempts(3, 60.0, clock, most=100)
    for _ in range(3):
        attempts.failed("10.0.0.1")
    for n in range(99):  # as many others as fit beside it
        attempts.failed(f"10.2.0.{n}")
    with pytest.raises(Refused) as err:
        attempts.check("10.0.0.1")
    assert err.value.code == "too_many_attempts"
    for n in range(500):
        attempts.failed(f"10.3.{n // 256}.{n % 256}")
    assert len(attempts.failures) == 100  # the ones that failed longest ago went first
    for _ in range(10):  # an address failing on and on keeps one deque of ``limit``
        attempts.failed("10.3.0.0")
    assert len(attempts.failures["10.3.0.0"]) == 3
    with pytest.raises(Refused):
        attempts.check("10.3.0.0")
