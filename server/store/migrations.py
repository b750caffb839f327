"""Numbered SQL migration files, shared by the store implementations.

Files live in ``migrations/<dialect>/NNNN_name.sql`` next to this module (for example
``migrations/sqlite/0001_init.sql``).  Versions start at 1 and have no gaps; a store applies
each pending one in order, exactly once, and records it in ``schema_migrations``.
"""

from __future__ import annotations

import re
from pathlib import Path

from .base import StoreError

MIGRATIONS_DIR = Path(__file__).with_name("migrations")
_NAME = re.compile(r"^(\d{4})_[A-Za-z0-9_]+\.sql$")


def check_newer(applied: set[int], migrations: list[tuple[int, str]]) -> None:
    """Refuse a database migrated by a newer server than this one."""
    if applied and max(applied) > len(migrations):
        raise StoreError(
            f"database schema version {max(applied)} is newer than this server's "
            f"({len(migrations)})"
        )


def list_migrations(dialect: str) -> list[tuple[int, str]]:
    """``(version, sql)`` for every migration of ``dialect``, in version order.

    Raises :class:`ValueError` for an unknown dialect, a badly named file, or versions that
    do not run 1, 2, 3, ... without gaps or duplicates.
    """
    folder = MIGRATIONS_DIR / dialect
    if not folder.is_dir():
        raise ValueError(f"no migrations for dialect {dialect!r} (looked in {folder})")
    found: list[tuple[int, str]] = []
    for path in folder.iterdir():
        if path.suffix != ".sql":
            continue
        match = _NAME.match(path.name)
        if match is None:
            raise ValueError(f"migration file name {path.name!r} is not NNNN_name.sql")
        found.append((int(match.group(1)), path.read_text(encoding="utf-8")))
    found.sort(key=lambda item: item[0])
    versions = [version for version, _ in found]
    if versions != list(range(1, len(found) + 1)):
        raise ValueError(f"{dialect} migration versions must be 1..n without gaps: {versions}")
    return found
