"""Profiles and ratings: a finished match recorded once (each player's counters, history
line and rating), tournament places, the rating board and a profile.  Every query reads
through an index (the tests read their plans: ``PROFILE_QUERIES``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from .database import Store
from .errors import Deadlock
from .sql import Conn, Row, Sql, sql

BOARD_MIN_MATCHES = 10  # rated matches before the rating board lists a player (the
# partial index ratings_board of migration 0006 holds exactly those rows)
RETRIES = 3  # a recording that deadlocks with another (PostgreSQL breaks it) is run again

Belief = tuple[float, float]  # a rating's (mu, sigma)


class NewRating(NamedTuple):
    """A player's rating after a match, and how much its conservative value moved."""

    mu: float
    sigma: float
    conservative: float
    change: float


# Every rated player's belief before a match (new players absent) -> their new ratings.
Rater = Callable[[dict[str, Belief]], dict[str, NewRating]]


@dataclass(frozen=True, slots=True)
class PlayerResult:
    """A human starter's part of a finished match, as its profile counts it."""

    player_id: str
    seat: int
    won: bool
    left: bool  # abandoned (a CPU finished the match in their seat): a loss
    score: tuple[int, int]  # the match totals: their team's, the other team's
    deals: int = 0
    points: int = 0
    chooser: int = 0
    nat: int = 0
    pits: int = 0
    roem: int = 0


@dataclass(frozen=True, slots=True)
class MatchResult:
    """A finished match for profiles and ratings, recorded once (``record_match``)."""

    match_id: str
    at: float
    mode: str
    tournament: str | None
    day: str | None
    rated: bool
    players: tuple[PlayerResult, ...]


@dataclass(frozen=True, slots=True)
class RatingRow:
    player_id: str
    nickname: str
    mu: float
    sigma: float
    matches: int
    conservative: float


@dataclass(frozen=True, slots=True)
class PlayerStats:
    matches: int = 0
    wins: int = 0
    deals: int = 0
    points: int = 0
    chooser: int = 0
    nat: int = 0
    pits: int = 0
    roem: int = 0


@dataclass(frozen=True, slots=True)
class MatchLine:
    """One match of a player's history."""

    match_id: str
    at: float
    mode: str
    tournament: str | None
    day: str | None
    rated: bool
    seat: int
    won: bool
    left: bool
    score: tuple[int, int]
    rating_change: float | None


@dataclass(frozen=True, slots=True)
class RatingPoint:
    """A player's rating after one rated match."""

    match_id: str
    at: float
    mu: float
    sigma: float
    conservative: float


@dataclass(frozen=True, slots=True)
class PlaceRow:
    tournament_id: str
    place: int
    prize: str | None
    at: float


@dataclass(frozen=True, slots=True)
class Profile:
    """Everything a profile shows, read at once (each part along an index)."""

    player_id: str
    nickname: str
    stats: PlayerStats
    rating: RatingRow | None
    rank: int | None  # on the rating board, if listed
    ratings: list[RatingPoint]  # the latest first
    matches: list[MatchLine]  # the page asked for, the latest first
    places: list[PlaceRow]  # the latest first
    place_counts: dict[int, int] = field(default_factory=dict)  # place -> tournaments
    unrevealed: PlayerStats = PlayerStats()  # the part of ``stats`` from daily games of days
    # not yet revealed (read only when asked for: see ``PlayerStore.profile``)


_STATS_COLS = "matches, wins, deals, points, chooser, nat, pits, roem"
_LINE_COLS = (
    "match_id, at, mode, tournament, day, rated, seat, won, abandoned, score_us, score_them,"
    " rating_change"
)
_POINT_COLS = "match_id, at, mu, sigma, conservative"
_DAILY_PART_COLS = "day, match_id, won, deals, points, chooser, nat, pits, roem"
_DAILY_PART_SUMS = (  # the counters of _STATS_COLS summed over a player's daily games
    "count(*), coalesce(sum(won), 0), coalesce(sum(deals), 0), coalesce(sum(points), 0),"
    " coalesce(sum(chooser), 0), coalesce(sum(nat), 0), coalesce(sum(pits), 0),"
    " coalesce(sum(roem), 0)"
)
_PLACE_COLS = "tournament_id, place, prize, at"

