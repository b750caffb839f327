"""The actor pattern the server uses for rooms and tournaments.

An actor is one task and one :class:`~server.mailbox.Mailbox`: the only writer of its
state.  ``call`` queues a coroutine function and awaits its result; the task runs them one
at a time, in order, and wakes at ``deadline`` (on the injected clock) to run
``on_deadline``.  A refusal (:class:`~server.errors.Refused`) or an outage
(:class:`~server.errors.Unavailable`) goes back to the caller; our own bug is logged and
reported to the caller while the actor keeps running.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from ..core.clock import Clock
from ..core.errors import Refused, Unavailable, room_unavailable
from .mailbox import Mailbox

if TYPE_CHECKING:
    from .actor_messages import Message
    from .peer import Peer

Command = Callable[[], Awaitable[Any]]


async def _stop() -> None:
    """The inbox sentinel that ends an actor after the commands queued before it."""


class Actor:
    closed_code = "closed"
    # Once ``finished()``, end at once: commands queued behind the one that finished it are
    # refused with ``closed_code`` (a room that closed or whose match ended takes no chat,
    # act or watch).  An actor whose end is only a rest (a sheet) runs them first instead.
    final = True
    kind = ""  # the name its kind registered with the router ("room", "tournament")
    key = ""  # the id of the durable log this actor writes

    def __init__(self, clock: Clock, name: str, log: Any) -> None:
        self.clock = clock
        self.name = name
        self.log = log
        self.deadline: float | None = None  # clock.now() seconds
        self.epoch: int | None = None  # the fencing epoch of this node's lease (a cluster)
        self.task: asyncio.Task[None] | None = None
        self._inbox: Mailbox[tuple[Command, asyncio.Future[Any]]] = Mailbox()
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

    async def on_message(self, message: Message) -> None:
        """A message from another actor (see :mod:`server.messages`), run in this one."""

    def detach(self, peer: Peer) -> None:
        """``peer`` stops following this actor (its connection closed)."""

    async def relist(self) -> None:
        """Publish this actor's listing in the lobby again (it was made, or moved)."""

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

    def deliver(self, message: Message) -> None:
        """Queue a message from another actor (see :meth:`on_message`)."""
        self.tell(lambda: self.on_message(message))

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
        self._inbox.put((fn, future))

    async def _run(self) -> None:
        inbox = self._inbox
        try:
            while True:
                self._arm()
                if not (self._due and not self._stopping):
                    await inbox.wait()
                if inbox:
                    fn, future = inbox.take()
                    if fn is _stop:
                        future.set_result(None)
                        return
                    await self._execute(fn, future)
                elif self._due and not self._stopping:
                    self._cancel_timer()
                    self.deadline = None
                    await self._guarded()
                if self.finished() and (self.final or not inbox):
                    return
        finally:
            self._cancel_timer()
            while inbox:
                self._refuse(*inbox.take())
            self.on_exit()

    def _refuse(self, fn: Command, future: asyncio.Future[Any]) -> None:
        if future.done():
            return
        if fn is _stop:
            future.set_result(None)
        else:
            future.set_exception(self._closed())

    def _closed(self) -> Refused | Unavailable:
        """Why a command cannot run: the actor is done, or stopped while not done (its
        server is stopping, or another server took it over: try again in a moment)."""
        if self.finished():
            return Refused(self.closed_code, f"{self.name} is closed")
        return room_unavailable()

    async def _execute(self, fn: Command, future: asyncio.Future[Any]) -> None:
        try:
            result = await fn()
        except (Refused, Unavailable) as err:
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
        except (Refused, Unavailable) as err:
            self.log.warning("deadline_action_refused", code=err.code)
            self.on_failure()
        except Exception:
            self.log.exception("deadline_action_failed")
            self.on_failure()

    def _arm(self) -> None:
        """Keep one timer on the clock, due no later than ``deadline``.  A deadline that
        moves later (a room's turn timer, at every move) keeps the timer it has: when that
        fires before the deadline, it sleeps again, so a move costs no timer."""
        if self.deadline is None:
            self._due = False  # (a timer left on the clock finds no deadline, and stops)
        elif self._due and self._timer_at == self.deadline:
            return
        elif self._timer is None or self._timer.done() or self._timer_at > self.deadline:
            self._cancel_timer()
            self._timer = self.clock.sleep_until(self.deadline)
            self._timer_at = self.deadline
            self._timer.add_done_callback(self._fire)

    def _fire(self, timer: asyncio.Future[None]) -> None:
        if timer is not self._timer or timer.cancelled():
            return
        if self.deadline is not None and self.deadline <= self.clock.now():
            self._timer_at = self.deadline
            self._due = True
            self._inbox.wake()
        else:  # the deadline moved later (or went): sleep on
            self._timer = self._timer_at = None
            self._arm()

    def _cancel_timer(self) -> None:
        if self._timer is not None and not self._timer.done():
            self._timer.cancel()
        self._timer = self._timer_at = None
        self._due = False
