"""What the store raises: every failure is a :class:`StoreError` (nothing was written)."""

from __future__ import annotations


class StoreError(Exception):
    """The store refused or could not complete an operation (nothing was written)."""


class VersionConflict(StoreError):
    """A log entry with this key and version already exists."""


class Duplicate(StoreError):
    """A row's key (or another unique value) is taken already; ``table`` names its table."""

    def __init__(self, message: str, table: str | None) -> None:
        super().__init__(message)
        self.table = table


class Deadlock(StoreError):
    """Two transactions waited for each other and the database broke this one (PostgreSQL
    only): running it again is safe."""


class Fenced(StoreError):
    """An ``append`` presented a fencing epoch that is not the key's current one.

    Another process has called ``fence`` for the key since (or never called it): the caller
    no longer owns the room or tournament and must stop writing to it.
    """

    @classmethod
    def refused(
        cls, room_id: str, version: int, epoch: int, current: int | BaseException | None
    ) -> Fenced:
        """The error for an append of ``version`` with ``epoch``.  ``current`` is the key's
        epoch as read afterwards, for the message: ``None`` if it was never fenced, an
        exception if it could not be read."""
        if current is None:
            why = "it was never fenced"
        elif isinstance(current, BaseException):
            why = f"its current epoch could not be read ({type(current).__name__})"
        elif current > epoch:
            why = f"its epoch is now {current}: another owner took over"
        else:
            why = f"its epoch is {current}"
        return cls(
            f"room {room_id!r}: append of version {version} with fencing epoch {epoch} "
            f"refused: {why}"
        )
