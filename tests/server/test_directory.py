"""The lobby directory's answer to "where do I sit?" (every welcome asks it): kept per
player as rooms change, and always what a look through every live room would say."""

from __future__ import annotations

import random
from typing import Any

from server.lobby.directory import Directory
from server.table.room import CLOSED, FINISHED, OPEN, PLAYING


def summary(room_id: str, status: str, *players: str | None) -> dict[str, Any]:
    seats = [*players, *[None] * (4 - len(players))]
    return {
        "id": room_id, "status": status, "private": True, "tournament": None,
        "seats": [{"player_id": p} for p in seats],
    }  # fmt: skip


def by_scan(directory: Directory, player: str) -> list[dict[str, Any]]:
    """What a look through every live room finds (the answer before the index)."""
    return [
        {"room_id": room_id, "seat": seat, "status": s["status"]}
        for room_id, s in directory.live.items()
        for seat, held in enumerate(s["seats"])
        if held["player_id"] == player
    ]


def test_a_player_is_found_where_it_sits_and_nowhere_else() -> None:
    d = Directory(lambda: 0.0)
    d.update(summary("r1", OPEN, "ann", None, "bob"))
    d.update(summary("r2", PLAYING, "bob", "cy"))
    assert d.seated("ann") == [{"room_id": "r1", "seat": 0, "status": OPEN}]
    assert d.seated("bob") == [
        {"room_id": "r1", "seat": 2, "status": OPEN},
        {"room_id": "r2", "seat": 0, "status": PLAYING},
    ]
    d.update(summary("r1", OPEN, None, "ann", "bob"))  # ann moves to seat 1
    assert d.seated("ann") == [{"room_id": "r1", "seat": 1, "status": OPEN}]
    d.update(summary("r1", OPEN, None, None, "bob"))  # ann leaves
    assert d.seated("ann") == []
    d.update(summary("r2", FINISHED, "bob", "cy"))  # r2 ends: nobody sits there now
    assert d.seated("cy") == []
    assert d.seated("bob") == [{"room_id": "r1", "seat": 2, "status": OPEN}]
    assert d.rooms_of == {"bob": {"r1": None}}  # nothing kept for who sits nowhere


def key(seat: dict[str, Any]) -> tuple[str, int]:
    return seat["room_id"], seat["seat"]


def test_the_index_agrees_with_a_scan_through_every_change() -> None:
    rng = random.Random(16)
    players = [f"p{i}" for i in range(12)]
    d = Directory(lambda: 0.0)
    for _ in range(3000):
        room = f"r{rng.randrange(8)}"
        status = rng.choice([OPEN, OPEN, PLAYING, PLAYING, FINISHED, CLOSED])
        seats = [rng.choice([*players, None, None]) for _ in range(4)]
        d.update(summary(room, status, *seats))
        for player in players:
            assert sorted(d.seated(player), key=key) == sorted(by_scan(d, player), key=key)
    assert set(d.rooms_of) == {
        s["player_id"] for r in d.live.values() for s in r["seats"] if s["player_id"]
    }