# The board's queries repeat the partial index's WHERE (ratings_board).
_LISTED = f"matches >= {BOARD_MIN_MATCHES}"
RATING_BOARD = sql(  # the page along the board's index; each nickname by its key
    "SELECT player_id, (SELECT nickname FROM players WHERE id = player_id),"
    f" mu, sigma, matches, conservative FROM ratings WHERE {_LISTED}"
    " ORDER BY conservative DESC, player_id LIMIT $1 OFFSET $2"
)
_RATING_COUNT = sql("SELECT players FROM rating_board WHERE id = 1")
_BOARD_GREW = sql("UPDATE rating_board SET players = players + $1 WHERE id = 1")
_RATING_OF = sql(
    "SELECT r.player_id, p.nickname, r.mu, r.sigma, r.matches, r.conservative"
    " FROM ratings r JOIN players p ON p.id = r.player_id WHERE r.player_id = $1"
)
_RANK = sql(  # 1 + the listed players above: a higher rating, or the same and a lower id
    f"SELECT 1 + (SELECT count(*) FROM ratings WHERE {_LISTED} AND conservative > $1)"
    f" + (SELECT count(*) FROM ratings WHERE {_LISTED} AND conservative = $1 AND player_id < $2)"
)
_NICKNAME = sql("SELECT nickname FROM players WHERE id = $1")
_STATS = sql(f"SELECT {_STATS_COLS} FROM player_stats WHERE player_id = $1")
_LINES = sql(
    f"SELECT {_LINE_COLS} FROM player_matches WHERE player_id = $1"
    " ORDER BY at DESC, match_id DESC LIMIT $2 OFFSET $3"
)
_POINTS = sql(
    f"SELECT {_POINT_COLS} FROM rating_history WHERE player_id = $1"
    " ORDER BY at DESC, match_id DESC LIMIT $2"
)
_PLACES = sql(
    f"SELECT {_PLACE_COLS} FROM player_places WHERE player_id = $1"
    " ORDER BY at DESC, tournament_id DESC LIMIT $2"
)
_PLACE_COUNTS = sql("SELECT place, count(*) FROM player_places WHERE player_id = $1 GROUP BY place")
_UNREVEALED = sql(  # along player_daily's key
    f"SELECT {_DAILY_PART_SUMS} FROM player_daily WHERE player_id = $1 AND day >= $2"
)
# Every query behind a board or a profile, with example arguments (the tests read their plans).
PROFILE_QUERIES: dict[str, tuple[Sql, tuple[Any, ...]]] = {
    "board": (RATING_BOARD, (20, 0)),
    "count": (_RATING_COUNT, ()),
    "rating_of": (_RATING_OF, ("p",)),
    "rank": (_RANK, (90.0, "p")),
    "stats": (_STATS, ("p",)),
    "matches": (_LINES, ("p", 20, 0)),
    "ratings": (_POINTS, ("p", 20)),
    "places": (_PLACES, ("p", 20)),
    "place_counts": (_PLACE_COUNTS, ("p",)),
    "unrevealed": (_UNREVEALED, ("p", "2027-01-15")),
}

_RECORDED = sql(
    "INSERT INTO recorded_matches (match_id, at) VALUES ($1, $2) ON CONFLICT DO NOTHING"
)
# A match's players' rating rows, made if missing (placeholders: matches 0, replaced in the
# same transaction), so that every one of them can be locked; then locked in id order.
_RATING_ROWS = sql(
    "INSERT INTO ratings (player_id, mu, sigma, matches, conservative)"
    ' SELECT t.id, 0, 0, 0, 0 FROM unnest($1::text[]) AS t(id) ORDER BY t.id COLLATE "C"'
    " ON CONFLICT DO NOTHING",
    sqlite="INSERT INTO ratings (player_id, mu, sigma, matches, conservative)"
    " SELECT value, 0, 0, 0, 0 FROM json_each(?1) WHERE true ORDER BY value"
    " ON CONFLICT DO NOTHING",
)
_LOCK_RATINGS = sql(
    "SELECT player_id, mu, sigma, matches FROM ratings WHERE player_id = ANY($1::text[])"
    ' ORDER BY player_id COLLATE "C" FOR UPDATE',
    sqlite="SELECT player_id, mu, sigma, matches FROM ratings"
    " WHERE player_id IN (SELECT value FROM json_each(?1)) ORDER BY player_id",
)  # (SQLite's transaction holds the database's write lock from its start)
_SET_RATING = sql(
    "UPDATE ratings SET mu = $2, sigma = $3, matches = matches + 1, conservative = $4"
    " WHERE player_id = $1"
)
_ADD_POINT = sql(
    f"INSERT INTO rating_history (player_id, {_POINT_COLS}) VALUES ($1, $2, $3, $4, $5, $6)"
)
_ADD_STATS = sql(
    f"INSERT INTO player_stats (player_id, {_STATS_COLS})"
    " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)"
    " ON CONFLICT (player_id) DO UPDATE SET matches = player_stats.matches + 1,"
    " wins = player_stats.wins + excluded.wins, deals = player_stats.deals + excluded.deals,"
    " points = player_stats.points + excluded.points,"
    " chooser = player_stats.chooser + excluded.chooser, nat = player_stats.nat + excluded.nat,"
    " pits = player_stats.pits + excluded.pits, roem = player_stats.roem + excluded.roem"
)
_ADD_LINE = sql(
    f"INSERT INTO player_matches (player_id, {_LINE_COLS})"
    " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) ON CONFLICT DO NOTHING"
)
_ADD_DAILY_PART = sql(
    f"INSERT INTO player_daily (player_id, {_DAILY_PART_COLS})"
    " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT DO NOTHING"
)
_ADD_PLACES = sql(
    "INSERT INTO player_places (player_id, tournament_id, place, prize, at)"
    " SELECT t.player, $1::text, t.place, t.prize, $2::double precision"
    " FROM unnest($3::text[], $4::int[], $5::text[]) AS t(player, place, prize)"
    " ON CONFLICT DO NOTHING",
    sqlite="INSERT INTO player_places (player_id, tournament_id, place, prize, at)"
    " SELECT p.value, ?1, n.value, z.value, ?2 FROM json_each(?3) p"
    " JOIN json_each(?4) n ON n.key = p.key JOIN json_each(?5) z ON z.key = p.key"
    " WHERE true ON CONFLICT DO NOTHING",
)


