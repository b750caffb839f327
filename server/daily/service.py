"""The daily game and its boards, on the room machinery and the domain events.

Each UTC day one game of ``Settings.daily_deals`` deals (Amsterdam rules) is dealt from the
day's secret seed (:mod:`server.daily.days`).  Everyone sits in seat 0 beside the same
strong CPU partner against the same strong CPUs, who decide from their view and the room's
seed and version: two attempts differ only by their player's own play.  An attempt is a
private room made for it; one attempt per player and day (the store keeps it), a dropped
connection resumes it.  When its match ends (:class:`~server.events.MatchEnded`, possibly
again after a restart) its total and deal scores are recorded once.

A deal is scored against the field: the player's team's points minus the mean of everyone
who has finished that day's game; so a day's ranking by total is its ranking by difference.

A day's game may be played until the day is over plus ``Settings.daily_grace``; then an
attempt still running is closed unfinished (its room's actor closes it: no result).  Until
that moment a day's results are shown only to players who have finished its game, and
nothing holding its seed or a game's course is shown to anyone (its deals, its best games'
deal scores, its records and reviews, a game's result in its player's profile): once it
has passed, no attempt of that day can be played any more, and they are revealed.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from engine import Deal, Rules
from engine.cards import mask_str

from ..core.ids import new_id
from ..core.levels import STRONG
from ..core.logs import log
from ..runtime.domain_events import Events, MatchEnded
from ..store.daily import DailyAttempt, DailyRow
from ..store.errors import StoreError
from ..table import room_entries as entries
from ..table.room import LIVE, Room
from ..table.room_entries import DAILY
from ..table.rooms import AgainstCpus
from ..wire import protocol as p
from .days import closes_at, daily_seed, day_of, moment, previous, streak

if TYPE_CHECKING:
    from ..runtime.peer import Peer
    from ..runtime.ports import Ports
    from ..store.daily import DailyStore
    from ..store.rooms import RoomStore
    from ..table.rooms import Rooms

ALLTIME_MIN_DAYS = 5  # days played before a player appears on the all-time board
MOVE_SECONDS = 30  # the daily game's move timer: the same for everyone
BEST_SHOWN = 3  # a past day's best players whose deal scores are revealed
STREAK_DAYS = 1000  # the longest streak counted


class Daily:
    def __init__(
        self, ports: Ports, store: DailyStore, room_store: RoomStore, rooms: Rooms
    ) -> None:
        self.ports = ports
        self.store = store
        self.room_store = room_store  # the attempts' rooms, their logs and records
        self.rooms = rooms
        self._secret: str | None = ports.settings.daily_secret

    def subscribe(self, events: Events) -> None:
        events.subscribe(MatchEnded, self.ended)

    def today(self) -> str:
        return day_of(self.ports.clock.wall())

    @property
    def rules(self) -> Rules:
        return Rules.from_dict({"preset": "amsterdam", "deals": self.ports.settings.daily_deals})

    async def seed(self, day: str) -> int:
        """``day``'s seed: from the configured secret, or the one the database keeps."""
        if self._secret is None:
            self._secret = await self.store.secret("daily", secrets.token_hex(32))
        return daily_seed(self._secret, day)

    # -- playing -------------------------------------------------------------------------

    async def start(self, peer: Peer) -> None:
        """Today's attempt of ``peer``'s player: made, or resumed where it stands."""
        day, player = self.today(), peer.player_id
        attempt = await self._attempt(day, player)
        if attempt is None:
            fresh = DailyAttempt(day, player, new_id("r"), self.ports.clock.wall())
            attempt = await self.store.start_daily(fresh)  # the earlier one on a race
        if attempt.finished:
            raise p.ProtocolError(
                "daily_played", f"you have played the daily game of {day}: the next one "
                "starts at midnight UTC",
            )  # fmt: skip
        room = await self.room_store.room(attempt.room_id)
        if room is None:
            game = AgainstCpus(
                f"Daily game {day}", self.rules, MOVE_SECONDS, await self.seed(day), STRONG,
                DAILY, day, self.closes_at(day),
            )  # fmt: skip
            try:
                await self.rooms.play_against_cpus(peer, game, attempt.room_id)
                return
            except StoreError:  # another connection of the player made it meanwhile
                pass
        elif room.status not in LIVE:  # closed: its match never ended
            raise p.ProtocolError("daily_played", f"you have played the daily game of {day}")
        await self.rooms.enter(peer, attempt.room_id)

    async def ended(self, event: MatchEnded) -> None:
        """A daily game ended: its total and deal scores join the day's board (once), if its
        player made every own move."""
        if event.mode != DAILY or event.day is None or event.players[0] is None:
            return
        if event.players[0] in event.stood_in:  # (a log from before nobody stood in)
            log.warning("daily_not_ranked", day=event.day, room_id=event.room_id)
            return
        points = [score[0] for score in event.scores]
        recorded = await self.store.finish_daily(
            event.day, event.players[0], event.totals[0], points, self.ports.clock.wall()
        )
        if recorded:
            log.info("daily_finished", day=event.day, total=event.totals[0])

    async def _attempt(self, day: str, player: str) -> DailyAttempt | None:
        """``player``'s attempt of ``day``, recorded as finished if its match record says
        so (and its player made every own move): the record is stored first, then the
        ending is published (or, after a crash in between, when the room is next loaded),
        and only then does anyone hear of it."""
        attempt = await self.store.daily_attempt(day, player)
        if attempt is None or attempt.finished:
            return attempt
        if await self.room_store.match(attempt.room_id) is None:
            return attempt
        logged = [entries.decode(e.entry) for e in await self.room_store.log(attempt.room_id)]
        room = await asyncio.to_thread(Room.from_log, attempt.room_id, logged)
        if room.match is None or 0 in room.stood_in:
            return attempt
        match = room.match
        points = [deal.result.score[0] for deal in match.sheet]
        wall = self.ports.clock.wall()
        await self.store.finish_daily(day, player, match.totals[0], points, wall)
        return await self.store.daily_attempt(day, player)

    def closes_at(self, day: str) -> float:
        """When ``day``'s games close and its results are revealed (epoch seconds)."""
        return closes_at(day, self.ports.settings.daily_grace)

    def revealed(self, day: str) -> bool:
        """Whether ``day``'s games are closed and its results shown to everyone."""
        return self.ports.clock.wall() >= self.closes_at(day)

    def first_hidden(self) -> str:
        """The first day whose results are not revealed yet: yesterday until its games
        close, then today."""
        today = self.today()
        yesterday = previous(today)
        return today if self.revealed(yesterday) else yesterday

    def hidden(self, record: Mapping[str, Any]) -> bool:
        """Whether a match record may not be shown yet: a daily game's, before its day's
        results are revealed (it holds the day's seed)."""
        day = record.get("daily")
        return isinstance(day, str) and not self.revealed(day)

    # -- boards ----------------------------------------------------------------------------

    async def board(
        self, viewer: str | None, day: str | None, offset: int, limit: int
    ) -> dict[str, Any]:
        """A day's board as ``viewer`` (None: anonymous) may see it."""
        today = self.today()
        day = day or today
        if day > today:
            raise p.ProtocolError("no_such_day", f"{day} has not come yet (today is {today})")
        mine = None if viewer is None else await self._attempt(day, viewer)
        revealed = self.revealed(day)
        if not revealed and (mine is None or not mine.finished):
            raise p.ProtocolError("daily_not_finished", self._unrevealed(day, today))
        field = await self.store.daily_field(day)
        par = sum(points / players for _, players, points in field)
        rows = await self.store.daily_board(day, offset, limit)
        board: dict[str, Any] = {
            "date": day,
            "players": await self.store.daily_finished(day),
            "offset": offset,
            "field": [
                {"number": n, "players": players, "mean": round(points / players, 1)}
                for n, players, points in field
            ],
            "rows": await self._ranked(day, rows, offset, par),
            "you": None,
            "streak": None,
        }
        if mine is not None and mine.total is not None:
            board["you"] = await self._yours(mine, mine.total, par, field)
        if viewer is not None:
            board["streak"] = streak(await self.store.daily_days(viewer, STREAK_DAYS), today)
        if revealed:
            board["deals"] = await self._deals(day, len(field))
            best = await self.store.daily_board(day, 0, BEST_SHOWN)
            points = await self.store.daily_points(day, [row.player_id for row in best])
            board["best"] = [
                {"nickname": row.nickname, "total": row.total, "points": points[row.player_id]}
                for row in best
            ]
        return board

    async def _yours(
        self, mine: DailyAttempt, total: int, par: float, field: list[tuple[int, int, int]]
    ) -> dict[str, Any]:
        """The viewer's own finished game on the board: its rank, total and difference, and
        deal by deal its points and their difference from the field's mean."""
        day, player = mine.day, mine.player_id
        points = (await self.store.daily_points(day, [player])).get(player, [])
        means = {n: p / players for n, players, p in field}
        return {
            "rank": await self.store.daily_rank(day, total),
            "total": total,
            "difference": round(total - par, 1),
            "points": points,
            "differences": [round(p - means[n], 1) for n, p in enumerate(points)],
        }

    def _unrevealed(self, day: str, today: str) -> str:
        """Why ``day``'s board is refused: its results are not revealed yet."""
        if day == today:
            return "today's results show once you have finished today's game"
        return (
            f"the results of {day} show once you have finished its game, or to everyone "
            f"from {moment(self.closes_at(day))}, when its last games close"
        )

    async def _ranked(
        self, day: str, rows: list[DailyRow], offset: int, par: float
    ) -> list[dict[str, Any]]:
        """Rows with their ranks: equal totals share one, the next rank skips as many."""
        ranked: list[dict[str, Any]] = []
        rank = 0
        for index, row in enumerate(rows):
            if index == 0:
                rank = await self.store.daily_rank(day, row.total)
            elif row.total != rows[index - 1].total:
                rank = offset + index + 1  # every row above has a higher total
            ranked.append({
                "rank": rank, "player_id": row.player_id, "nickname": row.nickname,
                "total": row.total, "difference": round(row.total - par, 1),
            })  # fmt: skip
        return ranked

    async def _deals(self, day: str, deals: int) -> list[dict[str, Any]]:
        """A past day's deals as they were dealt (the first dealer is seat 0)."""
        seed, rules = await self.seed(day), self.rules
        shown = []
        for number in range(deals):
            deal = Deal.shuffled(rules, seed, number, number % 4)
            hands = [mask_str(hand) for hand in deal.dealt]
            shown.append({"number": number, "dealer": deal.dealer, "hands": hands})
        return shown

    async def alltime(self, offset: int, limit: int) -> dict[str, Any]:
        """The all-time board: the days before yesterday (a game started before midnight
        may end after it) closed into it first."""
        await self.store.close_daily_days(previous(self.today()))
        rows = await self.store.alltime_board(ALLTIME_MIN_DAYS, offset, limit)
        listed = [
            {"rank": offset + i + 1, "player_id": row.player_id, "nickname": row.nickname,
             "days": row.days, "average": round(row.average, 1)}
            for i, row in enumerate(rows)
        ]  # fmt: skip
        return {
            "min_days": ALLTIME_MIN_DAYS,
            "players": await self.store.alltime_count(ALLTIME_MIN_DAYS),
            "offset": offset,
            "rows": listed,
        }
