"""CPU decisions and hints off the event loop: a bounded pool of worker processes.

A decision is a pure function, run in a worker: ``(level, view, seed, budget) -> action``
(:func:`decide`), with ``random.Random(seed)`` as the policy's only randomness, so the same
position decides alike in any process.  ``random`` and ``heuristic`` cost microseconds and
are decided at once in the loop, and so are ``strong``'s decisions that need no search
(:meth:`~engine.policies.StrongPolicy.searches`: a move with one legal action, a third of
a deal's moves, and a trump choice, by the rule of thumb and the learned evaluator); its
other decisions search, and go to the pool.  The pool takes
at most ``workers + queue`` hints and reviews at a time: beyond that it is *saturated*, and
a hint is refused with :data:`BOTS_BUSY` (our condition, with a retry hint: no strike).

A move's search is bounded by its time instead (by the count too when there is no CPU
delay to keep).  A free worker always takes it, with the server's budget.  A move that
would queue searches with a smaller budget (:data:`STEPS`: a quarter, a sixteenth, a
sixty-fourth; these also infer nothing from the others' plays, ``INFERENCE_BUDGET`` in
:mod:`engine.policies.strong`), the largest whose search, after those ahead of it, is
expected to end within :data:`SLACK` of ``within`` seconds (the CPU delay, which runs
meanwhile).  A queue means a busy pool, and the server's budget (about 4 times a quarter
of it) would keep it busy into the next deal's start, where even the smallest search is
dear.  Only when even the smallest would be late is the move played by ``heuristic``: the
server degrades by budget, not by level.  The expectation is a running mean of the
workers' seconds by budget and the position's size (cards in hand, cards on the table),
learned as they answer: an opening lead costs a hundred times an endgame card, so a count
of searches says little about the wait.  The workers run at a lower priority
(:data:`NICE`) than the server, so searching never delays a human's move.

A move asked with ``wait`` (the daily game's: everyone's CPUs must decide alike, so a move
is never played by another policy) is not decided by ``heuristic`` when the pool is full:
it waits for a place, and takes the first that frees, before any other search.  Each room
asks one decision at a time (and cancels one it no longer wants), so the searches waiting
are at most the daily games in play, and each runs once those before it have taken a place.

A budget of 0 turns searching off: ``strong`` then plays as ``heuristic``, and hints are
refused.

The workers are started by the ``forkserver`` method (a clean process that preloads the
engine; a running asyncio server is never forked), only once the first search is asked
for, and shut down with the server.  However the server ends, its workers end within a
moment: each watches the server's process (a pidfd, :func:`_end_with`) and exits once it
is gone, and the forkserver ends once the server and its workers are (a killed server's
workers would otherwise wait on their queues, and keep their forkserver alive, forever).
Each node of a cluster has its own pool.  As with any ``multiprocessing`` start method but
fork, a script that runs a server must guard its entry point (``if __name__ ==
"__main__":``); ``klaverjas serve`` and ``python -m commands`` do.
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import multiprocessing
import os
import random
import select
import threading
import time
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.policies import HeuristicPolicy, StrongPolicy, policy
from engine.review import review_deal
from engine.views import View

from ..core.errors import Unavailable
from ..core.levels import HEURISTIC, STRONG
from ..core.logs import log

if TYPE_CHECKING:
    from ..core.metrics import Metrics

BOTS_BUSY = "bots_busy"
INLINE = frozenset({"random", HEURISTIC})  # cheap enough for the event loop
RETRY_AFTER = 1.0  # seconds a refused hint should wait
NICE = 10  # the workers' niceness above the server's: the event loop comes first
STEPS = (1, 4, 16, 64)  # a busy pool's move searches with the server's budget divided by these
SLACK = 0.6  # a queued search must be expected to end within this share of the CPU delay
HANDLING = 0.005  # seconds a search takes beyond its own: handed over, answered
LEARN = 0.2  # the weight of a new measure in a kind of search's running mean of seconds
UNKNOWN = 0.1  # seconds expected of a kind of search not measured yet

Kind = tuple[str | int, ...]  # searches that cost alike (see :func:`size`)
Job = Callable[..., tuple[Any, float]]  # a pure function run in a worker, and its seconds
OTHER: Kind = ("other",)


# -- what runs in a worker (pure functions of their arguments) ---------------------------


def decide(level: str, view: View, seed: str, budget: int) -> tuple[str, float]:
    """The action ``level`` chooses for ``view``'s seat, and the seconds it took."""
    started = time.perf_counter()
    action = policy(level, budget if level == STRONG else None).act(view, random.Random(seed))
    return str(action), time.perf_counter() - started


