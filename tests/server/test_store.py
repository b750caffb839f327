"""The storage layer, run against every backend in ``BACKENDS`` (for now only SQLite).

A backend is a small adapter: it builds fresh stores on one shared database, lists the applied
migration versions, and gives a child process the code to build the same store.  Adding
PostgreSQL means adding one adapter to ``BACKENDS``; the tests stay as they are.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import sys
from pathlib import Path

import pytest

from server.store.base import (
    LogEntry,
    PlayerRow,
    RoomRow,
    Store,
    StoreError,
    VersionConflict,
)
from server.store.migrations import list_migrations
from server.store.sqlite import SqliteStore

pytestmark = pytest.mark.server

ROOT = Path(__file__).resolve().parents[2]


class SqliteBackend:
    dialect = "sqlite"

    def __init__(self, tmp_path: Path) -> None:
        self.path = tmp_path / "k.db"

    def make(self) -> Store:
        return SqliteStore(self.path)

    def child_setup(self) -> str:
        """Python source defining ``make()`` for a child process."""
        return (
            "from server.store.sqlite import SqliteStore\n"
            f"def make():\n    return SqliteStore({str(self.path)!r})\n"
        )

    async def migration_versions(self) -> list[int]:
        conn = sqlite3.connect(self.path)
        try:
            return [v for (v,) in conn.execute("SELECT version FROM schema_migrations")]
        finally:
            conn.close()


BACKENDS = {"sqlite": SqliteBackend}


@pytest.fixture(params=["sqlite"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> SqliteBackend:
    return BACKENDS[request.param](tmp_path)


@pytest.fixture
async def store(backend: SqliteBackend):
    s = backend.make()
    await s.open()
    yield s
    await s.close()


def room(room_id: str, *, invite: str | None = None, status: str = "open", at: float = 0.0):
    return RoomRow(room_id, "owner", invite, status, at)


# --------------------------------------------------------------------------- migrations


def test_migration_files_are_numbered_without_gaps() -> None:
    versions = [v for v, _ in list_migrations("sqlite")]
    assert versions == list(range(1, len(versions) + 1))
    assert versions
    with pytest.raises(ValueError):
        list_migrations("no-such-dialect")


async def test_migrations_applied_once(backend: SqliteBackend) -> None:
    first, second = backend.make(), backend.make()
    await first.open()
    await second.open()  # a second store on the same, already migrated database
    await first.close()
    await second.close()
    third = backend.make()
    await third.open()
    await third.close()
    expected = [v for v, _ in list_migrations(backend.dialect)]
    assert sorted(await backend.migration_versions()) == expected


# --------------------------------------------------------------------------- players


async def test_players_by_id_and_token_hash(store: Store) -> None:
    alice = PlayerRow("p1", "Alice", b"\x00hash-a\xff", 10.5)
    bob = PlayerRow("p2", "Bob", b"hash-b", 11.0)
    await store.add_player(alice)
    await store.add_player(bob)

    assert await store.player_by_token_hash(b"\x00hash-a\xff") == alice
    assert await store.player_by_token_hash(b"hash-b") == bob
    assert await store.player_by_token_hash(b"nope") is None
    assert await store.player("p2") == bob
    assert await store.player("p3") is None


async def test_duplicate_players_refused(store: Store) -> None:
    await store.add_player(PlayerRow("p1", "Alice", b"a", 1.0))
    with pytest.raises(StoreError) as same_hash:
        await store.add_player(PlayerRow("p2", "Bob", b"a", 2.0))
    assert not isinstance(same_hash.value, VersionConflict)
    with pytest.raises(StoreError):
        await store.add_player(PlayerRow("p1", "Carol", b"c", 3.0))
    assert await store.player("p2") is None
    assert (await store.player("p1")).nickname == "Alice"


# --------------------------------------------------------------------------- rooms


async def test_rooms_by_invite_and_status(store: Store) -> None:
    await store.add_room(room("a", at=1.0), {"event": "created"})
    await store.add_room(room("b", invite="XK42", at=2.0), {"event": "created"})
    await store.add_room(room("c", status="playing", at=3.0), {"event": "created"})

    assert await store.room("b") == room("b", invite="XK42", at=2.0)
    assert await store.room("zz") is None
    assert await store.room_by_invite("XK42") == room("b", invite="XK42", at=2.0)
    assert await store.room_by_invite("nope") is None

    assert [r.id for r in await store.rooms_with_status("open")] == ["a", "b"]
    assert [r.id for r in await store.rooms_with_status("open", "playing")] == ["a", "b", "c"]
    assert await store.rooms_with_status("finished") == []
    assert await store.rooms_with_status() == []

    await store.set_room_status("a", "finished")
    assert (await store.room("a")).status == "finished"
    assert [r.id for r in await store.rooms_with_status("open")] == ["b"]
    with pytest.raises(StoreError):
        await store.set_room_status("zz", "closed")


async def test_add_room_writes_version_one_atomically(store: Store) -> None:
    await store.add_room(room("a", invite="SAME"), {"seats": [None] * 4})
    assert await store.log("a") == [LogEntry("a", 1, {"seats": [None, None, None, None]})]

    with pytest.raises(StoreError):  # invite code taken: neither row nor log entry is written
        await store.add_room(room("b", invite="SAME"), {"event": "created"})
    assert await store.room("b") is None
    assert await store.log("b") == []

    with pytest.raises(StoreError):  # room id taken
        await store.add_room(room("a"), {"event": "again"})
    assert await store.log("a") == [LogEntry("a", 1, {"seats": [None, None, None, None]})]


# --------------------------------------------------------------------------- logs


async def test_append_and_log_order(store: Store) -> None:
    await store.add_room(room("r"), {"v": 1})
    for v in range(2, 8):
        await store.append("r", v, {"v": v, "text": "één ♠", "nested": {"list": [v, None]}})
    await store.append("other", 1, {"v": "other"})

    entries = await store.log("r")
    assert [e.version for e in entries] == list(range(1, 8))
    assert entries[3] == LogEntry("r", 4, {"v": 4, "text": "één ♠", "nested": {"list": [4, None]}})
    assert [e.version for e in await store.log("r", after=5)] == [6, 7]
    assert await store.log("r", after=7) == []
    assert await store.log("missing") == []
    assert await store.log("other") == [LogEntry("other", 1, {"v": "other"})]


async def test_duplicate_version_conflicts(store: Store) -> None:
    await store.add_room(room("r"), {"v": 1})
    with pytest.raises(VersionConflict):
        await store.append("r", 1, {"v": "dup"})
    await store.append("r", 2, {"v": 2})
    with pytest.raises(VersionConflict):
        await store.append("r", 2, {"v": "dup"})
    assert [e.entry["v"] for e in await store.log("r")] == [1, 2]


async def test_conflict_fails_only_the_duplicate_in_a_batch(store: Store) -> None:
    rooms = [f"r{i}" for i in range(20)]
    for r in rooms:
        await store.add_room(room(r), {"v": 1})
    calls = [(r, v, {"v": v}) for v in range(2, 12) for r in rooms]  # 200 appends
    calls.insert(100, ("r3", 2, {"v": "dup"}))  # same key as calls[3], queued after it

    results = await asyncio.gather(
        *(store.append(r, v, entry) for r, v, entry in calls), return_exceptions=True
    )

    assert isinstance(results[100], VersionConflict)
    assert [i for i, res in enumerate(results) if res is not None] == [100]
    for r in rooms:
        assert [e.entry["v"] for e in await store.log(r)] == list(range(1, 12))


async def test_concurrent_appends_are_group_committed(store: Store) -> None:
    if not isinstance(store, SqliteStore):
        pytest.skip("SQLite batch counter")
    before = store.append_batches
    await asyncio.gather(*(store.append(f"r{i % 50}", i // 50 + 1, {"i": i}) for i in range(500)))
    assert 1 <= store.append_batches - before < 100
    assert len(await store.log("r7")) == 10


async def test_entries_must_be_json(store: Store) -> None:
    with pytest.raises(StoreError):
        await store.append("r", 1, {"bad": object()})
    with pytest.raises(StoreError):
        await store.add_room(room("r"), {"bad": {1, 2}})
    with pytest.raises(StoreError):
        await store.save_match("m", "r", {"bad": b"bytes"})
    assert await store.log("r") == []
    assert await store.room("r") is None
    assert await store.match("m") is None


# --------------------------------------------------------------------------- matches


async def test_matches_save_and_load(store: Store) -> None:
    record = {"teams": [["p1", "p3"], ["p2", "p4"]], "score": [1520, 1002], "hands": 16}
    await store.save_match("m1", "r", record)
    assert await store.match("m1") == record
    assert await store.match("m2") is None
    with pytest.raises(StoreError):
        await store.save_match("m1", "r", {"other": True})
    assert await store.match("m1") == record


# --------------------------------------------------------------------------- lifecycle


async def test_data_survives_close_and_reopen(backend: SqliteBackend) -> None:
    s = backend.make()
    await s.open()
    await s.add_player(PlayerRow("p1", "Alice", b"h", 1.0))
    await s.add_room(room("r", invite="INV"), {"v": 1})
    await s.append("r", 2, {"v": 2})
    await s.set_room_status("r", "playing")
    await s.save_match("m", "r", {"done": True})
    await s.close()

    s = backend.make()
    await s.open()
    try:
        assert await s.player_by_token_hash(b"h") == PlayerRow("p1", "Alice", b"h", 1.0)
        assert await s.room_by_invite("INV") == room("r", invite="INV", status="playing")
        assert [e.entry for e in await s.log("r")] == [{"v": 1}, {"v": 2}]
        assert await s.match("m") == {"done": True}
    finally:
        await s.close()


async def test_close_flushes_queued_appends(backend: SqliteBackend) -> None:
    s = backend.make()
    await s.open()
    tasks = [asyncio.create_task(s.append("r", v, {"v": v})) for v in range(1, 101)]
    await asyncio.sleep(0)  # let every append queue itself
    await s.close()
    assert [t.result() for t in tasks] == [None] * 100

    s = backend.make()
    await s.open()
    try:
        assert [e.version for e in await s.log("r")] == list(range(1, 101))
    finally:
        await s.close()


async def test_close_is_idempotent_and_later_calls_fail(backend: SqliteBackend) -> None:
    s = backend.make()
    await s.open()
    await asyncio.gather(s.close(), s.close())
    await s.close()
    calls = [
        s.open(),
        s.add_player(PlayerRow("p", "n", b"h", 0.0)),
        s.player_by_token_hash(b"h"),
        s.player("p"),
        s.add_room(room("r"), {}),
        s.set_room_status("r", "closed"),
        s.room("r"),
        s.room_by_invite("x"),
        s.rooms_with_status("open"),
        s.append("r", 2, {}),
        s.log("r"),
        s.save_match("m", "r", {}),
        s.match("m"),
    ]
    for call in calls:
        with pytest.raises(StoreError, match="store is closed"):
            await call


async def test_calls_before_open_fail(backend: SqliteBackend) -> None:
    s = backend.make()
    with pytest.raises(StoreError):
        await s.append("r", 1, {})
    with pytest.raises(StoreError):
        await s.room("r")
    await s.close()  # closing a never-opened store is fine


async def test_open_failure_is_a_store_error(tmp_path: Path) -> None:
    s = SqliteStore(tmp_path / "missing-dir" / "k.db")
    with pytest.raises(StoreError, match="unable to open"):
        await s.open()
    await s.close()


CHILD = """
import asyncio
from server.store.base import RoomRow
SETUP

