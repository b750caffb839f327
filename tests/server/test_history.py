"""Resume from a version (server/runtime/history.py): what comes after a version while it is
all kept, else None (a snapshot), as rooms and score sheets both use it."""

from __future__ import annotations

from server.runtime.history import History


def kept(size: int, version: int, last: int) -> History[str]:
    """A history of ``size`` that started at ``version`` and has items up to ``last``."""
    history: History[str] = History(size, version)
    for v in range(version + 1, last + 1):
        history.append(v, f"v{v}")
    return history


def test_an_empty_history_knows_only_its_own_version() -> None:
    history: History[str] = History(3, 7)
    assert (history.version, len(history), list(history)) == (7, 0, [])
    assert history.since(7) == []  # up to date: nothing to send
    assert history.since(6) is None  # a version loaded before it: not kept
    assert history.since(0) is None
    assert history.since(8) is None  # from the future


def test_the_current_version_has_nothing_after_it() -> None:
    assert kept(3, 1, 10).since(10) == []


def test_a_version_within_the_window_gets_what_came_after_it_in_order() -> None:
    history = kept(3, 1, 10)
    assert history.since(9) == ["v10"]
    assert history.since(7) == ["v8", "v9", "v10"]  # the oldest kept and on


def test_a_version_older_than_what_is_kept_is_none() -> None:
    history = kept(3, 1, 10)
    assert list(history) == ["v8", "v9", "v10"]  # only the latest three
    assert history.since(6) is None
    assert history.since(0) is None


def test_a_version_newer_than_the_current_one_is_none() -> None:
    history = kept(3, 1, 10)
    assert history.since(11) is None
    assert history.since(100) is None


def test_all_kept_since_it_started() -> None:
    history = kept(5, 4, 6)
    assert history.since(4) == ["v5", "v6"]  # where it started: all of it
    assert history.since(3) is None  # before it started (loaded then): never kept


def test_a_skipped_version_forgets_what_came_before_it() -> None:
    history = kept(5, 1, 4)
    history.append(6, "v6")  # version 5 was never appended: it cannot be replayed
    assert (history.version, list(history)) == (6, ["v6"])
    assert history.since(5) == ["v6"]
    assert history.since(4) is None
