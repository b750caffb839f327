"""The club evening's state machine, without sockets: every transition and every refusal.

One table of cases, like the room's: an evening built from log entries, a command, and the
entries it writes or the code it refuses with.  Below it: the fold, the draw an evening
makes being the draw module's own (so anyone can check it), and the log codec.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest

from engine import Rules
from server.club import draw
from server.club.evening import Evening
from server.club.evening_entries import (
    INDIVIDUAL,
    PAIRS,
    CheckedIn,
    Closed,
    Created,
    Drawn,
    DrawUndone,
    Entry,
    Penalised,
    Swapped,
    Withdrawn,
    decode,
)
from server.core.errors import Refused
from server.scoresheet.sheet import Draft, Sheet, created

pytestmark = pytest.mark.club

BY, AT, SEED = "p_org", 1000.0, 11
SHEETS = [f"s{i}" for i in range(1, 40)]


def build(*entries: Entry, format: str = INDIVIDUAL, rounds: int = 3) -> Evening:
    first = Created(BY, AT, "Friday", Rules(), format, rounds, seed=SEED)
    return Evening.from_log("v1", [first, *entries])


def checked_in(count: int, start: int = 1) -> list[Entry]:
    return [CheckedIn(BY, AT, f"e{i}", f"player {i}") for i in range(start, start + count)]


def pairs_in(count: int) -> list[Entry]:
    return [
        CheckedIn(BY, AT, f"e{i}", f"pair {i}", (f"a{i}", f"b{i}")) for i in range(1, count + 1)
    ]


def drawn(evening: Evening) -> Drawn:
    """The next round as the evening draws it, with the first sheets."""
    (entry,) = evening.draw(BY, AT, evening.version, SHEETS)
    assert isinstance(entry, Drawn)
    return entry


def with_round(*before: Entry, format: str = INDIVIDUAL) -> Callable[[], Evening]:
    """An evening of ``before`` with its next round drawn (and open)."""

    def make() -> Evening:
        evening = build(*before, format=format)
        evening.apply(drawn(evening))
        return evening

    return make


def played(rounds: int, players: int = 8) -> Callable[[], Evening]:
    """``players`` checked in and ``rounds`` rounds drawn and closed."""

    def make() -> Evening:
        evening = build(*checked_in(players))
        for _ in range(rounds):
            evening.apply(drawn(evening))
            evening.apply(Closed(BY, AT))
        return evening

    return make


EIGHT = checked_in(8)


def then(evening: Evening, *entries: Entry) -> Evening:
    """``evening`` with ``entries`` folded in after what it holds."""
    for entry in entries:
        evening.apply(entry)
    return evening


@dataclass(frozen=True)
class Case:
    name: str
    evening: Callable[[], Evening]
    command: Callable[[Evening], list[Entry]]
    writes: Callable[[Evening], list[Entry]] | None = None  # the entries written
    refused: str | None = None  # or the refusal's code


def v(e: Evening) -> int:
    return e.version


CASES = [
    # -- check-in ---------------------------------------------------------------------------
    Case("a player checks in", lambda: build(),
         lambda e: e.check_in(BY, AT, v(e), " Ann "),
         lambda e: [CheckedIn(BY, AT, "e1", "Ann")]),
    Case("the next entrant is numbered after the last", lambda: build(*checked_in(3)),
         lambda e: e.check_in(BY, AT, v(e), "Bob"),
         lambda e: [CheckedIn(BY, AT, "e4", "Bob")]),
    Case("a late arrival checks in while a round is played", with_round(*EIGHT),
         lambda e: e.check_in(BY, AT, v(e), "Late"),
         lambda e: [CheckedIn(BY, AT, "e9", "Late")]),
    Case("a name is given once", lambda: build(*checked_in(2)),
         lambda e: e.check_in(BY, AT, v(e), "PLAYER 2"), refused="name_taken"),
    Case("an empty name", lambda: build(), lambda e: e.check_in(BY, AT, v(e), "  "),
         refused="bad_name"),
    Case("a name too long", lambda: build(), lambda e: e.check_in(BY, AT, v(e), "x" * 25),
         refused="bad_name"),
    Case("a pair checks in with its two players", lambda: build(format=PAIRS),
         lambda e: e.check_in(BY, AT, v(e), "Ann & Bob", ["Ann", "Bob"]),
         lambda e: [CheckedIn(BY, AT, "e1", "Ann & Bob", ("Ann", "Bob"))]),
    Case("a pairs evening takes no lone player", lambda: build(format=PAIRS),
         lambda e: e.check_in(BY, AT, v(e), "Ann"), refused="pair_needs_two"),
    Case("an individual evening takes no pair", lambda: build(),
         lambda e: e.check_in(BY, AT, v(e), "Ann & Bob", ["Ann", "Bob"]),
         refused="pair_needs_two"),
    Case("check-in once every round is played", played(3),
         lambda e: e.check_in(BY, AT, v(e), "Late"), refused="evening_over"),
    Case("a check-in made on an older version", lambda: build(*checked_in(2)),
         lambda e: e.check_in(BY, AT, v(e) - 1, "Ann"), refused="stale_version"),
    # -- withdrawals ------------------------------------------------------------------------
    Case("a player leaves between rounds", played(1),
         lambda e: e.withdraw(BY, AT, v(e), "e3"), lambda e: [Withdrawn(BY, AT, "e3")]),
    Case("a player leaves during a round (gone from the next draw)", with_round(*EIGHT),
         lambda e: e.withdraw(BY, AT, v(e), "e3"), lambda e: [Withdrawn(BY, AT, "e3")]),
    Case("a player who left leaves again", lambda: build(*EIGHT, Withdrawn(BY, AT, "e3")),
         lambda e: e.withdraw(BY, AT, v(e), "e3"), refused="withdrawn"),
    Case("nobody of that id", lambda: build(*EIGHT),
         lambda e: e.withdraw(BY, AT, v(e), "e9"), refused="no_such_entrant"),
    # -- the draw ---------------------------------------------------------------------------
    Case("the first round is drawn from the seed and who is here", lambda: build(*EIGHT),
         lambda e: e.draw(BY, AT, v(e), SHEETS),
         lambda e: [Drawn(BY, AT, 1, *e.next_draw(), ("s1", "s2"))]),
    Case("nine players: one sits out", lambda: build(*checked_in(9)),
         lambda e: e.draw(BY, AT, v(e), SHEETS),
         lambda e: [Drawn(BY, AT, 1, *e.next_draw(), ("s1", "s2"))]),
    Case("the second round after the first closed", played(1),
         lambda e: e.draw(BY, AT, v(e), SHEETS),
         lambda e: [Drawn(BY, AT, 2, *e.next_draw(), ("s1", "s2"))]),
    Case("a draw while a round is played", with_round(*EIGHT),
         lambda e: e.draw(BY, AT, v(e), SHEETS), refused="round_open"),
    Case("a draw after the last round", played(3),
         lambda e: e.draw(BY, AT, v(e), SHEETS), refused="evening_over"),
    Case("three players are not a table", lambda: build(*checked_in(3)),
         lambda e: e.draw(BY, AT, v(e), SHEETS), refused="too_few"),
    Case("one pair is not a table", lambda: build(*pairs_in(1), format=PAIRS),
         lambda e: e.draw(BY, AT, v(e), SHEETS), refused="too_few"),
    Case("four players who left are not here", lambda: build(
             *checked_in(4), Withdrawn(BY, AT, "e1")),
         lambda e: e.draw(BY, AT, v(e), SHEETS), refused="too_few"),
    Case("a pairs round: two pairs a table", lambda: build(*pairs_in(5), format=PAIRS),
         lambda e: e.draw(BY, AT, v(e), SHEETS),
         lambda e: [Drawn(BY, AT, 1, *e.next_draw(), ("s1", "s2"))]),
    # -- swaps ------------------------------------------------------------------------------
    Case("two players of one table swap: it gets a new sheet", with_round(*EIGHT),
         lambda e: e.swap(BY, AT, v(e), *at_table(e, 0)[:2], set(), ["n1", "n2"]),
         lambda e: [Swapped(BY, AT, *at_table(e, 0)[:2], ("n1", "s2"))]),
    Case("players of two tables swap: both get new sheets", with_round(*EIGHT),
         lambda e: e.swap(BY, AT, v(e), at_table(e, 0)[0], at_table(e, 1)[0], set(),
                          ["n1", "n2"]),
         lambda e: [Swapped(BY, AT, at_table(e, 0)[0], at_table(e, 1)[0], ("n1", "n2"))]),
    Case("a player swaps with one sitting out", with_round(*checked_in(9)),
         lambda e: e.swap(BY, AT, v(e), at_table(e, 1)[2], sitting(e), set(), ["n1"]),
         lambda e: [Swapped(BY, AT, at_table(e, 1)[2], sitting(e), ("s1", "n1"))]),
    Case("a swap at a table that entered a deal", with_round(*EIGHT),
         lambda e: e.swap(BY, AT, v(e), at_table(e, 0)[0], at_table(e, 1)[0], {1}, ["n1"]),
         refused="table_started"),
    Case("a swap beside a table that entered a deal", with_round(*checked_in(12)),
         lambda e: e.swap(BY, AT, v(e), at_table(e, 0)[0], at_table(e, 1)[0], {2}, ["n1", "n2"]),
         lambda e: [Swapped(BY, AT, at_table(e, 0)[0], at_table(e, 1)[0], ("n1", "n2", "s3"))]),
    Case("a swap with oneself", with_round(*EIGHT),
         lambda e: e.swap(BY, AT, v(e), "e1", "e1", set(), ["n1"]), refused="same_entrant"),
    Case("a swap with a late arrival not in the draw",
         lambda: then(with_round(*EIGHT)(), *checked_in(1, 9)),
         lambda e: e.swap(BY, AT, v(e), "e1", "e9", set(), ["n1"]), refused="not_in_round"),
    Case("a swap between rounds", played(1),
         lambda e: e.swap(BY, AT, v(e), "e1", "e2", set(), ["n1"]), refused="no_round_open"),
    # -- undo and close ---------------------------------------------------------------------
    Case("a draw taken back before any deal", with_round(*EIGHT),
         lambda e: e.undo_draw(BY, AT, v(e), set()), lambda e: [DrawUndone(BY, AT)]),
    Case("a draw taken back once a deal was entered", with_round(*EIGHT),
         lambda e: e.undo_draw(BY, AT, v(e), {0}), refused="round_started"),
    Case("nothing to take back", played(1),
         lambda e: e.undo_draw(BY, AT, v(e), set()), refused="no_round_open"),
    Case("a round closes", with_round(*EIGHT),
         lambda e: e.close(BY, AT, v(e)), lambda e: [Closed(BY, AT)]),
    Case("nothing to close", played(1), lambda e: e.close(BY, AT, v(e)),
         refused="no_round_open"),
    Case("a close made on an older version", with_round(*EIGHT),
         lambda e: e.close(BY, AT, v(e) - 1), refused="stale_version"),
    # -- a revoke's personal penalty --------------------------------------------------------
    Case("a player who revoked is charged in the round being played", with_round(*EIGHT),
         lambda e: e.penalise(BY, AT, v(e), at_table(e, 1)[3], 50),
         lambda e: [Penalised(BY, AT, 1, at_table(e, 1)[3], 50)]),
    Case("a penalty in a round played before", lambda: then(played(2)()),
         lambda e: e.penalise(BY, AT, v(e), "e2", 25, 1),
         lambda e: [Penalised(BY, AT, 1, "e2", 25)]),
    Case("a penalty for one who sat the round out", with_round(*checked_in(9)),
         lambda e: e.penalise(BY, AT, v(e), sitting(e), 25), refused="not_at_a_table"),
    Case("a penalty in a round not drawn", with_round(*EIGHT),
         lambda e: e.penalise(BY, AT, v(e), "e1", 25, 2), refused="no_such_round"),
    Case("a penalty before any draw", lambda: build(*EIGHT),
         lambda e: e.penalise(BY, AT, v(e), "e1", 25), refused="no_such_round"),
    Case("a penalty for nobody", with_round(*EIGHT),
         lambda e: e.penalise(BY, AT, v(e), "e99", 25), refused="no_such_entrant"),
    Case("a pair has no personal penalty", with_round(*pairs_in(4), format=PAIRS),
         lambda e: e.penalise(BY, AT, v(e), "e1", 25), refused="pairs_have_none"),
]  # fmt: skip


def at_table(e: Evening, index: int) -> tuple[str, ...]:
    current = e.open_round
    assert current is not None
    return current.tables[index]


def sitting(e: Evening) -> str:
    current = e.open_round
    assert current is not None and current.sitting_out
    return current.sitting_out[0]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_transition(case: Case) -> None:
    evening = case.evening()
    before = (evening.summary(), evening.version)
    if case.refused is not None:
        with pytest.raises(Refused) as caught:
            case.command(evening)
        assert caught.value.code == case.refused, caught.value.message
        assert caught.value.message  # says what is wrong
    else:
        assert case.writes is not None
        assert case.command(evening) == case.writes(evening)
    assert (evening.summary(), evening.version) == before  # a command only says


# -- the fold --------------------------------------------------------------------------------


def test_the_draw_is_the_draw_modules_own() -> None:
    """Anyone may draw it again from the seed, who was here and the rounds before."""
    evening = build(*checked_in(10))
    first = drawn(evening)
    (again,) = draw.draw_individual([f"e{i}" for i in range(1, 11)], 3, SEED)[:1]
    assert first.tables == tuple(t.seats for t in again.tables)
    assert first.sitting_out == again.sitting_out
    evening.apply(first)
    evening.apply(Closed(BY, AT))
    evening.apply(Withdrawn(BY, AT, "e4"))
    evening.apply(CheckedIn(BY, AT, "e11", "late"))
    second = drawn(evening)
    present = [f"e{i}" for i in (1, 2, 3, *range(5, 12))]
    played = [draw.Round(1, tuple(draw.Table(i + 1, t) for i, t in enumerate(first.tables)),
                         first.sitting_out)]  # fmt: skip
    (expected,) = draw.draw_individual(present, 3, SEED, played)[:1]
    assert second.tables == tuple(t.seats for t in expected.tables)
    assert "e4" not in {p for t in second.tables for p in t} | set(second.sitting_out)
    assert "e11" in {p for t in second.tables for p in t} | set(second.sitting_out)


def test_a_swap_moves_both_and_a_sit_out_too() -> None:
    evening = build(*checked_in(9))
    evening.apply(drawn(evening))
    current = evening.open_round
    assert current is not None
    a, out = current.tables[1][2], current.sitting_out[0]
    evening.apply(Swapped(BY, AT, a, out, ("s1", "n1")))
    after = evening.open_round
    assert after is not None
    assert after.tables[1][2] == out and after.sitting_out == (a,)
    assert after.tables[0] == current.tables[0] and after.sheets == ("s1", "n1")


def test_an_undone_draw_is_drawn_again_the_same_way() -> None:
    evening = build(*EIGHT)
    first = drawn(evening)
    evening.apply(first)
    evening.apply(DrawUndone(BY, AT))
    assert evening.open_round is None and evening.rounds == []
    again = drawn(evening)
    assert (again.round, again.tables, again.sitting_out) == (1, first.tables, first.sitting_out)


def test_the_version_counts_every_entry_and_the_evening_ends_after_its_rounds() -> None:
    evening = played(3)()
    assert evening.version == 1 + 8 + 3 * 2
    assert evening.over and [r.number for r in evening.rounds] == [1, 2, 3]
    assert all(r.closed for r in evening.rounds)


def test_the_summary_names_tables_and_their_sheets() -> None:
    evening = build(*checked_in(9))
    evening.apply(drawn(evening))
    summary = evening.summary()
    (round_one,) = summary["drawn"]
    assert [t["table"] for t in round_one["tables"]] == [1, 2]
    assert [t["sheet_id"] for t in round_one["tables"]] == ["s1", "s2"]
    seated = {p for t in round_one["tables"] for p in t["entrants"]}
    assert len(seated) == 8 and len(round_one["sitting_out"]) == 1
    assert seated | set(round_one["sitting_out"]) == {f"e{i}" for i in range(1, 10)}
    assert summary["entrants"][0] == {"id": "e1", "name": "player 1", "members": [],
                                      "withdrawn": False, "member": None}  # fmt: skip


@pytest.mark.parametrize(
    "entry",
    [
        Created(BY, AT, "Friday", Rules(), PAIRS, 4, {"rule": "fixed", "points": 1600},
                {"top": 3}, 5, "c1"),
        Created(BY, AT, "Friday", Rules(), INDIVIDUAL, 3, seed=5),
        CheckedIn(BY, AT, "e1", "Ann"),
        CheckedIn(BY, AT, "e1", "Ann & Bob", ("Ann", "Bob")),
        Withdrawn(BY, AT, "e1"),
        Drawn(BY, AT, 1, (("e1", "e2", "e3", "e4"),), ("e5",), ("s1",)),
        Swapped(BY, AT, "e1", "e5", ("s9",)),
        DrawUndone(BY, AT),
        Closed(BY, AT),
        Penalised(BY, AT, 2, "e3", 50),
    ],
)  # fmt: skip
def test_every_entry_reads_back_as_it_was_written(entry: Entry) -> None:
    assert decode(entry.to_dict()) == entry


def test_an_individual_evening_writes_no_club_or_rules_it_has_not() -> None:
    written = Created(BY, AT, "Friday", Rules(), INDIVIDUAL, 3, seed=5).to_dict()
    assert "club" not in written and "sit_out" not in written and "prizes" not in written


def _sheet(sheet_id: str, players: tuple[str, ...], *deals: Draft) -> Sheet:
    """A table's score sheet of a one-deal game, with ``deals`` entered by its players."""
    first = created("p_table", AT, None, players, 0, Rules.from_dict({"deals": 1}))
    sheet = Sheet.from_log(sheet_id, [first])
    for draft in deals:
        for entry in sheet.enter("p_table", AT, sheet.version, draft):
            sheet.apply(entry)
    return sheet


