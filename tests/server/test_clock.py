"""The real clock's sleeps end no sooner than asked, on either event loop ``serve`` runs on."""

from __future__ import annotations

import asyncio
import random

import pytest
import uvloop

from server.core.clock import RealClock


async def _sleep_many(clock: RealClock) -> list[float]:
    """How far past (positive) or short of (negative) its time each of many sleeps ended."""
    rng = random.Random(7)
    targets = [clock.now() + rng.uniform(0.0, 0.05) for _ in range(300)]

    async def one(when: float) -> float:
        await clock.sleep_until(when)
        return clock.now() - when

    return list(await asyncio.gather(*(one(t) for t in targets)))


@pytest.mark.parametrize("loop", ["asyncio", "uvloop"])
def test_a_sleep_never_ends_before_its_time(loop: str) -> None:
    # uvloop's timers run on a millisecond clock read once a loop round: left alone, they
    # fire up to a millisecond before time.monotonic() reaches the time asked for
    factory = uvloop.new_event_loop if loop == "uvloop" else None
    with asyncio.Runner(loop_factory=factory) as runner:
        overshoot = runner.run(_sleep_many(RealClock()))
    assert min(overshoot) >= 0.0
