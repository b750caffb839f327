"""Redis for a cluster: one ordered writer and one subscriber that reconnects by itself.

Everything a node publishes goes through one queue and one connection, so messages reach
each other node in the order they were sent (a client's commands, a room's updates).  The
subscriber listens on this node's channel and on the channel every node hears; when Redis
goes away it retries until Redis is back, then calls ``on_reconnect`` so the node can
take its leases back and resend what the others may have missed.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Any

import redis.asyncio as redis
from redis.exceptions import RedisError

from ..core.logs import log
from ..runtime.actor_messages import WireError
from ..runtime.mailbox import Mailbox
from .envelope import decode, encode

Op = Callable[[Any], None]  # adds commands to a pipeline
RETRY_SECONDS = 0.5
CLOSE_SECONDS = 2.0


class Bus:
    def __init__(
        self,
        url: str,
        prefix: str,
        node: str,
        on_message: Callable[[Any], None],
        on_reconnect: Callable[[], Awaitable[None]],
    ) -> None:
        self.prefix = prefix
        self.redis = redis.Redis.from_url(
            url, decode_responses=True, socket_timeout=3, socket_connect_timeout=2
        )
        self.mine = self.channel(f"node:{node}")
        self.everyone = self.channel("all")
        self._on_message = on_message
        self._on_reconnect = on_reconnect
        self._queue: Mailbox[tuple[Op, asyncio.Future[Any] | None]] = Mailbox()
        self._tasks: list[asyncio.Task[None]] = []
        self._subscribed = asyncio.Event()
        self._closing = False  # the writer and the listener end at their next turn

    def channel(self, name: str) -> str:
        return f"{self.prefix}:{name}"

    def key(self, name: str) -> str:
        return f"{self.prefix}:{name}"

    async def start(self) -> None:
        """Connect (Redis must be up when a node starts) and begin listening."""
        await self.redis.ping()
        self._tasks = [
            asyncio.create_task(self._listen(), name="bus-listener"),
            asyncio.create_task(self._write(), name="bus-writer"),
        ]
        await asyncio.wait_for(self._subscribed.wait(), timeout=10)

    async def close(self) -> None:
        """Send what is queued, then stop writing and listening, and disconnect.

        The tasks end by themselves at their next turn: redis-py can turn a cancellation
        that lands mid-command into a connection error, which a loop that retries would
        swallow; a cancel is only the last resort, and the wait for it is bounded."""
        await self.flush()
        self._closing = True
        self._queue.wake()
        for task in self._tasks:
            if task.get_name() == "bus-listener":
                task.cancel()
        if self._tasks:
            _, stuck = await asyncio.wait(self._tasks, timeout=CLOSE_SECONDS)
            for task in stuck:
                task.cancel()
                log.warning("bus_task_not_ended", task=task.get_name())
        with contextlib.suppress(RedisError, OSError, TimeoutError):
            await asyncio.wait_for(self.redis.aclose(), CLOSE_SECONDS)

    # -- writing ---------------------------------------------------------------------

    def publish(self, channel: str, message: Any) -> None:
        """Send a message (:mod:`server.cluster.messages`) without waiting, in order with
        everything else this node sends."""
        data = encode(message)
        self.submit(lambda pipe: pipe.publish(channel, data))

    async def publish_counted(self, channel: str, message: Any) -> int:
        """Send in order and wait: how many nodes received it (0: nobody listens there)."""
        data = encode(message)
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.submit(lambda pipe: pipe.publish(channel, data), future)
        return int(await future)

    def submit(self, op: Op, future: asyncio.Future[Any] | None = None) -> None:
        self._queue.put((op, future))

    async def flush(self) -> None:
        """Wait until everything queued so far was sent (or failed)."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.submit(lambda pipe: pipe.ping(), future)
        with contextlib.suppress(RedisError, OSError, asyncio.TimeoutError):
            await asyncio.wait_for(future, 3)

    async def _write(self) -> None:
        queue = self._queue
        while not self._closing:
            await queue.wait()
            if not queue:
                continue  # woken to close
            batch = [queue.take() for _ in range(min(len(queue), 512))]
            pipe = self.redis.pipeline(transaction=False)
            for op, _ in batch:
                op(pipe)
            try:
                results = await pipe.execute()
            except (RedisError, OSError) as err:
                log.warning("redis_write_failed", error=str(err), lost=len(batch))
                for _, future in batch:
                    if future is not None and not future.done():
                        future.set_exception(RedisError(str(err)))
                await asyncio.sleep(RETRY_SECONDS / 5)
                continue
            for (_, future), result in zip(batch, results, strict=True):
                if future is not None and not future.done():
                    future.set_result(result)

    # -- listening -------------------------------------------------------------------

    async def _listen(self) -> None:
        lost = False
        while not self._closing:
            pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(self.mine, self.everyone)
                self._subscribed.set()
                if lost:
                    log.info("redis_reconnected")
                    lost = False
                    asyncio.get_running_loop().create_task(self.recover())
                async for message in pubsub.listen():
                    if message.get("type") != "message":
                        continue
                    try:
                        self._on_message(decode(message["data"]))
                    except WireError as err:  # another release's node, or garbage: say so
                        log.warning("bus_message_refused", error=str(err))
                    except Exception:  # one bad message must not stop the node listening
                        log.exception("bus_message_failed", channel=message["channel"])
            except (RedisError, OSError) as err:
                if not lost:
                    log.warning("redis_lost", error=str(err))
                lost = True
                await asyncio.sleep(RETRY_SECONDS)
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()

    async def recover(self) -> None:
        """Run ``on_reconnect`` until it gets through (a fresh Redis may drop a few of the
        pool's old connections first)."""
        for attempt in range(100):
            try:
                await self._on_reconnect()
                return
            except (RedisError, OSError) as err:
                log.warning("redis_recover_failed", error=str(err), attempt=attempt)
                await asyncio.sleep(RETRY_SECONDS)
