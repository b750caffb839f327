"""Every frame the server sends is built from its model (server/wire/frames.py), the
models the published JSON Schema is generated from; with checking on, as in every test
that runs a server, a frame that does not match its model is refused where it is built."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest
from pydantic import ValidationError

from server.wire import protocol as p
from server.wire.frames import TAGS, check_frames, frame

SERVER = Path(__file__).resolve().parents[2] / "server"


@pytest.fixture
def checking() -> Iterator[None]:
    check_frames(True)
    yield
    check_frames(True)  # the suite's servers check too


def test_a_frame_takes_its_type_from_its_model(checking: None) -> None:
    assert frame(p.Pong) == {"type": "pong"}
    said = frame(p.ChatOut, room_id="r_1", player_id="p_1", nickname="ann", text="hi", at=1.5)
    assert said == {"type": "chat", "room_id": "r_1", "player_id": "p_1", "nickname": "ann",
                    "text": "hi", "at": 1.5}  # fmt: skip
    assert set(TAGS) == set(p.SERVER_MODELS)
    assert len(set(TAGS.values())) == len(TAGS)  # one model a type


@pytest.mark.parametrize(
    "fields",
    [
        {"room_id": "r_1", "player_id": "p_1", "nickname": "ann", "text": "hi"},  # no "at"
        {"room_id": "r_1", "player_id": "p_1", "nickname": "ann", "text": "hi", "at": 1.5,
         "seat": 0},  # a field the schema does not have
        {"room_id": 7, "player_id": "p_1", "nickname": "ann", "text": "hi", "at": 1.5},
        {"room_id": "r_1", "player_id": "p_1", "nickname": "ann", "text": "hi", "at": "now"},
    ],
)  # fmt: skip
def test_with_checking_a_frame_unlike_its_model_is_refused(
    checking: None, fields: dict[str, object]
) -> None:
    with pytest.raises(ValidationError):
        frame(p.ChatOut, **fields)


def test_without_checking_a_frame_is_built_as_it_is_given() -> None:
    check_frames(False)
    try:
        assert frame(p.LobbyPresence, online="many") == {"type": "lobby_presence", "online": "many"}
    finally:
        check_frames(True)


def _frame_literals(source: str) -> Iterator[int]:
    """The lines of dict literals in ``source`` that give a "type" a text: frames not
    built from a model."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=True):
                if (
                    isinstance(key, ast.Constant) and key.value == "type"
                    and isinstance(value, ast.Constant) and isinstance(value.value, str)
                ):  # fmt: skip
                    yield node.lineno


def test_no_frame_is_written_as_a_dict_outside_the_protocol() -> None:
    found = [
        f"{path.relative_to(SERVER.parent)}:{line}"
        for path in sorted(SERVER.rglob("*.py"))
        if path.parent.name != "wire"
        for line in _frame_literals(path.read_text())
    ]
    assert found == []


def test_the_look_finds_a_frame_written_as_a_dict() -> None:
    sender = 'def hello(client):\n    x = 1\n    client.send({"type": "pong", "ref": None})\n'
    assert list(_frame_literals(sender)) == [3]
    assert list(_frame_literals('event = {"kind": "pong", "type": kind}')) == []
