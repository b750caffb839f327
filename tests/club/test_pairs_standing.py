"""A pairs evening's standing against hand-computed cases: five pairs over two rounds with
a pair sitting out each round under every sit-out rule, ties (on a prize boundary, with a
sitting-out pair in it, and for the poedel), a table closed unfinished and a missing table.
A pair scores its team's total at its table: north-south is team 0, east-west team 1.
(A pairs round read off real score sheets is in test_evening.py.)"""

from __future__ import annotations

import json

import pytest

from server.club.prizes import Prize, PrizeRule
from server.club.standings import (
    Mark,
    PairTableResult,
    RoundResult,
    SitOut,
    SitOutRule,
    evening_standing,
    round_standing,
)

pytestmark = pytest.mark.club


def table(n: int, ns: str, ew: str, totals: tuple[int, int] | None, finished: bool = True):
    return PairTableResult(n, ns, ew, totals, finished)


def points(standing) -> dict[str, int]:
    return {s.player: s.points for s in standing.scores}


# Five pairs, two rounds, one pair sitting out each.  Team totals (north-south, east-west):
# round 1: table 1 e1-e2 1500/1100, table 2 e3-e4 1320/1400, e5 sits out;
# round 2: table 1 e2-e5 1250/1350, table 2 e4-e1 1650/980, e3 sits out.
ROUND_1 = RoundResult(
    1, (table(1, "e1", "e2", (1500, 1100)), table(2, "e3", "e4", (1320, 1400))), ("e5",), True
)
ROUND_2 = RoundResult(
    2, (table(1, "e2", "e5", (1250, 1350)), table(2, "e4", "e1", (1650, 980))), ("e3",), True
)


@pytest.mark.parametrize(
    ("rule", "sat", "rows"),
    [
        # round 1: (1500 + 1100 + 1320 + 1400) / 4 = 5320 / 4 = 1330;
        # round 2: (1250 + 1350 + 1650 + 980) / 4 = 5230 / 4 = 1307.5, half up: 1308.
        # e1 1500 + 980 = 2480, e2 1100 + 1250 = 2350, e3 1320 + 1308 (sat) = 2628,
        # e4 1400 + 1650 = 3050, e5 1330 (sat) + 1350 = 2680
        (SitOutRule(SitOut.ROUND_AVERAGE), (1330, 1308),
         [("e4", 3050), ("e5", 2680), ("e3", 2628), ("e1", 2480), ("e2", 2350)]),
        # round 1: min(1500, 1100, 1320, 1400) = 1100; round 2: min(1250, 1350, 1650, 980) = 980.
        # e3 1320 + 980 = 2300, e5 1100 + 1350 = 2450; the others as above
        (SitOutRule(SitOut.ROUND_LOWEST), (1100, 980),
         [("e4", 3050), ("e1", 2480), ("e5", 2450), ("e2", 2350), ("e3", 2300)]),
        # both rounds: the lowest of all eight team totals, 980 (round 2's e1).
        # e3 1320 + 980 = 2300, e5 980 + 1350 = 2330
        (SitOutRule(SitOut.EVENING_LOWEST), (980, 980),
         [("e4", 3050), ("e1", 2480), ("e2", 2350), ("e5", 2330), ("e3", 2300)]),
        # e3 1320 + 1300 = 2620, e5 1300 + 1350 = 2650
        (SitOutRule(SitOut.FIXED, 1300), (1300, 1300),
         [("e4", 3050), ("e5", 2650), ("e3", 2620), ("e1", 2480), ("e2", 2350)]),
    ],
    ids=["round_average", "round_lowest", "evening_lowest", "fixed"],
)  # fmt: skip
def test_five_pairs_over_two_rounds_under_each_sit_out_rule(
    rule: SitOutRule, sat: tuple[int, int], rows: list[tuple[str, int]]
) -> None:
    evening = evening_standing([ROUND_1, ROUND_2], rule, PrizeRule(top=2))
    assert tuple(r.sit_out_points for r in evening.rounds) == sat
    # no ties: ranks 1-5; places 1 and 2 win, the fifth (there both rounds) gets the poedel
    prizes = [Prize.PLACE, Prize.PLACE, None, None, Prize.LOWEST]
    assert [(r.player, r.total, r.rank, r.prize) for r in evening.rows] == [
        (pair, total, rank, prize)
        for (pair, total), rank, prize in zip(rows, range(1, 6), prizes, strict=True)
    ]
    assert all((r.played, r.sat_out) == ((1, 1) if r.player in {"e3", "e5"} else (2, 0))
               for r in evening.rows)  # fmt: skip
    # the sitting-out pair is marked so, at no table and in no team
    round_1 = {s.player: s for s in evening.rounds[0].scores}
    e5 = round_1["e5"]
    assert (e5.points, e5.mark, e5.table, e5.team) == (sat[0], Mark.SAT_OUT, None, None)