def test_the_standing_is_what_the_tables_sheets_score() -> None:
    """Nine players, one round of one-deal games: the sit-out gets the round's average."""
    evening = build(*checked_in(9))
    evening.apply(drawn(evening))
    current = evening.open_round
    assert current is not None
    (t1, t2), (out,) = current.tables, current.sitting_out
    sheets = {
        # table 1: team 0 plays and takes 100 card points with 20 roem: made, 120 to 62
        "s1": _sheet("s1", t1, Draft(playing=0, points=(100, None), roem=(20, 0))),
        # table 2: team 1 plays and takes 70 of 162: nat, all 162 to team 0
        "s2": _sheet("s2", t2, Draft(playing=1, points=(92, None), roem=(0, 0))),
    }
    standing = evening.standing(sheets).to_dict()
    totals = {row["player"]: row["total"] for row in standing["standing"]}
    assert {p: totals[p] for p in t1} == {t1[0]: 120, t1[2]: 120, t1[1]: 62, t1[3]: 62}
    assert {p: totals[p] for p in t2} == {t2[0]: 162, t2[2]: 162, t2[1]: 0, t2[3]: 0}
    # the round's average of the eight who played: (2*120 + 2*62 + 2*162 + 0) / 8 = 86
    assert totals[out] == 86
    assert len(totals) == 9

    # before anything is entered at table 2 it is playing, and its players have nothing yet
    partial = evening.standing({"s1": sheets["s1"]}).to_dict()
    assert {row["player"]: row["total"] for row in partial["standing"]}[t2[0]] == 0


