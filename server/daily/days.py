"""Days and the daily seed (pure: the caller passes the time and the secret).

A day is a UTC date written ``YYYY-MM-DD``.  A day's seed is an HMAC of the day under a
server secret: nobody can compute it without the secret.  A day's game may be played until
the day is over plus a grace (:func:`closes_at`): then any attempt still running is closed
unfinished, and only then are the day's results revealed (its deals, its records).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import re

_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")
SEED_BITS = 62  # as the seeds of other rooms
DAY_SECONDS = 86_400


def day_of(wall: float) -> str:
    """The UTC day of an epoch time."""
    return dt.datetime.fromtimestamp(wall, dt.UTC).date().isoformat()


def moment(wall: float) -> str:
    """An epoch time in words: ``02:00 UTC on 2027-01-16``."""
    return dt.datetime.fromtimestamp(wall, dt.UTC).strftime("%H:%M UTC on %Y-%m-%d")


def parse_day(text: str) -> str | None:
    """``text`` as a day, or None if it is not a valid ``YYYY-MM-DD`` date."""
    if not _DAY.match(text):
        return None
    try:
        return dt.date.fromisoformat(text).isoformat()
    except ValueError:
        return None


def closes_at(day: str, grace: float) -> float:
    """The epoch time at which ``day``'s games close and its results are revealed: the
    midnight that ends it, plus ``grace`` seconds (at most a day: the all-time board takes
    in the days before yesterday)."""
    start = dt.datetime.combine(dt.date.fromisoformat(day), dt.time(), dt.UTC)
    return start.timestamp() + DAY_SECONDS + min(max(0.0, grace), DAY_SECONDS)


def previous(day: str) -> str:
    return (dt.date.fromisoformat(day) - dt.timedelta(days=1)).isoformat()


def daily_seed(secret: str, day: str) -> int:
    """The seed of ``day``'s deals and CPU decisions under ``secret``."""
    digest = hmac.new(secret.encode(), f"daily/{day}".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> (64 - SEED_BITS)


def streak(days: list[str], today: str) -> int:
    """Consecutive days played up to today, or up to yesterday while today is still open;
    ``days`` are the days played, the latest first."""
    expected = today if days and days[0] == today else previous(today)
    count = 0
    for day in days:
        if day != expected:
            break
        count += 1
        expected = previous(expected)
    return count
