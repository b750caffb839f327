"""Score sheets' rows, found by either of their codes (their logs are
:mod:`server.store.logs`')."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .logs import Logged
from .sql import Row, sql

_COLS = "id, edit_code, view_code, created_at"
_ADD = sql(f"INSERT INTO sheets ({_COLS}) VALUES ($1, $2, $3, $4)")
_SHEET = sql(f"SELECT {_COLS} FROM sheets WHERE id = $1")
_SHEETS = sql(
    f"SELECT {_COLS} FROM sheets WHERE id = ANY($1::text[])",
    sqlite=f"SELECT {_COLS} FROM sheets WHERE id IN (SELECT value FROM json_each(?1))",
)
_BY_CODE = sql(f"SELECT {_COLS} FROM sheets WHERE edit_code = $1 OR view_code = $1")


@dataclass(frozen=True, slots=True)
class SheetRow:
    """A score sheet, found by either of its codes (its log is kept like a room's)."""

    id: str
    edit_code: str
    view_code: str
    created_at: float


def _sheet(row: Row | None) -> SheetRow | None:
    return None if row is None else SheetRow(row[0], row[1], row[2], float(row[3]))


class SheetStore(Logged):
    async def add_sheet(self, sheet: SheetRow, first: dict[str, Any]) -> None:
        """Create a sheet with its log entry version 1, atomically."""
        row = (sheet.id, sheet.edit_code, sheet.view_code, float(sheet.created_at))
        await self.create("sheet", sheet.id, _ADD, row, first)

    async def sheet(self, sheet_id: str) -> SheetRow | None:
        return _sheet(await self._fetchrow(f"sheet {sheet_id!r}", _SHEET, sheet_id))

    async def sheets(self, sheet_ids: list[str]) -> list[SheetRow]:
        """The rows of those of these sheets that exist, read at once."""
        rows = await self._fetch(f"{len(sheet_ids)} sheets", _SHEETS, sheet_ids)
        return [row for r in rows if (row := _sheet(r)) is not None]

    async def sheet_by_code(self, code: str) -> SheetRow | None:
        """The sheet whose edit code or view code is ``code``."""
        return _sheet(await self._fetchrow("sheet by code", _BY_CODE, code))
