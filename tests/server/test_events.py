"""Domain events: subscribers by type, in the order they subscribed, each one's failure
kept from the others."""

from __future__ import annotations

import pytest

from server.runtime.domain_events import DealEnded, Events, MatchEnded, RoomChanged

pytestmark = pytest.mark.server


async def test_subscribers_hear_their_types_in_order_and_a_failure_stays_theirs() -> None:
    events, heard = Events(), []

    async def tournament(e: DealEnded) -> None:
        heard.append(("tournament", e.number))

    def broken(e: DealEnded) -> None:
        raise RuntimeError("a subscriber's bug")

    events.subscribe(DealEnded, lambda e: heard.append(("first", e.number)))
    events.subscribe(DealEnded, broken)
    events.subscribe(DealEnded, tournament)
    events.subscribe(RoomChanged, lambda e: heard.append(("lobby", e.summary["id"])))

    await events.publish(DealEnded("r1", "t1", 3, (100, 62)))
    await events.publish(RoomChanged({"id": "r1"}))
    await events.publish(MatchEnded("r1", None, 0, (1501, 900), {}))  # nobody listens
    assert heard == [("first", 3), ("tournament", 3), ("lobby", "r1")]
