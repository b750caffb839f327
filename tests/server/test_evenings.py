"""A club evening over real websockets, on SQLite and PostgreSQL: an organiser checks in
24 players and draws three rounds; six phones, one a table, enter their table's deal at the
same moment; the screen on the wall follows with the view code; the server restarts in the
middle of round 2; every standing is the hand computation.  And who may do what: a view
code reads, an organiser's command needs the organiser code, a stale one is refused."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from client import GameClient
from tests.server.conftest import Harness

pytestmark = [pytest.mark.server, pytest.mark.club]

PLAYERS = 24
ROUNDS = 3


async def evening(client: GameClient, reply: str = "evening", **match: Any) -> dict[str, Any]:
    frame = await client.next(reply, **match)
    assert frame["type"] == reply, frame
    return frame


async def command(client: GameClient, code: str, version: int, kind: str, **fields: Any) -> dict:
    """An organiser's command; the evening it made (or the error).  A follower also gets
    the evening whenever a table enters a deal: those keep the version."""
    await client.send({"type": f"evening_{kind}", "code": code, "version": version, **fields})
    while True:
        frame = await client.next(timeout=20)
        if frame["type"] == "error" or (frame["type"] == "evening" and frame["version"] > version):
            return frame


def points(round_: int, table: int) -> int:
    """What team 0 (seats 0 and 2) of ``table`` takes in its one deal of ``round_``: it
    plays and makes it (more than 81), so team 1 has the rest of 162."""
    return 82 + 7 * table + round_


async def enter(phone: GameClient, code: str, pts: int) -> None:
    sheet = await phone.request({"type": "sheet_open", "code": code}, "sheet")
    assert sheet["type"] == "sheet", sheet
    deal = {"type": "sheet_deal", "code": code, "version": sheet["version"], "playing": 0,
            "points": [pts, None]}  # fmt: skip
    update = await phone.request(deal, "sheet_update")
    assert update["type"] == "sheet_update", update


async def until(wall: GameClient, ready: Any) -> dict[str, Any]:
    """The wall screen's evening once ``ready`` holds for it (it never asks: it follows)."""
    while True:
        frame = await wall.next("evening", timeout=20)
        if ready(frame):
            return frame


def all_entered(round_: int) -> Any:
    return lambda f: (
        f["tables"] and f["tables"][0]["round"] == round_
        and all(t["finished"] for t in f["tables"])
    )  # fmt: skip


async def test_a_whole_evening_with_a_restart_in_the_middle(harness: Harness) -> None:
    organiser = await harness.client("org")
    created = await organiser.request(
        {"type": "evening_create", "name": "Vrijdagavond", "rounds": ROUNDS, "deals": 1}, "evening"
    )
    assert created["type"] == "evening" and created["role"] == "organiser", created
    codes = created["codes"]
    assert set(codes) == {"organiser", "view"} and codes["organiser"] != codes["view"]
    version = created["version"]
    names = [f"speler {i:02d}" for i in range(1, PLAYERS + 1)]
    for name in names:
        now = await command(organiser, codes["organiser"], version, "check_in", name=name)
        version = now["version"]
    ids = {e["name"]: e["id"] for e in now["evening"]["entrants"]}
    assert len(ids) == PLAYERS

    wall = await harness.client("wall")
    shown = await wall.request({"type": "evening_open", "code": codes["view"]}, "evening")
    assert shown["role"] == "view" and shown["codes"] == {"view": codes["view"]}
    assert all("code" not in t for t in shown["tables"])  # a table's code is not for all

    expected = dict.fromkeys(ids.values(), 0)
    phones = [await harness.client(f"table{t}") for t in range(1, 7)]
    for round_ in range(1, ROUNDS + 1):
        drawn = await command(organiser, codes["organiser"], version, "draw")
        assert drawn["type"] == "evening", drawn
        tables = drawn["tables"]
        assert [t["table"] for t in tables] == [1, 2, 3, 4, 5, 6]
        assert {e for t in tables for e in t["entrants"]} == set(ids.values())
        version = drawn["version"]
        for t in tables:  # the hand computation: team 0 is seats 0 and 2
            seats = t["entrants"]
            for seat, entrant in enumerate(seats):
                pts = points(round_, t["table"])
                expected[entrant] += pts if seat % 2 == 0 else 162 - pts
        if round_ == 2:  # three tables enter, then the server restarts
            await asyncio.gather(*(
                enter(phones[i], tables[i]["code"], points(round_, i + 1)) for i in range(3)
            ))  # fmt: skip
            await harness.restart()
            organiser, wall = await harness.client("org"), await harness.client("wall")
            phones = [await harness.client(f"table{t}") for t in range(1, 7)]
            again = await organiser.request(
                {"type": "evening_open", "code": codes["organiser"]}, "evening"
            )
            assert again["version"] == version  # the same draw, the same sheets
            seated = [(t["entrants"], t["sheet_id"], t["code"]) for t in again["tables"]]
            assert seated == [(t["entrants"], t["sheet_id"], t["code"]) for t in tables]
            assert [t["deals"] for t in again["tables"]] == [1, 1, 1, 0, 0, 0]
            await wall.request({"type": "evening_open", "code": codes["view"]}, "evening")
            await asyncio.gather(*(
                enter(phones[i], tables[i]["code"], points(round_, i + 1)) for i in range(3, 6)
            ))  # fmt: skip
        else:  # six phones at once
            await asyncio.gather(*(
                enter(phones[i], t["code"], points(round_, t["table"]))
                for i, t in enumerate(tables)
            ))  # fmt: skip
        seen = await until(wall, all_entered(round_))
        standing = {row["player"]: row["total"] for row in seen["standing"]["standing"]}
        assert standing == expected, round_
        if round_ == ROUNDS:  # table 1's seat 1 revoked: 30 off that player's score alone
            offender = tables[0]["entrants"][1]
            seen = await command(organiser, codes["organiser"], seen["version"], "penalty",
                                 entrant=offender, points=30)  # fmt: skip
            expected[offender] -= 30
            standing = {row["player"]: row["total"] for row in seen["standing"]["standing"]}
            assert standing == expected
        closed = await command(organiser, codes["organiser"], seen["version"], "close")
        assert closed["evening"]["drawn"][-1]["closed"] is True
        version = closed["version"]

    final = await until(wall, lambda f: f["version"] == version)
    rows = final["standing"]["standing"]
    assert {r["player"]: r["total"] for r in rows} == expected
    assert [r["total"] for r in rows] == sorted(expected.values(), reverse=True)
    ranks = [r["rank"] for r in rows]
    assert ranks[0] == 1 and ranks == sorted(ranks)
    fairness = final["fairness"]
    assert fairness["sit_out_spread"] == 0
    late = await command(organiser, codes["organiser"], version, "draw")
    assert late["type"] == "error" and late["code"] == "evening_over"


