"""The protocol reference keeps up with the code: the JSON Schema command, and
``client_protocol.md`` naming every message type, error code and close code."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from server import protocol

pytestmark = pytest.mark.server

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "client_protocol.md"

SERVER_TYPES = {
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
    "record",
    "lobby_tournament",
    "lobby_tournament_gone",
    "tournament",
}

# ``ProtocolError("code", ...)`` / ``RoomError("code", ...)``, also split over lines, and
# the refusals session.py sends without raising (``_refuse(client, "code", ...)``).
RAISED = re.compile(r'\b(?:ProtocolError|RoomError|TournamentError|Refused)\(\s*"([a-z_]+)"')
REFUSED = re.compile(r'\b_refuse\(\s*\w+,\s*"([a-z_]+)"')
ENGINE_CODE = re.compile(r'^\s*code = "([a-z_]+)"', re.MULTILINE)
CLOSE_CODE = re.compile(r"^CLOSE_\w+ = (\d{4})", re.MULTILINE)


def error_codes() -> set[str]:
    codes: set[str] = set()
    for path in sorted((ROOT / "server").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        codes |= set(RAISED.findall(text)) | set(REFUSED.findall(text))
    codes |= set(ENGINE_CODE.findall((ROOT / "engine" / "errors.py").read_text("utf-8")))
    return codes


def doc_text() -> str:
    assert DOC.is_file(), f"{DOC} is missing"
    return DOC.read_text(encoding="utf-8")


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
        [sys.executable, "-m", "server.cli", "protocol-schema"],
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
    """Guards the regexes: multi-line raises and the non-raising refusals are found."""
    codes = error_codes()
    expected = {
        "hello_first",
        "rate_limited",
        "chat_rate_limited",
        "stale_version",
        "storage_unavailable",
        "frame_too_large",
        "not_your_turn",
        "illegal_card",
    }
    assert expected <= codes, expected - codes
    assert len(codes) >= 30


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
    missing = sorted(code for code in error_codes() if not mentioned(text, code))
    assert not missing, f"client_protocol.md does not document error codes {missing}"


def test_doc_names_every_close_code() -> None:
    text = doc_text()
    source = (ROOT / "server" / "connection.py").read_text(encoding="utf-8")
    codes = set(CLOSE_CODE.findall(source)) | {"1009"}  # 1009: websockets' size limit
    missing = sorted(code for code in codes if f"`{code}`" not in text)
    assert not missing, f"client_protocol.md does not document close codes {missing}"
