"""Smoke run of every bench: each for a few seconds, so that none can rot unnoticed.

Usage::

    python bench/smoke.py              # every bench (``make smoke``; CI runs it)
    python bench/smoke.py soak solo    # some of them

Each bench in ``bench/`` runs with the tiny settings of :data:`SMOKES`, two at a time
(longest first), in a process group of its own.  A bench fails the run when it exits
non-zero, prints a traceback, outruns its time limit, its last JSON line lacks the work it
should have done (a bench that "succeeds" without a game played has rotted too), or it
leaves a process running (its group is killed either way).  A bench file without an entry
here, or an entry without its file, fails the run.  Each bench's time is printed, and the
total.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import signal
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
TROUBLE = ("Traceback (most recent call last)", "Exception ignored", "was never retrieved")
GRACE = 5.0  # seconds a bench's leftover processes get to end by themselves


@dataclass(frozen=True)
class Smoke:
    """How a bench runs for a few seconds, and what its last JSON line must show."""

    args: tuple[str, ...]
    shows: tuple[str, ...] = ()  # dotted paths into that line, each a positive number
    limit: float = 45.0  # seconds before it counts as hung


# fmt: off
SMOKES = {
    "boards": Smoke(
        ("--players", "200", "--results", "400", "--days", "4", "--rated", "200",
         "--requests", "20"),
        ("day_page.median_ms", "alltime_first_ms", "daily_match.median_ms",
         "rated_record.median_ms", "profile.median_ms"),
    ),
    "bots": Smoke(
        ("--pairs", "2", "--workers", "2", "--budget", "20"), ("runs.0.pairs", "runs.0.decisions")
    ),
    "card_path": Smoke((), ("hops", "modules", "calls")),
    "club": Smoke(("--players", "16", "--every", "1", "--duration", "3"), ("deals", "p99_ms")),
    "club_draw": Smoke(("--quick",), ("fresh.6.median_ms", "late.6.median_ms", "grid.fresh.draws")),
    "deflate": Smoke(
        ("--tables", "2", "--duration", "2", "--repeat", "1"), ("frames", "takeover.us_per_frame")
    ),
    "engine": Smoke(("--deals", "200", "--heuristic-deals", "5", "--runs", "1")),  # no JSON
    "floor": Smoke(
        ("--tables", "8", "--duration", "2", "--warmup", "0.5", "--durable"), ("actions_per_s",)
    ),
    "load": Smoke(
        ("--spawn", "--tables", "4", "--warmup", "0.5", "--duration", "2", "--drain", "1",
         "--deals", "1"),
        ("actions_per_s",),
    ),
    "memory": Smoke(
        ("--tables", "4", "--runs", "1", "--duration", "1.5", "--settle", "0.5"),
        ("runs.0.actions",),
    ),
    "mutation": Smoke(("--smoke",), ("killed",)),  # one small module: a full run takes hours
    "rounds": Smoke(
        ("--rounds", "1", "--tables", "8", "--duration", "1.5", "--warmup", "0.5", "--floor"),
        ("rounds.0.head.p99_ms", "rounds.0.floor.p99_ms"),
    ),
    "soak": Smoke(
        ("--minutes", "0.15", "--tables", "2", "--fault-every", "1", "--cycle",
         "--slow-for", "1", "--match-timeout", "40"),
        ("matches_finished", "faults.node_kill", "faults.client_drop"),
    ),
    "solo": Smoke(
        ("--tables", "2", "--think", "0.2,0.5", "--warmup", "0.5", "--duration", "4",
         "--drain", "1", "--ramp", "0.5", "--deals", "1"),
        ("games_started", "human_sent"),
    ),
    "solver": Smoke(("--deals", "3"), ("median_nodes",)),
}
# fmt: on
ORDER = ("soak", "rounds", "mutation", "memory", "load", "solo", "deflate", "boards")


@dataclass
class Outcome:
    name: str
    seconds: float
    problems: list[str]
    stdout: str
    stderr: str


def benches() -> list[str]:
    """The benches in ``bench/``: every script but this one and the benches' helpers (a
    leading underscore: ``_served.py``)."""
    own = Path(__file__).name
    return sorted(p.stem for p in BENCH.glob("*.py") if p.name != own and p.name[0] != "_")


def shown(result: Any, path: str) -> Any:
    for key in path.split("."):
        result = result[int(key)] if isinstance(result, list) else result[key]
    return result


def check_output(smoke: Smoke, stdout: str, stderr: str) -> list[str]:
    problems = [f"printed {text!r}" for text in TROUBLE if text in stdout + stderr]
    if not smoke.shows:
        return problems
    lines = [line for line in stdout.splitlines() if line.startswith("{")]
    if not lines:
        return [*problems, "printed no JSON line"]
    result = json.loads(lines[-1])
    for path in smoke.shows:
        try:
            value = shown(result, path)
        except (KeyError, IndexError, TypeError):
            value = None
        if not isinstance(value, int | float) or value <= 0:
            problems.append(f"its JSON shows {path} = {value!r} (expected a positive number)")
    return problems


def group(leader: int) -> list[int]:
    """Live processes in the process group or session of ``leader``."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[0] != "Z" and leader in (int(fields[2]), int(fields[3])):
            found.append(int(stat.parent.name))
    return found


