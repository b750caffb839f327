"""The ``ref`` of a client message, as §1 of ``client_protocol.md`` says: echoed in the
replies it names, never in the frames it names as not echoing it, and a command that
succeeds without a reply of its own sends nothing at all (a ping after it confirms it).

The frame types are read from the document's ``ref`` paragraph: a type named there without
a case here fails, as does a case for a type it does not name.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from client import GameClient
from tests.server.conftest import Harness, play_until, running_harness, sync
from tests.server.protocol_codes import ROOT

pytestmark = pytest.mark.server


def ref_paragraph() -> str:
    text = (ROOT / "client_protocol.md").read_text()
    start = text.index("- **`ref`**")
    return " ".join(text[start : text.index("\n- **", start + 1)].split())


def named(after: str, before: str) -> set[str]:
    """The backticked names between two phrases of the paragraph."""
    paragraph = ref_paragraph()
    part = paragraph[paragraph.index(after) : paragraph.index(before)]
    return set(re.findall(r"`([a-z_]+)`", part))


def echoing() -> set[str]:
    return named("It is echoed in", "It is *not* echoed")


def not_echoing() -> set[str]:
    return named("It is *not* echoed", "A command that succeeds without")


def silent() -> set[str]:
    return named("A command that succeeds without", "so it can be confirmed")


class Scene:
    """A finished solo game of ann's, a sheet, a tournament, and bob beside her."""

    def __init__(self, h: Harness) -> None:
        self.h = h
        self.ann: GameClient
        self.bob: GameClient
        self.room_id = ""  # ann's finished solo game
        self.open_id = ""  # an open room: ann seated (ready), bob watching
        self.code = ""  # a sheet's edit code
        self.sheet_version = 0
        self.tid = ""

    async def build(self) -> Scene:
        h = self.h
        self.ann, self.bob = await h.client("ann"), await h.client("bob")
        solo = await self.ann.request(
            {"type": "new_game", "level": "random", "rules": {"deals": 1}}, "snapshot"
        )
        self.room_id = solo["room_id"]
        await play_until([self.ann], self.room_id, lambda: self.ann.tables[self.room_id].over)
        created = await self.ann.request({"type": "create_room"}, "snapshot")
        self.open_id = created["room_id"]
        await self.ann.send({"type": "ready", "room_id": self.open_id})
        await self.bob.request({"type": "watch", "room_id": self.open_id}, "snapshot")
        sheet = await self.ann.request({"type": "sheet_create", "teams": ["Wij", "Zij"]}, "sheet")
        self.code, self.sheet_version = sheet["codes"]["edit"], sheet["version"]
        lobby = await self.bob.request({"type": "lobby_subscribe"}, "lobby")
        self.tid = lobby["tournaments"][0]["id"]
        await self.bob.send({"type": "sheet_open", "code": self.code})
        await sync(self.ann)
        await sync(self.bob)
        return self


Case = Callable[[Scene], Awaitable[tuple[GameClient, dict[str, Any]]]]
REPLIES: dict[str, Case] = {}  # reply type -> the message that gets it (and its sender)


def replies(kind: str) -> Callable[[Case], Case]:
    def register(case: Case) -> Case:
        REPLIES[kind] = case
        return case

    return register


@replies("welcome")
async def _welcome(s: Scene) -> tuple[GameClient, dict[str, Any]]:
    return await s.h.client(), {"type": "hello", "nickname": "cas"}


@replies("pong")
async def _pong(s: Scene) -> tuple[GameClient, dict[str, Any]]:
    return s.ann, {"type": "ping"}


@replies("error")
async def _error(s: Scene) -> tuple[GameClient, dict[str, Any]]:
    return s.ann, {"type": "take_seat", "room_id": "r_0000000000000000", "seat": 1}


@replies("record")
async def _record(s: Scene) -> tuple[GameClient, dict[str, Any]]:
    return s.bob, {"type": "get_record", "match_id": s.room_id}


@replies("review")
async def _review(s: Scene) -> tuple[GameClient, dict[str, Any]]:
    return s.ann, {"type": "review", "match_id": s.room_id}


@replies("nickname")
async def _nickname(s: Scene) -> tuple[GameClient, dict[str, Any]]:
    return s.bob, {"type": "set_nickname", "nickname": "Bob de Bouwer"}


@replies("daily_board")
async def _daily_board(s: Scene) -> tuple[GameClient, dict[str, Any]]:
    return s.bob, {"type": "daily_board", "date": "2020-01-01"}


@replies("daily_alltime")
async def _daily_alltime(s: Scene) -> tuple[GameClient, dict[str, Any]]:
    return s.bob, {"type": "daily_alltime"}


