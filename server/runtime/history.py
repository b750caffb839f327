"""Resume from a version: the latest changes of an actor's log, as it sent them.

A room and a score sheet each keep one :class:`History`; a follower that comes back with
the last version it saw gets what came after it (:meth:`History.since`) when all of that is
still kept, else the whole thing afresh (a snapshot).  lila-ws calls this ``History``.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from itertools import islice
from typing import Generic, TypeVar

T = TypeVar("T")


class History(Generic[T]):
    """The items of the latest ``size`` versions, up to :attr:`version` (the current one).

    Versions follow one another without gaps: ``append`` after an item that was never
    appended (a version skipped) forgets what it kept before, which can no longer be
    replayed whole."""

    __slots__ = ("_items", "version")

    def __init__(self, size: int, version: int) -> None:
        self._items: deque[T] = deque(maxlen=size)
        self.version = version  # the current version: the last item's, if any

    def append(self, version: int, item: T) -> None:
        """``item`` is what version ``version`` (the next one) changed."""
        if version != self.version + 1:
            self._items.clear()
        self._items.append(item)
        self.version = version

    def since(self, version: int) -> list[T] | None:
        """The items after ``version``, oldest first (none if it is the current one); None
        if some of them are no longer kept, or ``version`` is from the future: send a
        snapshot."""
        missed = self.version - version
        if missed < 0 or missed > len(self._items):
            return None
        return list(islice(self._items, len(self._items) - missed, None))

    def __iter__(self) -> Iterator[T]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)
