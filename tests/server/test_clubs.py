"""A club and its season over real websockets, on SQLite and PostgreSQL: the founder adds a
co-organiser (whose own code runs the club) and members; three evenings of the club are
played through, the members checked in with one tap and a walk-in by name (who becomes a
member), each table's deal entered on its sheet; the server restarts in the middle of the
second evening; the season's standing (best 2 of 3, at least 3 evenings to be ranked) is
the hand computation, and so is its CSV.  And who may do what: the view code watches, an
organiser's command needs an organiser's code, a revoked code opens nothing, the founder
stays, a stale version is refused."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest

from client import GameClient
from server.club.prizes import shared_ranks
from tests.server.conftest import Harness
from tests.server.test_evenings import all_entered, command, enter, until

pytestmark = [pytest.mark.server, pytest.mark.club]

WEEK = 7 * 86400.0
MEMBERS = ["Anna", "Bas", "Cor", "Dirk", "Els", "Fenna", "Gijs", "Hans"]


async def club_frame(client: GameClient, ready: Any = lambda f: True) -> dict[str, Any]:
    """The club as ``client`` next sees it once ``ready`` holds (it follows the club)."""
    while True:
        frame = await client.next("club", timeout=20)
        if ready(frame):
            return frame


async def order(client: GameClient, code: str, version: int, kind: str, **fields: Any) -> dict:
    """An organiser's command; the club it made (or the error)."""
    await client.send({"type": f"club_{kind}", "code": code, "version": version, **fields})
    while True:
        frame = await client.next(timeout=20)
        if frame["type"] == "error" or (frame["type"] == "club" and frame["version"] > version):
            return frame


def points(evening: int, round_: int, table: int) -> int:
    """What team 0 (seats 0 and 2) of ``table`` takes in its one deal: it plays and makes
    it, so team 1 has the rest of 162."""
    return 82 + 7 * table + 3 * round_ + 11 * evening


async def play_round(
    desk: GameClient, phones: list[GameClient], code: str, version: int, evening: int,
    round_: int, totals: dict[str, int], names: dict[str, str],
) -> dict[str, Any]:  # fmt: skip
    """Round ``round_`` drawn and its tables' deals entered (``totals`` by name, by hand):
    the evening once every table finished."""
    drawn = await command(desk, code, version, "draw")
    assert drawn["type"] == "evening", drawn
    for phone, table in zip(phones, drawn["tables"], strict=True):
        pts = points(evening, round_, table["table"])
        for seat, entrant in enumerate(table["entrants"]):
            totals[names[entrant]] += pts if seat % 2 == 0 else 162 - pts
        await enter(phone, table["code"], pts)
    return await until(desk, all_entered(round_))


async def check_in(desk: GameClient, code: str, version: int, who: list[dict]) -> dict:
    for how in who:
        now = await command(desk, code, version, "check_in", **how)
        assert now["type"] == "evening", now
        version = now["version"]
    return now


def hand_season(attended: dict[str, list[int | None]]) -> dict[str, tuple[str, int, int, bool]]:
    """Best 2 of the 3 evenings, at least 3 attended to be ranked: each player's score,
    plain total, evenings attended and whether ranked."""
    shown = {}
    for name, totals in attended.items():
        there = [t for t in totals if t is not None]
        shown[name] = (str(sum(sorted(there, reverse=True)[:2])), sum(there), len(there),
                       len(there) >= 3)  # fmt: skip
    return shown


