"""The storage layer, run against every backend in ``BACKENDS``: SQLite and PostgreSQL.

A backend is a small adapter: it builds fresh stores on one shared database, lists the applied
migration versions, and gives a child process the code to build the same store.

PostgreSQL comes from ``KLAVERJAS_TEST_DATABASE_URL`` (default
``postgresql://postgres@127.0.0.1:5432/test``); every test gets a fresh schema of its own,
dropped afterwards.  If PostgreSQL is unreachable the PostgreSQL tests fail; they never skip.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import re
import secrets
import signal
import sqlite3
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from server.core.config import Settings
from server.store import Stores, open_stores
from server.store.errors import Fenced, StoreError, VersionConflict
from server.store.identities import PlayerRow
from server.store.logs import LogEntry
from server.store.migrations import list_migrations
from server.store.postgres import PostgresDatabase, migration_lock_key
from server.store.rooms import RoomRow
from server.store.sheets import SheetRow
from server.store.sqlite import SqliteDatabase
from tests.postgres import PG_URL, Proxy, blocked_by, fresh_schema, pg_connect

pytestmark = pytest.mark.server

ROOT = Path(__file__).resolve().parents[2]


def sqlite_stores(path: Path, pace: float = 0.0) -> Stores:
    return Stores.on(SqliteDatabase(path, pace))


def pg_stores(url: str, **options: Any) -> Stores:
    return Stores.on(PostgresDatabase(url, **options))


class SqliteBackend:
    dialect = "sqlite"

    def __init__(self, tmp_path: Path) -> None:
        self.path = tmp_path / "k.db"

    def make(self) -> Stores:
        return sqlite_stores(self.path)

    def child_setup(self) -> str:
        """Python source defining ``make()`` for a child process."""
        return (
            "from server.store import Stores\n"
            "from server.store.sqlite import SqliteDatabase\n"
            f"def make():\n    return Stores.on(SqliteDatabase({str(self.path)!r}))\n"
        )

    async def migration_versions(self) -> list[int]:
        conn = sqlite3.connect(self.path)
        try:
            return [v for (v,) in conn.execute("SELECT version FROM schema_migrations")]
        finally:
            conn.close()

    async def epochs(self, key: str) -> list[int | None]:
        conn = sqlite3.connect(self.path)
        try:
            sql = "SELECT epoch FROM room_log WHERE room_id = ? ORDER BY version"
            return [e for (e,) in conn.execute(sql, (key,))]
        finally:
            conn.close()


class PostgresBackend:
    dialect = "postgres"

    def __init__(self, schema: str, url: str = PG_URL) -> None:
        self.schema = schema
        self.url = url

    def make(self) -> Stores:
        return pg_stores(self.url, schema=self.schema)

    def child_setup(self) -> str:
        """Python source defining ``make()`` for a child process."""
        return (
            "from server.store import Stores\n"
            "from server.store.postgres import PostgresDatabase\n"
            f"def make():\n    db = PostgresDatabase({self.url!r}, schema={self.schema!r})\n"
            "    return Stores.on(db)\n"
        )

    async def migration_versions(self) -> list[int]:
        conn = await pg_connect(server_settings={"search_path": self.schema})
        try:
            return [v for (v,) in await conn.fetch("SELECT version FROM schema_migrations")]
        finally:
            await conn.close()

    async def epochs(self, key: str) -> list[int | None]:
        conn = await pg_connect(server_settings={"search_path": self.schema})
        try:
            sql = "SELECT epoch FROM room_log WHERE room_id = $1 ORDER BY version"
            return [e for (e,) in await conn.fetch(sql, key)]
        finally:
            await conn.close()


Backend = SqliteBackend | PostgresBackend
BACKENDS = {"sqlite": SqliteBackend, "postgres": PostgresBackend}


@pytest.fixture(params=list(BACKENDS))
async def backend(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Backend]:
    if request.param == "sqlite":
        yield SqliteBackend(tmp_path)
        return
    async with fresh_schema() as schema:
        yield PostgresBackend(schema)


@pytest.fixture
async def store(backend: Backend):
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
    assert len(versions) >= 3  # 0003_fences
    assert [v for v, _ in list_migrations("postgres")] == versions  # the dialects keep in step
    with pytest.raises(ValueError):
        list_migrations("no-such-dialect")


# What each shipped migration does (its statements, comments and spacing aside), as it
# shipped: a database applied it once and never runs it again, so a migration that changed
# would leave old databases and new ones with different schemas.  A change is a new version.
SHIPPED = {
    "sqlite": {1: "b3c2865a86c68094", 10: "402f1edf5b90243f"},
    "postgres": {1: "dec75ef2b8a14126", 10: "97ec3d94c2f42846"},
    "both": {2: "ca0e0b684362cde7", 3: "4fcf531cb7fbaf2f", 4: "c1b6ea5ddc0eeb85",
             5: "552a74b74312a21e", 6: "532272f5fc230d49", 7: "3a720d99d6188a23",
             8: "f91116bb88779235", 9: "4ba343624c332d5c", 11: "cc70b8850bb4ca8b",
             12: "cd8045ced90ef0e7"},
}  # fmt: skip


def statements(text: str) -> str:
    """A migration's statements: its SQL without comments, its words single-spaced."""
    return " ".join(re.sub(r"--[^\n]*", "", text).split())


