"""The example frames of ``client_protocol.md`` against frames captured from a running server.

Every example is read out of the document (``>>`` a client's message, ``<<`` or a bare
``{"type": ...}`` line a server's frame or event; ``...`` marks what an example leaves out).
A client example must be a message the server accepts.  A server example must look like
what the server sends: a scripted session (a table to its end with a timeout, an away seat,
chat and a hint, records, reviews, boards, a profile, a score sheet, refusals) captures
frames of every type the examples show, and each example's fields, at every depth, must be
fields that the captured frames of its type (an update: of its kind) carry, with values of
the same JSON types.  An example of a type the session never saw fails too.

And every frame the session receives, of every type a single server sends, must be one that
the published JSON Schema allows: each is validated, strictly, by the model of its type in
``server.wire.protocol`` that ``klaverjas protocol-schema`` generates the schema from.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from pydantic import TypeAdapter, ValidationError

from client import GameClient
from server.daily.days import day_of
from server.daily.service import ALLTIME_MIN_DAYS
from server.runtime.domain_events import MatchEnded, TournamentEnded
from server.store.players import BOARD_MIN_MATCHES
from server.tournament.schedule import new_tournament
from server.wire import protocol as p
from tests.matches import ending, won_by
from tests.server.bots_hold import hold
from tests.server.conftest import Harness, play_until, running_harness, sync

CARD = re.compile(r"^[2-9TJQKA][cdhs]$")
pytestmark = pytest.mark.server

DOC = Path(__file__).resolve().parents[2] / "client_protocol.md"


# -- the examples --------------------------------------------------------------------------


def _no_strings(text: str) -> str:
    return re.sub(r'"(\\.|[^"\\])*"', '""', text)


def _without_ellipses(text: str) -> str:
    """JSON from an example: each ``...`` outside strings dropped, with its commas."""
    out, in_string, i = [], False, 0
    while i < len(text):
        c = text[i]
        if in_string:
            out.append(c)
            if c == "\\":
                out.append(text[i + 1])
                i += 1
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
            out.append(c)
        elif text.startswith("...", i):
            i += 2
        else:
            out.append(c)
        i += 1
    s, before = "".join(out), None
    while s != before:
        before = s
        s = re.sub(r",\s*,", ",", s)
        s = re.sub(r"([\[{])\s*,", r"\1", s)
        s = re.sub(r",\s*([\]}])", r"\1", s)
    return s


def examples() -> Iterator[tuple[int, str, dict[str, Any]]]:
    """(line, ``>>`` or ``<<``, frame) for every example in the document's code blocks."""
    lines = DOC.read_text().splitlines()
    in_code, i = False, 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("```"):
            in_code = not in_code
        elif in_code and re.match(r'^(<< |>> )?\{"type"', line):
            direction, text = (line[:2], line[3:]) if line[:2] in ("<<", ">>") else ("<<", line)
            j = i
            while _no_strings(text).count("{") + _no_strings(text).count("[") > _no_strings(
                text
            ).count("}") + _no_strings(text).count("]"):
                j += 1
                text += "\n" + lines[j]
            yield i + 1, direction, json.loads(_without_ellipses(text))
            i = j
        i += 1


EXAMPLES = list(examples())


# -- what the server sends ------------------------------------------------------------------