def advise(view: View, seed: str, budget: int) -> tuple[dict[str, Any], float]:
    """The strong advice for ``view``'s seat, JSON-ready: ``action``, ``reason`` and each
    legal action's expected value (mover's team minus the others at the deal's end)."""
    started = time.perf_counter()
    advice = StrongPolicy(budget).advise(view, random.Random(seed))
    values = {str(a): round(v, 1) for a, v in advice.values.items()}
    answer = {
        "action": str(advice.action), "reason": advice.reason, "why": advice.why, "values": values,
    }  # fmt: skip
    return answer, time.perf_counter() - started


def review(record: dict[str, Any], number: int, seat: int | None) -> tuple[dict[str, Any], float]:
    """Deal ``number`` of a finished match reviewed for ``seat`` (see engine.review)."""
    started = time.perf_counter()
    return review_deal(record, number, seat), time.perf_counter() - started


def _start_worker(server: int) -> None:
    """A worker's initializer: below the server, so the event loop is never kept waiting,
    and ending with the ``server`` process whose pool it serves."""
    os.nice(NICE)
    threading.Thread(target=_end_with, args=(server,), name="end-with-server", daemon=True).start()


def _end_with(server: int) -> None:
    """Exit this process as soon as the process ``server`` has ended, however it ended."""
    try:
        watched = os.pidfd_open(server)
    except ProcessLookupError:
        os._exit(0)
    except (AttributeError, OSError):  # no pidfds here: look every second
        while _alive(server):
            time.sleep(1.0)
        os._exit(0)
    select.select([watched], [], [])  # readable once it has exited
    os._exit(0)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def size(view: View) -> Kind:
    """What a search of ``view`` costs most by: the phase, cards in hand, cards played."""
    return view.phase.value, len(view.hand), len(view.trick)


def fallback(view: View, seed: str) -> str:
    """What ``heuristic`` plays here: when the pool is full, or a search failed."""
    return str(HeuristicPolicy().act(view, random.Random(seed)))


# -- the pool, as the event loop sees it -------------------------------------------------


