"""Creating tournaments: from the running server (its own schedule, ``quick_schedule``, and
the next of a repeating series), or from ``klaverjas tournament schedule``."""

from __future__ import annotations

import hashlib
import re
import secrets
from datetime import UTC, datetime

from ..core.ids import new_id
from ..store.tournaments import TournamentRow, TournamentStore
from .state import REPEATS, SCHEDULED, Tournament, next_slot
from .tournament_entries import Created

OFF = "off"
_SCHEDULE = re.compile(r"(?P<repeat>hourly|daily)(?:@(?:(?P<hour>\d\d):)?(?P<minute>\d\d))?")


async def new_tournament(
    store: TournamentStore, fmt: str, start_at: float, fill_with_cpu: bool, start_when_full: bool,
    repeat: str | None, now: float, tid: str | None = None, auto: bool = False,
) -> tuple[str, Created]:  # fmt: skip
    """Store a new tournament; its id and first log entry."""
    first = Tournament.created(
        fmt, start_at, fill_with_cpu, start_when_full, repeat, secrets.randbits(62), auto
    )
    tid = tid or new_id("t")
    await store.add_tournament(TournamentRow(tid, fmt, SCHEDULED, start_at, now), first.to_dict())
    return tid, first


def series_id(fmt: str, repeat: str, fill_with_cpu: bool, start_at: float) -> str:
    """The id of a repeating series' tournament that starts at ``start_at``: whoever makes
    it (the series itself, or a server keeping its own schedule, on any node, after any
    restart) makes the same one, and the store keeps one."""
    key = f"{fmt}:{repeat}:{int(fill_with_cpu)}@{int(start_at)}"
    return "t_" + hashlib.sha256(key.encode()).hexdigest()[:16]


def parse_schedule(text: str) -> tuple[str, float] | None:
    """``quick_schedule`` as (repeat, seconds into each period): ``hourly`` (on the hour),
    ``hourly@MM`` (MM minutes past), ``daily`` (midnight UTC), ``daily@HH:MM`` (UTC), or
    ``off`` (None).  ``ValueError`` for anything else."""
    text = text.strip().lower()
    if text == OFF:
        return None
    match = _SCHEDULE.fullmatch(text)
    if match is not None:
        repeat, hour, minute = match["repeat"], int(match["hour"] or 0), int(match["minute"] or 0)
        if minute < 60 and hour < 24 and not (repeat == "hourly" and match["hour"]):
            return repeat, hour * 3600.0 + minute * 60.0
    raise ValueError(
        f"KLAVERJAS_QUICK_SCHEDULE={text!r}: give hourly, hourly@MM (minutes past the hour), "
        "daily, daily@HH:MM (UTC) or off"
    )


def first_start(repeat: str, offset: float, now: float) -> float:
    """The first start of a ``repeat`` series at ``offset`` into each period after ``now``."""
    period = REPEATS[repeat]
    return next_slot(offset - period, period, now)


def parse_time(text: str) -> float:
    """An ISO 8601 time (``2026-12-01T19:00:00+01:00``; no zone means UTC) to epoch seconds."""
    moment = datetime.fromisoformat(text)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.timestamp()
