"""Injected time: the server reads a clock that tests can drive.

``now()`` is monotonic seconds for deadlines; ``wall()`` is the epoch time sent to clients.
``sleep_until(t)`` returns an awaitable that finishes when ``now() >= t``.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from typing import Protocol


class Clock(Protocol):
    def now(self) -> float: ...

    def wall(self) -> float: ...

    def sleep_until(self, when: float) -> asyncio.Future[None]: ...


class RealClock:
    def now(self) -> float:
        return time.monotonic()

    def wall(self) -> float:
        return time.time()

    def sleep_until(self, when: float) -> asyncio.Future[None]:
        """A future woken by the loop's timer (no task); cancelling it cancels the timer."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        handle = loop.call_at(loop.time() + max(0.0, when - self.now()), _wake, future, when)
        future.add_done_callback(lambda _: handle.cancel())
        return future


def _wake(future: asyncio.Future[None], when: float) -> None:
    """End the sleep, unless the timer fired before ``when``: uvloop's timers run on a
    millisecond clock read once a round, so they may fire up to a millisecond early."""
    if future.done():
        return
    early = when - time.monotonic()
    if early > 0:  # (a cancelled future is seen above: no handle to cancel)
        asyncio.get_running_loop().call_later(early, _wake, future, when)
    else:
        future.set_result(None)


class ManualClock:
    """A clock that moves only when told to; :meth:`advance` wakes the sleepers it passes."""

    def __init__(self, start: float = 1_000.0, wall_offset: float = 1.8e9) -> None:
        self._now = start
        self._offset = wall_offset
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._ids = itertools.count()

    def now(self) -> float:
        return self._now

    def wall(self) -> float:
        return self._now + self._offset

    def sleep_until(self, when: float) -> asyncio.Future[None]:
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        if when <= self._now:
            future.set_result(None)
        else:
            heapq.heappush(self._sleepers, (when, next(self._ids), future))
        return future

    def step_wall(self, seconds: float) -> None:
        """Set the wall clock forward (or back, when negative) alone, as NTP may."""
        self._offset += seconds

    def advance(self, seconds: float) -> None:
        self._now += seconds
        while self._sleepers and self._sleepers[0][0] <= self._now:
            _, _, future = heapq.heappop(self._sleepers)
            if not future.done():
                future.set_result(None)
