"""Durable storage: a store per feature, each on one database, SQLite (embedded default)
or PostgreSQL (see ``docs/architecture.md``)."""

from .errors import Fenced, StoreError, VersionConflict
from .stores import Stores, open_stores

__all__ = ["Fenced", "StoreError", "Stores", "VersionConflict", "open_stores"]
