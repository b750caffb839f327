"""Club evenings' rows, found by either of their codes (their logs are
:mod:`server.store.logs`')."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .logs import Logged
from .sql import Row, sql

_COLS = "id, organiser_code, view_code, created_at"
_ADD = sql(f"INSERT INTO evenings ({_COLS}) VALUES ($1, $2, $3, $4)")
_EVENING = sql(f"SELECT {_COLS} FROM evenings WHERE id = $1")
_BY_CODE = sql(f"SELECT {_COLS} FROM evenings WHERE organiser_code = $1 OR view_code = $1")


@dataclass(frozen=True, slots=True)
class EveningRow:
    """A club evening, found by either of its codes (its log is kept like a room's)."""

    id: str
    organiser_code: str
    view_code: str
    created_at: float


def _evening(row: Row | None) -> EveningRow | None:
    return None if row is None else EveningRow(row[0], row[1], row[2], float(row[3]))


class EveningStore(Logged):
    async def add_evening(self, evening: EveningRow, first: dict[str, Any]) -> None:
        """Create an evening with its log entry version 1, atomically."""
        row = (evening.id, evening.organiser_code, evening.view_code, float(evening.created_at))
        await self.create("evening", evening.id, _ADD, row, first)

    async def evening(self, evening_id: str) -> EveningRow | None:
        return _evening(await self._fetchrow(f"evening {evening_id!r}", _EVENING, evening_id))

    async def evening_by_code(self, code: str) -> EveningRow | None:
        """The evening whose organiser code or view code is ``code``."""
        return _evening(await self._fetchrow("evening by code", _BY_CODE, code))