class PlayerStore(Store):
    async def record_match(self, result: MatchResult, rate: Rater | None) -> bool:
        """Record a finished match once, atomically: each player's counters and history
        line and, with ``rate`` (a rated match), every player's new rating, computed by
        ``rate`` from their current beliefs (a new player has none) and added to their
        rating history.  False, and nothing written, if the match was recorded before (by
        any node): a concurrent recording of the same match waits for this one's
        ``recorded_matches`` row, then inserts nothing.  Concurrent recordings of matches
        sharing a player read and write that player's rating one after the other (its row
        locked, in player-id order, before it is read)."""

        async def once(conn: Conn) -> bool:
            async with conn.transaction():
                if await conn.execute(_RECORDED, result.match_id, float(result.at)) == 0:
                    return False
                changes = {} if rate is None else await _rate(conn, result, rate)
                await conn.executemany(_ADD_STATS, _stats_rows(result))
                await conn.executemany(_ADD_LINE, _line_rows(result, changes))
                await conn.executemany(_ADD_DAILY_PART, _daily_part_rows(result))
            return True

        async def run(conn: Conn) -> bool:
            for attempt in range(RETRIES):
                try:
                    return await once(conn)
                except Deadlock:
                    if attempt == RETRIES - 1:
                        raise
            raise AssertionError("unreachable")

        return await self.db.run(f"record match {result.match_id!r}", run)

    async def record_places(
        self, tournament_id: str, at: float, places: list[tuple[str, int, str | None]]
    ) -> bool:
        """Record each ``(player, place, prize)`` of a finished tournament once; False if
        they were recorded before."""
        players = [player for player, _, _ in places]
        ranks = [place for _, place, _ in places]
        prizes = [prize for _, _, prize in places]
        args = (tournament_id, float(at), players, ranks, prizes)
        return await self._execute(f"record places of {tournament_id!r}", _ADD_PLACES, *args) > 0

    async def rating_board(self, offset: int, limit: int) -> tuple[int, list[RatingRow]]:
        """How many players the rating board lists (``BOARD_MIN_MATCHES`` rated matches),
        and a page of them: the highest conservative rating first, then by player id."""

        async def run(conn: Conn) -> tuple[int, list[RatingRow]]:
            count = await conn.fetchval(_RATING_COUNT)
            rows = await conn.fetch(RATING_BOARD, limit, offset)
            return int(count), [_rating_row(row) for row in rows]

        return await self.db.run("rating board", run)

    async def rating_of(self, player_id: str) -> tuple[RatingRow, int | None] | None:
        """A player's rating and its rank on the board (None if not listed)."""
        return await self.db.run(f"rating of {player_id!r}", lambda c: _rating_of(c, player_id))

    async def profile(
        self, player_id: str, offset: int, limit: int, recent: int, hidden_from: str | None = None
    ) -> Profile | None:
        """A player's profile: ``limit`` matches of their history from ``offset``, the
        ``recent`` latest ratings and places, and with ``hidden_from`` (a day) the part of
        its counters from daily games of that day and later (``unrevealed``).  None for an
        unknown player.  Read from one snapshot: a match recorded whole or not at all."""

        async def read(conn: Conn) -> Profile | None:
            nickname = await conn.fetchval(_NICKNAME, player_id)
            if nickname is None:
                return None
            rated = await _rating_of(conn, player_id)
            unrevealed = PlayerStats()
            if hidden_from is not None:
                unrevealed = _stats(await conn.fetchrow(_UNREVEALED, player_id, hidden_from))
            return Profile(
                player_id, nickname, _stats(await conn.fetchrow(_STATS, player_id)),
                None if rated is None else rated[0], None if rated is None else rated[1],
                [_rating_point(r) for r in await conn.fetch(_POINTS, player_id, recent)],
                [_match_line(r) for r in await conn.fetch(_LINES, player_id, limit, offset)],
                [_place_row(r) for r in await conn.fetch(_PLACES, player_id, recent)],
                {place: int(n) for place, n in await conn.fetch(_PLACE_COUNTS, player_id)},
                unrevealed,
            )  # fmt: skip

        async def run(conn: Conn) -> Profile | None:
            async with conn.transaction(snapshot=True):
                return await read(conn)

        return await self.db.run(f"profile of {player_id!r}", run)