def test_a_pairs_standing_is_what_the_tables_sheets_score() -> None:
    """Five pairs, two rounds of one-deal games: a pair scores its team's total at its
    table (north-south: the sheet's seats 0 and 2), the pair sitting out the round's
    average of the pairs whose game finished; round 2 closes with a table missing."""
    evening = build(*pairs_in(5), format=PAIRS)

    def seated(ns: str, ew: str) -> tuple[str, ...]:
        """The table's sheet's four players, as the evening seats them (its evenings.py)."""
        a, b = evening.entrants[ns].members, evening.entrants[ew].members
        return (a[0], b[0], a[1], b[1])

    evening.apply(drawn(evening))
    first = evening.open_round
    assert first is not None
    (ns1, ew1), (ns2, ew2) = first.tables
    (out1,) = first.sitting_out
    sheets = {
        # table 1: north-south plays, 100 card points and 20 roem against 62: made, 120 to 62
        "s1": _sheet("s1", seated(ns1, ew1), Draft(playing=0, points=(100, None), roem=(20, 0))),
        # table 2: east-west plays, 162 - 60 = 102 card points and 20 roem against 60: made,
        # 60 to 122
        "s2": _sheet("s2", seated(ns2, ew2), Draft(playing=1, points=(60, None), roem=(0, 20))),
    }
    standing = evening.standing(sheets).to_dict()
    # the sit-out: (120 + 62 + 60 + 122) / 4 = 364 / 4 = 91
    expected = {ns1: 120, ew1: 62, ns2: 60, ew2: 122, out1: 91}
    assert [(row["player"], row["total"], row["rank"]) for row in standing["standing"]] == [
        (ew2, 122, 1), (ns1, 120, 2), (out1, 91, 3), (ew1, 62, 4), (ns2, 60, 5),
    ]  # fmt: skip
    # places 1-3 (the house's default), the poedel to the lowest
    assert [row["prize"] for row in standing["standing"]] == [
        "place", "place", "place", None, "lowest",
    ]  # fmt: skip
    (round_1,) = standing["rounds"]
    assert [(t["seats"], t["totals"], t["state"]) for t in round_1["tables"]] == [
        ([ns1, ew1], [120, 62], "finished"), ([ns2, ew2], [60, 122], "finished"),
    ]  # fmt: skip
    assert round_1["sit_out_points"] == 91

    evening.apply(Closed(BY, AT))
    (second_draw,) = evening.draw(BY, AT, evening.version, ["s3", "s4"])
    evening.apply(second_draw)
    second = evening.open_round
    assert second is not None
    (ns3, ew3), (ns4, ew4) = second.tables
    (out2,) = second.sitting_out
    assert out2 != out1  # nobody sits out twice
    # table 1: north-south plays and takes 50 of 162: nat, all 162 to east-west
    sheets["s3"] = _sheet("s3", seated(ns3, ew3), Draft(playing=0, points=(50, None), roem=(0, 0)))
    evening.apply(Closed(BY, AT))  # table 2 entered nothing: missing
    # the sit-out: the average of the finished game only, (0 + 162) / 2 = 81
    for pair, made in ((ns3, 0), (ew3, 162), (ns4, 0), (ew4, 0), (out2, 81)):
        expected[pair] += made
    standing = evening.standing(sheets).to_dict()
    assert {row["player"]: row["total"] for row in standing["standing"]} == expected
    round_2 = standing["rounds"][1]
    assert [(t["seats"], t["state"]) for t in round_2["tables"]] == [
        ([ns3, ew3], "finished"), ([ns4, ew4], "missing"),
    ]  # fmt: skip
    rows = {row["player"]: row for row in standing["standing"]}
    assert rows[ns4]["rounds"][1] == {"points": 0, "mark": "missing"}
    assert rows[out2]["rounds"][1] == {"points": 81, "mark": "sat_out"}
    assert rows[out1]["rounds"][0] == {"points": 91, "mark": "sat_out"}


def test_a_penalty_comes_off_the_offenders_round_score_alone() -> None:
    """One deal at each table; then the revoking player (table 1, seat 1) is charged 50,
    twice 25: only their total moves, by 100, and their partner keeps the team's 62."""
    evening = build(*checked_in(8))
    evening.apply(drawn(evening))
    current = evening.open_round
    assert current is not None
    t1, t2 = current.tables
    sheets = {
        "s1": _sheet("s1", t1, Draft(playing=0, points=(100, None), roem=(20, 0))),
        "s2": _sheet("s2", t2, Draft(playing=0, points=(100, None), roem=(0, 0))),
    }
    before = {r["player"]: r["total"] for r in evening.standing(sheets).to_dict()["standing"]}
    for points in (50, 25, 25):
        (entry,) = evening.penalise(BY, AT, evening.version, t1[1], points)
        evening.apply(entry)
    after = {r["player"]: r["total"] for r in evening.standing(sheets).to_dict()["standing"]}
    assert before[t1[1]] == 62 and after[t1[1]] == 62 - 100
    assert {p: after[p] for p in after if p != t1[1]} == {
        p: before[p] for p in before if p != t1[1]
    }
