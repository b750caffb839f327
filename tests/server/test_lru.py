"""The bounded caches: the least recently used entry goes first, a read counts as a use."""

from __future__ import annotations

import pytest

from server.core.lru import Lru
from server.lobby.identity import NICKNAMES_CACHED
from tests.server.conftest import Harness

pytestmark = pytest.mark.server


def test_the_least_recently_used_goes_first() -> None:
    names: Lru[str, str] = Lru(2)
    names["a"], names["b"] = "ann", "bob"
    assert names.get("a") == "ann"  # a read: "b" is now the oldest
    names["c"] = "cy"
    assert dict(names) == {"a": "ann", "c": "cy"} and len(names) == 2
    assert "a" in names and names.get("b") is None
    names.setdefault("d", "dee")  # as the cluster sets a forwarded player's nickname
    assert list(names) == ["c", "d"]
    with pytest.raises(ValueError):
        Lru(0)


async def test_a_server_keeps_a_bounded_number_of_nicknames(harness: Harness) -> None:
    await harness.client("ann")
    assert harness.server is not None
    nicknames = harness.server.identity.nicknames
    assert isinstance(nicknames, Lru) and nicknames.limit == NICKNAMES_CACHED
    assert "ann" in nicknames.values()
