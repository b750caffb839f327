"""Keepalive over real websockets: a connection that speaks is never pinged; a quiet one
is pinged, kept while it answers, and closed with 1011 once it stops answering."""

from __future__ import annotations

import asyncio
from pathlib import Path

from websockets.frames import Frame, Opcode

from .conftest import running_harness
from .raw_client import RawClient

INTERVAL, TIMEOUT = 0.3, 0.6


async def listen(client: RawClient, seconds: float, *, speak: bool, answer: bool) -> int:
    """Read for ``seconds`` and return the pings heard; ``speak`` sends a ``ping`` message
    every 0.1 s, ``answer`` sends the pongs that the protocol queues."""
    loop = asyncio.get_running_loop()
    end, pings, spoke = loop.time() + seconds, 0, loop.time()
    while (left := end - loop.time()) > 0:
        if speak and loop.time() >= spoke:
            await client.send({"type": "ping"})
            spoke += 0.1
        try:
            event = await asyncio.wait_for(client.event(), min(left, 0.05))
        except TimeoutError:
            continue
        assert event is not None, "the server closed the connection"
        assert not (isinstance(event, Frame) and event.opcode is Opcode.CLOSE), event
        if isinstance(event, Frame) and event.opcode is Opcode.PING:
            pings += 1
        if answer:
            await client.flush()
        else:
            client.protocol.data_to_send()  # the pong it queued is thrown away
    return pings


async def test_a_connection_that_speaks_is_not_pinged_a_quiet_one_is(tmp_path: Path) -> None:
    async with running_harness(tmp_path, ping_interval=INTERVAL, ping_timeout=TIMEOUT) as h:
        raw = await RawClient.connect(h.url)
        try:
            await raw.send({"type": "hello", "nickname": "ann"})
            assert (await raw.message())["type"] == "welcome"
            # five intervals of speaking: never quiet for one
            assert await listen(raw, 5 * INTERVAL, speak=True, answer=True) == 0
            # five of silence, pongs answered: pinged about once an interval, kept open
            assert await listen(raw, 5 * INTERVAL, speak=False, answer=True) >= 3
            # pongs no longer answered: closed with 1011 within interval + timeout (+ ticks)
            async with asyncio.timeout(INTERVAL + TIMEOUT + 1.0):
                messages, code, reason = await raw.until_closed()
        finally:
            raw.close()
        assert (messages, code, reason) == ([], 1011, "keepalive ping timeout")
