"""The protocol reference keeps up with the code: the JSON Schema command, and
``client_protocol.md`` naming every message type, error code and close code."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from server.wire import protocol
from tests.server.protocol_codes import (
    ROOT,
    doc_text,
    documented_closes,
    documented_error_codes,
    raised_error_codes,
    server_closes,
)
from tests.server.test_error_codes import CLOSES, ERRORS

pytestmark = pytest.mark.server

SERVER_TYPES = {
    "evening",
    "club",
    "welcome",
    "error",
    "pong",
    "lobby",
    "lobby_room",
    "lobby_room_gone",
    "lobby_presence",
    "snapshot",
    "update",
    "chat",
    "hint",
    "record",
    "lobby_tournament",
    "lobby_tournament_gone",
    "tournament",
    "nickname",
    "review",
    "rematch",
    "daily_board",
    "daily_alltime",
    "profile",
    "rating_board",
    "sheet",
    "sheet_update",
    "route",
}

# Codes the server or the engine defines that the tables leave out, each with the reason the
# document gives (in §7 and under §11's table): a client never receives them in practice.
NOT_TABLED = {
    "game_over": "the engine's; a room refuses an action on an ended match first",
    "tournament_closed": "only in a race at shutdown",
    "bad_format": "scheduling only; the command line checks its arguments first",
    "bad_repeat": "scheduling only; the command line checks its arguments first",
}
# Closes that the WebSocket layer makes by itself: frames over ``max_size``, and pings
# unanswered within ``ping_timeout``.
WEBSOCKET_LAYER = {(1007, None), (1009, None), (1011, "keepalive ping timeout")}


def mentioned(text: str, name: str) -> bool:
    """``name`` appears in the document as inline code (`name`) or as a JSON string."""
    return f"`{name}`" in text or f'"{name}"' in text


def schema_types(side: dict) -> set[str]:
    """The ``type`` constants of one direction's discriminated union."""
    mapping = set(side["discriminator"]["mapping"])
    defs = side["$defs"]
    consts = {
        defs[ref["$ref"].rsplit("/", 1)[1]]["properties"]["type"]["const"] for ref in side["oneOf"]
    }
    assert mapping == consts
    return consts


def test_protocol_schema_command_lists_every_message_type() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "commands", "protocol-schema"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    schema = json.loads(done.stdout)
    assert schema["version"] == protocol.PROTOCOL_VERSION
    assert schema_types(schema["client"]) == set(protocol.CLIENT_TYPES)
    assert schema_types(schema["server"]) == SERVER_TYPES


def test_error_code_collection_finds_the_known_codes() -> None:
    """Guards the collector: refusals raised or sent without raising, split over lines,
    through a constant, class codes of instantiated classes; not log events or the default
    of an abstract base."""
    codes = raised_error_codes()
    expected = {
        "hello_first",  # ProtocolError
        "rate_limited",  # client.refused("rate_limited", ...), not raised
        "chat_rate_limited",  # raised over several lines
        "stale_version",  # RoomError
        "storage_unavailable",  # client.error(...), not raised
        "room_unavailable",  # Refused(UNAVAILABLE, ...), a module constant
        "frame_too_large",
        "not_your_turn",  # an engine class's ``code``
        "illegal_card",
        "room_closed",  # an actor's ``closed_code``
        "tournament_closed",
        "abandoned",  # TournamentError
    }
    assert expected <= codes, expected - codes
    assert not {"invalid", "closed", "store_append_failed"} & codes
    assert len(codes) >= 40


def test_doc_names_every_client_message_type() -> None:
    text = doc_text()
    missing = sorted(t for t in protocol.CLIENT_TYPES if not mentioned(text, t))
    assert not missing, f"client_protocol.md does not document client messages {missing}"


def test_doc_names_every_server_message_type() -> None:
    text = doc_text()
    missing = sorted(t for t in SERVER_TYPES if not mentioned(text, t))
    assert not missing, f"client_protocol.md does not document server messages {missing}"


def test_doc_names_every_error_code() -> None:
    text = doc_text()
    missing = sorted(code for code in raised_error_codes() if not mentioned(text, code))
    assert not missing, f"client_protocol.md does not document error codes {missing}"


def test_every_tabled_error_code_is_raised() -> None:
    stale = sorted(documented_error_codes() - raised_error_codes())
    assert not stale, f"client_protocol.md tables error codes nothing raises: {stale}"


def test_the_codes_left_out_of_the_tables_are_exactly_the_unsent_ones() -> None:
    tabled, raised, text = documented_error_codes(), raised_error_codes(), doc_text()
    assert not tabled & set(NOT_TABLED), "a code both tabled and said not to be sent"
    assert raised - tabled == set(NOT_TABLED), "tables and NOT_TABLED disagree with the code"
    assert all(mentioned(text, code) for code in NOT_TABLED)


def test_every_tabled_code_has_a_case_that_provokes_it() -> None:
    """``test_error_codes.py`` provokes each tabled code and close over a real websocket."""
    assert set(ERRORS) == documented_error_codes()
    assert set(CLOSES) == documented_closes()


def test_the_close_table_matches_the_server() -> None:
    """Every ``.close(CLOSE_..., "reason")`` in the server is a row of §8, and every row of
    §8 is one of them or the WebSocket layer's."""
    assert documented_closes() == server_closes() | WEBSOCKET_LAYER
