"""The lobby: identities, and the live directory of public rooms."""

from .directory import Directory
from .identity import Identity

__all__ = ["Directory", "Identity"]
