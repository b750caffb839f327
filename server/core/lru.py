"""A mapping of at most ``limit`` entries: setting one more lets the least recently used
go (a cache of what the store holds anyway, so that it never grows without bound)."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator, MutableMapping
from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Lru(MutableMapping[K, V]):
    def __init__(self, limit: int) -> None:
        if limit < 1:
            raise ValueError(f"an Lru holds at least one entry, not {limit}")
        self.limit = limit
        self._items: OrderedDict[K, V] = OrderedDict()

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self) -> Iterator[K]:
        return iter(self._items)

    def __contains__(self, key: object) -> bool:
        return key in self._items  # (a look that does not count as a use)

    def __getitem__(self, key: K) -> V:
        """The value of ``key``, now the most recently used."""
        value = self._items[key]
        self._items.move_to_end(key)
        return value

    def __setitem__(self, key: K, value: V) -> None:
        self._items[key] = value
        self._items.move_to_end(key)
        while len(self._items) > self.limit:
            self._items.popitem(last=False)

    def __delitem__(self, key: K) -> None:
        del self._items[key]
