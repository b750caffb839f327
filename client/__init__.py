"""A small asyncio client for the klaverjas protocol: tests, the load generator and bots
use it (it needs only ``websockets``; nothing of the server)."""

from .game import GameClient, TableState

__all__ = ["GameClient", "TableState"]
