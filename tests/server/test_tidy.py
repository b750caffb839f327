"""Memory is collected and handed back once the load halves, and not while it holds."""

from __future__ import annotations

import asyncio
import contextlib
import gc
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from server.core.metrics import Metrics
from server.core.tidy import MIDDLE, YOUNG, YOUNG_EVERY, tend_collector
from tests.server.conftest import Harness, running_harness

pytestmark = pytest.mark.server


def freezes(metrics: Metrics) -> float:
    return metrics.registry.get_sample_value("klaverjas_gc_freezes_total") or 0.0


def tidied(h: Harness) -> float:
    assert h.server is not None
    return h.server.metrics.registry.get_sample_value("klaverjas_memory_tidied_total") or 0.0


async def until(condition, seconds: float = 10.0) -> None:  # type: ignore[no-untyped-def]
    async with asyncio.timeout(seconds):
        while not condition():
            await asyncio.sleep(0.02)


async def test_memory_is_tidied_once_the_load_halves(tmp_path: Path) -> None:
    async with running_harness(tmp_path, tidy_every=0.05) as h:
        assert h.server is not None
        clients = [await h.client(f"p{i}") for i in range(6)]
        await until(lambda: h.server.tidy.peak >= 6)  # type: ignore[union-attr]
        before = tidied(h)
        await asyncio.sleep(0.3)  # a steady load: several looks, no tidying
        assert tidied(h) == before
        for client in clients[:4]:
            await client.close()
        await until(lambda: tidied(h) > before)
        after = tidied(h)
        assert h.server.tidy.peak == len(h.server.clients) + len(h.server.router.actors)
        await asyncio.sleep(0.3)  # the load holds at its new level: no more tidying
        assert tidied(h) == after


@contextlib.asynccontextmanager
async def serving_collector(tenure: float) -> AsyncIterator[Metrics]:
    """:func:`tend_collector` running (its start-up freeze done); afterwards the
    collector's state as it was."""
    thresholds = gc.get_threshold()
    metrics = Metrics()
    task = asyncio.create_task(tend_collector(tenure, metrics.freezes))
    try:
        await asyncio.sleep(0)  # it has frozen what start-up built and set the thresholds
        yield metrics
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        gc.unfreeze()
        gc.set_threshold(*thresholds)


async def test_the_serving_collector_keeps_young_collections_small_and_freezes_survivors() -> None:
    async with serving_collector(0.05) as metrics:
        assert gc.get_threshold() == (YOUNG, MIDDLE, 1_000)
        frozen = gc.get_freeze_count()
        assert frozen > 0 and freezes(metrics) == 1
        kept = [[i] for i in range(1_000)]  # tracked objects made since: the next tenure
        await until(lambda: gc.get_freeze_count() >= frozen + len(kept), 2.0)  # freezes them
        assert freezes(metrics) >= 2


@contextlib.contextmanager
def collections_of(generation: int) -> Iterator[Counter[int]]:
    """Counts the collections of ``generation`` (under that key) while the block runs."""
    seen: Counter[int] = Counter()

    def counted(phase: str, info: dict[str, int]) -> None:
        if phase == "stop" and info["generation"] == generation:
            seen[generation] += 1

    gc.callbacks.append(counted)
    try:
        yield seen
    finally:
        gc.callbacks.remove(counted)


async def test_young_collections_come_by_the_clock_when_the_count_stalls() -> None:
    async with serving_collector(0):
        gc.set_threshold(1_000_000, MIDDLE, 1_000)  # the count alone would bring none
        with collections_of(0) as seen:
            await until(lambda: seen[0] >= 5, 100 * YOUNG_EVERY)


async def test_survivors_are_frozen_before_a_middle_collection_can_come() -> None:
    async with serving_collector(3_600) as metrics:  # the clock alone would freeze nothing
        with collections_of(1) as seen:
            for i in range(1, MIDDLE + 2):  # young collections as often as a busy server's
                gc.collect(0)
                if i % 50 == 0:
                    await asyncio.sleep(YOUNG_EVERY)  # a tick comes between
            # made by the count, a young collection brings a middle one with it unless a
            # freeze has set the count back since
            _ = [[] for _ in range(2 * YOUNG)]
        assert freezes(metrics) >= 2 and seen[1] == 0