async def test_a_season_of_three_evenings_with_a_restart(harness: Harness) -> None:
    boss = await harness.client("boss")
    made = await boss.request({"type": "club_create", "name": "De Troefkaart"}, "club")
    assert made["type"] == "club" and made["role"] == "organiser", made
    assert made["organiser"] == "o1" and made["name"] == "De Troefkaart"
    founder, view = made["codes"]["organiser"], made["codes"]["view"]
    assert made["organisers"] == [{"id": "o1", "name": "boss", "founder": True, "code": founder}]
    assert made["members"] == [] and made["evenings"] == []
    assert made["standing"] == {"evenings": [], "dates": [], "prize_places": [], "standing": []}

    added = await order(boss, founder, made["version"], "organiser_add", name="Bea")
    co_code = next(o["code"] for o in added["organisers"] if o["name"] == "Bea")
    desk = await harness.client("desk")  # the co-organiser's console, by her own code
    co = await desk.request({"type": "club_open", "code": co_code}, "club")
    assert (co["role"], co["organiser"], co["codes"]["organiser"]) == ("organiser", "o2", co_code)
    version = co["version"]
    for name in MEMBERS:
        now = await order(desk, co_code, version, "member_add", name=name)
        assert now["type"] == "club", now
        version = now["version"]
    ids = {m["name"]: m["id"] for m in now["members"]}
    season = {"best": 2, "minimum": 3, "prizes": {"top": 1, "lowest": False}}
    ruled = await order(desk, co_code, version, "season", **season)
    assert ruled["season"]["best"] == 2 and ruled["season"]["minimum"] == 3
    await desk.send({"type": "club_leave", "code": co_code})

    watch = await harness.client("watch")
    seen = await watch.request({"type": "club_open", "code": view}, "club")
    assert seen["role"] == "view" and seen["codes"] == {"view": view} and seen["organiser"] is None
    assert all("code" not in o for o in seen["organisers"])

    # who comes each evening: a member by one tap, or a name (a walk-in, or a member's name)
    evenings = [
        [{"member": ids[n]} for n in MEMBERS],
        [*({"member": ids[n]} for n in MEMBERS[1:7]), {"name": "anna"}, {"name": "Gast"}],
        [*({"member": ids[n]} for n in MEMBERS[1:]), {"name": "GAST"}],
    ]
    attended: dict[str, list[int | None]] = {n: [None] * 3 for n in [*MEMBERS, "Gast"]}
    phones = [await harness.client(f"table{t}") for t in (1, 2)]
    for number, who in enumerate(evenings, 1):
        harness.clock.step_wall(WEEK)  # a week later
        created = await desk.request(
            {"type": "evening_create", "name": f"Week {number}", "deals": 1, "rounds": 2,
             "club": co_code}, "evening",
        )  # fmt: skip
        assert created["type"] == "evening" and created["evening"]["club"] == made["club_id"]
        code = created["codes"]["organiser"]
        listed = await club_frame(watch, lambda f, n=number: len(f["evenings"]) == n)
        assert listed["evenings"][-1]["view_code"] == created["codes"]["view"]
        assert "code" not in listed["evenings"][-1]  # the evening's code is for organisers
        now = await check_in(desk, code, created["version"], who)
        names = {e["id"]: e["name"] for e in now["evening"]["entrants"]}
        assert sorted(names.values()) == sorted(n for n in attended if _there(n, who, ids))
        totals = dict.fromkeys(names.values(), 0)
        version = now["version"]
        for round_ in (1, 2):
            seen = await play_round(desk, phones, code, version, number, round_, totals, names)
            if number == 2 and round_ == 1:  # the server restarts in the middle
                await harness.restart()
                desk, watch = [await harness.client(n) for n in ("desk", "watch")]
                phones = [await harness.client(f"table{t}") for t in (1, 2)]
                again = await desk.request({"type": "evening_open", "code": code}, "evening")
                assert again["version"] == seen["version"] and all_entered(1)(again)
                before = await watch.request({"type": "club_open", "code": view}, "club")
                assert [m["name"] for m in before["members"]] == [*MEMBERS, "Gast"]
                assert [e["counted"] for e in before["evenings"]] == [True, False]
            closed = await command(desk, code, seen["version"], "close")
            version = closed["version"]
        rows = {r["player"]: r["total"] for r in closed["standing"]["standing"]}
        assert {names[e]: t for e, t in rows.items()} == totals  # the evening's, by hand
        for name, total in totals.items():
            attended[name][number - 1] = total
        counted = await club_frame(watch, lambda f, n=number: f["evenings"][n - 1]["counted"])
        assert counted["evenings"][number - 1]["state"] == "over"

    final = counted
    members = {m["name"]: m["id"] for m in final["members"]}
    assert members == {**ids, "Gast": members["Gast"]}  # the walk-in is a member, once
    expected = hand_season(attended)
    standing = final["standing"]
    assert len(standing["dates"]) == 3
    assert standing["evenings"] == [e["id"] for e in final["evenings"]]
    rows = standing["standing"]
    got = {r["player"]: (r["score"], r["total"], r["attended"], r["qualified"]) for r in rows}
    assert got == expected
    assert all(r["member"] == members[r["player"]] for r in rows)
    ranked = [r for r in rows if r["qualified"]]
    scores = [int(r["score"]) for r in ranked]
    assert scores == sorted(scores, reverse=True)
    assert [r["rank"] for r in ranked] == shared_ranks(scores)
    assert {r["player"] for r in rows if not r["qualified"]} == {"Anna", "Hans", "Gast"}
    assert all(r["rank"] is None for r in rows if not r["qualified"])
    anna = next(r for r in rows if r["player"] == "Anna")  # absent from the third
    assert [h["status"] for h in anna["history"]] == ["counted", "counted", "absent"]

    status, body, kind = await harness.http_get(f"/clubs/{view}/season.csv")
    assert status == 200 and kind.startswith("text/csv"), body
    table = list(csv.DictReader(io.StringIO(body.decode())))
    assert {r["player"]: (r["score"], int(r["total"]), int(r["attended"]), r["qualified"] == "yes")
            for r in table} == expected  # fmt: skip
    assert [r["player"] for r in table] == [r["player"] for r in rows]


