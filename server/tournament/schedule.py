"""Creating tournaments: from the running server, or from ``klaverjas tournament schedule``."""

from __future__ import annotations

import hashlib
import secrets
from datetime import UTC, datetime

from ..ids import new_id
from ..store.base import Store, TournamentRow
from .entries import Created
from .state import SCHEDULED, Tournament


async def new_tournament(
    store: Store, fmt: str, start_at: float, fill_with_cpu: bool, start_when_full: bool,
    repeat: str | None, now: float, tid: str | None = None,
) -> tuple[str, Created]:  # fmt: skip
    """Store a new tournament; its id and first log entry."""
    first = Tournament.created(
        fmt, start_at, fill_with_cpu, start_when_full, repeat, secrets.randbits(62)
    )
    tid = tid or new_id("t")
    await store.add_tournament(TournamentRow(tid, fmt, SCHEDULED, start_at, now), first.to_dict())
    return tid, first


def next_id(tournament_id: str) -> str:
    """The id of the tournament that follows ``tournament_id`` in a repeating series."""
    return "t_" + hashlib.sha256(tournament_id.encode()).hexdigest()[:16]


def parse_time(text: str) -> float:
    """An ISO 8601 time (``2026-12-01T19:00:00+01:00``; no zone means UTC) to epoch seconds."""
    moment = datetime.fromisoformat(text)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.timestamp()
