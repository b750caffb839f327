"""What both stores share: JSON in and out of the log, and rows to their dataclasses."""

from __future__ import annotations

import json
from typing import Any

from .base import (
    AlltimeRow,
    DailyAttempt,
    DailyRow,
    PlayerRow,
    RoomRow,
    StoreError,
    TournamentRow,
)


def dumps(obj: Any, what: str) -> str:
    try:
        return json.dumps(obj, separators=(",", ":"))
    except (TypeError, ValueError) as exc:
        raise StoreError(f"{what} is not JSON-serialisable: {exc}") from exc


def loads(text: str, what: str) -> Any:
    try:
        return json.loads(text)
    except ValueError as exc:
        raise StoreError(f"{what} is not valid JSON: {exc}") from exc


def check_append(room_id: str, version: Any, epoch: Any) -> None:
    """Refuse a log position or fencing epoch that no correct caller passes."""
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise StoreError(f"room {room_id!r}: log version must be an int >= 1, not {version!r}")
    if epoch is not None and (
        isinstance(epoch, bool) or not isinstance(epoch, int) or not 0 < epoch < 1 << 63
    ):
        raise StoreError(f"room {room_id!r}: fencing epoch must come from fence(), not {epoch!r}")


def player(row: Any) -> PlayerRow:
    return PlayerRow(row[0], row[1], bytes(row[2]), row[3])


def room(row: Any) -> RoomRow:
    return RoomRow(row[0], row[1], row[2], row[3], row[4])


def tournament(row: Any) -> TournamentRow:
    return TournamentRow(row[0], row[1], row[2], float(row[3]), float(row[4]))


def daily_attempt(row: Any) -> DailyAttempt:
    finished_at = None if row[5] is None else float(row[5])
    return DailyAttempt(row[0], row[1], row[2], float(row[3]), row[4], finished_at)


def daily_row(row: Any) -> DailyRow:
    return DailyRow(row[0], row[1], row[2], float(row[3]))


def alltime_row(row: Any) -> AlltimeRow:
    return AlltimeRow(row[0], row[1], row[2], float(row[3]))


def daily_points(rows: Any) -> dict[str, list[int]]:
    """``(player_id, number, points)`` rows, ordered by player and number, by player."""
    points: dict[str, list[int]] = {}
    for player_id, _number, p in rows:
        points.setdefault(player_id, []).append(p)
    return points
