"""What the daily game answers: its client messages (``daily_start``, ``daily_board``,
``daily_alltime``) and its HTTP boards (``/leaderboard/daily``, ``.../alltime``), attached
by the composition root to the connection handler and the endpoints.

A day's board over HTTP needs the token of a player who finished that day's game
(``Authorization: Bearer <token>``, ``403`` otherwise) until the day's results are
revealed; then it is public."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..runtime.features import Answer, Handler, Query, Route
from ..wire import protocol as p
from ..wire.frames import frame
from .days import parse_day

if TYPE_CHECKING:
    from ..runtime.peer import Peer
    from .service import Daily

PUBLIC_BOARD = "public, max-age=60"  # a past day's late finishers still join its board


def handlers(daily: Daily) -> dict[type[Any], Handler]:
    """The daily game's client messages, by class."""

    async def start(peer: Peer, m: p.DailyStart) -> None:
        await daily.start(peer)

    async def board(peer: Peer, m: p.DailyBoard) -> dict[str, Any]:
        board = await daily.board(peer.player_id, m.date, m.offset, m.limit)
        return frame(p.DailyBoardOut, **board)

    async def alltime(peer: Peer, m: p.DailyAlltime) -> dict[str, Any]:
        return frame(p.DailyAlltimeOut, **await daily.alltime(m.offset, m.limit))

    return {p.DailyStart: start, p.DailyBoard: board, p.DailyAlltime: alltime}


def routes(daily: Daily) -> list[Route]:
    """The daily game's boards over HTTP."""

    async def board(q: Query) -> Answer:
        day = None
        if "date" in q.params:
            day = parse_day(q.params["date"])
            if day is None:
                raise p.ProtocolError("invalid_field", "date: a day as YYYY-MM-DD")
        viewer = await q.viewer()
        body = await daily.board(viewer, day, q.offset, q.limit)
        if not daily.revealed(body["date"]):
            cache = "private, no-store"
        else:  # (a viewer's own row and deals are the viewer's alone)
            cache = PUBLIC_BOARD if viewer is None else "private, max-age=60"
        return Answer(body, cache)

    async def alltime(q: Query) -> Answer:
        return Answer(await daily.alltime(q.offset, q.limit), PUBLIC_BOARD)

    return [
        Route("/leaderboard/daily", board, frozenset({"date"}), {"daily_not_finished": 403}),
        Route("/leaderboard/daily/alltime", alltime),
    ]
