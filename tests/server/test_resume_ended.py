"""A room that ended while a player was away: its ``resume`` gets the room as it ended (a
snapshot), never ``room_closed``; a private one only for its players."""

from __future__ import annotations

import pytest

from tests.server.conftest import Harness, play_until, sync

pytestmark = pytest.mark.server


def cards_left(players, room_id: str) -> int:
    return sum(len(p.tables[room_id].hand) for p in players)


@pytest.mark.parametrize("private", [False, True])
async def test_resuming_a_match_that_ended_meanwhile(harness: Harness, private: bool) -> None:
    room_id, players = await harness.table(
        "ann", "bob", "cid", "dee", rules={"deals": 1}, private=private
    )
    await play_until(players, room_id, lambda: cards_left(players, room_id) == 1)
    for player in players:
        await sync(player)
    (last,) = [p for p in players if p.tables[room_id].hand]
    gone = next(p for p in players if p is not last)
    since = gone.tables[room_id].version
    await gone.close()
    await last.send({"type": "act", "room_id": room_id, "action": last.tables[room_id].hand[0]})
    await last.next("update", room_id=room_id, kind="act")
    assert last.tables[room_id].over

    again = await harness.client(token=gone.token)
    resume = {"type": "resume", "room_id": room_id, "version": since}
    ended = await again.request(resume, "snapshot")
    assert ended["type"] == "snapshot", ended
    assert ended["room"]["status"] == "finished" and ended["version"] == since + 1
    assert ended["seat"] == gone.tables[room_id].seat
    assert ended["view"]["winner"] in (0, 1) and ended["view"]["hand"] == []
    # it follows the room no more: nothing more comes, and resuming again says the same
    again_ended = await again.request(resume, "snapshot")
    assert again_ended["version"] == ended["version"]

    stranger = await harness.client("eve")
    asked = {"type": "resume", "room_id": room_id, "version": 0}
    answer = await stranger.request(asked, "snapshot")  # or an error
    if private:
        assert answer["code"] == "not_a_member", answer
    else:
        assert answer["type"] == "snapshot" and answer["seat"] is None, answer
