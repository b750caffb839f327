"""What both stores share: JSON in and out of the log, and rows to their dataclasses."""

from __future__ import annotations

import json
from typing import Any

from .base import (
    AlltimeRow,
    DailyAttempt,
    DailyRow,
    MatchLine,
    MatchResult,
    PlaceRow,
    PlayerRow,
    PlayerStats,
    RatingPoint,
    RatingRow,
    RoomRow,
    SheetRow,
    StoreError,
    TournamentRow,
)

_ENCODE = json.JSONEncoder(separators=(",", ":")).encode  # json.dumps made one a call


def dumps(obj: Any, what: str) -> str:
    try:
        return _ENCODE(obj)
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


# -- profiles and ratings -----------------------------------------------------------------

RATING_COLS = "player_id, mu, sigma, matches, conservative"
STATS_COLS = "matches, wins, deals, points, chooser, nat, pits, roem"
LINE_COLS = (
    "match_id, at, mode, tournament, day, rated, seat, won, abandoned, score_us, score_them,"
    " rating_change"
)
POINT_COLS = "match_id, at, mu, sigma, conservative"
DAILY_PART_COLS = "day, match_id, won, deals, points, chooser, nat, pits, roem"
# (the counters of ``STATS_COLS`` summed over a player's daily games from a day on)
DAILY_PART_SUMS = (
    "count(*), coalesce(sum(won), 0), coalesce(sum(deals), 0), coalesce(sum(points), 0),"
    " coalesce(sum(chooser), 0), coalesce(sum(nat), 0), coalesce(sum(pits), 0),"
    " coalesce(sum(roem), 0)"
)
PLACE_COLS = "tournament_id, place, prize, at"


def rating_row(row: Any) -> RatingRow:
    """``player_id, nickname, mu, sigma, matches, conservative``."""
    return RatingRow(row[0], row[1], float(row[2]), float(row[3]), row[4], float(row[5]))


def stats(row: Any) -> PlayerStats:
    return PlayerStats(*(int(v) for v in row)) if row is not None else PlayerStats()


def match_line(row: Any) -> MatchLine:
    change = None if row[11] is None else float(row[11])
    return MatchLine(
        row[0], float(row[1]), row[2], row[3], row[4], bool(row[5]), row[6], bool(row[7]),
        bool(row[8]), (row[9], row[10]), change,
    )  # fmt: skip


def rating_point(row: Any) -> RatingPoint:
    return RatingPoint(row[0], float(row[1]), float(row[2]), float(row[3]), float(row[4]))


def place_row(row: Any) -> PlaceRow:
    return PlaceRow(row[0], row[1], row[2], float(row[3]))


def stats_rows(result: MatchResult) -> list[tuple[Any, ...]]:
    """``player_stats`` rows of one match (to add to the stored ones), by player id."""
    return [
        (r.player_id, 1, int(r.won), r.deals, r.points, r.chooser, r.nat, r.pits, r.roem)
        for r in sorted(result.players, key=lambda r: r.player_id)
    ]


def daily_part_rows(result: MatchResult) -> list[tuple[Any, ...]]:
    """``player_daily`` rows of a daily game (none for another match)."""
    if result.day is None:
        return []
    return [
        (r.player_id, result.day, result.match_id, int(r.won), r.deals, r.points, r.chooser,
         r.nat, r.pits, r.roem)
        for r in result.players
    ]  # fmt: skip


def line_rows(result: MatchResult, changes: dict[str, float]) -> list[tuple[Any, ...]]:
    """``player_matches`` rows of one match."""
    m = result
    return [
        (r.player_id, m.match_id, float(m.at), m.mode, m.tournament, m.day, int(m.rated),
         r.seat, int(r.won), int(r.left), r.score[0], r.score[1], changes.get(r.player_id))
        for r in m.players
    ]  # fmt: skip


# -- score sheets -------------------------------------------------------------------------

SHEET_COLS = "id, edit_code, view_code, created_at"


def sheet(row: Any) -> SheetRow:
    return SheetRow(row[0], row[1], row[2], float(row[3]))
