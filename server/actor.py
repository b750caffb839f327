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
from collections.abc import Awaitable, Callable
from typing import Any

from .clock import Clock
from .errors import Refused

Command = Callable[[], Awaitable[Any]]


async def _stop() -> None:
    """The inbox sentinel that ends an actor after the commands queued before it."""


class Actor:
    closed_code = "closed"

    def __init__(self, clock: Clock, name: str, log: Any) -> None:
        self.clock = clock
        self.name = name
        self.log = log
        self.inbox: asyncio.Queue[tuple[Command, asyncio.Future[Any]]] = asyncio.Queue()
        self.deadline: float | None = None  # clock.now() seconds
        self.task: asyncio.Task[None] | None = None
        self._timer: asyncio.Future[None] | None = None
        self._timer_at: float | None = None
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
            raise Refused(self.closed_code, f"{self.name} is closed")
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.inbox.put_nowait((fn, future))
        return await future

    def tell(self, fn: Command) -> None:
        """Queue ``fn`` without waiting for it (actors tell each other, so none waits on
        another); a failure is logged."""
        if not self.running:
            return
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        future.add_done_callback(self._log_told)
        self.inbox.put_nowait((fn, future))

    def _log_told(self, future: asyncio.Future[Any]) -> None:
        if not future.cancelled() and future.exception() is not None:
            self.log.warning("told_command_failed", error=str(future.exception()))

    async def stop(self, grace: float = 5.0) -> None:
        """Finish the command in hand, refuse the rest, and end (idempotent)."""
        task = self.task
        if task is None or task.done():
            return
        self._stopping = True
        self.inbox.put_nowait((_stop, asyncio.get_running_loop().create_future()))
        done, _ = await asyncio.wait({task}, timeout=grace)
        if not done:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _run(self) -> None:
        get: asyncio.Future[Any] | None = None
        try:
            while True:
                if get is None:
                    get = asyncio.ensure_future(self.inbox.get())
                timer = self._timer_future()
                waiters: set[asyncio.Future[Any]] = {get} if timer is None else {get, timer}
                done, _ = await asyncio.wait(waiters, return_when=asyncio.FIRST_COMPLETED)
                if get in done:
                    fn, future = get.result()
                    get = None
                    if fn is _stop:
                        future.set_result(None)
                        return
                    await self._execute(fn, future)
                elif timer is not None and timer in done and not self._stopping:
                    self._cancel_timer()
                    self.deadline = None
                    await self._guarded()
                if self.finished() and self.inbox.empty():
                    return
        finally:
            self._cancel_timer()
            if get is not None and get.done() and not get.cancelled():
                self._refuse(*get.result())
            elif get is not None:
                get.cancel()
            while not self.inbox.empty():
                self._refuse(*self.inbox.get_nowait())
            self.on_exit()

    def _refuse(self, fn: Command, future: asyncio.Future[Any]) -> None:
        if future.done():
            return
        if fn is _stop:
            future.set_result(None)
        else:
            future.set_exception(Refused(self.closed_code, f"{self.name} is closed"))

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

    def _timer_future(self) -> asyncio.Future[None] | None:
        if self.deadline is None:
            self._cancel_timer()
            return None
        if self._timer is None or self._timer_at != self.deadline:
            self._cancel_timer()
            self._timer = self.clock.sleep_until(self.deadline)
            self._timer_at = self.deadline
        return self._timer

    def _cancel_timer(self) -> None:
        if self._timer is not None and not self._timer.done():
            self._timer.cancel()
        self._timer = self._timer_at = None
