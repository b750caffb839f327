"""PostgreSQL for the tests: the test database, fresh schemas, and a TCP relay that
simulates outages.  Tests that need PostgreSQL fail when it is unreachable; they never skip.
"""

from __future__ import annotations

import asyncio
import os
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import pytest

PG_URL = (
    os.environ.get("KLAVERJAS_TEST_DATABASE_URL") or "postgresql://postgres@127.0.0.1:5432/test"
)


async def pg_connect(schema: str | None = None, **kwargs: Any) -> asyncpg.Connection:
    """A direct connection to the test database (in ``schema``, if given)."""
    if schema:
        kwargs["server_settings"] = {"search_path": schema}
    try:
        return await asyncpg.connect(PG_URL, timeout=10, **kwargs)
    except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, TimeoutError) as exc:
        pytest.fail(
            f"PostgreSQL for the tests is unreachable at {PG_URL}: "
            f"{type(exc).__name__}: {exc}\n"
            "Start it, or point KLAVERJAS_TEST_DATABASE_URL at one (these tests never skip).",
            pytrace=False,
        )


async def blocked_by(conn: asyncpg.Connection, timeout: float = 10.0) -> None:
    """Until another backend waits for a lock that ``conn`` holds: the barrier that shows
    a statement of the code under test has reached a lock held by the test (``pg_locks``
    is read afresh by each query, unlike ``pg_stat_activity`` inside a transaction)."""
    query = "SELECT count(*) FROM pg_locks WHERE NOT granted AND $1 = ANY(pg_blocking_pids(pid))"
    pid = conn.get_server_pid()
    async with asyncio.timeout(timeout):
        while not await conn.fetchval(query, pid):
            await asyncio.sleep(0.01)


@asynccontextmanager
async def fresh_schema(prefix: str = "kj_test") -> AsyncIterator[str]:
    """A new, empty schema in the test database, dropped with everything in it afterwards."""
    name = f"{prefix}_{secrets.token_hex(6)}"
    conn = await pg_connect()
    try:
        await conn.execute(f"CREATE SCHEMA {name}")
    finally:
        await conn.close()
    try:
        yield name
    finally:
        conn = await pg_connect()
        try:
            await conn.execute("SET lock_timeout = '10s'")
            await conn.execute(f"DROP SCHEMA {name} CASCADE")
        finally:
            await conn.close()


class Proxy:
    """A TCP relay in front of PostgreSQL, to simulate outages without touching the server.

    ``stop()`` refuses new connections and cuts the open ones; ``start()`` listens again on
    the same port; ``pause()`` keeps connections open but relays nothing until ``resume()``.
    """

    def __init__(self, target_host: str, target_port: int) -> None:
        self.target = (target_host, target_port)
        self.port = 0
        self.server: asyncio.Server | None = None
        self.writers: set[asyncio.StreamWriter] = set()
        self.running = asyncio.Event()
        self.running.set()

    @classmethod
    def to_postgres(cls) -> Proxy:
        parts = urlsplit(PG_URL)
        return cls(parts.hostname or "127.0.0.1", parts.port or 5432)

    async def start(self) -> None:
        self.server = await asyncio.start_server(self._client, "127.0.0.1", self.port)
        self.port = self.server.sockets[0].getsockname()[1]

    async def stop(self) -> None:
        if self.server is None:
            return
        self.server.close()
        for writer in list(self.writers):
            writer.transport.abort()
        await asyncio.wait_for(self.server.wait_closed(), 5)
        self.server = None

    def pause(self) -> None:
        self.running.clear()

    def resume(self) -> None:
        self.running.set()

    def url(self, base: str = PG_URL) -> str:
        parts = urlsplit(base)
        user = parts.netloc.rsplit("@", 1)[0] + "@" if "@" in parts.netloc else ""
        return urlunsplit(parts._replace(netloc=f"{user}127.0.0.1:{self.port}"))

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.writers.add(writer)
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.transport.abort()
            self.writers.discard(writer)
            return
        self.writers.add(up_writer)
        try:
            await asyncio.gather(self._pipe(reader, up_writer), self._pipe(up_reader, writer))
        finally:
            for w in (writer, up_writer):
                w.transport.abort()
                self.writers.discard(w)

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with suppress(OSError):
            while data := await reader.read(65536):
                await self.running.wait()
                writer.write(data)
                await writer.drain()
        writer.transport.abort()
