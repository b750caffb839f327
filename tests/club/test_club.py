"""The club's state machine, without sockets: every transition and every refusal in one
table of cases; then what its evenings tell it (a walk-in becomes a member, a member's name
in any case is that member, each member's evening total counted once and again only when
it changed), the season's standing from the counted evenings (removed members out, evenings
before the first period out), who sees which code, and the log codec."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date

import pytest

from server.club import club_entries as E
from server.club.club import FOUNDER, MAX_MEMBERS, MAX_ORGANISERS, ORGANISER, VIEW, Club
from server.club.evening_entries import CheckedIn
from server.club.evening_entries import decode as decode_evening
from server.core.errors import Refused

pytestmark = pytest.mark.club

BY, AT = "p_boss", 1000.0
SEASON = {"best": None, "drop": 0, "average": False, "period_length": 0, "period_starts": [],
          "best_periods": None, "minimum": 0}  # fmt: skip
PRIZES = {"top": 1, "every": 0, "per": 0, "lowest": False}


def build(*entries: E.Entry) -> Club:
    first = E.ClubCreated(BY, AT, "De Troefkaart", "boss", "FOUNDER001", "VIEWCODE01")
    return Club.from_log("k1", [first, *entries])


def members(*names: str) -> list[E.Entry]:
    return [E.MemberAdded(BY, AT, f"m{i}", n) for i, n in enumerate(names, 1)]


def evening(number: int, when: date) -> E.Entry:
    return E.EveningAdded(BY, AT, f"v{number}", f"Week {number}", when.isoformat(),
                          f"ORG{number:07d}", f"VIEW{number:06d}")  # fmt: skip


CO = E.OrganiserAdded(BY, AT, "o2", "Bea", "COCODE0001", FOUNDER)


@dataclass(frozen=True)
class Case:
    name: str
    log: tuple[E.Entry, ...]
    command: Callable[[Club], list[E.Entry]]
    expected: str | list[E.Entry]  # a refusal's code, or the entries written


def v(club: Club) -> int:
    return club.version


CASES = [
    Case("an organiser is added with a code of their own", (),
         lambda c: c.add_organiser(BY, AT, v(c), " Bea ", "COCODE0001", FOUNDER), [CO]),
    Case("ids go on after a revoked organiser", (CO, E.OrganiserRevoked(BY, AT, "o2")),
         lambda c: c.add_organiser(BY, AT, v(c), "Cas", "COCODE0002", FOUNDER),
         [E.OrganiserAdded(BY, AT, "o3", "Cas", "COCODE0002", FOUNDER)]),
    Case("an organiser needs a name", (),
         lambda c: c.add_organiser(BY, AT, v(c), "\u200b", "C", FOUNDER), "bad_name"),
    Case("a club has at most so many organisers",
         tuple(E.OrganiserAdded(BY, AT, f"o{i}", f"o{i}", f"C{i}", FOUNDER)
               for i in range(2, MAX_ORGANISERS + 1)),
         lambda c: c.add_organiser(BY, AT, v(c), "one more", "C", FOUNDER), "club_full"),
    Case("a co-organiser is revoked", (CO,),
         lambda c: c.revoke_organiser(BY, AT, v(c), "o2"), [E.OrganiserRevoked(BY, AT, "o2")]),
    Case("the founder stays", (CO,),
         lambda c: c.revoke_organiser(BY, AT, v(c), FOUNDER), "founder_stays"),
    Case("a revoked organiser is no more", (CO, E.OrganiserRevoked(BY, AT, "o2")),
         lambda c: c.revoke_organiser(BY, AT, v(c), "o2"), "no_such_organiser"),
    Case("a member, linked to a player", (),
         lambda c: c.add_member(BY, AT, v(c), "Anna", "p_anna"),
         [E.MemberAdded(BY, AT, "m1", "Anna", "p_anna")]),
    Case("a member's name is the club's once, whatever its case", tuple(members("Anna")),
         lambda c: c.add_member(BY, AT, v(c), "aNNA"), "name_taken"),
    Case("a removed member's name is free again",
         (*members("Anna"), E.MemberRemoved(BY, AT, "m1")),
         lambda c: c.add_member(BY, AT, v(c), "Anna"), [E.MemberAdded(BY, AT, "m2", "Anna")]),
    Case("a member needs a name of 1 to 24 characters", (),
         lambda c: c.add_member(BY, AT, v(c), "x" * 25), "bad_name"),
    Case("a club has at most so many members",
         tuple(E.MemberAdded(BY, AT, f"m{i}", f"n{i}") for i in range(1, MAX_MEMBERS + 1)),
         lambda c: c.add_member(BY, AT, v(c), "one more"), "club_full"),
    Case("a member renamed", tuple(members("Anna")),
         lambda c: c.rename_member(BY, AT, v(c), "m1", "Anne"),
         [E.MemberRenamed(BY, AT, "m1", "Anne")]),
    Case("a member may change the case of their own name", tuple(members("Anna")),
         lambda c: c.rename_member(BY, AT, v(c), "m1", "ANNA"),
         [E.MemberRenamed(BY, AT, "m1", "ANNA")]),
    Case("a rename to another member's name", tuple(members("Anna", "Bas")),
         lambda c: c.rename_member(BY, AT, v(c), "m2", "anna"), "name_taken"),
    Case("a rename of nobody", (),
         lambda c: c.rename_member(BY, AT, v(c), "m9", "X"), "no_such_member"),
    Case("a member removed", tuple(members("Anna")),
         lambda c: c.remove_member(BY, AT, v(c), "m1"), [E.MemberRemoved(BY, AT, "m1")]),
    Case("a removal of nobody", (),
         lambda c: c.remove_member(BY, AT, v(c), "m1"), "no_such_member"),
    Case("the season's rule", (),
         lambda c: c.set_season(BY, AT, v(c), {**SEASON, "best": 2, "minimum": 3}, PRIZES),
         [E.SeasonSet(BY, AT, 2, 0, False, 0, (), None, 3, PRIZES)]),
    Case("best K or drop D, not both", (),
         lambda c: c.set_season(BY, AT, v(c), {**SEASON, "best": 2, "drop": 1}, PRIZES),
         "bad_season_rule"),
    Case("best periods needs periods", (),
         lambda c: c.set_season(BY, AT, v(c), {**SEASON, "best_periods": 2}, PRIZES),
         "bad_season_rule"),
    Case("periods' dates that are no dates", (),
         lambda c: c.set_season(BY, AT, v(c), {**SEASON, "period_starts": ["2026-13-01"]},
                                PRIZES), "bad_season_rule"),
    Case("every command names the version it was made on", (),
         lambda c: c.add_member(BY, AT, v(c) - 1, "Anna"), "stale_version"),
]  # fmt: skip


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_a_command_writes_its_entries_or_is_refused(case: Case) -> None:
    club = build(*case.log)
    if isinstance(case.expected, str):
        with pytest.raises(Refused) as refused:
            case.command(club)
        assert refused.value.code == case.expected
        return
    written = case.command(club)
    assert written == case.expected
    version = club.version
    for entry in written:
        club.apply(entry)
    assert club.version == version + len(written)


def test_codes_open_the_view_or_an_organiser_until_revoked() -> None:
    club = build(CO)
    assert club.role_of("VIEWCODE01") == (VIEW, None)
    assert club.role_of("FOUNDER001") == (ORGANISER, FOUNDER)
    assert club.role_of("COCODE0001") == (ORGANISER, "o2")
    club.apply(E.OrganiserRevoked(BY, AT, "o2"))
    with pytest.raises(Refused) as refused:
        club.role_of("COCODE0001")
    assert refused.value.code == "bad_club_code"


def test_an_organiser_code_shows_to_the_founder_its_sponsor_and_its_own() -> None:
    club = build(CO, E.OrganiserAdded(BY, AT, "o3", "Cas", "COCODE0003", "o2"),
                 evening(1, date(2026, 9, 4)))  # fmt: skip

    def codes(viewer: str | None) -> dict[str, str | None]:
        shown = club.summary(viewer, {})
        return {o["id"]: o.get("code") for o in shown["organisers"]}

    assert codes(FOUNDER) == {"o1": "FOUNDER001", "o2": "COCODE0001", "o3": "COCODE0003"}
    assert codes("o2") == {"o1": None, "o2": "COCODE0001", "o3": "COCODE0003"}
    assert codes("o3") == {"o1": None, "o2": None, "o3": "COCODE0003"}
    assert codes(None) == {"o1": None, "o2": None, "o3": None}
    assert club.summary("o3", {})["evenings"][0]["code"] == "ORG0000001"
    assert "code" not in club.summary(None, {})["evenings"][0]


def test_an_evenings_walk_ins_become_members_and_names_find_members() -> None:
    club = build(*members("Anna", "Bas"), evening(1, date(2026, 9, 4)))
    entrants = [("e1", "m2", ("Bas",)), ("e2", None, ("ANNA",)), ("e3", None, ("Gast",)),
                ("e4", None, ("gast",))]  # fmt: skip
    written = club.join(AT, "v1", entrants)
    assert written == [
        E.Joined(AT, "v1", "e1", ("m2",)),
        E.Joined(AT, "v1", "e2", ("m1",)),
        E.MemberAdded("v1", AT, "m3", "Gast"),  # by the evening
        E.Joined(AT, "v1", "e3", ("m3",)),
        E.Joined(AT, "v1", "e4", ("m3",)),
    ]
    for entry in written:
        club.apply(entry)
    assert [m.name for m in club.members.values()] == ["Anna", "Bas", "Gast"]
    assert club.join(AT, "v1", entrants) == []  # linked once
    pair = club.join(AT, "v1", [("e5", None, ("Anna", "Dirk"))])  # a pair's two players
    assert pair == [E.MemberAdded("v1", AT, "m4", "Dirk"), E.Joined(AT, "v1", "e5", ("m1", "m4"))]
    assert club.join(AT, "v9", entrants) == []  # not the club's evening


def test_an_evening_counts_each_members_total_once_and_again_when_it_changed() -> None:
    club = build(*members("Anna", "Bas"), evening(1, date(2026, 9, 4)))
    for entry in club.join(AT, "v1", [("e1", "m1", ("Anna",)), ("e2", "m2", ("Bas",)),
                                      ("e3", "m1", ("Anna",))]):  # fmt: skip
        club.apply(entry)
    counted = club.count(AT, "v1", {"e1": 1200, "e2": 1500, "e3": 300})  # e1 left, e3 came back
    assert counted == [E.Counted(AT, "v1", (("m1", 1500), ("m2", 1500)))]
    club.apply(counted[0])
    assert club.count(AT, "v1", {"e1": 1200, "e2": 1500, "e3": 300}) == []
    assert club.count(AT, "v1", {"e1": 1200, "e2": 1510, "e3": 300}) == [
        E.Counted(AT, "v1", (("m1", 1500), ("m2", 1510)))
    ]


def played(club: Club, number: int, totals: dict[str, int]) -> None:
    """Evening ``number``: each member (by id) there with their total, counted."""
    for member in totals:
        club.apply(E.Joined(AT, f"v{number}", f"e-{member}", (member,)))
    for entry in club.count(AT, f"v{number}", {f"e-{m}": t for m, t in totals.items()}):
        club.apply(entry)


def test_the_season_counts_the_evenings_over_by_the_rule_and_the_members_there_are() -> None:
    weeks = [date(2026, 9, 4), date(2026, 9, 11), date(2026, 9, 18), date(2026, 9, 25)]
    rule = {**SEASON, "best": 2, "minimum": 3}
    club = build(*members("Anna", "Bas", "Cor"), *(evening(i + 1, d) for i, d in enumerate(weeks)),
                 E.SeasonSet(BY, AT, 2, 0, False, 0, (), None, 3, PRIZES))  # fmt: skip
    assert club.set_season(BY, AT, club.version, rule, PRIZES)  # the same rule is allowed
    played(club, 1, {"m1": 4000, "m2": 3600, "m3": 5000})
    played(club, 2, {"m1": 3000, "m2": 3700, "m3": 100})
    played(club, 3, {"m1": 3500, "m2": 3800})  # evening 4 is not over: not in the season
    standing, ids = club.standing()
    assert ids == ["v1", "v2", "v3"]
    rows = {r.player: (r.score_text, r.attended, r.qualified, r.rank) for r in standing.rows}
    assert rows == {"Anna": ("7500", 3, True, 1), "Bas": ("7500", 3, True, 1),
                    "Cor": ("5100", 2, False, None)}  # fmt: skip
    assert [r.player for r in standing.rows] == ["Anna", "Bas", "Cor"]
    shown = club.standing_dict()
    assert [r["member"] for r in shown["standing"]] == ["m1", "m2", "m3"]
    assert shown["evenings"] == ids and shown["dates"] == [d.isoformat() for d in weeks[:3]]

    club.apply(E.MemberRenamed(BY, AT, "m1", "Anne"))
    club.apply(E.MemberRemoved(BY, AT, "m2"))  # out of the standing, results and all
    assert [r.player for r in club.standing()[0].rows] == ["Anne", "Cor"]

    later = {**rule, "period_starts": ["2026-09-10"]}  # a season from the second week on
    club.apply(club.set_season(BY, AT, club.version, later, PRIZES)[0])
    standing, ids = club.standing()
    assert ids == ["v2", "v3"]
    assert {r.player: r.total for r in standing.rows} == {"Anne": 6500, "Cor": 100}


def test_every_entry_reads_back_as_written() -> None:
    every = [
        E.ClubCreated(BY, AT, "De Troefkaart", "boss", "FOUNDER001", "VIEWCODE01"), CO,
        E.OrganiserRevoked(BY, AT, "o2"), E.MemberAdded(BY, AT, "m1", "Anna", "p_anna"),
        E.MemberAdded("v1", AT, "m2", "Gast"), E.MemberRenamed(BY, AT, "m1", "Anne"),
        E.MemberRemoved(BY, AT, "m1"),
        E.SeasonSet(BY, AT, 2, 0, True, 4, ("2026-09-01",), 1, 3, PRIZES),
        evening(1, date(2026, 9, 4)), E.Joined(AT, "v1", "e1", ("m1", "m2")),
        E.Counted(AT, "v1", (("m1", 1500), ("m2", 1400))),
    ]  # fmt: skip
    assert {type(e) for e in every} == set(E.LOG.types.values())
    for entry in every:
        assert E.decode(entry.to_dict()) == entry
    assert "player" not in E.MemberAdded("v1", AT, "m2", "Gast").to_dict()
    checked = CheckedIn(BY, AT, "e1", "Anna", (), "m1")
    assert decode_evening(checked.to_dict()) == checked
    assert "member" not in CheckedIn(BY, AT, "e1", "Anna").to_dict()  # older logs read alike
