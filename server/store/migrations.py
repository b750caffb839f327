"""Numbered SQL migrations, applied in order at start, each exactly once.

Files live next to this module as ``migrations/<folder>/NNNN_name.sql``: ``common`` holds
those both dialects run as they are, ``sqlite`` and ``postgres`` those whose words differ
(each dialect has its own copy of such a version).  Versions start at 1 and have no gaps;
each applied one is recorded in ``schema_migrations`` by its number alone, so a file may
move between folders without a database noticing.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

from .errors import StoreError
from .sql import Conn, sql

MIGRATIONS_DIR = Path(__file__).with_name("migrations")
COMMON = "common"
_NAME = re.compile(r"^(\d{4})_[A-Za-z0-9_]+\.sql$")

_TABLE = sql(
    "CREATE TABLE IF NOT EXISTS schema_migrations"
    " (version INTEGER PRIMARY KEY, applied_at DOUBLE PRECISION NOT NULL)",
    sqlite="CREATE TABLE IF NOT EXISTS schema_migrations"
    " (version INTEGER PRIMARY KEY, applied_at REAL NOT NULL)",
)
_APPLIED = sql("SELECT version FROM schema_migrations")
_DONE = sql("SELECT 1 FROM schema_migrations WHERE version = $1")
_RECORD = sql("INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)")


def list_migrations(dialect: str) -> list[tuple[int, str]]:
    """``(version, sql)`` for every migration of ``dialect``, in version order.

    Raises :class:`ValueError` for an unknown dialect, a badly named file, a version both
    common and the dialect's own, or versions that do not run 1, 2, 3, ... without gaps.
    """
    own = MIGRATIONS_DIR / dialect
    if dialect == COMMON or not own.is_dir():
        raise ValueError(f"no migrations for dialect {dialect!r} (looked in {own})")
    found: dict[int, str] = {}
    for folder in (MIGRATIONS_DIR / COMMON, own):
        for path in folder.iterdir():
            if path.suffix != ".sql":
                continue
            match = _NAME.match(path.name)
            if match is None:
                raise ValueError(f"migration file name {path.name!r} is not NNNN_name.sql")
            version = int(match.group(1))
            if version in found:
                raise ValueError(f"{dialect} migration {version} is there twice ({path})")
            found[version] = path.read_text(encoding="utf-8")
    versions = sorted(found)
    if versions != list(range(1, len(found) + 1)):
        raise ValueError(f"{dialect} migration versions must be 1..n without gaps: {versions}")
    return [(version, found[version]) for version in versions]


async def migrate(conn: Conn, dialect: str) -> None:
    """Apply the pending migrations in order, each in its own transaction, each exactly
    once: re-checked inside it, as another process may have just applied it.  (PostgreSQL
    runs this under an advisory lock as well, SQLite under its write lock.)"""
    try:
        migrations = list_migrations(dialect)
    except ValueError as exc:
        raise StoreError(f"bad migrations: {exc}") from exc
    await conn.execute(_TABLE)
    applied = {version for (version,) in await conn.fetch(_APPLIED)}
    if applied and max(applied) > len(migrations):
        raise StoreError(
            f"database schema version {max(applied)} is newer than this server's "
            f"({len(migrations)})"
        )
    for version, text in migrations:
        if version in applied:
            continue
        async with conn.transaction():
            if await conn.fetchval(_DONE, version) is not None:
                continue
            await conn.script(text)
            await conn.execute(_RECORD, version, time.time())
