"""A job that holds a bot worker until a file appears: makes a full pool deterministic in
the tests (``Bots.submit(hold, path)``), with no sleep that assumes a machine's speed; and
one that then ends its worker, as a crash does (``die``)."""

from __future__ import annotations

import os
import time
from pathlib import Path


def hold(path: str) -> tuple[None, float]:
    """Wait in the worker until ``path`` exists (then the slot is free again)."""
    started = time.perf_counter()
    while not Path(path).exists():
        time.sleep(0.01)
    return None, time.perf_counter() - started


def die(path: str) -> tuple[None, float]:
    """Wait in the worker until ``path`` exists, then end the worker process abruptly (as a
    crash does): the pool breaks, and every search in it fails."""
    hold(path)
    os._exit(1)