async def _rate(conn: Conn, result: MatchResult, rate: Rater) -> dict[str, float]:
    """Rate a match's players inside its recording transaction; each one's change."""
    ids = sorted(r.player_id for r in result.players)
    await conn.execute(_RATING_ROWS, ids)
    rows = await conn.fetch(_LOCK_RATINGS, ids)
    current = {pid: (mu, sigma) for pid, mu, sigma, matches in rows if matches > 0}
    new = rate(current)
    if reached := sum(matches == BOARD_MIN_MATCHES - 1 for *_, matches in rows):
        await conn.execute(_BOARD_GREW, reached)
    at = float(result.at)
    await conn.executemany(_SET_RATING, [(pid, *new[pid][:3]) for pid in ids])
    await conn.executemany(_ADD_POINT, [(pid, result.match_id, at, *new[pid][:3]) for pid in ids])
    return {pid: new[pid].change for pid in ids}


async def _rating_of(conn: Conn, player_id: str) -> tuple[RatingRow, int | None] | None:
    row = await conn.fetchrow(_RATING_OF, player_id)
    if row is None:
        return None
    rating = _rating_row(row)
    if rating.matches < BOARD_MIN_MATCHES:
        return rating, None
    return rating, int(await conn.fetchval(_RANK, rating.conservative, player_id))


# -- rows in and out ------------------------------------------------------------------------


def _rating_row(row: Row) -> RatingRow:
    """``player_id, nickname, mu, sigma, matches, conservative``."""
    return RatingRow(row[0], row[1], float(row[2]), float(row[3]), row[4], float(row[5]))


def _stats(row: Row | None) -> PlayerStats:
    return PlayerStats(*(int(v) for v in row)) if row is not None else PlayerStats()


def _match_line(row: Row) -> MatchLine:
    change = None if row[11] is None else float(row[11])
    return MatchLine(
        row[0], float(row[1]), row[2], row[3], row[4], bool(row[5]), row[6], bool(row[7]),
        bool(row[8]), (row[9], row[10]), change,
    )  # fmt: skip


def _rating_point(row: Row) -> RatingPoint:
    return RatingPoint(row[0], float(row[1]), float(row[2]), float(row[3]), float(row[4]))


def _place_row(row: Row) -> PlaceRow:
    return PlaceRow(row[0], row[1], row[2], float(row[3]))


def _stats_rows(result: MatchResult) -> list[tuple[Any, ...]]:
    """``player_stats`` rows of one match (to add to the stored ones), by player id."""
    return [
        (r.player_id, 1, int(r.won), r.deals, r.points, r.chooser, r.nat, r.pits, r.roem)
        for r in sorted(result.players, key=lambda r: r.player_id)
    ]


def _daily_part_rows(result: MatchResult) -> list[tuple[Any, ...]]:
    """``player_daily`` rows of a daily game (none for another match)."""
    if result.day is None:
        return []
    return [
        (r.player_id, result.day, result.match_id, int(r.won), r.deals, r.points, r.chooser,
         r.nat, r.pits, r.roem)
        for r in result.players
    ]  # fmt: skip


def _line_rows(result: MatchResult, changes: dict[str, float]) -> list[tuple[Any, ...]]:
    """``player_matches`` rows of one match."""
    m = result
    return [
        (r.player_id, m.match_id, float(m.at), m.mode, m.tournament, m.day, int(m.rated),
         r.seat, int(r.won), int(r.left), r.score[0], r.score[1], changes.get(r.player_id))
        for r in m.players
    ]  # fmt: skip