class Bots:
    """The bounded worker pool, handed to rooms through :class:`~server.ports.Ports`."""

    def __init__(
        self, workers: int, queue: int, budget: int, metrics: Metrics, within: float = 0.0
    ) -> None:
        self.workers = max(1, workers)
        self.capacity = self.workers + max(0, queue)
        self.budget = budget
        self.budgets = sorted({max(1, budget // step) for step in STEPS}, reverse=True)
        self.metrics = metrics
        self.within = within  # seconds a move's search may wait and run (the CPU delay)
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        self._running: dict[asyncio.Future[Any], Expected] = {}  # in the order handed over
        self._seconds: dict[Kind, float] = {}  # a kind of search's running mean
        self._waiting: collections.deque[Waiting] = collections.deque()  # for a place
        self._lock = threading.Lock()  # jobs are handed to the pool from threads
        self._closed = False
        metrics.bot_pending.set_function(lambda: len(self._live()) + len(self._waiting))

    def decide(self, level: str, view: View, seed: str, wait: bool = False) -> asyncio.Future[str]:
        """The action ``level`` takes for ``view``'s seat: at once for the cheap levels (and
        for a full pool: ``heuristic``, unless it may ``wait`` for a place), else when a
        worker has searched."""
        self.metrics.bot_searches.labels(level, "move").inc()
        if level in INLINE:
            return _done(decide(level, view, seed, self.budget)[0])
        if self.budget < 1:  # searching is turned off: strong plays as heuristic
            return _done(fallback(view, seed))
        if not StrongPolicy(self.budget).searches(view):  # microseconds: decided here
            return _done(decide(level, view, seed, self.budget)[0])
        # the largest budget expected to end in time, the server's only on a free worker (a
        # queue means a busy pool); the daily game's always the server's, exact
        busy = self.within > 0 and len(self._live()) >= self.workers
        steps = self.budgets[1:] if busy and not wait else self.budgets
        fits = (b for b in steps if wait or self._in_time(self._expect_move(b, view)))
        budget = next(fits, 0)
        kind = ("move", budget, *size(view))
        searched = None
        if budget:  # bounded by its time if it has one to keep (the daily game's waits)
            timed = self.within > 0 and not wait
            searched = self.submit(decide, level, view, seed, budget, kind=kind, counted=not timed)
        if searched is None and wait and not self._closed:
            self.metrics.bot_waits.inc()
            searched = self._wait(kind, decide, level, view, seed, budget)
        if searched is None:
            self.metrics.bot_fallbacks.labels("move").inc()
            return _done(fallback(view, seed))
        self.metrics.bot_budgets.labels(str(budget)).inc()
        return _first(searched)

    def advise(self, view: View, seed: str) -> asyncio.Future[dict[str, Any]]:
        """The strong advice for ``view``'s seat (see :func:`advise`); :class:`Unavailable`
        when the pool is full."""
        self.metrics.bot_searches.labels(STRONG, "hint").inc()
        if self.budget < 1:
            raise Unavailable(BOTS_BUSY, "hints are turned off on this server", RETRY_AFTER)
        searched = self.submit(advise, view, seed, self.budget, kind=("hint", *size(view)))
        if searched is None:
            self.metrics.bot_fallbacks.labels("hint").inc()
            raise Unavailable(
                BOTS_BUSY, "the server is busy thinking for other tables: ask again", RETRY_AFTER
            )
        return _first(searched)

    def submit(
        self, fn: Job, *args: Any, kind: Kind = OTHER, counted: bool = True
    ) -> asyncio.Future | None:
        """``fn(*args)`` in a worker, as a future of its ``(answer, seconds)``; None when
        ``capacity`` searches are already running or queued (unless not ``counted``: a move
        whose time was checked), or searches wait for a place.  ``kind`` names what the
        search costs alike (see :func:`size`)."""
        self._admit()
        full = counted and len(self._live()) >= self.capacity
        if self._closed or self._waiting or full:
            return None
        return self._start(kind, fn, *args)

    def _in_time(self, seconds: float) -> bool:
        """Whether a search of ``seconds`` is expected to end within :attr:`within`: at
        once on a free worker, else once the first worker frees, the searches ahead of it
        run in the order handed over, each on the first worker free (one that has run past
        its expectation is taken to end now).  With no time to keep (a CPU delay of 0)
        searches queue as far as the count allows."""
        live = self._live()
        if self.within <= 0 or len(live) < self.workers:
            return True
        now = time.monotonic()
        free = [now - self.within] * self.workers  # when each worker is next free
        for e in live.values():
            first = min(range(self.workers), key=free.__getitem__)
            free[first] = max(now, max(free[first], e.since) + e.seconds + HANDLING)
        return min(free) + seconds + HANDLING - now <= SLACK * self.within

    def _expect(self, kind: Kind) -> float:
        return self._seconds.get(kind, UNKNOWN)

    def _expect_move(self, budget: int, view: View) -> float:
        """The seconds a move's search of ``budget`` is expected to take: as measured, or
        until it is, the server's budget's in proportion (a search's work is its budget)."""
        found = self._seconds.get(("move", budget, *size(view)))
        full = self._expect(("move", self.budget, *size(view)))
        return found if found is not None else full * budget / self.budget

    def _start(self, kind: Kind, fn: Job, *args: Any) -> asyncio.Future:
        task = asyncio.ensure_future(self._search(fn, *args))
        self._running[task] = Expected(self._expect(kind), time.monotonic())
        task.add_done_callback(lambda done: self._measure(kind, done))
        task.add_done_callback(lambda _: self._admit())
        return task

    def _wait(self, kind: Kind, fn: Job, *args: Any) -> asyncio.Future:
        """``fn(*args)`` once a place frees (before any other search), as :meth:`submit`'s
        future; cancelling it before then takes it out of the line."""
        waiting = Waiting(kind, fn, args, asyncio.get_running_loop().create_future())
        self._waiting.append(waiting)
        return waiting.answer

    def _admit(self) -> None:
        """Start the searches waiting for a place, first come first, while there is one."""
        while self._waiting and not self._closed and len(self._live()) < self.capacity:
            waiting = self._waiting.popleft()
            if not waiting.answer.done():  # (a cancelled one leaves the line)
                _chain(self._start(waiting.kind, waiting.fn, *waiting.args), waiting.answer)

    async def _search(self, fn: Job, *args: Any) -> Any:
        # Handing a job to the pool may start the forkserver and spawn a worker, which
        # takes far longer than the event loop may wait: it happens in a thread.
        job = await asyncio.to_thread(self._hand_over, fn, *args)
        return await asyncio.wrap_future(job)  # cancelling this cancels a queued job

    def _hand_over(self, fn: Callable[..., Any], *args: Any) -> concurrent.futures.Future[Any]:
        with self._lock:
            try:
                return self._executor().submit(fn, *args)
            except BrokenProcessPool:  # a worker died: start a fresh pool
                log.warning("bot_pool_broken")
                self._pool = None
                return self._executor().submit(fn, *args)

    def _live(self) -> dict[asyncio.Future[Any], Expected]:
        """The searches handed over and not done, in the order handed over."""
        for task in [task for task in self._running if task.done()]:
            del self._running[task]
        return self._running

    def _measure(self, kind: Kind, future: asyncio.Future[tuple[Any, float]]) -> None:
        if not future.cancelled() and future.exception() is None:
            seconds = future.result()[1]
            self.metrics.bot_seconds.observe(seconds)
            known = self._seconds.get(kind)
            self._seconds[kind] = seconds if known is None else known + LEARN * (seconds - known)

    def _executor(self) -> concurrent.futures.ProcessPoolExecutor:
        if self._closed:
            raise RuntimeError("the bots are closed")
        if self._pool is None:
            context = multiprocessing.get_context("forkserver")
            context.set_forkserver_preload(
                ["engine.policies", "engine.review", "server.runtime.bots"]
            )
            self._pool = concurrent.futures.ProcessPoolExecutor(
                self.workers, context, initializer=_start_worker, initargs=(os.getpid(),)
            )
        return self._pool

    async def close(self) -> None:
        """Cancel what is queued, let the running searches end (a budget bounds them), stop
        the workers (idempotent)."""
        self._closed = True
        while self._waiting:
            self._waiting.popleft().answer.cancel()
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            await asyncio.to_thread(pool.shutdown, True, cancel_futures=True)

    def review(
        self, record: dict[str, Any], number: int, seat: int | None
    ) -> asyncio.Future[dict[str, Any]]:
        """A deal of a finished match solved for ``seat`` (:func:`review`);
        :class:`Unavailable` when the pool is full."""
        self.metrics.bot_searches.labels(STRONG, "review").inc()
        searched = self.submit(review, record, number, seat, kind=("review",))
        if searched is None:
            self.metrics.bot_fallbacks.labels("review").inc()
            raise Unavailable(BOTS_BUSY, "the server is busy thinking: ask again", RETRY_AFTER)
        return _first(searched)


@dataclass(frozen=True, slots=True)
class Expected:
    """A search handed to the pool: the seconds expected of it, and since when."""

    seconds: float
    since: float


@dataclass(frozen=True, slots=True)
class Waiting:
    """A search waiting for a place in the pool, and the future of its answer."""

    kind: Kind
    fn: Job
    args: tuple[Any, ...]
    answer: asyncio.Future[Any]


def _chain(
    source: asyncio.Future[Any],
    target: asyncio.Future[Any],
    pick: Callable[[Any], Any] | None = None,
) -> None:
    """``target`` gets ``source``'s outcome (its result through ``pick``); cancelling
    ``target`` cancels ``source``."""

    def done(_: asyncio.Future[Any]) -> None:
        if target.done():
            return
        if source.cancelled():
            target.cancel()
        elif (error := source.exception()) is not None:
            target.set_exception(error)
        else:
            target.set_result(source.result() if pick is None else pick(source.result()))

    def cancelled(_: asyncio.Future[Any]) -> None:
        if target.cancelled():
            source.cancel()

    source.add_done_callback(done)
    target.add_done_callback(cancelled)


def _done(value: Any) -> asyncio.Future[Any]:
    future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
    future.set_result(value)
    return future


def _first(searched: asyncio.Future[tuple[Any, float]]) -> asyncio.Future[Any]:
    """The answer of a ``(answer, seconds)`` future; cancelling it cancels the search."""
    answer: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
    _chain(searched, answer, lambda result: result[0])
    return answer
