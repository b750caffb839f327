"""Clubs' rows, found by any of their live codes (their logs are :mod:`server.store.logs`'):
the founding organiser's and the view code in the club's row, each co-organiser's in
``club_codes`` until it is revoked."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .logs import Logged
from .sql import Row, sql

_COLS = "id, organiser_code, view_code, created_at"
_ADD = sql(f"INSERT INTO clubs ({_COLS}) VALUES ($1, $2, $3, $4)")
_CLUB = sql(f"SELECT {_COLS} FROM clubs WHERE id = $1")
_BY_CODE = sql(
    "SELECT id FROM clubs WHERE organiser_code = $1 OR view_code = $1"
    " UNION ALL SELECT club_id FROM club_codes WHERE code = $1"
)
_ADD_CODE = sql("INSERT INTO club_codes (code, club_id) VALUES ($1, $2)")
_DROP_CODE = sql("DELETE FROM club_codes WHERE code = $1")


@dataclass(frozen=True, slots=True)
class ClubRow:
    """A club, found by its codes (its log is kept like a room's)."""

    id: str
    organiser_code: str  # the founder's
    view_code: str
    created_at: float


def _club(row: Row | None) -> ClubRow | None:
    return None if row is None else ClubRow(row[0], row[1], row[2], float(row[3]))


class ClubStore(Logged):
    async def add_club(self, club: ClubRow, first: dict[str, Any]) -> None:
        """Create a club with its log entry version 1, atomically."""
        row = (club.id, club.organiser_code, club.view_code, float(club.created_at))
        await self.create("club", club.id, _ADD, row, first)

    async def club(self, club_id: str) -> ClubRow | None:
        return _club(await self._fetchrow(f"club {club_id!r}", _CLUB, club_id))

    async def club_by_code(self, code: str) -> str | None:
        """The id of the club one of whose live codes is ``code``."""
        row = await self._fetchrow("club by code", _BY_CODE, code)
        return None if row is None else str(row[0])

    async def add_code(self, club_id: str, code: str) -> None:
        """A co-organiser's code opens the club from now on."""
        await self._execute(f"code of club {club_id!r}", _ADD_CODE, code, club_id)

    async def drop_code(self, code: str) -> None:
        """A revoked co-organiser's code opens nothing from now on."""
        await self._execute("revoked club code", _DROP_CODE, code)
