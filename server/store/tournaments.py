"""Tournaments' rows (their logs are :mod:`server.store.logs`')."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import StoreError
from .logs import Logged
from .sql import Row, sql

_COLS = "id, format, status, start_at, created_at"
_ADD = sql(f"INSERT INTO tournaments ({_COLS}) VALUES ($1, $2, $3, $4, $5)")
_TOURNAMENT = sql(f"SELECT {_COLS} FROM tournaments WHERE id = $1")
_WITH_STATUS = sql(
    f"SELECT {_COLS} FROM tournaments WHERE status = ANY($1::text[])"
    ' ORDER BY start_at, id COLLATE "C"',
    sqlite=f"SELECT {_COLS} FROM tournaments WHERE status IN (SELECT value FROM json_each(?1))"
    " ORDER BY start_at, id",
)
_SET_STATUS = sql("UPDATE tournaments SET status = $1 WHERE id = $2")


@dataclass(frozen=True, slots=True)
class TournamentRow:
    id: str
    format: str  # "classic" | "quick"
    status: str  # "scheduled" | "running" | "finished" | "cancelled"
    start_at: float  # epoch seconds; 0 for "start when full"
    created_at: float


def _tournament(row: Row) -> TournamentRow:
    return TournamentRow(row[0], row[1], row[2], float(row[3]), float(row[4]))


class TournamentStore(Logged):
    async def add_tournament(self, tournament: TournamentRow, first: dict[str, Any]) -> None:
        """Create a tournament with its log entry version 1, atomically."""
        t = tournament
        row = (t.id, t.format, t.status, float(t.start_at), float(t.created_at))
        await self.create("tournament", t.id, _ADD, row, first)

    async def set_tournament_status(self, tournament_id: str, status: str) -> None:
        what = f"set status of tournament {tournament_id!r}"
        if await self._execute(what, _SET_STATUS, status, tournament_id) == 0:
            raise StoreError(f"cannot set status of tournament {tournament_id!r}: no such")

    async def tournament(self, tournament_id: str) -> TournamentRow | None:
        row = await self._fetchrow(f"tournament {tournament_id!r}", _TOURNAMENT, tournament_id)
        return None if row is None else _tournament(row)

    async def tournaments_with_status(self, *statuses: str) -> list[TournamentRow]:
        """Tournaments whose status is any of ``statuses``, the earliest start first."""
        if not statuses:
            return []
        what = f"tournaments with status {statuses!r}"
        return [_tournament(row) for row in await self._fetch(what, _WITH_STATUS, list(statuses))]