async def writer(store, room_id):
    await store.add_room(RoomRow(room_id, "owner", None, "open", 0.0), {"v": 1})
    print("ok", room_id, 1, flush=True)
    for v in range(2, 1_000_000):
        await store.append(room_id, v, {"v": v, "pad": "x" * 200})
        print("ok", room_id, v, flush=True)

async def main():
    store = make()
    await store.open()
    await asyncio.gather(*(writer(store, f"r{i}") for i in range(8)))

asyncio.run(main())
"""


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
async def test_acknowledged_appends_survive_sigkill(backend: SqliteBackend) -> None:
    code = CHILD.replace("SETUP", backend.child_setup())
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        code,
        cwd=ROOT,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    lines: list[bytes] = []
    try:
        async with asyncio.timeout(60):
            while len(lines) < 400:
                line = await proc.stdout.readline()
                if not line:
                    err = (await proc.stderr.read()).decode()
                    pytest.fail(f"child exited early:\n{err}")
                lines.append(line)
    finally:
        proc.send_signal(signal.SIGKILL)
    lines.extend((await proc.stdout.read()).splitlines(keepends=True))
    assert await proc.wait() == -signal.SIGKILL

    acked: dict[str, int] = {}
    for line in lines:
        if line.endswith(b"\n"):  # a torn last line was not fully acknowledged
            _, room_id, v = line.decode().split()
            acked[room_id] = max(acked.get(room_id, 0), int(v))
    assert sum(acked.values()) >= 400

    s = backend.make()
    await s.open()
    try:
        for room_id, last in acked.items():
            versions = [e.version for e in await s.log(room_id)]
            assert versions == list(range(1, len(versions) + 1))  # no gaps, nothing torn
            assert len(versions) >= last, f"{room_id}: acknowledged {last}, found {versions[-1:]}"
    finally:
        await s.close()
