"""Pick the store implementation from the settings."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from server.core.config import Settings
    from server.store.base import Store


def open_store(settings: Settings) -> Store:
    """The configured store, not yet opened (``await store.open()`` before use).

    PostgreSQL when ``settings.database_url`` is set, otherwise the SQLite file
    ``settings.db``.  Implementations are imported lazily, so ``asyncpg`` is needed only for
    PostgreSQL.
    """
    if settings.database_url:
        from server.store.postgres import PostgresStore

        return PostgresStore(settings.database_url, schema=settings.database_schema)
    from server.store.sqlite import SqliteStore

    return SqliteStore(settings.db, settings.commit_pace)
