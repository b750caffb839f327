"""The storage interface: players, rooms and tournaments with their durable logs, and
finished match records.

Two implementations: :mod:`server.store.sqlite` (the embedded default) and, later,
PostgreSQL.  Every method is a coroutine; ``append`` returns only once the entry is
durable (committed), so a caller may broadcast after it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol


class StoreError(Exception):
    """The store refused or could not complete an operation (nothing was written)."""


class VersionConflict(StoreError):
    """A log entry with this room and version already exists."""


class Fenced(StoreError):
    """An ``append`` presented a fencing epoch that is not the key's current one.

    Another process has called :meth:`Store.fence` for the key since (or never called it):
    the caller no longer owns the room or tournament and must stop writing to it.
    """

    @classmethod
    def refused(
        cls, room_id: str, version: int, epoch: int, current: int | BaseException | None
    ) -> Fenced:
        """The error for an append of ``version`` with ``epoch``.  ``current`` is the key's
        epoch as read afterwards, for the message: ``None`` if it was never fenced, an
        exception if it could not be read."""
        if current is None:
            why = "it was never fenced"
        elif isinstance(current, BaseException):
            why = f"its current epoch could not be read ({type(current).__name__})"
        elif current > epoch:
            why = f"its epoch is now {current}: another owner took over"
        else:
            why = f"its epoch is {current}"
        return cls(
            f"room {room_id!r}: append of version {version} with fencing epoch {epoch} "
            f"refused: {why}"
        )


@dataclass(frozen=True, slots=True)
class PlayerRow:
    id: str
    nickname: str
    token_hash: bytes
    created_at: float


@dataclass(frozen=True, slots=True)
class RoomRow:
    id: str
    owner: str
    invite_code: str | None  # private rooms only
    status: str  # "open" | "playing" | "finished" | "closed"
    created_at: float


@dataclass(frozen=True, slots=True)
class SheetRow:
    """A score sheet, found by either of its codes (its log is kept like a room's)."""

    id: str
    edit_code: str
    view_code: str
    created_at: float


@dataclass(frozen=True, slots=True)
class TournamentRow:
    id: str
    format: str  # "classic" | "quick"
    status: str  # "scheduled" | "running" | "finished" | "cancelled"
    start_at: float  # epoch seconds; 0 for "start when full"
    created_at: float


@dataclass(frozen=True, slots=True)
class DailyAttempt:
    """A player's attempt at a day's daily game (``day`` a UTC date, YYYY-MM-DD)."""

    day: str
    player_id: str
    room_id: str
    started_at: float
    total: int | None = None  # the player's team's points, once finished
    finished_at: float | None = None

    @property
    def finished(self) -> bool:
        return self.total is not None


@dataclass(frozen=True, slots=True)
class DailyRow:
    """A finished attempt on a day's board."""

    player_id: str
    nickname: str
    total: int
    finished_at: float


@dataclass(frozen=True, slots=True)
class AlltimeRow:
    """A player on the all-time daily board: closed days played, mean difference a day."""

    player_id: str
    nickname: str
    days: int
    average: float


BOARD_MIN_MATCHES = 10  # rated matches before the rating board lists a player (the
# partial index ratings_board of migration 0006 holds exactly those rows)

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
    # not yet revealed (read only when asked for: see ``Store.profile``)


@dataclass(frozen=True, slots=True)
class LogEntry:
    room_id: str
    version: int  # 1, 2, 3, ... without gaps
    entry: dict[str, Any]  # JSON-serialisable


class Store(Protocol):
    async def open(self) -> None:
        """Connect and apply pending migrations."""

    async def close(self) -> None:
        """Finish pending writes and release the connection; idempotent."""

    async def add_player(self, player: PlayerRow) -> None: ...

    async def player_by_token_hash(self, token_hash: bytes) -> PlayerRow | None: ...

    async def player(self, player_id: str) -> PlayerRow | None: ...

    async def claim_nickname(self, player_id: str, nickname: str, key: str) -> bool:
        """Give ``player_id`` the chosen ``nickname``, unique by ``key`` (its case-folded
        form); False, and nothing changed, if another player holds that key."""

    async def nickname_claimed(self, key: str) -> bool:
        """Whether any player holds the chosen nickname of this key."""

    async def add_room(self, room: RoomRow, first: dict[str, Any]) -> None:
        """Create a room with its log entry version 1, atomically."""

    async def set_room_status(self, room_id: str, status: str) -> None: ...

    async def room(self, room_id: str) -> RoomRow | None: ...

    async def room_by_invite(self, invite_code: str) -> RoomRow | None: ...

    async def rooms_with_status(self, *statuses: str) -> list[RoomRow]: ...

    async def append(
        self, room_id: str, version: int, entry: dict[str, Any], epoch: int | None = None
    ) -> None:
        """Durably append one log entry; raises :class:`VersionConflict` on a duplicate.

        With ``epoch``, the entry is written only if ``room_id``'s fencing epoch (see
        :meth:`fence`) is exactly ``epoch`` when it commits; otherwise nothing is written and
        :class:`Fenced` is raised.  ``epoch=None`` skips the check.
        """

    async def fence(self, key: str) -> int:
        """Atomically increment and return ``key``'s fencing epoch (1 the first time).

        Once this returns, no ``append`` to ``key`` with an older epoch can commit, from any
        process sharing the database: an append already holding the old epoch commits
        before the increment does, and any later one is refused with :class:`Fenced`.
        A new owner of a room or tournament calls this once and appends with the result.
        """

    async def epoch(self, key: str) -> int | None:
        """``key``'s fencing epoch now (None: never fenced)."""

    # Since when calls have failed for want of the database (``time.monotonic()``: the start
    # of the first failing call after the latest answer), or None while it answers.  A node
    # that cannot store hands what it runs to the others (``server/cluster/node.py``).
    failing_since: float | None

    async def log(self, room_id: str, after: int = 0) -> list[LogEntry]:
        """The room's log entries with version > ``after``, in order."""

    async def save_match(self, match_id: str, room_id: str, record: dict[str, Any]) -> None: ...

    async def add_tournament(self, tournament: TournamentRow, first: dict[str, Any]) -> None:
        """Create a tournament with its log entry version 1 (the log shares ``append``)."""

    async def set_tournament_status(self, tournament_id: str, status: str) -> None: ...

    async def tournament(self, tournament_id: str) -> TournamentRow | None: ...

    async def tournaments_with_status(self, *statuses: str) -> list[TournamentRow]: ...

    async def match(self, match_id: str) -> dict[str, Any] | None: ...

    # -- score sheets ---------------------------------------------------------------------

    async def add_sheet(self, sheet: SheetRow, first: dict[str, Any]) -> None:
        """Create a sheet with its log entry version 1, atomically."""

    async def sheet(self, sheet_id: str) -> SheetRow | None: ...

    async def sheet_by_code(self, code: str) -> SheetRow | None:
        """The sheet whose edit code or view code is ``code``."""

    # -- rematches ------------------------------------------------------------------------

    async def accept_rematch(self, room_id: str, player_id: str) -> list[str]:
        """Note that ``player_id`` accepts a rematch of finished room ``room_id``; every
        player who has, in id order."""

    async def claim_rematch(self, room_id: str, new_room_id: str) -> str:
        """The room of ``room_id``'s rematch: ``new_room_id`` if none was named before (the
        first caller wins, on every node), else the one named."""

    # -- the daily game (every query below reads through an index) -------------------------

    async def secret(self, name: str, fresh: str) -> str:
        """The server-wide secret ``name``: ``fresh`` is stored if there is none yet; the
        stored value is returned (the first writer wins, on every node)."""

    async def start_daily(self, attempt: DailyAttempt) -> DailyAttempt:
        """Store ``attempt`` (unfinished) unless its player has an attempt that day already,
        and note its day as played; return the stored attempt (this one, or the earlier)."""

    async def daily_attempt(self, day: str, player_id: str) -> DailyAttempt | None: ...

    async def finish_daily(
        self, day: str, player_id: str, total: int, points: list[int], at: float
    ) -> bool:
        """Record a finished attempt atomically: its ``total``, its team's ``points`` deal
        by deal (deal numbers from 0), and those points added to the day's field.  False,
        and nothing written, if the attempt is unknown or already finished (idempotent)."""

    async def daily_board(self, day: str, offset: int, limit: int) -> list[DailyRow]:
        """Finished attempts of ``day``, best total first (the earlier finish on a tie)."""

    async def daily_finished(self, day: str) -> int:
        """How many attempts of ``day`` are finished."""

    async def daily_rank(self, day: str, total: int) -> int:
        """1 + the finished attempts of ``day`` with a higher total."""

    async def daily_field(self, day: str) -> list[tuple[int, int, int]]:
        """``(deal number, players, their points in all)`` for each deal of ``day``."""

    async def daily_points(self, day: str, player_ids: list[str]) -> dict[str, list[int]]:
        """The finished attempts' points deal by deal, for these players."""

    async def daily_days(self, player_id: str, limit: int) -> list[str]:
        """The days ``player_id`` finished an attempt, the latest first, at most ``limit``."""

    async def close_daily_days(self, before: str) -> list[str]:
        """Add every played day before ``before`` that is not yet closed to the all-time
        board, each exactly once across nodes: a finished attempt adds one day and its
        total minus the field's sum of deal means to its player's row.  The days closed."""

    async def alltime_board(self, min_days: int, offset: int, limit: int) -> list[AlltimeRow]:
        """Players with at least ``min_days`` closed days, by mean difference, best first."""

    async def alltime_count(self, min_days: int) -> int: ...

    # -- profiles and ratings (every query below reads through an index) ------------------

    async def record_match(self, result: MatchResult, rate: Rater | None) -> bool:
        """Record a finished match once, atomically: each player's counters and history
        line and, with ``rate`` (a rated match), every player's new rating, computed by
        ``rate`` from their current beliefs (a new player has none) and added to their
        rating history.  False, and nothing written,
        if the match was recorded before (by any node).  Concurrent recordings of matches
        sharing a player read and write that player's rating one after the other."""

    async def record_places(
        self, tournament_id: str, at: float, places: list[tuple[str, int, str | None]]
    ) -> bool:
        """Record each ``(player, place, prize)`` of a finished tournament once; False if
        they were recorded before."""

    async def rating_board(self, offset: int, limit: int) -> tuple[int, list[RatingRow]]:
        """How many players the rating board lists (``BOARD_MIN_MATCHES`` rated matches),
        and a page of them: the highest conservative rating first, then by player id."""

    async def rating_of(self, player_id: str) -> tuple[RatingRow, int | None] | None:
        """A player's rating and its rank on the board (None if not listed)."""

    async def profile(
        self, player_id: str, offset: int, limit: int, recent: int, hidden_from: str | None = None
    ) -> Profile | None:
        """A player's profile: ``limit`` matches of their history from ``offset``, the
        ``recent`` latest ratings and places, and with ``hidden_from`` (a day) the part of
        its counters from daily games of that day and later (``unrevealed``).  None for an
        unknown player."""