async def test_who_may_do_what(harness: Harness) -> None:
    organiser, guest = await harness.client("org"), await harness.client("guest")
    created = await organiser.request(
        {"type": "evening_create", "name": "Dinsdag", "deals": 1}, "evening"
    )
    codes, version = created["codes"], created["version"]
    await guest.request({"type": "evening_open", "code": codes["view"]}, "evening")
    refused = await command(guest, codes["view"], version, "check_in", name="Ann")
    assert (refused["type"], refused["code"]) == ("error", "organisers_only")
    wrong = await command(guest, "NOSUCHCODE", version, "check_in", name="Ann")
    assert (wrong["type"], wrong["code"]) == ("error", "bad_evening_code")
    ann = await command(organiser, codes["organiser"], version, "check_in", name="Ann")
    stale = await command(organiser, codes["organiser"], version, "check_in", name="Bob")
    assert (stale["type"], stale["code"]) == ("error", "stale_version")
    few = await command(organiser, codes["organiser"], ann["version"], "draw")
    assert (few["type"], few["code"]) == ("error", "too_few")
    # the watcher saw Ann's check-in, and nothing of the refused commands
    seen = await guest.next("evening", version=ann["version"])
    assert [e["name"] for e in seen["evening"]["entrants"]] == ["Ann"]
    bad = await guest.request({"type": "evening_create", "name": "x", "rounds": "3"}, "evening")
    assert (bad["type"], bad["code"]) == ("error", "invalid_field")


async def test_a_swap_gives_the_tables_it_touches_new_sheets_with_the_new_players(
    harness: Harness,
) -> None:
    organiser = await harness.client("org")
    made = await organiser.request(
        {"type": "evening_create", "name": "Woensdag", "deals": 1}, "evening"
    )
    code, version = made["codes"]["organiser"], made["version"]
    for name in [f"speler {i}" for i in range(1, 9)]:
        version = (await command(organiser, code, version, "check_in", name=name))["version"]
    drawn = await command(organiser, code, version, "draw")
    one, two = drawn["tables"]
    a, b = one["entrants"][1], two["entrants"][3]
    swapped = await command(organiser, code, drawn["version"], "swap", a=a, b=b)
    new_one, new_two = swapped["tables"]
    assert new_one["entrants"] == [b if e == a else e for e in one["entrants"]]
    assert new_two["entrants"] == [a if e == b else e for e in two["entrants"]]
    assert {new_one["sheet_id"], new_two["sheet_id"]}.isdisjoint({one["sheet_id"], two["sheet_id"]})
    names = {e["id"]: e["name"] for e in swapped["evening"]["entrants"]}
    phone = await harness.client("table")
    sheet = await phone.request({"type": "sheet_open", "code": new_one["code"]}, "sheet")
    assert sheet["sheet"]["players"] == [names[e] for e in new_one["entrants"]]