def test_a_pair_scores_its_teams_total_at_its_table() -> None:
    standing = round_standing(ROUND_2, SitOutRule(SitOut.FIXED, 1300))
    # table 1: e2 north-south (team 0) 1250, e5 east-west (team 1) 1350;
    # table 2: e4 north-south 1650, e1 east-west 980; e3 sits out for 1300
    assert [(s.player, s.points, s.rank, s.table, s.team, s.mark) for s in standing.scores] == [
        ("e4", 1650, 1, 2, 0, Mark.FINISHED),
        ("e5", 1350, 2, 1, 1, Mark.FINISHED),
        ("e3", 1300, 3, None, None, Mark.SAT_OUT),
        ("e2", 1250, 4, 1, 0, Mark.FINISHED),
        ("e1", 980, 5, 2, 1, Mark.FINISHED),
    ]
    assert [(t.table, t.seats, t.totals) for t in standing.tables] == [
        (1, ("e2", "e5"), (1250, 1350)),
        (2, ("e4", "e1"), (1650, 980)),
    ]


def test_a_tie_on_the_prize_boundary_takes_in_the_sitting_out_pair() -> None:
    result = RoundResult(
        1, (table(1, "e1", "e2", (1400, 1200)), table(2, "e3", "e4", (1200, 1000))), ("e5",), True
    )
    evening = evening_standing([result], SitOutRule(SitOut.FIXED, 1200), PrizeRule(top=2))
    # e1 1400 (rank 1); e2 1200, e3 1200 and e5's fixed 1200 tie at rank 2 (places 2-4),
    # which holds prize place 2, so all three share it; e4 1000 (rank 5) the poedel
    assert [(r.player, r.total, r.rank, r.prize) for r in evening.rows] == [
        ("e1", 1400, 1, Prize.PLACE),
        ("e2", 1200, 2, Prize.PLACE),
        ("e3", 1200, 2, Prize.PLACE),
        ("e5", 1200, 2, Prize.PLACE),
        ("e4", 1000, 5, Prize.LOWEST),
    ]


def test_a_tie_for_the_lowest_shares_the_poedel() -> None:
    result = RoundResult(
        1, (table(1, "e1", "e2", (1500, 1000)), table(2, "e3", "e4", (1300, 1000))), ("e5",), True
    )
    evening = evening_standing([result], SitOutRule(SitOut.ROUND_AVERAGE), PrizeRule(top=1))
    # e5 sits out: (1500 + 1000 + 1300 + 1000) / 4 = 4800 / 4 = 1200.
    # e1 1500 (1), e3 1300 (2), e5 1200 (3), e2 and e4 1000 (both 4): the poedel twice
    assert [(r.player, r.total, r.rank, r.prize) for r in evening.rows] == [
        ("e1", 1500, 1, Prize.PLACE),
        ("e3", 1300, 2, None),
        ("e5", 1200, 3, None),
        ("e2", 1000, 4, Prize.LOWEST),
        ("e4", 1000, 4, Prize.LOWEST),
    ]


