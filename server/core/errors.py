"""Whose fault: a refusal is the client's, an outage is ours.

Both become an error frame with a stable code and a message, and nothing changes.  A
:class:`Refused` counts toward the connection's strike limit (abuse closes it with 1008);
an :class:`Unavailable` never does, and tells the client when to try again.
"""

from __future__ import annotations

STORAGE_UNAVAILABLE = "storage_unavailable"
ROOM_UNAVAILABLE = "room_unavailable"


class Refused(Exception):
    """The client's fault (or a state that refuses it): its request cannot be done."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class Unavailable(Exception):
    """Our fault: storage, Redis or a move between servers got in the way; retry."""

    def __init__(self, code: str, message: str, retry_after: float = 1.0) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.retry_after = retry_after


def storage_unavailable() -> Unavailable:
    return Unavailable(STORAGE_UNAVAILABLE, "storage is unavailable: try again")


def room_unavailable() -> Unavailable:
    return Unavailable(ROOM_UNAVAILABLE, "the table is moving to another server: try again")
