"""The processes the tests start, as Linux's ``/proc`` shows them: a process's descendants,
the processes that carry the test run's mark, and whether a process still runs (a zombie,
dead but not yet reaped by whoever adopted it, does not)."""

from __future__ import annotations

import ctypes
import os
import signal
import time
from pathlib import Path

PROC = Path("/proc")
MARK = "KLAVERJAS_TEST_RUN"  # set for the whole run: every process it starts inherits it
PR_SET_PDEATHSIG = 1  # prctl(2)
_libc = ctypes.CDLL(None, use_errno=True)


def end_with_parent() -> None:
    """A child's ``preexec_fn``: the kernel kills it when the thread that started it ends
    (start it from the event loop's thread), so a server or Redis that a test starts never
    outlives the test run, however that ends."""
    _libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def _stat(pid: int) -> tuple[str, int] | None:
    """A process's state letter and parent pid (None: it is gone)."""
    try:
        text = (PROC / str(pid) / "stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()  # after the command name, which may hold spaces
    return fields[0], int(fields[1])


def _pids() -> list[int]:
    return [int(entry.name) for entry in PROC.iterdir() if entry.name.isdigit()]


def running(pid: int) -> bool:
    stat = _stat(pid)
    return stat is not None and stat[0] not in ("Z", "X")


def descendants(pid: int) -> set[int]:
    """The processes below ``pid``: its children, theirs, and so on."""
    children: dict[int, list[int]] = {}
    for other in _pids():
        stat = _stat(other)
        if stat is not None:
            children.setdefault(stat[1], []).append(other)
    found: set[int] = set()
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def command(pid: int) -> str:
    try:
        raw = (PROC / str(pid) / "cmdline").read_bytes()
    except OSError:
        return "?"
    return raw.replace(b"\0", b" ").decode(errors="replace").strip()


def marked(value: str) -> set[int]:
    """The running processes (but this one) whose environment holds ``MARK=value``."""
    needle = f"{MARK}={value}".encode()
    found = set()
    for pid in _pids():
        if pid == os.getpid():
            continue
        try:
            environ = (PROC / str(pid) / "environ").read_bytes()
        except OSError:
            continue
        if needle in environ.split(b"\0") and running(pid):
            found.add(pid)
    return found


def still_running(pids: set[int], within: float) -> set[int]:
    """Those of ``pids`` still running after waiting up to ``within`` seconds for them."""
    deadline = time.monotonic() + within
    while True:
        alive = {pid for pid in pids if running(pid)}
        if not alive or time.monotonic() >= deadline:
            return alive
        time.sleep(0.1)