@pytest.mark.parametrize("dialect", ["sqlite", "postgres"])
def test_a_shipped_migration_never_changes(dialect: str) -> None:
    shipped = SHIPPED[dialect] | SHIPPED["both"]
    for version, text in list_migrations(dialect):
        digest = hashlib.sha256(statements(text).encode()).hexdigest()[:16]
        assert shipped.get(version, digest) == digest, f"{dialect} migration {version} changed"


async def test_migrations_applied_once(backend: Backend) -> None:
    first, second = backend.make(), backend.make()
    await first.open()
    await second.open()  # a second store on the same, already migrated database
    await first.close()
    await second.close()
    third = backend.make()
    await third.open()
    await third.close()
    expected = [v for v, _ in list_migrations(backend.dialect)]
    assert expected[:3] == [1, 2, 3]
    assert sorted(await backend.migration_versions()) == expected


# --------------------------------------------------------------------------- players


async def test_players_by_id_and_token_hash(store: Stores) -> None:
    alice = PlayerRow("p1", "Alice", b"\x00hash-a\xff", 10.5)
    bob = PlayerRow("p2", "Bob", b"hash-b", 11.0)
    await store.identities.add_player(alice)
    await store.identities.add_player(bob)

    assert await store.identities.player_by_token_hash(b"\x00hash-a\xff") == alice
    assert await store.identities.player_by_token_hash(b"hash-b") == bob
    assert await store.identities.player_by_token_hash(b"nope") is None
    assert await store.identities.player("p2") == bob
    assert await store.identities.player("p3") is None


async def test_duplicate_players_refused(store: Stores) -> None:
    await store.identities.add_player(PlayerRow("p1", "Alice", b"a", 1.0))
    with pytest.raises(StoreError) as same_hash:
        await store.identities.add_player(PlayerRow("p2", "Bob", b"a", 2.0))
    assert not isinstance(same_hash.value, VersionConflict)
    with pytest.raises(StoreError):
        await store.identities.add_player(PlayerRow("p1", "Carol", b"c", 3.0))
    assert await store.identities.player("p2") is None
    assert (await store.identities.player("p1")).nickname == "Alice"


# --------------------------------------------------------------------------- rooms


async def test_rooms_by_invite_and_status(store: Stores) -> None:
    await store.rooms.add_room(room("a", at=1.0), {"event": "created"})
    await store.rooms.add_room(room("b", invite="XK42", at=2.0), {"event": "created"})
    await store.rooms.add_room(room("c", status="playing", at=3.0), {"event": "created"})

    assert await store.rooms.room("b") == room("b", invite="XK42", at=2.0)
    assert await store.rooms.room("zz") is None
    assert await store.rooms.room_by_invite("XK42") == room("b", invite="XK42", at=2.0)
    assert await store.rooms.room_by_invite("nope") is None

    assert [r.id for r in await store.rooms.rooms_with_status("open")] == ["a", "b"]
    assert [r.id for r in await store.rooms.rooms_with_status("open", "playing")] == ["a", "b", "c"]
    assert await store.rooms.rooms_with_status("finished") == []
    assert await store.rooms.rooms_with_status() == []

    await store.rooms.set_room_status("a", "finished")
    assert (await store.rooms.room("a")).status == "finished"
    assert [r.id for r in await store.rooms.rooms_with_status("open")] == ["b"]
    with pytest.raises(StoreError):
        await store.rooms.set_room_status("zz", "closed")


async def test_add_room_writes_version_one_atomically(store: Stores) -> None:
    await store.rooms.add_room(room("a", invite="SAME"), {"seats": [None] * 4})
    assert await store.logs.log("a") == [LogEntry("a", 1, {"seats": [None, None, None, None]})]

    with pytest.raises(StoreError):  # invite code taken: neither row nor log entry is written
        await store.rooms.add_room(room("b", invite="SAME"), {"event": "created"})
    assert await store.rooms.room("b") is None
    assert await store.logs.log("b") == []

    with pytest.raises(StoreError):  # room id taken
        await store.rooms.add_room(room("a"), {"event": "again"})
    assert await store.logs.log("a") == [LogEntry("a", 1, {"seats": [None, None, None, None]})]