def command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()[:120]
    except OSError:
        return "?"


async def leftovers(leader: int) -> list[str]:
    """What of the bench still runs after a grace period; all of it is killed."""
    end = time.monotonic() + GRACE
    while (left := group(leader)) and time.monotonic() < end:
        await asyncio.sleep(0.1)
    names = [f"{pid} {command_line(pid)}" for pid in left]
    for pid in left:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    return names


async def run(name: str, slots: asyncio.Semaphore) -> Outcome:
    smoke = SMOKES[name]
    async with slots:
        start = time.monotonic()
        process = await asyncio.create_subprocess_exec(
            sys.executable, str(BENCH / f"{name}.py"), *smoke.args, cwd=ROOT,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
            start_new_session=True,
        )  # fmt: skip
        problems = []
        try:
            out, err = await asyncio.wait_for(process.communicate(), smoke.limit)
        except TimeoutError:
            problems.append(f"still running after {smoke.limit:g} s")
            os.killpg(process.pid, signal.SIGKILL)
            out, err = await process.communicate()
        except asyncio.CancelledError:  # ^C or SIGTERM, which its own session does not get
            os.killpg(process.pid, signal.SIGKILL)
            await process.communicate()
            raise
        seconds = time.monotonic() - start
        stdout, stderr = out.decode(errors="replace"), err.decode(errors="replace")
        if process.returncode != 0 and not problems:
            problems.append(f"exit status {process.returncode}")
        problems += check_output(smoke, stdout, stderr)
        left = await leftovers(process.pid)
        if left:
            problems.append(f"left {len(left)} process(es) running: {'; '.join(left)}")
    status = "ok  " if not problems else "FAIL"
    print(f"  {status} {name:<10} {seconds:5.1f} s", flush=True)
    return Outcome(name, seconds, problems, stdout, stderr)


def tail(text: str, lines: int) -> str:
    return "\n".join("      " + line for line in text.rstrip().splitlines()[-lines:])


async def main_async(names: list[str], jobs: int) -> int:
    started = time.monotonic()
    this = asyncio.current_task()
    assert this is not None
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, this.cancel)  # as ^C does
    slots = asyncio.Semaphore(jobs)
    ranked = sorted(names, key=lambda n: ORDER.index(n) if n in ORDER else len(ORDER))
    outcomes = await asyncio.gather(*(run(name, slots) for name in ranked))
    failed = [o for o in outcomes if o.problems]
    for o in failed:
        print(f"\n{o.name}: {'; '.join(o.problems)}")
        print(f"  command: python bench/{o.name}.py {' '.join(SMOKES[o.name].args)}")
        print(f"  stderr (last lines):\n{tail(o.stderr, 40)}")
        print(f"  stdout (last lines):\n{tail(o.stdout, 15)}")
    total = time.monotonic() - started
    print(f"smoke: {len(outcomes) - len(failed)} of {len(outcomes)} benches ok in {total:.1f} s"
          f" ({jobs} at a time)")  # fmt: skip
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", metavar="BENCH", help="some benches only")
    parser.add_argument("--jobs", type=int, default=2, help="benches run at once")
    args = parser.parse_args(argv)
    files = benches()
    unlisted = sorted(set(files) - set(SMOKES))
    stale = sorted(set(SMOKES) - set(files))
    if unlisted or stale:
        for name in unlisted:
            print(f"smoke: bench/{name}.py has no entry in bench/smoke.py's SMOKES: add one")
        for name in stale:
            print(f"smoke: SMOKES names {name}, which is not in bench/: remove it")
        return 1
    unknown = sorted(set(args.names) - set(files))
    if unknown:
        parser.error(f"no such bench {unknown[0]!r}; choose from {', '.join(files)}")
    try:
        return asyncio.run(main_async(args.names or files, max(1, args.jobs)))
    except (asyncio.CancelledError, KeyboardInterrupt):
        print("smoke: interrupted (the benches under way were killed)")
        return 1


if __name__ == "__main__":
    sys.exit(main())
