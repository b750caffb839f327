"""Domain events: what the rooms and tournaments of this node publish once it is durable.

They are the extension point.  The lobby, tournaments, the daily game, and profiles and
ratings subscribe to the types they care about; no actor knows its subscribers, and no
subscriber reaches into an actor.  A finished room may be replayed after a restart or a
takeover and publish its ending again, so every subscriber is idempotent per match.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from ..core.logs import log

E = TypeVar("E")
Handler = Callable[[Any], Awaitable[None] | None]


@dataclass(frozen=True, slots=True)
class RoomChanged:
    """A room's summary changed (a seat, readiness, away, its status): the lobby's view."""

    summary: dict[str, Any]


@dataclass(frozen=True, slots=True)
class DealEnded:
    room_id: str
    tournament: str | None
    number: int
    totals: tuple[int, int]


@dataclass(frozen=True, slots=True)
class MatchEnded:
    """A match is over and its record is stored (``/matches/<room_id>``)."""

    room_id: str
    tournament: str | None
    winner: int
    totals: tuple[int, int]
    record: dict[str, Any]
    players: tuple[str | None, ...] = (None, None, None, None)  # by seat; None a CPU
    mode: str = "casual"  # the room's kind of game (server.table.entries)
    day: str | None = None  # a daily game's day
    scores: tuple[tuple[int, int], ...] = ()  # each deal's points, by team
    rated: bool = False  # a rated room whose four seats were humans at the start
    starters: tuple[str | None, ...] = (None, None, None, None)  # by seat at the start
    abandoned: frozenset[str] = frozenset()  # starters who did not finish it: a CPU took
    # their seat, or the server was playing it (away) when the match ended
    stood_in: frozenset[str] = frozenset()  # starters some of whose moves the server made
    # (their time ran out, or they were away)
    left_at: tuple[int | None, ...] = (None, None, None, None)  # by seat: the deals done
    # when its starter left it to a CPU (None: it stayed)


@dataclass(frozen=True, slots=True)
class TournamentEnded:
    """A tournament finished: its players' places (CPUs and who left are not among them).
    Published again if its node stopped before its status was stored."""

    tournament_id: str
    places: tuple[tuple[str, int, str | None], ...]  # (player, place, prize)


@dataclass(frozen=True, slots=True)
class TournamentChanged:
    """A tournament's summary changed; ``players`` are told of it wherever they are."""

    summary: dict[str, Any]
    players: frozenset[str]


class Events:
    """Subscribers by event type; :meth:`publish` runs them in the order they subscribed."""

    def __init__(self) -> None:
        self._handlers: dict[type, list[Handler]] = defaultdict(list)

    def subscribe(self, kind: type[E], handler: Callable[[E], Awaitable[None] | None]) -> None:
        self._handlers[kind].append(handler)

    async def publish(self, event: object) -> None:
        """Run every subscriber of ``event``'s type.  A subscriber's failure is logged and
        does not stop the others, nor undo what is already durable."""
        for handler in self._handlers.get(type(event), ()):
            try:
                result = handler(event)
                if result is not None:
                    await result
            except Exception:
                log.exception("subscriber_failed", kind=type(event).__name__)
