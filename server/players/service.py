"""Profiles and ratings, on the domain events: a finished match is recorded once.

Every finished match with a human starter (casual, tournament, solo and daily alike)
counts in its human starters' profiles: matches played and won, deals, points, deals as
chooser and how many of them went nat, pits, roem, and a line of their match history.  A
rated match (a rated room whose four seats were humans at the start: public rooms by
default, tournament tables) also updates the four players' ratings
(:mod:`server.players.ratings`); a starter who abandoned it (a CPU took the seat, or
the server was playing it, away, when it ended) scores a loss.  All of a
match's writes are one transaction keyed by the match, so a match's ending published
again (a restart, a takeover, another node) changes nothing.  Tournament places are
recorded once per tournament and player.

A match of a day (a daily game's, ``MatchLine.day``) is its player's alone until that day's
results are revealed (the :class:`~server.runtime.features.Reveals` the server is made
with): anyone else sees its history line without its score, won or abandoned, and the
counters but ``matches`` without it (the store keeps each such game's part of them,
``player_daily``): no difference of two profiles gives it away.
"""

from __future__ import annotations

import asyncio
from dataclasses import fields, replace
from typing import TYPE_CHECKING, Any

from engine import Match

from ..core.logs import log
from ..runtime.domain_events import Events, MatchEnded, TournamentEnded
from ..store.players import (
    BOARD_MIN_MATCHES,
    Belief,
    MatchResult,
    NewRating,
    PlayerResult,
    PlayerStats,
    Rater,
    RatingRow,
)
from ..wire import protocol as p
from .ratings import MU, SIGMA, conservative, rate_match
from .stats import seat_stats

if TYPE_CHECKING:
    from ..runtime.features import Reveals
    from ..runtime.ports import Ports
    from ..store.players import MatchLine, PlayerStore, Profile

RECENT = 20  # ratings and tournament places a profile shows, the latest first


def match_result(e: MatchEnded, at: float) -> MatchResult | None:
    """What a match's human starters' profiles count of it (None without any): their parts
    counted from its record, replayed (milliseconds: run it off the event loop)."""
    if all(player is None for player in e.starters):
        return None
    match = Match.from_record(e.record)
    players = []
    for seat, player in enumerate(e.starters):
        if player is None:
            continue
        team = seat & 1
        left = player in e.abandoned  # a loss
        part = seat_stats(match.rules, match.sheet[: e.left_at[seat]], seat)
        players.append(
            PlayerResult(
                player,
                seat,
                e.winner == team and not left,
                left,
                (e.totals[team], e.totals[1 - team]),
                part.deals,
                part.points,
                part.chooser,
                part.nat,
                part.pits,
                part.roem,
            )
        )
    rated = e.rated and len(players) == 4
    return MatchResult(e.room_id, at, e.mode, e.tournament, e.day, rated, tuple(players))


def rater(e: MatchEnded) -> Rater:
    """The rating update of a rated match: from the starters' beliefs (new players at the
    model's default) to their new ratings."""
    starters = [s for s in e.starters if s is not None]

    def rate(current: dict[str, Belief]) -> dict[str, NewRating]:
        before = {s: current.get(s, (MU, SIGMA)) for s in starters}
        after = rate_match(starters, e.winner, e.abandoned, before)
        return {
            s: NewRating(
                mu,
                sigma,
                conservative(mu, sigma),
                conservative(mu, sigma) - conservative(*before[s]),
            )
            for s, (mu, sigma) in after.items()
        }

    return rate


