"""Giving memory back once the load falls.

CPython frees most objects the moment their last reference goes, but objects in reference
cycles wait for the garbage collector: each closed connection leaves one (3.11's selector
transport refers to itself through a bound method), and so does each rated match (the
rating library's closures).  ``klaverjas serve`` raises the old generations' thresholds so
that a busy server is never paused by a full collection, so those wait long.  And what is
freed stays in the process: the C allocator keeps free pages for reuse.

``klaverjas serve`` runs the collector for a busy server (:func:`tend_collector`): what
outlives the young collections is frozen, which keeps cycles among those objects until a
full collection that thaws them.

So every ``every`` seconds the server compares its load (connections plus the rooms and
tournaments it runs) with the peak since it last tidied: once the load is at most half of
that peak, it collects every generation and asks the C allocator to return its free pages
(``malloc_trim``, glibc only, in a thread).  A steady load never triggers it.  The
collection holds the loop for as long as it walks what is alive: a few ms once the
clients have gone, longer when a large load only halves (not measured; the log line
``memory_tidied`` says how long each took).
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import gc
import time
from collections.abc import Callable
from typing import Protocol

from .logs import log


class Counted(Protocol):
    def inc(self) -> None: ...


def _trimmer() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim``, or None where the C library has none (musl, macOS)."""
    try:
        return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim
    except (OSError, AttributeError):
        return None


_TRIM = _trimmer()


YOUNG = 400  # net new tracked objects between young collections (CPython's default: 700)
YOUNG_EVERY = 0.05  # seconds: the longest time between two young collections
MIDDLE = 500  # young collections between middle ones: the same objects' worth as 2,000 x 100


async def tend_collector(tenure: float, freezes: Counted) -> None:
    """The collector of ``klaverjas serve``, until cancelled.  What start-up built is frozen;
    the young collections are kept small and frequent, and the old ones rare (every
    collection walks the futures and coroutines in flight, one set per connection).

    Young: CPython counts allocations less deallocations, so when a move frees the room
    state it replaces, the count barely rises while the young generation fills: at 1,000
    tables a threshold of 2,000 let it reach about 16,000 objects, each collection 4-12 ms
    (a latency tail of their own).  At :data:`YOUNG` they come six times as often, under
    2 ms each, and take less in all (bench figures in docs/performance.md, "Memory").  But
    when old objects die in numbers (a deal's end frees what was frozen), the count stalls
    for good: at 2,000 tables the collections fell from 30 a second to 2 or 3, each
    walking what half a second had made and holding the loop 40-250 ms.  So none is ever
    more than :data:`YOUNG_EVERY` away: a tick that finds none came since the last
    collects the young generation itself.

    Every ``tenure`` seconds (0: never) what has outlived the young collections is frozen
    (``gc.freeze`` costs nothing), so a middle-generation collection walks only what came
    since: at 2,000 tables it walked every wait in flight and held the loop 160-190 ms.
    The freeze also comes early once half of :data:`MIDDLE` young collections have come
    since the last, so none comes between two freezes however often the young ones do (on
    PostgreSQL, about 110 a second at 2,000 tables: a middle one every 4.5 s, up to 250 ms
    each, before the freeze every 5 s could come).  A frozen object is still
    freed when its last reference goes; one in a reference cycle waits for
    :meth:`Tidy.tidy`.  Each freeze counts on ``freezes``: not the objects frozen, which
    ``gc.get_freeze_count`` finds by walking them all (at 2,000 tables, over 100 ms of the
    loop on every scrape of ``/metrics``)."""
    gc.collect()
    gc.freeze()
    freezes.inc()
    gc.set_threshold(YOUNG, MIDDLE, 1_000)
    loop = asyncio.get_running_loop()
    frozen_at = loop.time()
    young = gc.get_count()[1]  # young collections since the last middle one or freeze
    while True:
        await asyncio.sleep(YOUNG_EVERY)
        if gc.get_count()[1] == young:  # none came by the count: one by the clock
            gc.collect(0)
        young = gc.get_count()[1]
        if tenure > 0 and (loop.time() - frozen_at >= tenure or young >= MIDDLE // 2):
            gc.freeze()
            freezes.inc()
            frozen_at = loop.time()
            young = gc.get_count()[1]  # (the freeze set every generation's count to 0)


class Tidy:
    """Watches the load and tidies memory when it has halved (see the module docstring)."""

    def __init__(self, load: Callable[[], int], every: float, tidied: Counted) -> None:
        self.load = load
        self.every = every
        self.tidied = tidied
        self.peak = 0
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._watch(), name="tidy")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    async def _watch(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            await self.check()

    async def check(self) -> None:
        """Tidy if the load has fallen to half of its peak since the last time."""
        load = self.load()
        self.peak = max(self.peak, load)
        if self.peak and load <= self.peak // 2:
            await self.tidy()
            self.peak = load

    async def tidy(self) -> None:
        started = time.perf_counter()
        frozen = gc.get_freeze_count() > 0  # (:func:`tend_collector` froze what lives long)
        gc.unfreeze()
        freed = gc.collect()
        if frozen:
            gc.freeze()
        collected = time.perf_counter() - started
        if _TRIM is not None:
            await asyncio.to_thread(_TRIM, 0)
        self.tidied.inc()
        log.info(
            "memory_tidied", freed=freed, collect_ms=round(1000 * collected, 1),
            load=self.load(), peak=self.peak,
        )  # fmt: skip