class Shapes:
    """The fields of every captured frame and event, by type (an update's by kind), and at
    every depth the fields and JSON types their values had."""

    def __init__(self) -> None:
        self.fields: dict[tuple[str, ...], dict[str, set[str]]] = defaultdict(
            lambda: defaultdict(set)
        )

    def add(self, frame: dict[str, Any]) -> None:
        self._walk(self.key(frame), frame)
        for event in frame.get("events", []):
            self.add(event)
        for update in frame.get("recent", []):
            self.add(update)

    @staticmethod
    def key(frame: dict[str, Any]) -> tuple[str, ...]:
        return (frame["type"], frame["kind"]) if frame["type"] == "update" else (frame["type"],)

    def _walk(self, path: tuple[str, ...], value: Any) -> None:
        if isinstance(value, dict):
            for name, sub in value.items():
                name = "*" if path[-1] in MAPS else name
                self.fields[path][name].add(kind(sub))
                self._walk((*path, name), sub)
        elif isinstance(value, list):
            for item in value:
                self._walk((*path, "[]"), item)

    def check(self, path: tuple[str, ...], value: Any, where: str) -> list[str]:
        """What ``value`` (an example's part at ``path``) has that no captured frame had."""
        problems = []
        if isinstance(value, dict):
            seen = self.fields.get(path)
            if seen is None:
                return [f"{where}: no captured frame has {'/'.join(path)}"]
            for name, sub in value.items():
                name = "*" if path[-1] in MAPS else name
                if name not in seen:
                    problems.append(f"{where}: {'/'.join((*path, name))} is never sent")
                elif kind(sub) not in seen[name] and kind(sub) != "null":
                    problems.append(
                        f"{where}: {'/'.join((*path, name))} is {kind(sub)}, sent as "
                        f"{sorted(seen[name])}"
                    )
                else:
                    problems += self.check((*path, name), sub, where)
        elif isinstance(value, list):
            for item in value:
                problems += self.check((*path, "[]"), item, where)
        return problems


MAPS = frozenset({"values", "places"})  # objects keyed by data: a card, a place


def kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    return {str: "string", list: "array", dict: "object"}[type(value)]


async def client(h: Harness, nickname: str) -> GameClient:
    """A connection that keeps every frame, its welcome too."""
    connection = await GameClient.connect(h.url)
    connection.keep = True
    h.clients.append(connection)
    await connection.hello(nickname)
    return connection


