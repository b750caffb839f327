"""Solo load: many solo games, each one simulated human at a human pace against three CPUs.

Usage::

    python bench/solo.py --tables 10,25,50,100 --duration 30    # a fresh server per count
    python bench/load.py --solo --tables 50                       # the same, through load.py
    python bench/solo.py --tables 100 --workers 3 --think 1,4

Method
------
Each of ``--tables T`` solo games is one websocket connection (one asyncio loop in this
process, apart from the server, permessage-deflate offered, no keepalive pings of its own)
that says hello and sends ``new_game`` with ``level`` ``--level`` (default ``strong``),
``rules: {"deals": D}`` and ``move_seconds`` (30, so the human's timer never fires at this
pace): seat 0 is the human, seats 1-3 the server's CPUs.  The server is spawned fresh for
every count, as ``bench/load.py --spawn`` does (SQLite in a temporary directory, no pause
between deals, ``KLAVERJAS_*`` from this environment; ``--workers N`` sets
``KLAVERJAS_BOT_WORKERS``), and so are its pid, ``/metrics``, RSS and CPU readings.

* Ramp-up: every client connects and says hello (in batches of ``--batch``), then game
  ``i`` is started ``i * --ramp / T`` seconds later, so the CPUs' first searches are not
  all asked at once.  A finished match starts a new game on the same connection.
* Pace: when an update makes it the human's turn, the human waits a delay drawn uniformly
  from ``--think MIN,MAX`` seconds (default 2-6; seeded per game with ``--seed``), then
  sends ``act`` with a uniformly random legal action and the version it saw.
* Measure, after ``--warmup`` seconds, for ``--duration`` seconds:

  - *human actions/s*: actions whose update reached the human inside the window;
  - *human latency*: for each ``act`` sent inside the window, from just before the frame
    is written until the human's client has the update of the next version (durable
    write, fan-out, loopback both ways and this loop's own delay, reported as
    "generator loop lag" as in ``load.py``);
  - *CPU decisions*, as the human's client sees them: from the update that makes it a
    CPU seat's turn (or the game's snapshot, if a CPU opens) until the update of that
    seat's action, for turns starting inside the window.  The server waits its CPU delay
    (``KLAVERJAS_CPU_DELAY``, 0.6 s) from the commit while the worker pool searches, and
    acts once both are done, so a decision is *within its delay* when this is at most the
    delay plus ``--tolerance`` (default 0.1 s: fan-out and a busy machine); p50/p99/max
    and the count over are reported;
  - from the server's ``/metrics`` over the window: ``klaverjas_bot_searches_total``
    (strong moves asked for), ``klaverjas_bot_fallbacks_total`` (moves played by
    ``heuristic`` because even the smallest budget's search would have been late),
    ``klaverjas_bot_budgets_total`` (the share of strong moves searched with each budget:
    the server's, or a smaller one when busy), ``klaverjas_bot_search_seconds`` (a worker's
    time on one search: mean, and p50/p99 as bucket bounds);
  - CPU of the server's whole process tree (the server, the forkserver, the bot workers:
    every descendant of its pid in ``/proc``; each process's ``utime + stime`` plus its
    reaped children's ``cutime + cstime``, so a worker that exits still counts), as a share
    of one core, split into the main process and the rest (whose CPU over the searches
    counted gives a search's CPU time); this process's CPU and the whole machine's
    (steal included: other work on the box shows there);
  - RSS: the server's own (idle, end, peak) and the sum over its tree at the end (pages
    the workers share with the forkserver count once per process);
  - errors, disconnects, human moves the server played (``by`` timeout or cpu), all
    expected to be 0.

* Stop: the humans stop, an ``act`` in flight gets ``--drain`` seconds, connections close,
  the server gets SIGTERM.

A count is *within the goal* when every CPU decision was within its delay, the human p99
is at most ``--p99-ms`` (50) and nothing went wrong.  The last line before the JSON names
the largest such count per core, counting as cores the server's main process plus its bot
workers (``KLAVERJAS_BOT_WORKERS``), at most the machine's cores: the issue's goal is 50
solo games per core.  Fallbacks do not disqualify a count
(the CPU still acts within its delay, as ``heuristic``), but their share is reported.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import sys
import time
import traceback
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any

import load
from load import _fmt, _ms, _pct, _quantile, perf
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from client import TableState
from server.core.config import Settings

HUMAN = 0  # the human's seat in a solo game
STRONG_MOVES = 'level="strong",purpose="move"'  # the labels of the CPUs' searches


@dataclass(frozen=True)
class Config:
    url: str
    tables: int
    level: str
    think: tuple[float, float]  # seconds the human takes to decide: uniform in this range
    warmup: float
    duration: float
    drain: float
    ramp: float
    batch: int
    deals: int
    move_seconds: int
    seed: int
    tolerance: float  # seconds a CPU decision may take beyond the CPU delay
    p99_ms: float  # the human latency's p99 goal


@dataclass
class Stats:
    """Raw observations of one run, filtered by the measurement window afterwards."""

    sends: list[float] = field(default_factory=list)  # perf time of each act written
    done: list[tuple[float, float]] = field(default_factory=list)  # (sent, latency)
    acks: list[float] = field(default_factory=list)  # the human received its act's update
    cpu: list[tuple[float, float, str]] = field(default_factory=list)  # (began, took, by)
    lag: list[tuple[float, float]] = field(default_factory=list)  # (when, loop lag)
    errors: Counter[str] = field(default_factory=Counter)
    disconnects: Counter[str] = field(default_factory=Counter)
    mismatched: int = 0  # the expected version arrived but was not our action
    server_played: int = 0  # the human's moves the server made (timeout)
    games: int = 0  # solo games started
    finished: int = 0  # matches that ended
    setup_failures: int = 0
    client_bugs: int = 0
    stopping: bool = False
    frames: None = None  # load.Reporter's kept frames: none kept here


class Human(load.Reporter):
    """The one human of a solo game: its snapshots, updates and errors go to the game."""

    def __init__(self, ws: ClientConnection, game: Solo) -> None:
        self.game = game
        super().__init__(ws, game.stats)

    def on_state(self, frame: dict[str, Any], state: TableState, now: float) -> None:
        self.game.on_frame(frame, state, now)

    def on_error(self, frame: dict[str, Any]) -> None:
        self.game.on_error(frame)


class Solo:
    """One solo game after another on one connection, the human paced by one driver task."""

    def __init__(self, index: int, cfg: Config, stats: Stats) -> None:
        self.index = index
        self.cfg = cfg
        self.stats = stats
        self.rng = random.Random(cfg.seed * 1_000_003 + index)
        self.human: Human | None = None
        self.room_id = ""
        self.expect: tuple[int, float] | None = None  # (version, sent) of our act in flight
        self.cpu_turn: tuple[int, float] | None = None  # (seat, since) of a CPU's turn
        self.todo: tuple[int, list[str], float] | None = None  # (version, legal, since)
        self.over = False
        self.wake = asyncio.Event()
        self.task: asyncio.Task[None] | None = None

    async def connect(self) -> None:
        ws = await connect(
            self.cfg.url, max_size=2**22, compression="deflate", ping_interval=None,
            open_timeout=load.SETUP_TIMEOUT,
        )  # fmt: skip
        self.human = Human(ws, self)
        async with asyncio.timeout(load.SETUP_TIMEOUT):
            load._expect(await self.human.hello(f"solo{self.index}"), "welcome")

    async def start(self) -> None:
        """The first game, ``index * ramp / tables`` seconds from now; then the driver."""
        await asyncio.sleep(self.index * self.cfg.ramp / self.cfg.tables)
        await self.new_game()
        self.task = asyncio.create_task(self._drive(), name=f"solo-{self.index}")

    async def new_game(self) -> None:
        """Start a solo game; its snapshot (seen by :meth:`on_frame`) makes it ours."""
        assert self.human is not None
        self.human.tables.pop(self.room_id, None)
        self.human.queueing = True
        message = {
            "type": "new_game", "level": self.cfg.level, "rules": {"deals": self.cfg.deals},
            "move_seconds": self.cfg.move_seconds,
        }  # fmt: skip
        await load._snapshot(self.human, message)
        self.human.frames_off()
        self.stats.games += 1

    def on_frame(self, frame: dict[str, Any], state: TableState, now: float) -> None:
        if frame["type"] == "snapshot":  # only ever the reply to our new_game
            self.room_id, self.over = frame["room_id"], False
            self.expect = self.cpu_turn = None
        elif frame["room_id"] != self.room_id:
            return
        else:
            self._measure(frame, now)
        if state.over:
            if not self.over:
                self.over, self.cpu_turn = True, None
                self.stats.finished += 1
                self.wake.set()
        elif state.turn is None:
            self.cpu_turn = None
        elif state.turn == HUMAN:
            self.cpu_turn = None
            if state.legal:
                self.todo = (state.version, state.legal, now)
                self.wake.set()
        elif self.cpu_turn is None or self.cpu_turn[0] != state.turn or frame.get("kind") == "act":
            self.cpu_turn = (state.turn, now)

    def _measure(self, frame: dict[str, Any], now: float) -> None:
        """The latency of our act, or the time a CPU took, if ``frame`` ends either."""
        seat, acted = frame.get("seat"), frame["kind"] == "act"
        if self.expect is not None and frame["version"] == self.expect[0]:
            sent = self.expect[1]
            self.expect = None
            if not acted or seat != HUMAN or frame.get("by") != "player":
                self.stats.mismatched += 1
            self.stats.done.append((sent, now - sent))
            self.stats.acks.append(now)
        elif acted and seat == HUMAN:
            self.stats.server_played += 1
        if acted and self.cpu_turn is not None and seat == self.cpu_turn[0]:
            since = self.cpu_turn[1]
            self.stats.cpu.append((since, now - since, frame.get("by", "?")))

    def on_error(self, frame: dict[str, Any]) -> None:
        """Count it; if it answered our act and it is still our turn, act again at once."""
        self.stats.errors[frame.get("code", "?")] += 1
        if self.expect is None or self.human is None:
            return
        self.expect = None
        state = self.human.tables.get(self.room_id)
        if state is not None and state.turn == HUMAN and state.legal and not state.over:
            self.todo = (state.version, state.legal, perf() - self.cfg.think[1])
            self.wake.set()

    async def _drive(self) -> None:
        assert self.human is not None
        try:
            while True:
                await self.wake.wait()
                self.wake.clear()
                if self.stats.stopping:
                    return
                if self.over:
                    await self.new_game()
                    continue
                todo, self.todo = self.todo, None
                if todo is None:
                    continue
                version, legal, since = todo
                delay = since + self.rng.uniform(*self.cfg.think) - perf()
                if delay > 0:
                    await asyncio.sleep(delay)
                state = self.human.tables.get(self.room_id)
                if self.stats.stopping or state is None or state.version != version:
                    continue  # the game moved on meanwhile (a timeout, a new game)
                message = {"type": "act", "room_id": self.room_id,
                           "action": self.rng.choice(legal), "version": version}  # fmt: skip
                sent = perf()
                self.expect = (version + 1, sent)
                self.stats.sends.append(sent)
                await self.human.send(message)
        except (ConnectionClosed, TimeoutError) as err:
            if not self.stats.stopping:
                self.stats.setup_failures += 1
                print(f"game {self.index}: stopped: {err!r}", file=sys.stderr)
        except Exception:
            self.stats.client_bugs += 1
            traceback.print_exc()

    async def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
        if self.human is not None:
            with contextlib.suppress(Exception):
                await self.human.close()


# -- the server's process tree ----------------------------------------------------------


def process_tree(root: int) -> dict[int, tuple[float, float, int]]:
    """``root`` and its descendants: ``pid -> (own CPU s, with reaped children's, RSS KiB)``."""
    tick = os.sysconf("SC_CLK_TCK")
    parents: dict[int, int] = {}
    cpu: dict[int, tuple[float, float]] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        own = (int(fields[11]) + int(fields[12])) / tick
        parents[int(name)] = int(fields[1])
        cpu[int(name)] = (own, own + (int(fields[13]) + int(fields[14])) / tick)
    tree, todo = {}, [root]
    while todo:
        pid = todo.pop()
        if pid in cpu:
            tree[pid] = (*cpu[pid], load.status_kib(pid) or 0)
            todo += [child for child, parent in parents.items() if parent == pid]
    return tree


def tree_cpu(tree: dict[int, tuple[float, float, int]], root: int) -> tuple[float, float]:
    """(the root's own CPU seconds, the whole tree's, reaped children included)."""
    return tree.get(root, (0.0, 0.0, 0))[0], sum(whole for _, whole, _ in tree.values())


# -- one run ----------------------------------------------------------------------------


async def run_once(cfg: Config, settings: Settings) -> dict[str, Any]:
    source = load.source_version()
    handle = await load.ServerHandle.spawn(None)
    server = load.Cluster([handle])
    assert handle.pid is not None
    pid = handle.pid
    cfg = replace(cfg, url=handle.url)
    stats = Stats()
    rss: dict[str, int | None] = {}
    games: list[Solo] = []
    monitor: asyncio.Task[None] | None = None
    try:
        await asyncio.sleep(1.0)
        rss["idle"] = handle.rss_kib()
        print(
            f"-- {cfg.tables} solo games (a human and three {cfg.level} CPUs each) against"
            f" {handle.url} (server pid {pid}; {settings.bot_workers} bot worker(s), queue"
            f" {settings.bot_queue}, budget {settings.bot_budget}, CPU delay"
            f" {settings.cpu_delay:g} s)",
            flush=True,
        )
        began = perf()
        games = [Solo(i, cfg, stats) for i in range(cfg.tables)]
        games = await load._in_batches(games, cfg.batch, Solo.connect, stats)
        games = await load._in_batches(games, len(games) or 1, Solo.start, stats)
        print(
            f"   started {len(games)} games in {perf() - began:.1f} s; warm-up"
            f" {cfg.warmup:g} s, measuring {cfg.duration:g} s",
            flush=True,
        )
        gc.collect()
        gc.freeze()
        gc.disable()
        monitor = asyncio.create_task(load._lag_monitor(stats.lag))
        await asyncio.sleep(cfg.warmup)
        before = await handle.metrics()
        t0, tree0, own0, box0 = perf(), process_tree(pid), time.process_time(), load.machine_cpu()
        await asyncio.sleep(cfg.duration)
        t1, tree1, own1, box1 = perf(), process_tree(pid), time.process_time(), load.machine_cpu()
        after = await handle.metrics()
        rss["end"] = handle.rss_kib()
        rss["peak"] = handle.rss_kib("VmHWM")
        rss["tree_end"] = sum(kib for _, _, kib in tree1.values())
        own_rss = load.status_kib("self")

        stats.stopping = True
        for game in games:
            game.wake.set()
        deadline = perf() + cfg.drain
        while perf() < deadline and any(g.expect for g in games):
            await asyncio.sleep(0.05)
    finally:
        stats.stopping = True
        gc.enable()
        gc.unfreeze()
        if monitor is not None:
            monitor.cancel()
        for i in range(0, len(games), 250):
            await asyncio.gather(*(g.close() for g in games[i : i + 250]))
        await server.stop()

    window = t1 - t0
    main0, all0 = tree_cpu(tree0, pid)
    main1, all1 = tree_cpu(tree1, pid)
    latencies = sorted(lat for sent, lat in stats.done if t0 <= sent < t1)
    decisions = sorted(took for since, took, _ in stats.cpu if t0 <= since < t1)
    lags = sorted(lag for at, lag in stats.lag if t0 <= at < t1)
    limit = settings.cpu_delay + cfg.tolerance
    # A labelled counter shows in /metrics once it has counted: absent is 0.
    searches = _counted(before, after, f"klaverjas_bot_searches_total{{{STRONG_MOVES}}}")
    fallbacks = _counted(before, after, 'klaverjas_bot_fallbacks_total{purpose="move"}')
    budgets = {  # strong moves searched, by the budget searched with (smaller when busy)
        name.split('"')[1]: _counted(before, after, name)
        for name in after
        if name.startswith("klaverjas_bot_budgets_total{")
    }
    search_ms = load._histogram(before, after, "klaverjas_bot_search_seconds")
    total_pct = _pct(all0, all1, window)
    cores = min(1 + settings.bot_workers, os.cpu_count() or 1)  # what the tree can use
    result: dict[str, Any] = {
        "tables": len(games),
        "server_source": source,
        "level": cfg.level,
        "think_s": list(cfg.think),
        "window_s": round(window, 2),
        "human_actions_per_s": round(sum(t0 <= a < t1 for a in stats.acks) / window, 2),
        "human_sent": sum(t0 <= s < t1 for s in stats.sends),
        "human_latency_ms": _summary(latencies),
        "cpu_delay_s": settings.cpu_delay,
        "cpu_tolerance_s": cfg.tolerance,
        "cpu_decision_ms": _summary(decisions),
        "cpu_over_delay": sum(took > limit for took in decisions),
        "cpu_by": dict(Counter(by for since, _, by in stats.cpu if t0 <= since < t1)),
        "bot_workers": settings.bot_workers,
        "bot_queue": settings.bot_queue,
        "bot_budget": settings.bot_budget,
        "server_searches": searches,
        "server_fallbacks": fallbacks,
        "fallback_pct": round(100 * fallbacks / searches, 1) if searches else None,
        "searched_by_budget": {
            b: round(100 * n / searches, 1) if searches else None
            for b, n in sorted(budgets.items(), key=lambda item: -int(item[0]))
        },
        "search_ms": search_ms,
        "search_cpu_ms": (
            round(1000 * (all1 - main1 - all0 + main0) / search_ms["count"], 1)
            if search_ms["count"]
            else None
        ),
        "server_cpu_pct": {
            "main": _pct(main0, main1, window),
            "others": _pct(all0 - main0, all1 - main1, window),
            "total": total_pct,
        },
        "server_processes": len(tree1),
        "generator_cpu_pct": _pct(own0, own1, window),
        "generator_lag_ms": {"p99": _ms(_quantile(lags, 0.99)), "max": _ms(max(lags, default=0))},
        "machine": load._machine(box0, box1),
        "rss_kib": rss,
        "generator_rss_kib": own_rss,
        "errors": dict(stats.errors),
        "error_count": sum(stats.errors.values()),
        "disconnects": dict(stats.disconnects),
        "server_played_human": stats.server_played,
        "mismatched": stats.mismatched,
        "games_started": stats.games,
        "matches_finished": stats.finished,
        "setup_failures": stats.setup_failures,
        "client_bugs": stats.client_bugs,
        "cores_assumed": cores,
        "tables_per_core": round(len(games) / cores, 1),
        "tables_per_core_of_server_cpu": (
            round(100 * len(games) / total_pct, 1) if total_pct else None
        ),
    }
    result["within_goal"] = _within_goal(result, cfg)
    print_run(result)
    return result


def _by_budget(shares: dict[str, float | None]) -> str:
    """``1000: 91.2%, 250: 6.1%``: the share of strong moves searched with each budget."""
    return ", ".join(f"{b}: {_fmt(p, '%')}" for b, p in shares.items()) or "-"


def _counted(before: dict[str, float], after: dict[str, float], name: str) -> float:
    return after.get(name, 0.0) - before.get(name, 0.0)


def _summary(values: list[float]) -> dict[str, Any]:
    """p50/p90/p99/max in ms and the count of sorted ``values`` (seconds)."""
    return {
        "p50": _ms(_quantile(values, 0.50)),
        "p90": _ms(_quantile(values, 0.90)),
        "p99": _ms(_quantile(values, 0.99)),
        "max": _ms(values[-1] if values else None),
        "count": len(values),
    }


def _within_goal(r: dict[str, Any], cfg: Config) -> bool:
    p99 = r["human_latency_ms"]["p99"]
    problems = r["error_count"] + r["setup_failures"] + r["client_bugs"] + r["mismatched"]
    problems += r["server_played_human"] + sum(r["disconnects"].values())
    return (
        r["cpu_over_delay"] == 0
        and r["cpu_decision_ms"]["count"] > 0
        and p99 is not None
        and p99 <= cfg.p99_ms
        and problems == 0
    )


def print_run(r: dict[str, Any]) -> None:
    lat, cpu, srch = r["human_latency_ms"], r["cpu_decision_ms"], r["search_ms"]
    srv, rss, box, lag = r["server_cpu_pct"], r["rss_kib"], r["machine"], r["generator_lag_ms"]
    limit_ms = round(1000 * (r["cpu_delay_s"] + r["cpu_tolerance_s"]))

    def mib(key: str) -> str:
        return "-" if rss.get(key) is None else f"{rss[key] / 1024:.1f}"

    codes = f" {r['errors']}" if r["errors"] else ""
    print(
        "\n".join(
            [
                f"   human          {r['human_actions_per_s']:g} actions/s; latency ms p50"
                f" {_fmt(lat['p50'])}  p90 {_fmt(lat['p90'])}  p99 {_fmt(lat['p99'])}"
                f"  max {_fmt(lat['max'])}  (n={lat['count']})",
                f"   CPU decisions  ms p50 {_fmt(cpu['p50'])}  p99 {_fmt(cpu['p99'])}  max"
                f" {_fmt(cpu['max'])}  (n={cpu['count']}); over {limit_ms} ms:"
                f" {r['cpu_over_delay']}",
                f"   server bots    searches {_fmt(r['server_searches'])}, fallbacks"
                f" {_fmt(r['server_fallbacks'])} ({_fmt(r['fallback_pct'], '%')}); by budget"
                f" {_by_budget(r['searched_by_budget'])}; search ms"
                f" mean {_fmt(srch.get('mean'))}, p50 <= {_fmt(srch.get('p50_le'))}, p99 <="
                f" {_fmt(srch.get('p99_le'))} (worker CPU a search {_fmt(r['search_cpu_ms'])} ms)",
                f"   server CPU     {_fmt(srv['total'], '%')} of a core: main"
                f" {_fmt(srv['main'], '%')}, bot workers and forkserver"
                f" {_fmt(srv['others'], '%')} ({r['server_processes']} processes);"
                f" generator {_fmt(r['generator_cpu_pct'], '%')} (loop lag p99"
                f" {_fmt(lag['p99'])} ms); machine {_fmt(box['busy_pct'], '%')} busy of"
                f" {box['cores']} cores, steal {_fmt(box['steal_pct'], '%')}",
                f"   server RSS MiB idle {mib('idle')}, end {mib('end')}, peak {mib('peak')};"
                f" with its children at the end {mib('tree_end')}",
                f"   problems       errors {r['error_count']}{codes}, disconnects"
                f" {sum(r['disconnects'].values())}, human moves played by the server"
                f" {r['server_played_human']}, mismatched {r['mismatched']}, setup failures"
                f" {r['setup_failures']}; games started {r['games_started']}, finished"
                f" {r['matches_finished']}",
                f"   within goal    {'yes' if r['within_goal'] else 'no'}"
                f" ({r['tables_per_core']:g} games per core of {r['cores_assumed']};"
                f" {_fmt(r['tables_per_core_of_server_cpu'])} per core of the server's"
                " measured CPU)",
            ]
        ),
        flush=True,
    )


def print_summary(results: list[dict[str, Any]], cfg: Config) -> None:
    print()
    print(
        f"{'games':>5} {'act/s':>6} {'p50 ms':>7} {'p99 ms':>7} {'max ms':>7} {'CPU n':>6}"
        f" {'fallbk':>7} {'CPU p50':>7} {'CPU p99':>7} {'CPU max':>7} {'over':>4}"
        f" {'srch ms':>7} {'srv CPU':>8} {'g/core':>6} {'RSS MiB':>7} {'goal':>4}"
    )
    for r in results:
        lat, cpu = r["human_latency_ms"], r["cpu_decision_ms"]
        end = r["rss_kib"].get("tree_end")
        print(
            f"{r['tables']:>5} {r['human_actions_per_s']:>6g} {_fmt(lat['p50']):>7}"
            f" {_fmt(lat['p99']):>7} {_fmt(lat['max']):>7} {cpu['count']:>6}"
            f" {_fmt(r['fallback_pct'], '%'):>7} {_fmt(cpu['p50']):>7} {_fmt(cpu['p99']):>7}"
            f" {_fmt(cpu['max']):>7} {r['cpu_over_delay']:>4}"
            f" {_fmt(r['search_ms'].get('mean')):>7} {_fmt(r['server_cpu_pct']['total'], '%'):>8}"
            f" {_fmt(r['tables_per_core_of_server_cpu']):>6}"
            f" {'-' if end is None else f'{end / 1024:.0f}':>7}"
            f" {'yes' if r['within_goal'] else 'no':>4}"
        )
    print("(g/core: games per core of the server's measured CPU, main process and workers)")
    print(goal_line(results, cfg))


def goal_line(results: list[dict[str, Any]], cfg: Config) -> str:
    """The largest count within the goal, per core; the issue asks for 50 per core."""
    good = [r for r in results if r["within_goal"]]
    cores = results[0]["cores_assumed"]
    rule = (
        f"every CPU decision within {results[0]['cpu_delay_s']:g} s + {cfg.tolerance:g} s and"
        f" human p99 <= {cfg.p99_ms:g} ms; cores = the server's main process + its bot"
        " workers (KLAVERJAS_BOT_WORKERS), at most the machine's"
    )
    if not good:
        return f"goal: no count within it ({rule})"
    best = max(good, key=lambda r: r["tables"])
    per_core = best["tables"] / cores
    verdict = "met" if per_core >= 50 else "not met"
    return (
        f"goal: {best['tables']} solo games on {cores} cores = {per_core:g} per core"
        f" (fallbacks {_fmt(best['fallback_pct'], '%')}); the issue's 50 per core: {verdict}"
        f" ({rule})"
    )


# -- command line -------------------------------------------------------------------------


def parse_args(argv: list[str] | None = None) -> tuple[argparse.Namespace, list[int]]:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--tables", default="50", help="solo games, or a comma list")
    parser.add_argument("--level", default="strong", choices=("random", "heuristic", "strong"))
    parser.add_argument("--think", default="2,6", help="MIN,MAX seconds the human takes")
    parser.add_argument("--warmup", type=float, default=10.0, help="seconds before measuring")
    parser.add_argument("--duration", type=float, default=30.0, help="seconds measured")
    parser.add_argument("--drain", type=float, default=5.0, help="seconds for a late update")
    parser.add_argument("--ramp", type=float, default=10.0, help="seconds to start the games")
    parser.add_argument("--batch", type=int, default=50, help="clients connected at once")
    parser.add_argument("--deals", type=int, default=16, help="deals per match")
    parser.add_argument("--move-seconds", type=int, default=30, help="the human's turn timer")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tolerance", type=float, default=0.1,
                        help="seconds a CPU decision may take beyond the CPU delay")  # fmt: skip
    parser.add_argument("--p99-ms", type=float, default=50.0, help="the human p99 goal")
    parser.add_argument("--workers", type=int, help="KLAVERJAS_BOT_WORKERS for the server")
    args = parser.parse_args(argv)
    counts = [int(n) for n in args.tables.split(",")]
    low, _, high = args.think.partition(",")
    args.think = (float(low), float(high or low))
    if min(counts) < 1 or not 0 <= args.think[0] <= args.think[1]:
        parser.error("--tables must be positive and --think MIN,MAX with 0 <= MIN <= MAX")
    if args.workers is not None:
        if args.workers < 1:
            parser.error("--workers must be positive")
        os.environ["KLAVERJAS_BOT_WORKERS"] = str(args.workers)  # the spawned server's
    return args, counts


async def main_async(args: argparse.Namespace, counts: list[int]) -> list[dict[str, Any]]:
    settings = Settings.from_env()
    results = []
    for tables in counts:
        cfg = config(args, tables)
        results.append(await run_once(cfg, settings))
    return results


def config(args: argparse.Namespace, tables: int) -> Config:
    """One run's configuration (the URL is the spawned server's)."""
    return Config(
        url="", tables=tables, level=args.level, think=args.think, warmup=args.warmup,
        duration=args.duration, drain=args.drain, ramp=args.ramp, batch=args.batch,
        deals=args.deals, move_seconds=args.move_seconds, seed=args.seed,
        tolerance=args.tolerance, p99_ms=args.p99_ms,
    )  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    args, counts = parse_args(argv)
    load.raise_fd_limit(max(counts) + 1024)
    results = asyncio.run(main_async(args, counts))
    cfg = config(args, counts[-1])
    if len(results) > 1:
        print_summary(results, cfg)
    else:
        print(goal_line(results, cfg))
    print(json.dumps(results[0] if len(results) == 1 else {"runs": results}))
    failed = any(r["error_count"] or r["client_bugs"] or r["setup_failures"] for r in results)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
