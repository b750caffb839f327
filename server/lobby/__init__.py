"""The lobby: identities, the live lists of rooms and tournaments, who is online."""

from .directory import Directory
from .identity import Identity
from .lobby import Lobby, Relay

__all__ = ["Directory", "Identity", "Lobby", "Relay"]