def _there(name: str, who: list[dict], ids: dict[str, str]) -> bool:
    """Whether ``name`` checks in among ``who`` (by member id, or by a name in any case)."""
    return any(
        ids.get(name, "?") == how["member"] if "member" in how
        else how["name"].casefold() == name.casefold()
        for how in who
    )  # fmt: skip


async def test_who_may_do_what(harness: Harness) -> None:
    boss, guest = await harness.client("boss"), await harness.client("guest")
    made = await boss.request({"type": "club_create", "name": "Harten Vrouw"}, "club")
    founder, view = made["codes"]["organiser"], made["codes"]["view"]
    added = await order(boss, founder, made["version"], "organiser_add", name="Co")
    co_code = next(o["code"] for o in added["organisers"] if o["id"] == "o2")
    co = await harness.client("co")
    opened = await co.request({"type": "club_open", "code": co_code}, "club")
    assert [o.get("code") for o in opened["organisers"]] == [None, co_code]  # its own only

    watched = await guest.request({"type": "club_open", "code": view}, "club")
    version = watched["version"]
    refused = await order(guest, view, version, "member_add", name="Ann")
    assert (refused["type"], refused["code"]) == ("error", "organisers_only")
    wrong = await guest.request({"type": "club_open", "code": "NOSUCHCODE"}, "club")
    assert (wrong["type"], wrong["code"]) == ("error", "bad_club_code")
    ann = await order(co, co_code, version, "member_add", name="Ann")
    assert [m["name"] for m in ann["members"]] == ["Ann"]
    stale = await order(co, co_code, version, "member_add", name="Bob")
    assert (stale["type"], stale["code"]) == ("error", "stale_version")
    twice = await order(co, co_code, ann["version"], "member_add", name="ANN")
    assert (twice["type"], twice["code"]) == ("error", "name_taken")
    evening = {"type": "evening_create", "name": "Vrijdag", "club": view}
    assert (await guest.request(evening, "evening"))["code"] == "organisers_only"

    founder_out = await order(boss, founder, ann["version"], "organiser_revoke", organiser="o1")
    assert (founder_out["type"], founder_out["code"]) == ("error", "founder_stays")
    revoked = await order(boss, founder, ann["version"], "organiser_revoke", organiser="o2")
    assert [o["id"] for o in revoked["organisers"]] == ["o1"]
    demoted = await club_frame(co, lambda f: f["version"] == revoked["version"])
    assert (demoted["role"], demoted["organiser"]) == ("view", None)
    assert demoted["codes"] == {"view": view}
    gone = await order(co, co_code, revoked["version"], "member_add", name="Cas")
    assert (gone["type"], gone["code"]) == ("error", "bad_club_code")
    again = await harness.client("again")
    reopened = await again.request({"type": "club_open", "code": co_code}, "club")
    assert (reopened["type"], reopened["code"]) == ("error", "bad_club_code")
    status, _, _ = await harness.http_get(f"/clubs/{co_code}/season.csv")
    assert status == 404
    status, body, _ = await harness.http_get(f"/clubs/{founder}/season.csv")
    assert status == 200 and body.decode().startswith("rank,player,score")

    plain = await guest.request({"type": "evening_create", "name": "Los", "deals": 1}, "evening")
    member = {"type": "evening_check_in", "code": plain["codes"]["organiser"], "version": 1,
              "member": "m1"}  # fmt: skip
    assert (await guest.request(member, "evening"))["code"] == "not_a_club_evening"