async def captured(h: Harness, tmp_path: Path) -> list[dict[str, Any]]:
    """Every frame a scripted session receives."""
    assert h.server is not None
    ann, bob, cas, dee = [await client(h, n) for n in ("ann", "bob", "cas", "dee")]
    await ann.request({"type": "ping", "ref": "p"}, "pong")
    await ann.request({"type": "lobby_subscribe"}, "lobby")
    await client(h, "eve")  # presence
    # a private table of ann and bob with CPUs, two deals, claimed roem: chat, a hint, a
    # refusal, bob's two timeouts (away) and his return
    rules = {"deals": 2, "roem": "claim"}
    room = await ann.request({"type": "create_room", "rules": rules, "private": True}, "snapshot")
    room_id, code = room["room_id"], room["invite_code"]
    await bob.request({"type": "take_seat", "invite_code": code, "seat": 1}, "snapshot")
    for seat in (2, 3):
        await ann.send({"type": "add_cpu", "room_id": room_id, "seat": seat})
    await ann.send({"type": "chat", "room_id": room_id, "text": "good luck"})
    for player in (ann, bob):
        await player.send({"type": "ready", "room_id": room_id})
    await sync(ann)
    table = ann.tables[room_id]
    await play_until([ann, bob], room_id, lambda: len(table.hand) < 8)  # cards are played
    await ann.request({"type": "resume", "room_id": room_id, "version": 0}, "snapshot")
    bobs = bob.tables[room_id]

    def bob_to_play_a_card() -> bool:  # (claimed roem: a take-or-leave hint names no card)
        return bobs.turn == 1 and bool(bobs.legal) and all(CARD.match(a) for a in bobs.legal)

    await play_until([ann, bob], room_id, bob_to_play_a_card)
    await bob.request({"type": "hint", "room_id": room_id, "ref": "h"}, "hint")
    await ann.request({"type": "act", "room_id": room_id, "action": "Jh", "ref": "a"}, "error")
    again = await GameClient.connect(h.url)  # bob on a second connection: his seat listed
    again.keep = True
    h.clients.append(again)
    await again.request({"type": "hello", "token": bob.token, "ref": "w"}, "welcome")
    for _ in range(2):
        await play_until([ann], room_id, lambda: table.turn == 1 or table.over)
        h.advance(31)
        await bob.next("update", kind="act", seat=1)
    await bob.send({"type": "back", "room_id": room_id})
    await play_until([ann, bob], room_id, lambda: table.over)
    for player in (ann, bob):
        await sync(player)
    # records, reviews, names, a full pool's refusal
    await ann.request({"type": "get_record", "match_id": room_id}, "record")
    # every deal of both humans, so that among their plays (the first legal card each, often
    # not the best) some earn the label the review example shows
    for player in (ann, bob):
        for number in range(2):
            message = {"type": "review", "match_id": room_id, "deal": number}
            await player.request(message, "review")
    # a turned-card table of cas, on cas's turn: its snapshot (a deadline, the turned card)
    turned = await cas.request({"type": "new_game", "rules": {"trump_mode": "turned"}}, "snapshot")
    solo = cas.tables[turned["room_id"]]
    await play_until([], turned["room_id"], lambda: solo.turn == 0)
    await cas.request({"type": "resume", "room_id": turned["room_id"], "version": 0}, "snapshot")

    def second_deal() -> bool:  # a deal_started update with its turned card
        return any(
            e["type"] == "deal_started" for f in cas.seen if f["type"] == "update"
            for e in f["events"]
        )  # fmt: skip

    # and on cas's turn again, so that no CPU of his is searching when the pool is held below
    await play_until([cas], turned["room_id"], lambda: second_deal() and solo.turn == 0)
    await ann.request({"type": "set_nickname", "nickname": "Ann Boer"}, "nickname")
    bots, flag = h.server.bots, tmp_path / "let-go"
    jobs = [j for _ in range(bots.capacity) if (j := bots.submit(hold, str(flag)))]
    await ann.request({"type": "review", "match_id": room_id, "ref": "r"}, "error")
    flag.touch()
    await asyncio.gather(*jobs)  # type: ignore[arg-type]
    # claimed roem, taken or left (dee's solo game, played until a claim is decided)
    claims = await dee.request(
        {"type": "new_game", "rules": {"roem": "claim", "target": 10000}}, "snapshot"
    )

    def claimed() -> bool:
        return any(e["type"] == "roem_decided" for f in dee.seen for e in f.get("events", []))

    await play_until([dee], claims["room_id"], claimed)
    # ratings: ten rated matches of the four (published as their rooms would)
    four = (ann.player_id, bob.player_id, cas.player_id, dee.player_id)
    for n in range(BOARD_MIN_MATCHES):
        await h.server.events.publish(MatchEnded(
            f"r_rated_{n}", None, **ending(won_by(n % 2)), players=four, rated=True,
            starters=four,
        ))  # fmt: skip
    await h.server.events.publish(TournamentEnded("t_1", ((ann.player_id, 1, "grand"),)))
    await ann.request({"type": "get_profile"}, "profile")
    await ann.request({"type": "rating_board"}, "rating_board")
    # a room that closes, for the lobby
    gone = await dee.request({"type": "create_room"}, "snapshot")
    await dee.send({"type": "leave_room", "room_id": gone["room_id"]})
    await ann.next("lobby_room_gone")
    # the daily game five days running (its boards: a past day's, the all-time one)
    for _ in range(ALLTIME_MIN_DAYS + 2):
        daily = (await dee.request({"type": "daily_start"}, "snapshot"))["room_id"]
        await play_until([dee], daily, lambda table=dee.tables[daily]: table.over)
        await sync(dee)
        await dee.request({"type": "daily_board"}, "daily_board")
        h.advance(86_400)
    yesterday = day_of(h.clock.wall() - 86_400)
    await dee.request({"type": "daily_board", "date": yesterday}, "daily_board")
    await dee.request({"type": "daily_alltime"}, "daily_alltime")
    # a score sheet: made, a deal, a stale change
    made = await ann.request({"type": "sheet_create", "teams": ["Wij", "Zij"],
                              "players": ["a", "b", "c", "d"]}, "sheet")  # fmt: skip
    deal = {"type": "sheet_deal", "code": made["codes"]["edit"], "playing": 1, "points": [None, 71]}
    await ann.request({**deal, "version": 1}, "sheet_update")
    await ann.request({**deal, "version": 1}, "error")
    # a club evening: made, four players in, a round drawn, its table's sheet opened and a deal
    # entered, the round closed
    night = await ann.request({"type": "evening_create", "name": "Vrijdag", "deals": 1}, "evening")
    code, version = night["codes"]["organiser"], night["version"]
    for name in ("Ann", "Bob", "Cas", "Dee"):
        got = await ann.request({"type": "evening_check_in", "code": code, "version": version,
                                 "name": name}, "evening")  # fmt: skip
        version = got["version"]
    await bob.request({"type": "evening_open", "code": night["codes"]["view"]}, "evening")
    await ann.send({"type": "evening_draw", "code": code, "version": version})
    drawn = await ann.next("evening", version=version + 1)
    table = drawn["tables"][0]["code"]
    await cas.request({"type": "sheet_open", "code": table}, "sheet")
    await cas.request({"type": "sheet_deal", "code": table, "version": 1, "playing": 0,
                       "points": [100, None]}, "sheet_update")  # fmt: skip
    await ann.send({"type": "evening_close", "code": code, "version": version + 1})
    await ann.next("evening", version=version + 2)
    # a club: founded, a member added, an evening of the club with the member checked in
    club = await ann.request({"type": "club_create", "name": "De Troefkaart"}, "club")
    boss = club["codes"]["organiser"]
    await ann.send({"type": "club_member_add", "code": boss, "version": 1, "name": "Anna"})
    member = (await ann.next("club", version=2))["members"][0]["id"]
    ours = await ann.request({"type": "evening_create", "name": "Week 1", "club": boss}, "evening")
    await ann.request({"type": "evening_check_in", "code": ours["codes"]["organiser"],
                       "version": 1, "member": member}, "evening")  # fmt: skip
    # a rematch of ann and bob's match, asked by one, then made by both
    await ann.request({"type": "rematch", "room_id": room_id}, "rematch")
    await bob.request({"type": "rematch", "room_id": room_id}, "rematch")
    # a tournament scheduled as an operator does: listed, cas registers, too few at the start
    # (one of eight): cancelled, it leaves the lobby
    tournaments = (await h.stores()).tournaments
    now = h.clock.wall()
    tid, _ = await new_tournament(tournaments, "quick", now + 60, False, False, None, now)
    await cas.request({"type": "tournament_register", "tournament_id": tid}, "tournament")
    await ann.next("lobby_tournament")
    h.advance(61)
    await ann.next("lobby_tournament_gone")
    for player in h.clients:
        await sync(player)
    return [frame for player in h.clients for frame in player.seen]


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def sent(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    """The frames of one scripted session, for every check of this module."""
    tmp_path = tmp_path_factory.mktemp("examples")
    async with running_harness(tmp_path, "sqlite", daily_deals=1, bot_workers=1, bot_queue=0) as h:
        return await captured(h, tmp_path)


# -- the checks -----------------------------------------------------------------------------


def test_the_document_has_examples_of_both_directions() -> None:
    directions = {d for _, d, _ in EXAMPLES}
    assert directions == {"<<", ">>"} and len(EXAMPLES) > 60


@pytest.mark.parametrize(
    ("line", "frame"), [(n, f) for n, d, f in EXAMPLES if d == ">>"], ids=lambda v: str(v)[:40]
)
def test_a_client_example_is_a_message_the_server_takes(line: int, frame: dict) -> None:
    assert type(p.parse(json.dumps(frame))).__name__, line


def test_every_server_example_looks_like_what_the_server_sends(sent: list[dict]) -> None:
    shapes = Shapes()
    for frame in sent:
        shapes.add(frame)
    problems = []
    for line, direction, frame in EXAMPLES:
        if direction == "<<":
            problems += shapes.check(Shapes.key(frame), frame, f"line {line}")
    assert not problems, "\n".join(dict.fromkeys(problems))


SERVER_FRAMES = TypeAdapter(p.ServerMessage)
SERVER_TYPES = {kind.model_fields["type"].annotation.__args__[0] for kind in p.SERVER_MODELS}
CLUSTER_ONLY = {"route"}  # sent only where several servers share a site (tests/multinode)


def test_every_frame_sent_is_one_the_published_schema_allows(sent: list[dict]) -> None:
    problems: dict[str, dict[str, Any]] = {}
    for frame in sent:
        try:
            SERVER_FRAMES.validate_python(frame, strict=True)
        except ValidationError as err:
            for e in err.errors(include_url=False):
                where = ".".join(str(part) for part in e["loc"])
                problems.setdefault(f"{frame['type']}: {where}: {e['msg']}", frame)
    assert not problems, "\n".join(f"{p}\n  in {str(f)[:300]}" for p, f in problems.items())
    assert {frame["type"] for frame in sent} == SERVER_TYPES - CLUSTER_ONLY