# --------------------------------------------------------------------------- logs


async def test_append_and_log_order(store: Stores) -> None:
    await store.rooms.add_room(room("r"), {"v": 1})
    for v in range(2, 8):
        await store.logs.append("r", v, {"v": v, "text": "één ♠", "nested": {"list": [v, None]}})
    await store.logs.append("other", 1, {"v": "other"})

    entries = await store.logs.log("r")
    assert [e.version for e in entries] == list(range(1, 8))
    assert entries[3] == LogEntry("r", 4, {"v": 4, "text": "één ♠", "nested": {"list": [4, None]}})
    assert [e.version for e in await store.logs.log("r", after=5)] == [6, 7]
    assert await store.logs.log("r", after=7) == []
    assert await store.logs.log("missing") == []
    assert await store.logs.log("other") == [LogEntry("other", 1, {"v": "other"})]


async def test_several_sheets_and_their_logs_read_at_once(store: Stores) -> None:
    for n in range(3):
        await store.sheets.add_sheet(SheetRow(f"s{n}", f"E{n}CODE", f"V{n}CODE", 1.0), {"n": n})
    await store.logs.append("s1", 2, {"n": "later"})
    await store.logs.append("s0x", 1, {"n": "no sheet's"})
    rows = await store.sheets.sheets(["s1", "s0", "missing"])
    assert sorted(r.id for r in rows) == ["s0", "s1"]
    assert next(r for r in rows if r.id == "s1") == SheetRow("s1", "E1CODE", "V1CODE", 1.0)
    logs = await store.sheets.logs(["s1", "s2", "missing"])
    assert logs == {
        "s1": [LogEntry("s1", 1, {"n": 1}), LogEntry("s1", 2, {"n": "later"})],
        "s2": [LogEntry("s2", 1, {"n": 2})],
    }
    assert await store.sheets.logs([]) == {}


async def test_duplicate_version_conflicts(store: Stores) -> None:
    await store.rooms.add_room(room("r"), {"v": 1})
    with pytest.raises(VersionConflict):
        await store.logs.append("r", 1, {"v": "dup"})
    await store.logs.append("r", 2, {"v": 2})
    with pytest.raises(VersionConflict):
        await store.logs.append("r", 2, {"v": "dup"})
    assert [e.entry["v"] for e in await store.logs.log("r")] == [1, 2]


async def test_conflict_fails_only_the_duplicate_in_a_batch(store: Stores) -> None:
    rooms = [f"r{i}" for i in range(20)]
    for r in rooms:
        await store.rooms.add_room(room(r), {"v": 1})
    calls = [(r, v, {"v": v}) for v in range(2, 12) for r in rooms]  # 200 appends
    calls.insert(100, ("r3", 2, {"v": "dup"}))  # same key as calls[3], queued after it

    results = await asyncio.gather(
        *(store.logs.append(r, v, entry) for r, v, entry in calls), return_exceptions=True
    )

    assert isinstance(results[100], VersionConflict)
    assert [i for i, res in enumerate(results) if res is not None] == [100]
    for r in rooms:
        assert [e.entry["v"] for e in await store.logs.log(r)] == list(range(1, 12))


