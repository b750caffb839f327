"""The actor pattern the server uses for rooms and tournaments.

An actor is one task and one inbox: the only writer of its state.  ``call`` queues a
coroutine function and awaits its result; the task runs them one at a time, in order,
and wakes at ``deadline`` (on the injected clock) to run ``on_deadline``.  A refusal
(:class:`~server.errors.Refused`) goes back to the caller; our own bug is logged and
reported to the caller while the actor keeps running.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

from .clock import Clock
from .errors import Refused

Command = Callable[[], Awaitable[Any]]
UNAVAILABLE = "room_unavailable"


async def _stop() -> None:
    """The inbox sentinel that ends an actor after the commands queued before it."""


class Actor:
    closed_code = "closed"
    key = ""  # the id of the durable log this actor writes

    def __init__(self, clock: Clock, name: str, log: Any) -> None:
        self.clock = clock
        self.name = name
        self.log = log
        self.deadline: float | None = None  # clock.now() seconds
        self.epoch: int | None = None  # the fencing epoch of this node's lease (a cluster)
        self.task: asyncio.Task[None] | None = None
        self._queue: deque[tuple[Command, asyncio.Future[Any]]] = deque()
        self._wake: asyncio.Future[None] | None = None  # set while the task waits
        self._timer: asyncio.Future[None] | None = None
        self._timer_at: float | None = None
        self._due = False  # the timer for ``deadline`` has fired
        self._stopping = False

    # -- hooks ---------------------------------------------------------------------------

    async def on_deadline(self) -> None:
        """The deadline passed."""

    def on_failure(self) -> None:
        """``on_deadline`` failed: set a deadline to try again, or clear it."""
        self.deadline = None

    def finished(self) -> bool:
        """True when the actor has nothing more to do once its inbox is empty."""
        return False

    def on_exit(self) -> None:
        """The task is ending (finished, or stopped)."""

    # -- running -------------------------------------------------------------------------

    def start(self) -> None:
        self.task = asyncio.create_task(self._run(), name=self.name)

    @property
    def running(self) -> bool:
        return self.task is not None and not self.task.done()

    async def call(self, fn: Command) -> Any:
        """Run ``fn`` inside the actor, after everything queued before it."""
        if not self.running:
            raise self._closed()
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._post(fn, future)
        return await future

    def tell(self, fn: Command) -> None:
        """Queue ``fn`` without waiting for it (actors tell each other, so none waits on
        another); a failure is logged."""
        if not self.running:
            return
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        future.add_done_callback(self._log_told)
        self._post(fn, future)

    def _log_told(self, future: asyncio.Future[Any]) -> None:
        if not future.cancelled() and future.exception() is not None:
            self.log.warning("told_command_failed", error=str(future.exception()))

    async def stop(self, grace: float = 5.0) -> None:
        """Finish the command in hand, refuse the rest, and end (idempotent)."""
        task = self.task
        if task is None or task.done():
            return
        self._stopping = True
        self._post(_stop, asyncio.get_running_loop().create_future())
        done, _ = await asyncio.wait({task}, timeout=grace)
        if not done:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    # -- the task ------------------------------------------------------------------------
    # One plain future to sleep on and a callback on the clock's timer: no task or
    # ``asyncio.wait`` per command, which matters at a thousand actions a second.

    def _post(self, fn: Command, future: asyncio.Future[Any]) -> None:
        self._queue.append((fn, future))
        self._notify()

    def _notify(self) -> None:
        if self._wake is not None and not self._wake.done():
            self._wake.set_result(None)

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            while True:
                self._arm()
                if not self._queue and not (self._due and not self._stopping):
                    self._wake = loop.create_future()
                    try:
                        await self._wake
                    finally:
                        self._wake = None
                if self._queue:
                    fn, future = self._queue.popleft()
                    if fn is _stop:
                        future.set_result(None)
                        return
                    await self._execute(fn, future)
                elif self._due and not self._stopping:
                    self._cancel_timer()
                    self.deadline = None
                    await self._guarded()
                if self.finished() and not self._queue:
                    return
        finally:
            self._cancel_timer()
            while self._queue:
                self._refuse(*self._queue.popleft())
            self.on_exit()

    def _refuse(self, fn: Command, future: asyncio.Future[Any]) -> None:
        if future.done():
            return
        if fn is _stop:
            future.set_result(None)
        else:
            future.set_exception(self._closed())

    def _closed(self) -> Refused:
        """Why a command cannot run: the actor is done, or stopped while not done (its
        server is stopping, or another server took it over: try again in a moment)."""
        if self.finished():
            return Refused(self.closed_code, f"{self.name} is closed")
        return Refused(UNAVAILABLE, "the table is moving to another server: try again")

    async def _execute(self, fn: Command, future: asyncio.Future[Any]) -> None:
        try:
            result = await fn()
        except Refused as err:
            if not future.done():
                future.set_exception(err)
        except asyncio.CancelledError:
            self._refuse(fn, future)
            raise
        except Exception as err:  # our bug: logged, reported to the caller, actor keeps going
            self.log.exception("command_failed")
            if not future.done():
                future.set_exception(err)
        else:
            if not future.done():
                future.set_result(result)

    async def _guarded(self) -> None:
        try:
            await self.on_deadline()
        except asyncio.CancelledError:
            raise
        except Refused as err:
            self.log.warning("deadline_action_refused", code=err.code)
            self.on_failure()
        except Exception:
            self.log.exception("deadline_action_failed")
            self.on_failure()

    def _arm(self) -> None:
        """Keep one timer on the clock for the current ``deadline``."""
        if self.deadline is None:
            self._cancel_timer()
        elif self._timer is None or self._timer_at != self.deadline:
            self._cancel_timer()
            self._timer = self.clock.sleep_until(self.deadline)
            self._timer_at = self.deadline
            self._timer.add_done_callback(self._fire)

    def _fire(self, timer: asyncio.Future[None]) -> None:
        if timer is self._timer and not timer.cancelled():
            self._due = True
            self._notify()

    def _cancel_timer(self) -> None:
        if self._timer is not None and not self._timer.done():
            self._timer.cancel()
        self._timer = self._timer_at = None
        self._due = False