class Players:
    def __init__(self, ports: Ports, store: PlayerStore, reveals: Reveals) -> None:
        self.ports = ports
        self.store = store
        self.reveals = reveals  # the days whose results are not shown yet

    def subscribe(self, events: Events) -> None:
        events.subscribe(MatchEnded, self.ended)
        events.subscribe(TournamentEnded, self.placed)

    async def ended(self, e: MatchEnded) -> None:
        """A match ended (maybe again): recorded for profiles and ratings, once."""
        result = await asyncio.to_thread(match_result, e, self.ports.clock.wall())
        if result is None:
            return
        recorded = await self.store.record_match(result, rater(e) if result.rated else None)
        if recorded:
            log.info("match_recorded", room_id=e.room_id, rated=result.rated)

    async def placed(self, e: TournamentEnded) -> None:
        if e.places:
            await self.store.record_places(e.tournament_id, self.ports.clock.wall(), list(e.places))

    # -- reading ---------------------------------------------------------------------------

    async def board(self, viewer: str | None, offset: int, limit: int) -> dict[str, Any]:
        """The rating board: players with enough rated matches by conservative rating;
        ``you`` is the viewer's own row (None for an anonymous viewer, or no rating)."""
        count, rows = await self.store.rating_board(offset, limit)
        you = None
        if viewer is not None and (mine := await self.store.rating_of(viewer)) is not None:
            you = _rating(*mine)
        return {
            "min_matches": BOARD_MIN_MATCHES,
            "players": count,
            "offset": offset,
            "rows": [_rating(row, offset + i + 1) for i, row in enumerate(rows)],
            "you": you,
        }

    async def profile(
        self, player_id: str, offset: int, limit: int, viewer: str | None = None
    ) -> dict[str, Any]:
        """A player's profile, with ``limit`` matches of their history from ``offset``, as
        ``viewer`` (None: anonymous) may see it: a match of a day is its player's alone
        until that day's results are revealed."""
        own = viewer == player_id
        hidden_from = None if own else self.reveals.first_hidden()
        found = await self.store.profile(player_id, offset, limit, RECENT, hidden_from)
        if found is None:
            raise p.ProtocolError("no_such_player", f"no player {player_id!r}")
        return self._shown(found, offset, own)

    def _shown(self, f: Profile, offset: int, own: bool) -> dict[str, Any]:
        # (others see its line, so ``matches`` counts it: the page count of the history)
        s = f.stats if own else _without(f.stats, replace(f.unrevealed, matches=0))
        return {
            "player_id": f.player_id,
            "nickname": f.nickname,
            "matches": s.matches,
            "wins": s.wins,
            "deals": s.deals,
            "points": s.points,
            "points_per_deal": round(s.points / s.deals, 1) if s.deals else None,
            "chooser_deals": s.chooser,
            "nat": s.nat,
            "pits": s.pits,
            "roem": s.roem,
            "rating": None if f.rating is None else _rating(f.rating, f.rank),
            "rating_history": [
                {
                    "match_id": r.match_id,
                    "at": r.at,
                    "mu": round(r.mu, 2),
                    "sigma": round(r.sigma, 2),
                    "rating": round(r.conservative, 2),
                }
                for r in f.ratings
            ],
            "tournaments": {
                "played": sum(f.place_counts.values()),
                "places": {str(place): n for place, n in sorted(f.place_counts.items())},
                "recent": [
                    {
                        "tournament_id": r.tournament_id,
                        "place": r.place,
                        "prize": r.prize,
                        "at": r.at,
                    }
                    for r in f.places
                ],
            },
            "offset": offset,
            "history": [self._line(line, own) for line in f.matches],
        }

    def _line(self, m: MatchLine, own: bool) -> dict[str, Any]:
        hidden = m.day is not None and not self.reveals.revealed(m.day)
        line = {
            "match_id": m.match_id,
            "at": m.at,
            "mode": m.mode,
            "tournament": m.tournament,
            "day": m.day,
            "rated": m.rated,
            "seat": m.seat,
            "won": m.won,
            "abandoned": m.left,
            "score": list(m.score),
            "rating_change": None if m.rating_change is None else round(m.rating_change, 2),
            "record": None if hidden else f"/matches/{m.match_id}",
        }
        if hidden and not own:  # its result is its player's alone until the day is revealed
            line["won"] = line["abandoned"] = line["score"] = None
        return line


def _without(stats: PlayerStats, part: PlayerStats) -> PlayerStats:
    """``stats`` less ``part`` (counter by counter)."""
    less = {f.name: getattr(stats, f.name) - getattr(part, f.name) for f in fields(stats)}
    return replace(stats, **less)


def _rating(row: RatingRow, rank: int | None) -> dict[str, Any]:
    return {
        "rank": rank,
        "player_id": row.player_id,
        "nickname": row.nickname,
        "rating": round(row.conservative, 2),
        "mu": round(row.mu, 2),
        "sigma": round(row.sigma, 2),
        "matches": row.matches,
    }
