"""Durable storage behind one interface: SQLite (embedded default) or PostgreSQL."""

from .base import Fenced, LogEntry, PlayerRow, RoomRow, Store, StoreError, VersionConflict

__all__ = ["Fenced", "LogEntry", "PlayerRow", "RoomRow", "Store", "StoreError", "VersionConflict"]
