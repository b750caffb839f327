"""The one inbox the server's tasks share: a FIFO that a single task drains.

Actors, connection writers, stand-ins for connections on other nodes and the Redis writer
each own one.  The draining task sleeps on one plain future while the box is empty: no
``asyncio.Queue``, no task per item, which matters at thousands of connections.
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Generic, TypeVar

T = TypeVar("T")


class Mailbox(Generic[T]):
    __slots__ = ("_items", "_wake")

    def __init__(self) -> None:
        self._items: deque[T] = deque()
        self._wake: asyncio.Future[None] | None = None  # set while the owner sleeps

    def put(self, item: T) -> None:
        self._items.append(item)
        self.wake()

    def take(self) -> T:
        return self._items.popleft()

    def clear(self) -> None:
        self._items.clear()

    def __len__(self) -> int:
        return len(self._items)

    def __bool__(self) -> bool:
        return bool(self._items)

    def wake(self) -> None:
        """Wake the sleeping owner (also without an item: a timer fired)."""
        if self._wake is not None and not self._wake.done():
            self._wake.set_result(None)

    async def wait(self) -> None:
        """Sleep until an item arrives or :meth:`wake` is called; at once if not empty."""
        if self._items:
            return
        self._wake = asyncio.get_running_loop().create_future()
        try:
            await self._wake
        finally:
            self._wake = None