def test_a_pairs_table_closed_unfinished_counts_what_was_entered() -> None:
    tables = (table(1, "e1", "e2", (1500, 1100)), table(2, "e3", "e4", (700, 540), False))
    closed = round_standing(RoundResult(1, tables, ("e5",), True), SitOutRule(SitOut.ROUND_LOWEST))
    # e5 sits out on the lowest of the finished game (1500, 1100): 1100, not the short 540
    assert points(closed) == {"e1": 1500, "e2": 1100, "e3": 700, "e4": 540, "e5": 1100}
    assert [t.state for t in closed.tables] == [Mark.FINISHED, Mark.UNFINISHED]
    assert {s.player: s.mark for s in closed.scores} == {
        "e1": Mark.FINISHED, "e2": Mark.FINISHED, "e3": Mark.UNFINISHED,
        "e4": Mark.UNFINISHED, "e5": Mark.SAT_OUT,
    }  # fmt: skip
    # while the round is open the table is still playing, its score so far counted
    live = round_standing(RoundResult(1, tables, ("e5",)), SitOutRule(SitOut.ROUND_LOWEST))
    assert [t.state for t in live.tables] == [Mark.FINISHED, Mark.PLAYING]
    assert points(live) == points(closed)


def test_a_missing_pairs_table_is_shown_and_its_pairs_score_nothing() -> None:
    tables = (table(1, "e1", "e2", (1500, 1100)), table(2, "e3", "e4", None, False))
    result = RoundResult(1, tables, ("e5",), True)
    evening = evening_standing([result], SitOutRule(SitOut.ROUND_AVERAGE), PrizeRule(top=1))
    # e5: the average of the finished game only, (1500 + 1100) / 2 = 1300; e3 and e4 0
    assert [(r.player, r.total, r.rank, r.prize) for r in evening.rows] == [
        ("e1", 1500, 1, Prize.PLACE),
        ("e5", 1300, 2, None),
        ("e2", 1100, 3, None),
        ("e3", 0, 4, Prize.LOWEST),
        ("e4", 0, 4, Prize.LOWEST),
    ]
    shown = json.loads(json.dumps(evening.to_dict()))  # JSON-ready, the individual shape
    (round_1,) = shown["rounds"]
    assert round_1["sit_out_points"] == 1300
    assert round_1["tables"] == [
        {"table": 1, "state": "finished", "totals": [1500, 1100], "seats": ["e1", "e2"]},
        {"table": 2, "state": "missing", "totals": None, "seats": ["e3", "e4"]},
    ]
    rows = {row["player"]: row for row in shown["standing"]}
    assert rows["e3"] == {
        "player": "e3", "total": 0, "rank": 4, "prize": "lowest", "played": 1, "sat_out": 0,
        "rounds": [{"points": 0, "mark": "missing"}],
    }  # fmt: skip
    assert rows["e5"]["rounds"] == [{"points": 1300, "mark": "sat_out"}]
    e2 = next(s for s in round_1["scores"] if s["player"] == "e2")
    assert e2 == {"player": "e2", "points": 1100, "mark": "finished", "rank": 3, "table": 1,
                  "team": 1, "penalty": 0}  # fmt: skip


def test_a_pair_twice_in_a_round_is_refused() -> None:
    with pytest.raises(ValueError, match="two different pairs"):
        table(1, "e1", "e1", (1500, 1100))
    with pytest.raises(ValueError, match="nothing entered"):
        table(1, "e1", "e2", None, finished=True)
    at_a_table_and_out = RoundResult(1, (table(1, "e1", "e2", (1500, 1100)),), ("e2",))
    with pytest.raises(ValueError, match="e2"):
        round_standing(at_a_table_and_out, SitOutRule(SitOut.FIXED, 1300))