async def test_concurrent_appends_are_group_committed(store: Stores) -> None:
    """500 concurrent appends all land; SQLite also commits them in few batches."""
    before = getattr(store.database, "append_batches", 0)
    await asyncio.gather(
        *(store.logs.append(f"r{i % 50}", i // 50 + 1, {"i": i}) for i in range(500))
    )
    if isinstance(store.database, SqliteDatabase):
        assert 1 <= store.database.append_batches - before < 100
    assert len(await store.logs.log("r7")) == 10
    for r in range(50):
        assert [e.entry["i"] for e in await store.logs.log(f"r{r}")] == list(range(r, 500, 50))


async def test_sqlite_paces_commits_that_come_close_together(tmp_path: Path) -> None:
    """An append within the pace of the last commit waits out the rest of it, and what queues
    meanwhile shares its commit; the first append is written at once."""
    store = sqlite_stores(tmp_path / "paced.sqlite3", pace=0.5)
    await store.open()
    try:
        async with asyncio.timeout(5):  # far less than the pace: written at once
            await store.logs.append("a", 1, {})
        before = store.database.append_batches
        second = asyncio.ensure_future(store.logs.append("a", 2, {}))
        await asyncio.sleep(0.1)  # queued while the second waits for the pace
        await asyncio.gather(second, store.logs.append("b", 1, {}))
        assert store.database.append_batches - before == 1
    finally:
        await store.close()


async def test_sqlite_unpaced_commits_each_at_once(tmp_path: Path) -> None:
    store = sqlite_stores(tmp_path / "unpaced.sqlite3")
    await store.open()
    try:
        await store.logs.append("a", 1, {})
        before = store.database.append_batches
        second = asyncio.ensure_future(store.logs.append("a", 2, {}))
        await asyncio.sleep(0.1)
        await asyncio.gather(second, store.logs.append("b", 1, {}))
        assert store.database.append_batches - before == 2
    finally:
        await store.close()


async def test_entries_must_be_json(store: Stores) -> None:
    with pytest.raises(StoreError):
        await store.logs.append("r", 1, {"bad": object()})
    with pytest.raises(StoreError):
        await store.rooms.add_room(room("r"), {"bad": {1, 2}})
    with pytest.raises(StoreError):
        await store.rooms.save_match("m", "r", {"bad": b"bytes"})
    assert await store.logs.log("r") == []
    assert await store.rooms.room("r") is None
    assert await store.rooms.match("m") is None


# --------------------------------------------------------------------------- fencing


async def test_fence_counts_per_key(backend: Backend) -> None:
    a, b = backend.make(), backend.make()  # two processes' stores on one database
    await a.open()
    await b.open()
    try:
        assert await a.logs.epoch("r1") is None  # never fenced
        assert [await a.logs.fence("r1"), await a.logs.fence("r1")] == [1, 2]
        assert await b.logs.epoch("r1") == 2
        assert await a.logs.fence("t_1") == 1  # keys count independently
        assert await b.logs.fence("r1") == 3  # the epoch lives in the database, not the store
        assert await asyncio.gather(*(b.logs.fence("r2") for _ in range(10))) == list(range(1, 11))
        assert await a.logs.fence("t_1") == 2
    finally:
        await a.close()
        await b.close()


async def test_append_with_the_current_epoch(store: Stores) -> None:
    await store.rooms.add_room(room("r"), {"v": 1})  # creation needs no epoch
    epoch = await store.logs.fence("r")
    await store.logs.append("r", 2, {"v": 2}, epoch=epoch)
    await store.logs.append("r", 3, {"v": 3}, epoch)
    await store.logs.append("r", 4, {"v": 4})  # without an epoch nothing is checked
    with pytest.raises(VersionConflict):  # not Fenced: the epoch is right, the version taken
        await store.logs.append("r", 4, {"v": "dup"}, epoch=epoch)
    assert [e.entry["v"] for e in await store.logs.log("r")] == [1, 2, 3, 4]


async def test_append_with_an_old_epoch_is_fenced(backend: Backend) -> None:
    zombie, heir = backend.make(), backend.make()
    await zombie.open()
    await heir.open()
    try:
        await zombie.rooms.add_room(room("r"), {"v": 1})
        old = await zombie.logs.fence("r")
        await zombie.logs.append("r", 2, {"v": 2}, epoch=old)
        new = await heir.logs.fence("r")  # the lease moved to another process

        with pytest.raises(Fenced, match=rf"room 'r'.*version 3.*epoch {old}.*now {new}"):
            await zombie.logs.append("r", 3, {"v": "zombie"}, epoch=old)
        with pytest.raises(Fenced):  # the fence is checked before the version
            await zombie.logs.append("r", 2, {"v": "zombie"}, epoch=old)
        with pytest.raises(Fenced):  # an epoch from the future is no better
            await zombie.logs.append("r", 3, {"v": "zombie"}, epoch=new + 1)
        assert [e.entry["v"] for e in await heir.logs.log("r")] == [1, 2]

        await heir.logs.append("r", 3, {"v": 3}, epoch=new)
        assert [e.entry["v"] for e in await zombie.logs.log("r")] == [1, 2, 3]
        assert await backend.epochs("r") == [None, old, new]  # each entry keeps its epoch
    finally:
        await zombie.close()
        await heir.close()


async def test_append_to_a_key_never_fenced_is_fenced(store: Stores) -> None:
    await store.rooms.add_room(room("r"), {"v": 1})
    await store.logs.fence("other")
    with pytest.raises(Fenced, match=r"room 'r'.*epoch 1.*never fenced"):
        await store.logs.append("r", 2, {"v": 2}, epoch=1)
    with pytest.raises(Fenced):
        await store.logs.append("new", 1, {"v": 1}, epoch=1)
    assert [e.version for e in await store.logs.log("r")] == [1]
    assert await store.logs.log("new") == []


async def test_bad_epochs_are_refused(store: Stores) -> None:
    await store.logs.fence("r")
    for bad in (True, 0, -1, 1 << 63, "1", 1.0):
        with pytest.raises(StoreError, match="fencing epoch") as refused:
            await store.logs.append("r", 1, {}, epoch=bad)  # type: ignore[arg-type]
        assert not isinstance(refused.value, Fenced)
    assert await store.logs.log("r") == []


async def test_stale_epoch_fails_only_itself_in_a_batch(store: Stores) -> None:
    rooms = [f"r{i}" for i in range(20)]
    epochs = {}
    for r in rooms:
        await store.rooms.add_room(room(r), {"v": 1})
        epochs[r] = await store.logs.fence(r)
    stale = epochs["r3"]
    epochs["r3"] = await store.logs.fence("r3")
    calls: list[tuple[str, int, dict[str, Any], int | None]] = [
        (r, v, {"v": v}, epochs[r] if v % 2 else None) for v in range(2, 12) for r in rooms
    ]  # 200 appends, half of them fenced
    calls.insert(100, ("r3", 12, {"v": "stale"}, stale))  # a fresh version, an old epoch
    calls.insert(150, ("loose", 1, {"v": "unfenced"}, 1))  # a key never fenced
    calls.insert(50, ("r4", 12, {"v": "future"}, epochs["r4"] + 1))

    before = getattr(store.database, "append_batches", 0)
    results = await asyncio.gather(
        *(store.logs.append(r, v, entry, epoch) for r, v, entry, epoch in calls),
        return_exceptions=True,
    )

    assert [i for i, res in enumerate(results) if res is not None] == [50, 101, 151]
    assert all(isinstance(results[i], Fenced) for i in (50, 101, 151))
    if isinstance(store.database, SqliteDatabase):  # they really shared batches with good appends
        assert 1 <= store.database.append_batches - before < 20
    for r in rooms:
        assert [e.entry["v"] for e in await store.logs.log(r)] == list(range(1, 12))
    assert await store.logs.log("loose") == []


# --------------------------------------------------------------------------- matches


async def test_matches_save_and_load(store: Stores) -> None:
    record = {"teams": [["p1", "p3"], ["p2", "p4"]], "score": [1520, 1002], "hands": 16}
    await store.rooms.save_match("m1", "r", record)
    assert await store.rooms.match("m1") == record
    assert await store.rooms.match("m2") is None
    with pytest.raises(StoreError):
        await store.rooms.save_match("m1", "r", {"other": True})
    assert await store.rooms.match("m1") == record


# --------------------------------------------------------------------------- lifecycle


async def test_data_survives_close_and_reopen(backend: Backend) -> None:
    s = backend.make()
    await s.open()
    await s.identities.add_player(PlayerRow("p1", "Alice", b"h", 1.0))
    await s.rooms.add_room(room("r", invite="INV"), {"v": 1})
    await s.logs.append("r", 2, {"v": 2})
    await s.rooms.set_room_status("r", "playing")
    await s.rooms.save_match("m", "r", {"done": True})
    await s.close()

    s = backend.make()
    await s.open()
    try:
        assert await s.identities.player_by_token_hash(b"h") == PlayerRow("p1", "Alice", b"h", 1.0)
        assert await s.rooms.room_by_invite("INV") == room("r", invite="INV", status="playing")
        assert [e.entry for e in await s.logs.log("r")] == [{"v": 1}, {"v": 2}]
        assert await s.rooms.match("m") == {"done": True}
    finally:
        await s.close()


async def test_close_flushes_queued_appends(backend: Backend) -> None:
    s = backend.make()
    await s.open()
    tasks = [asyncio.create_task(s.logs.append("r", v, {"v": v})) for v in range(1, 101)]
    await asyncio.sleep(0)  # let every append queue itself
    await s.close()
    assert [t.result() for t in tasks] == [None] * 100

    s = backend.make()
    await s.open()
    try:
        assert [e.version for e in await s.logs.log("r")] == list(range(1, 101))
    finally:
        await s.close()


async def test_close_is_idempotent_and_later_calls_fail(backend: Backend) -> None:
    s = backend.make()
    await s.open()
    await asyncio.gather(s.close(), s.close())
    await s.close()
    calls = [
        s.open(),
        s.identities.add_player(PlayerRow("p", "n", b"h", 0.0)),
        s.identities.player_by_token_hash(b"h"),
        s.identities.player("p"),
        s.rooms.add_room(room("r"), {}),
        s.rooms.set_room_status("r", "closed"),
        s.rooms.room("r"),
        s.rooms.room_by_invite("x"),
        s.rooms.rooms_with_status("open"),
        s.logs.append("r", 2, {}),
        s.logs.append("r", 2, {}, epoch=1),
        s.logs.fence("r"),
        s.logs.log("r"),
        s.rooms.save_match("m", "r", {}),
        s.rooms.match("m"),
    ]
    for call in calls:
        with pytest.raises(StoreError, match="store is closed"):
            await call


async def test_calls_before_open_fail(backend: Backend) -> None:
    s = backend.make()
    with pytest.raises(StoreError):
        await s.logs.append("r", 1, {})
    with pytest.raises(StoreError):
        await s.rooms.room("r")
    with pytest.raises(StoreError):
        await s.logs.fence("r")
    await s.close()  # closing a never-opened store is fine


async def test_open_failure_is_a_store_error(tmp_path: Path) -> None:
    s = sqlite_stores(tmp_path / "missing-dir" / "k.db")
    with pytest.raises(StoreError, match="unable to open"):
        await s.open()
    await s.close()


CHILD = """
import asyncio
import hashlib
from server.store.rooms import RoomRow
SETUP

async def writer(store, room_id):
    await store.rooms.add_room(RoomRow(room_id, "owner", None, "open", 0.0), {"v": 1})
    print("ok", room_id, 1, flush=True)
    for v in range(2, 1_000_000):
        await store.logs.append(room_id, v, {"v": v, "pad": "x" * 200})
        print("ok", room_id, v, flush=True)

async def main():
    store = make()
    await store.open()
    await asyncio.gather(*(writer(store, f"r{i}") for i in range(8)))

asyncio.run(main())
"""


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
async def test_acknowledged_appends_survive_sigkill(backend: Backend) -> None:
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
            versions = [e.version for e in await s.logs.log(room_id)]
            assert versions == list(range(1, len(versions) + 1))  # no gaps, nothing torn
            assert len(versions) >= last, f"{room_id}: acknowledged {last}, found {versions[-1:]}"
    finally:
        await s.close()


# --------------------------------------------------------------------------- factory


def test_open_stores_picks_the_database(tmp_path: Path) -> None:
    on_sqlite = open_stores(Settings(db=str(tmp_path / "k.db")))
    assert isinstance(on_sqlite.database, SqliteDatabase)
    on_postgres = open_stores(Settings(db=str(tmp_path / "k.db"), database_url=PG_URL))
    assert isinstance(on_postgres.database, PostgresDatabase)


# --------------------------------------------------------------------------- PostgreSQL only


async def test_postgres_concurrent_opens_apply_migrations_once() -> None:
    """Server processes starting together on an empty schema: each migration runs once."""
    async with fresh_schema() as schema:
        backend = PostgresBackend(schema)
        stores = [backend.make() for _ in range(6)]
        try:
            await asyncio.gather(*(s.open() for s in stores))
            expected = [v for v, _ in list_migrations("postgres")]
            assert sorted(await backend.migration_versions()) == expected
            await stores[0].rooms.add_room(room("r"), {"v": 1})
            await stores[-1].logs.append("r", 2, {"v": 2})
            assert [e.version for e in await stores[2].logs.log("r")] == [1, 2]
        finally:
            await asyncio.gather(*(s.close() for s in stores))


async def test_postgres_migrations_wait_for_the_advisory_lock() -> None:
    async with fresh_schema() as schema:
        conn = await pg_connect(server_settings={"search_path": schema})
        s = PostgresBackend(schema).make()
        try:
            key = migration_lock_key(schema)
            await conn.execute("SELECT pg_advisory_lock($1)", key)
            opening = asyncio.create_task(s.open())
            await blocked_by(conn)  # it waits for the lock
            assert not opening.done()  # nothing created yet
            assert await conn.fetchval("SELECT to_regclass('schema_migrations')") is None
            await conn.execute("SELECT pg_advisory_unlock($1)", key)
            await asyncio.wait_for(opening, 30)
            versions = [v for (v,) in await conn.fetch("SELECT version FROM schema_migrations")]
            assert sorted(versions) == [v for v, _ in list_migrations("postgres")]
        finally:
            await conn.close()
            await s.close()


async def test_postgres_missing_schema_is_a_store_error() -> None:
    s = pg_stores(PG_URL, schema=f"kj_missing_{secrets.token_hex(6)}")
    with pytest.raises(StoreError, match="does not exist"):
        await s.open()
    await s.close()


async def test_postgres_forces_synchronous_commit_on() -> None:
    """Acknowledged appends must be durable even if the server's default says otherwise."""
    async with fresh_schema() as schema:
        sep = "&" if "?" in PG_URL else "?"
        s = pg_stores(f"{PG_URL}{sep}synchronous_commit=off", schema=schema)
        await s.open()
        try:
            async with s.database._pool.acquire() as conn:  # a peek inside: no public way to ask
                assert await conn.fetchval("SHOW synchronous_commit") == "on"
            await s.logs.append("r", 1, {"v": 1})
        finally:
            await s.close()


async def test_postgres_unreachable_fails_fast() -> None:
    s = pg_stores("postgresql://postgres@127.0.0.1:1/test")  # nothing listens on port 1
    start = time.monotonic()
    with pytest.raises(StoreError, match=r"cannot open PostgreSQL store at .*127\.0\.0\.1:1"):
        await s.open()
    assert time.monotonic() - start < 10
    with pytest.raises(StoreError, match="not open"):
        await s.logs.append("r", 1, {})
    await s.close()


async def test_postgres_silent_server_times_out() -> None:
    """A server that accepts connections but never answers: open() gives up in seconds."""
    accepted: list[asyncio.StreamWriter] = []

    async def swallow(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        accepted.append(writer)

    server = await asyncio.start_server(swallow, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    s = pg_stores(f"postgresql://postgres@127.0.0.1:{port}/test")
    try:
        start = time.monotonic()
        with pytest.raises(StoreError, match="did not answer in time"):
            await s.open()
        assert time.monotonic() - start < 10
    finally:
        await s.close()
        server.close()
        for writer in accepted:
            writer.close()
        await server.wait_closed()


@asynccontextmanager
async def proxied_store() -> AsyncIterator[tuple[Proxy, Stores]]:
    proxy = Proxy.to_postgres()
    await proxy.start()
    async with fresh_schema() as schema:
        s = pg_stores(proxy.url(PG_URL), schema=schema)
        try:
            await s.open()
            yield proxy, s
        finally:
            proxy.resume()
            if proxy.server is None:
                await proxy.start()
            await s.close()
            await proxy.stop()


async def test_postgres_outage_fails_fast_and_recovers() -> None:
    async with proxied_store() as (proxy, s):
        await s.rooms.add_room(room("r"), {"v": 1})
        await s.logs.append("r", 2, {"v": 2})

        await proxy.stop()  # PostgreSQL unreachable: connections cut, new ones refused
        start = time.monotonic()
        with pytest.raises(StoreError, match="room 'r' version 3 failed"):
            await s.logs.append("r", 3, {"v": 3})
        with pytest.raises(StoreError, match="log of room 'r' failed"):
            await s.logs.log("r")
        with pytest.raises(StoreError, match="cannot reach PostgreSQL"):
            await s.rooms.room("r")
        assert time.monotonic() - start < 10

        await proxy.start()  # back: the pool reconnects
        await s.logs.append("r", 3, {"v": 3})
        assert [e.entry["v"] for e in await s.logs.log("r")] == [1, 2, 3]
        assert (await s.rooms.room("r")).status == "open"


async def test_postgres_stalled_connection_times_out_and_recovers() -> None:
    async with proxied_store() as (proxy, s):
        await s.rooms.add_room(room("r"), {"v": 1})

        proxy.pause()  # the network swallows everything: no error, no answer
        start = time.monotonic()
        with pytest.raises(StoreError, match="did not answer in time"):
            await s.logs.log("r")
        assert time.monotonic() - start < 10

        proxy.resume()
        await s.logs.append("r", 2, {"v": 2})
        assert [e.version for e in await s.logs.log("r")] == [1, 2]


async def test_postgres_appends_to_one_room_run_in_call_order() -> None:
    """Like SQLite's queue: a room's appends commit in call order, so no reader sees a gap."""
    async with fresh_schema() as schema:
        s = PostgresBackend(schema).make()
        await s.open()
        reader = PostgresBackend(schema).make()
        await reader.open()
        try:
            await s.rooms.add_room(room("r"), {"v": 1})
            seen: list[list[int]] = []

            async def watch() -> None:
                while len(seen) < 50:
                    seen.append([e.version for e in await reader.logs.log("r")])

            watcher = asyncio.create_task(watch())
            calls = [*range(2, 200), 150]
            results = await asyncio.gather(
                *(s.logs.append("r", v, {"v": v}) for v in calls), return_exceptions=True
            )
            await watcher
            assert results[:-1] == [None] * 198
            assert isinstance(results[-1], VersionConflict)
            assert [e.version for e in await s.logs.log("r")] == list(range(1, 200))
            for versions in seen:
                assert versions == list(range(1, len(versions) + 1))
        finally:
            await s.close()
            await reader.close()


async def test_postgres_cancelled_caller_does_not_withdraw_an_append() -> None:
    async with fresh_schema() as schema:
        s = PostgresBackend(schema).make()
        await s.open()
        try:
            tasks = [asyncio.create_task(s.logs.append("r", v, {"v": v})) for v in range(1, 21)]
            await asyncio.sleep(0)
            for task in tasks[5:]:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        finally:
            await s.close()  # waits for the started appends
        s = PostgresBackend(schema).make()
        await s.open()
        try:
            assert [e.version for e in await s.logs.log("r")] == list(range(1, 21))
        finally:
            await s.close()


async def test_postgres_fence_and_fenced_appends_lock_each_other() -> None:
    """The two halves of the race, made deterministic with a raw connection holding locks."""
    async with fresh_schema() as schema:
        s = PostgresBackend(schema).make()
        await s.open()
        conn = await pg_connect(server_settings={"search_path": schema})
        try:
            await s.rooms.add_room(room("r"), {"v": 1})
            old = await s.logs.fence("r")

            # A fence() in flight (its row update not yet committed): an append with the old
            # epoch waits for it, then sees the new epoch and writes nothing.
            async with conn.transaction():
                await conn.execute("UPDATE fences SET epoch = epoch + 1 WHERE id = 'r'")
                appending = asyncio.create_task(s.logs.append("r", 2, {"v": 2}, epoch=old))
                await blocked_by(conn)
                assert not appending.done()
            with pytest.raises(Fenced):
                await asyncio.wait_for(appending, 10)
            assert [e.version for e in await s.logs.log("r")] == [1]
            current = old + 1

            # A fenced append in flight (holding its share lock on the fence row, as the
            # append statement does until it commits): fence() waits for it.
            async with conn.transaction():
                await conn.execute("SELECT 1 FROM fences WHERE id = 'r' FOR SHARE")
                fencing = asyncio.create_task(s.logs.fence("r"))
                await blocked_by(conn)
                assert not fencing.done()
            assert await asyncio.wait_for(fencing, 10) == current + 1
        finally:
            await conn.close()
            await s.close()


async def test_postgres_fence_stops_a_zombie_racing_it() -> None:
    """A zombie appends with its old epoch in a tight loop while another process fences.

    Per room: once fence() has returned no zombie append commits any more, every
    acknowledged append is in the log, and the log stays contiguous.
    """
    async with fresh_schema() as schema:
        zombie, heir = PostgresBackend(schema).make(), PostgresBackend(schema).make()
        await zombie.open()
        await heir.open()

        async def race(r: str, head_start: int) -> None:
            await zombie.rooms.add_room(room(r), {"v": 1})
            old = await zombie.logs.fence(r)
            acked: list[int] = []
            late: list[int] = []  # acknowledged appends started after fence() returned
            fenced = asyncio.Event()
            fence_returned = False
            running = asyncio.Event()

            async def zombie_loop() -> None:
                version, refusals = 2, 0
                while refusals < 20:
                    after_fence = fence_returned
                    try:
                        await zombie.logs.append(r, version, {"by": "zombie"}, epoch=old)
                    except Fenced:
                        refusals += 1
                        fenced.set()
                        continue
                    acked.append(version)
                    if after_fence:
                        late.append(version)
                    if len(acked) >= head_start:
                        running.set()
                    version += 1

            looping = asyncio.create_task(zombie_loop())
            await running.wait()
            new = await heir.logs.fence(r)
            fence_returned = True
            at_fence = [e.version for e in await heir.logs.log(r)]
            await looping

            assert fenced.is_set()
            assert late == []
            versions = [e.version for e in await heir.logs.log(r)]
            assert versions == at_fence  # nothing committed after fence() returned
            assert versions == list(range(1, len(versions) + 1))
            assert versions[1:] == acked  # every acknowledged append, and nothing else

            await heir.logs.append(r, len(versions) + 1, {"by": "heir"}, epoch=new)
            with pytest.raises(Fenced):
                await zombie.logs.append(r, len(versions) + 2, {"by": "zombie"}, epoch=old)

        try:
            await asyncio.gather(*(race(f"r{i}", 1 + i % 7) for i in range(16)))
        finally:
            await zombie.close()
            await heir.close()
