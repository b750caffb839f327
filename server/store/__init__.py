"""Durable storage behind one interface: SQLite (embedded default) or PostgreSQL."""

from .base import LogEntry, PlayerRow, RoomRow, Store, StoreError, VersionConflict

__all__ = ["LogEntry", "PlayerRow", "RoomRow", "Store", "StoreError", "VersionConflict"]