@replies("profile")
async def _profile(s: Scene) -> tuple[GameClient, dict[str, Any]]:
    return s.bob, {"type": "get_profile", "player_id": s.ann.player_id}


@replies("rating_board")
async def _rating_board(s: Scene) -> tuple[GameClient, dict[str, Any]]:
    return s.bob, {"type": "rating_board"}


@replies("sheet_update")
async def _sheet_update(s: Scene) -> tuple[GameClient, dict[str, Any]]:
    return s.ann, {
        "type": "sheet_deal", "code": s.code, "version": s.sheet_version, "playing": 0,
        "points": [100, None],
    }  # fmt: skip


@replies("hint")
async def _hint(s: Scene) -> tuple[GameClient, dict[str, Any]]:
    reply = await s.ann.request({"type": "new_game", "level": "random"}, "snapshot")
    room_id = reply["room_id"]
    table = s.ann.tables[room_id]
    await play_until([s.ann], room_id, lambda: table.turn == table.seat, pick=lambda _: "")
    return s.ann, {"type": "hint", "room_id": room_id}


@replies("snapshot")
async def _snapshot(s: Scene) -> tuple[GameClient, dict[str, Any]]:
    return s.bob, {"type": "create_room"}


@replies("update")
async def _update(s: Scene) -> tuple[GameClient, dict[str, Any]]:
    return s.ann, {"type": "ready", "room_id": s.open_id, "ready": False}


@replies("lobby")
async def _lobby(s: Scene) -> tuple[GameClient, dict[str, Any]]:
    return s.ann, {"type": "lobby_subscribe"}


@replies("chat")
async def _chat(s: Scene) -> tuple[GameClient, dict[str, Any]]:
    return s.ann, {"type": "chat", "room_id": s.open_id, "text": "hi"}


@replies("sheet")
async def _sheet(s: Scene) -> tuple[GameClient, dict[str, Any]]:
    return s.bob, {"type": "sheet_create", "teams": ["A", "B"]}


@replies("tournament")
async def _tournament(s: Scene) -> tuple[GameClient, dict[str, Any]]:
    return s.ann, {"type": "tournament_watch", "tournament_id": s.tid}


@replies("rematch")
async def _rematch(s: Scene) -> tuple[GameClient, dict[str, Any]]:
    return s.ann, {"type": "rematch", "room_id": s.room_id}


SILENT: dict[str, Callable[[Scene], tuple[GameClient, dict[str, Any]]]] = {
    "ready": lambda s: (s.ann, {"type": "ready", "room_id": s.open_id}),  # ready already
    "back": lambda s: (s.ann, {"type": "back", "room_id": s.open_id}),  # she is not away
    "continue": lambda s: (s.ann, {"type": "continue", "room_id": s.open_id}),  # no pause
    "leave_room": lambda s: (s.bob, {"type": "leave_room", "room_id": s.open_id}),  # no seat
    "lobby_unsubscribe": lambda s: (s.bob, {"type": "lobby_unsubscribe"}),
    "sheet_leave": lambda s: (s.bob, {"type": "sheet_leave", "code": s.code}),
    "resume": lambda s: (s.ann, up_to_date(s)),
}


def up_to_date(s: Scene) -> dict[str, Any]:
    return {"type": "resume", "room_id": s.open_id, "version": s.ann.tables[s.open_id].version}


def test_the_document_names_each_frame_type_once_and_every_case() -> None:
    said, unsaid = echoing(), not_echoing()
    assert said and unsaid and not said & unsaid, (said, unsaid)
    assert said | unsaid == set(REPLIES), sorted((said | unsaid) ^ set(REPLIES))
    assert silent() == set(SILENT), sorted(silent() ^ set(SILENT))


async def test_each_reply_echoes_the_ref_as_documented(tmp_path: Path) -> None:
    async with running_harness(tmp_path) as h:
        scene = await Scene(h).build()
        said = echoing()
        for kind in sorted(REPLIES):
            client, message = await REPLIES[kind](scene)
            await sync(client)
            ref = f"ref-{kind}"
            await client.send({**message, "ref": ref})
            frames = [f for f in await sync(client, timeout=30) if f["type"] == kind]
            assert frames, f"{kind}: no such reply to {message}"
            refs = {f.get("ref") for f in frames}
            assert refs == ({ref} if kind in said else {None}), (kind, frames[0])


async def test_a_command_with_no_reply_of_its_own_sends_nothing(tmp_path: Path) -> None:
    async with running_harness(tmp_path) as h:
        scene = await Scene(h).build()
        for kind, case in SILENT.items():
            client, message = case(scene)
            await sync(client)
            await client.send({**message, "ref": f"silent-{kind}"})
            assert await sync(client) == [], kind
            assert await sync(scene.ann) == [] and await sync(scene.bob) == [], kind
