"""Refusals: a client's request that cannot be done, with a stable code and a message."""

from __future__ import annotations


class Refused(Exception):
    """Whose fault: the client's.  Sent as an error frame; nothing changed."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
