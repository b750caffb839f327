"""Messages between actors and between nodes: frozen, versioned types that read back
exactly as they were written, and refuse what they do not know."""

from __future__ import annotations

import dataclasses
import json

import pytest

from server.cluster import envelope as cm
from server.runtime import actor_messages as messages
from server.runtime.actor_messages import (
    EveningChanged,
    ReplaceWithCpu,
    SheetChanged,
    TableFinished,
    TableProgress,
    WireError,
    from_wire,
    to_wire,
)
from server.runtime.router import CLUB, EVENING, ROOM, TOURNAMENT, Ref

pytestmark = pytest.mark.server

ROOM_REF = Ref(ROOM, "r_1")
EVERY_MESSAGE = [
    TableProgress("r_1", (120, 40)),
    TableFinished("r_1", 1, (700, 1010)),
    ReplaceWithCpu("p_1"),
    SheetChanged("s_1"),
    EveningChanged("v_1"),
    cm.Forward("n1", "c_1", "p_1", "Ann", ROOM_REF, '{"type":"act","room_id":"r_1"}', 41),
    cm.Forward("n1", "c_1", "p_1", "Ann", ROOM_REF, '{"type":"watch","room_id":"r_1"}', None),
    cm.Rejoin("n1", "c_1", "p_1", "Ann", Ref(TOURNAMENT, "t_1"), 17),
    cm.Batch(
        (
            cm.Frame("c_1", '{"type":"pong"}'),
            cm.Update("c_1", "r_1", 5, '{"type":"update"}', False),
            cm.Update("c_1", "r_1", 6, '{"type":"snapshot"}', True),
            cm.Following("c_1", "r_1", 6),
            cm.Left("c_1", "r_1"),
            cm.Close("c_1", 1008, "too many refused messages"),
            cm.Outcome("c_1", None, "", None, None),
            cm.Outcome("c_1", "seat_taken", "seat 2 is taken", "ref-1", None),
            cm.Outcome("c_1", "storage_unavailable", "try again", None, 1.0),
        )
    ),
    cm.Tell(Ref(TOURNAMENT, "t_1"), TableFinished("r_1", 0, (1001, 12))),
    cm.Tell(ROOM_REF, ReplaceWithCpu("p_2")),
    cm.Tell(Ref(EVENING, "v_1"), SheetChanged("s_1")),
    cm.Tell(Ref(CLUB, "k_1"), EveningChanged("v_1")),
    cm.Owner("r_1", "n2"),
    cm.Released((ROOM_REF, Ref(TOURNAMENT, "t_1"))),
    cm.Gone("n1", "c_1"),
    cm.RoomListed({"id": "r_1", "status": "open", "seats": [{"player_id": None}]}),
    cm.TournamentListed({"id": "t_1", "status": "running", "rounds": [[{"totals": [1, 2]}]]}),
    cm.ToPlayers("n1", ("p_1", "p_2"), '{"type":"tournament"}'),
]


@pytest.mark.parametrize("msg", EVERY_MESSAGE, ids=lambda m: type(m).__name__)
def test_a_message_reads_back_as_written(msg: object) -> None:
    assert from_wire(json.loads(json.dumps(to_wire(msg)))) == msg
    assert cm.decode(cm.encode(msg)) == msg


def test_every_registered_type_is_covered_and_frozen() -> None:
    covered = {type(m) for m in EVERY_MESSAGE}
    covered |= {type(i) for m in EVERY_MESSAGE if isinstance(m, cm.Batch) for i in m.items}
    covered |= {Ref}
    registered = set(messages.MESSAGES.types.values())
    assert registered == covered, registered ^ covered
    for kind in registered:
        assert dataclasses.is_dataclass(kind) and kind.__dataclass_params__.frozen


def test_no_method_name_travels() -> None:
    """Nodes send data, never the name of something to call on the other side."""
    for kind in messages.MESSAGES.types.values():
        names = {f.name for f in dataclasses.fields(kind)}
        assert not names & {"op", "method", "call", "fn"}, kind


def test_another_version_is_refused() -> None:
    data = json.loads(cm.encode(cm.Gone("n1", "c_1")))
    data["v"] = messages.WIRE_VERSION + 1
    with pytest.raises(WireError, match="version"):
        cm.decode(json.dumps(data))


@pytest.mark.parametrize(
    "data",
    [
        {"@": "launch_missiles"},
        {"@": "gone", "node": "n1"},
        {"@": "gone", "node": "n1", "conn": "c_1", "op": "detach"},
        {"node": "n1", "conn": "c_1"},
        ["gone", "n1", "c_1"],
    ],
    ids=["unknown tag", "a field missing", "a field unknown", "no tag", "not an object"],
)
def test_what_is_not_a_message_is_refused(data: object) -> None:
    with pytest.raises(WireError):
        from_wire(data)


def test_a_tag_is_registered_once() -> None:
    with pytest.raises(ValueError, match="taken"):
        messages.message("gone")(dataclasses.make_dataclass("Again", [], frozen=True))
    with pytest.raises(TypeError, match="frozen"):
        messages.message("mutable")(dataclasses.make_dataclass("Mutable", []))
