"""Play and the lobby across nodes, with every node up."""

from __future__ import annotations

from typing import Any

import pytest

from tests.multinode.audit import (
    check_finished_match,
    check_table_end,
    hidden_cards,
    stored_room,
)
from tests.multinode.conftest import Cluster
from tests.multinode.players import LobbyView, seat_table

pytestmark = pytest.mark.multinode


async def test_players_on_two_nodes_finish_a_match_and_a_spectator_sees_it_all(
    cluster: Cluster,
) -> None:
    nodes = await cluster.start("n1", "n2")
    table = await seat_table(cluster, nodes, {"deals": 2}, spectator=True)
    room_id, spectator = table.room_id, table.spectator
    assert spectator is not None
    owner = await cluster.owner(room_id)
    assert spectator.node is not owner and {p.node for p in table.players} == set(nodes)

    await cluster.until(table.over, 15, "the match to end")

    check_table_end(table)
    for bot in table.bots:
        assert not bot.closes, f"{bot.nickname} lost its connection: {bot.closes}"

    # the spectator: one snapshot (seat null, no view yet), then every update, never a card
    frames = [f for f in spectator.seen(room_id) if f["type"] in ("snapshot", "update")]
    snapshots = [f for f in frames if f["type"] == "snapshot"]
    assert len(snapshots) == 1 and snapshots[0]["seat"] is None, snapshots
    versions = [f["version"] for f in frames]
    assert versions == list(range(versions[0], versions[-1] + 1))
    for frame in frames:
        assert not hidden_cards(frame), f"the spectator saw cards: {hidden_cards(frame)}"

    # everyone saw the same updates (their own hand apart)
    def public(frame: dict[str, Any]) -> tuple:
        events = [{k: v for k, v in e.items() if k != "hand"} for e in frame["events"]]
        return frame["kind"], frame.get("seat"), frame.get("by"), repr(events)

    spectated = {f["version"]: public(f) for f in frames if f["type"] == "update"}
    for player in table.players:
        for frame in player.seen(room_id):
            if frame["type"] == "update" and frame["version"] in spectated:
                assert public(frame) == spectated[frame["version"]], (player.nickname, frame)

    stored = await stored_room(cluster.schema, room_id)
    assert stored.version == versions[-1]
    assert check_finished_match(stored, table.bots) > 60  # two deals: 64 cards and the trumps
    # the record is served by a node that did not own the room
    reader = await cluster.bot(spectator.node, "reader")
    reply = await reader.request({"type": "get_record", "match_id": room_id}, "record")
    assert reply["type"] == "record" and reply["record"] == stored.record, reply


def _same_everywhere(views: list[LobbyView], ids: set[str]) -> bool:
    lists = [{i: view.rooms.get(i) for i in ids} for view in views]
    return all(rooms == lists[0] for rooms in lists) and all(lists[0].values())


async def test_the_lobby_is_one_list_on_three_nodes(cluster: Cluster) -> None:
    nodes = await cluster.start("n1", "n2", "n3")
    views = [await cluster.lobby(node, f"watch-{node.node_id}") for node in nodes]
    creators = [await cluster.bot(node, f"host-{node.node_id}") for node in nodes]
    rooms = []
    for index, host in enumerate(creators):
        created = await host.request(
            {"type": "create_room", "name": f"room {index}", "rules": {"deals": 1}}, "snapshot"
        )
        assert created["type"] == "snapshot", created
        rooms.append(created["room_id"])
    hidden = await creators[1].request({"type": "create_room", "private": True}, "snapshot")
    assert hidden["type"] == "snapshot", hidden
    ids = set(rooms)

    await cluster.until(
        lambda: _same_everywhere(views, ids), 5, "every lobby to list the three rooms alike"
    )
    fresh = [await view.subscribe() for view in views]
    assert all(listing == fresh[0] for listing in fresh), fresh
    assert set(fresh[0]) == ids, "exactly the public rooms are listed"
    assert all(fresh[0][rid]["status"] == "open" for rid in ids)

    # a start on n1, a close on n2, a seat taken across nodes at n3's room
    started, closed, seated = rooms
    for seat in (1, 2, 3):
        await creators[0].client.send({"type": "add_cpu", "room_id": started, "seat": seat})
    await creators[0].client.send({"type": "ready", "room_id": started})
    left = await creators[1].request({"type": "leave_room", "room_id": closed}, "update")
    assert left["type"] == "update", left
    guest = await cluster.bot(nodes[0], "guest")
    taken = await guest.request({"type": "take_seat", "room_id": seated, "seat": 2}, "snapshot")
    assert taken["type"] == "snapshot", taken

    def changed() -> bool:
        for view in views:
            rooms_now = view.rooms
            if closed in rooms_now or started not in rooms_now or seated not in rooms_now:
                return False
            if rooms_now[started]["status"] != "playing":
                return False
            if rooms_now[seated]["seats"][2]["player_id"] != guest.player_id:
                return False
        return _same_everywhere(views, {started, seated})

    await cluster.until(changed, 5, "the start, the close and the seat to reach every lobby")
    fresh = [await view.subscribe() for view in views]
    assert all(listing == fresh[0] for listing in fresh), fresh
    assert set(fresh[0]) == {started, seated}
    assert fresh[0][started]["status"] == "playing"
