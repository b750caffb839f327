"""A round's and an evening's standing against hand-computed cases: a sit-out under each
rule, ties and a tie on a prize boundary, a table closed unfinished, a missing table, a
personal penalty, a late arrival and an early leaver, and a table read off a real score
sheet (the standing takes the sheet's scoring, not a copy of it)."""

from __future__ import annotations

import json

import pytest

from engine import Rules
from server.club.prizes import Prize, PrizeRule
from server.club.standings import (
    Mark,
    RoundResult,
    SitOut,
    SitOutRule,
    TableResult,
    evening_standing,
    round_standing,
    sit_out_points,
    table_result,
)
from server.scoresheet.sheet import Draft, Sheet, created

pytestmark = pytest.mark.club

FIXED_1600 = SitOutRule(SitOut.FIXED, 1600)
ROUND_LOWEST = SitOutRule(SitOut.ROUND_LOWEST)
EVENING_LOWEST = SitOutRule(SitOut.EVENING_LOWEST)
ROUND_AVERAGE = SitOutRule(SitOut.ROUND_AVERAGE)


def table(
    n: int, players: str, totals: tuple[int, int] | None, finished: bool = True, **penalties: int
) -> TableResult:
    """Table ``n``, its players by seat ("Ann Bob Cas Dirk": Ann and Cas are team 0)."""
    return TableResult(n, tuple(players.split()), totals, finished, penalties)  # type: ignore[arg-type]


def points(standing) -> dict[str, int]:
    return {s.player: s.points for s in standing.scores}


def marks(standing) -> dict[str, Mark]:
    return {s.player: s.mark for s in standing.scores}


# Two rounds of nine players, one sitting out each round.  Team totals: round 1 1700, 900,
# 1350, 1252; round 2 1100, 1500, 850, 1800.
ROUND_1 = RoundResult(
    1,
    (table(1, "Ann Bob Cas Dirk", (1700, 900)), table(2, "Eva Fred Gea Hans", (1350, 1252))),
    ("Ida",),
    closed=True,
)
ROUND_2 = RoundResult(
    2,
    (table(1, "Ann Eva Bob Ida", (1100, 1500)), table(2, "Cas Hans Dirk Gea", (850, 1800))),
    ("Fred",),
    closed=True,
)


@pytest.mark.parametrize(
    ("rule", "sat"),
    [
        (FIXED_1600, 1600),  # the house's fixed points
        (ROUND_LOWEST, 900),  # min(1700, 900, 1350, 1252)
        # (1700 + 900 + 1350 + 1252) / 4 = 5202 / 4 = 1300.5, half up: 1301
        (ROUND_AVERAGE, 1301),
        (EVENING_LOWEST, 900),  # given only this round: the round's lowest
    ],
)
def test_a_sit_out_under_each_rule(rule: SitOutRule, sat: int) -> None:
    standing = round_standing(ROUND_1, rule)
    assert standing.sit_out_points == sat
    (ida,) = [s for s in standing.scores if s.player == "Ida"]
    assert (ida.points, ida.mark, ida.table, ida.team) == (sat, Mark.SAT_OUT, None, None)
    # the players at the tables score their team's points, whatever the rule
    assert points(standing) == {
        "Ann": 1700, "Cas": 1700, "Bob": 900, "Dirk": 900,
        "Eva": 1350, "Gea": 1350, "Fred": 1252, "Hans": 1252, "Ida": sat,
    }  # fmt: skip


def test_the_evenings_lowest_is_the_lowest_game_of_every_round_given() -> None:
    # the lowest team total over both rounds: min(1700, 900, 1350, 1252, 1100, 1500, 850,
    # 1800) = 850 (round 2's table 2), so Ida's round-1 sit-out earns 850, not round 1's 900
    assert sit_out_points(ROUND_1, EVENING_LOWEST, [ROUND_1, ROUND_2]) == 850
    assert sit_out_points(ROUND_2, EVENING_LOWEST, [ROUND_1, ROUND_2]) == 850
    assert sit_out_points(ROUND_1, EVENING_LOWEST, [ROUND_1]) == 900  # after round 1 only


def test_an_evening_with_the_evenings_lowest_rule() -> None:
    evening = evening_standing([ROUND_1, ROUND_2], EVENING_LOWEST, PrizeRule(top=3))
    # round 1 + round 2, each sit-out 850:
    # Ann 1700 + 1100 = 2800   Bob 900 + 1100 = 2000   Cas 1700 + 850 = 2550
    # Dirk 900 + 850 = 1750    Eva 1350 + 1500 = 2850  Fred 1252 + 850 (sat) = 2102
    # Gea 1350 + 1800 = 3150   Hans 1252 + 1800 = 3052 Ida 850 (sat) + 1500 = 2350
    assert [(r.player, r.total, r.rank, r.prize) for r in evening.rows] == [
        ("Gea", 3150, 1, Prize.PLACE),
        ("Hans", 3052, 2, Prize.PLACE),
        ("Eva", 2850, 3, Prize.PLACE),
        ("Ann", 2800, 4, None),
        ("Cas", 2550, 5, None),
        ("Ida", 2350, 6, None),
        ("Fred", 2102, 7, None),
        ("Bob", 2000, 8, None),
        ("Dirk", 1750, 9, Prize.LOWEST),
    ]
    ida = next(r for r in evening.rows if r.player == "Ida")
    assert [(s.points, s.mark) for s in ida.scores] == [(850, Mark.SAT_OUT), (1500, Mark.FINISHED)]
    assert (ida.played, ida.sat_out) == (1, 1)
    assert evening.prize_places == (1, 2, 3)


def test_ties_share_ranks_and_a_tie_on_the_prize_boundary_shares_the_prize() -> None:
    result = RoundResult(
        1,
        (table(1, "Ann Bob Cas Dirk", (1600, 1400)), table(2, "Eva Fred Gea Hans", (1400, 1200))),
        closed=True,
    )
    # 1600: Ann, Cas (rank 1); 1400: Bob, Dirk, Eva, Gea (rank 3, places 3-6); 1200: Fred,
    # Hans (rank 7).  Places 1-4: the rank-3 tie holds places 3 and 4, so all four share it.
    assert [(s.player, s.rank) for s in round_standing(result, FIXED_1600).scores] == [
        ("Ann", 1), ("Cas", 1), ("Bob", 3), ("Dirk", 3), ("Eva", 3), ("Gea", 3),
        ("Fred", 7), ("Hans", 7),
    ]  # fmt: skip
    evening = evening_standing([result], FIXED_1600, PrizeRule(top=4))
    assert [(r.player, r.rank, r.prize) for r in evening.rows] == [
        ("Ann", 1, Prize.PLACE), ("Cas", 1, Prize.PLACE),
        ("Bob", 3, Prize.PLACE), ("Dirk", 3, Prize.PLACE),
        ("Eva", 3, Prize.PLACE), ("Gea", 3, Prize.PLACE),
        ("Fred", 7, Prize.LOWEST), ("Hans", 7, Prize.LOWEST),
    ]  # fmt: skip


def test_a_table_closed_unfinished_counts_what_was_entered() -> None:
    tables = (
        table(1, "Ann Bob Cas Dirk", (1700, 900)),
        table(2, "Eva Fred Gea Hans", (800, 620), finished=False),
    )
    closed = round_standing(RoundResult(1, tables, ("Ida",), closed=True), ROUND_LOWEST)
    assert points(closed) == {
        "Ann": 1700, "Cas": 1700, "Bob": 900, "Dirk": 900,
        "Eva": 800, "Gea": 800, "Fred": 620, "Hans": 620,
        "Ida": 900,  # the lowest of the finished games (1700, 900): not the short game's 620
    }  # fmt: skip
    assert [t.state for t in closed.tables] == [Mark.FINISHED, Mark.UNFINISHED]
    assert marks(closed)["Eva"] is Mark.UNFINISHED and marks(closed)["Ann"] is Mark.FINISHED
    # while the round is open the same table is still playing, its score so far shown
    live = round_standing(RoundResult(1, tables, ("Ida",), closed=False), ROUND_LOWEST)
    assert [t.state for t in live.tables] == [Mark.FINISHED, Mark.PLAYING]
    assert points(live) == points(closed)


def test_a_missing_table_is_shown_and_its_players_score_nothing() -> None:
    tables = (table(1, "Ann Bob Cas Dirk", (1700, 900)), table(2, "Eva Fred Gea Hans", None, False))
    standing = round_standing(RoundResult(3, tables, ("Ida",), closed=True), ROUND_AVERAGE)
    assert [(t.table, t.state, t.totals) for t in standing.tables] == [
        (1, Mark.FINISHED, (1700, 900)), (2, Mark.MISSING, None),
    ]  # fmt: skip
    # the average of the finished games only: (1700 + 900) / 2 = 1300
    assert points(standing) == {
        "Ann": 1700, "Cas": 1700, "Bob": 900, "Dirk": 900,
        "Eva": 0, "Fred": 0, "Gea": 0, "Hans": 0, "Ida": 1300,
    }  # fmt: skip
    assert {p for p, m in marks(standing).items() if m is Mark.MISSING} == {
        "Eva", "Fred", "Gea", "Hans",
    }  # fmt: skip
    # the same table in an open round has not started yet: playing, 0 so far
    open_round = round_standing(RoundResult(3, tables, ("Ida",)), ROUND_AVERAGE)
    assert [t.state for t in open_round.tables] == [Mark.FINISHED, Mark.PLAYING]


def test_no_prize_is_marked_before_anything_is_entered() -> None:
    drawn = RoundResult(1, (table(1, "Ann Bob Cas Dirk", None, False),), ("Eva",))
    before = evening_standing([drawn], FIXED_1600, PrizeRule(top=1, lowest=True))
    assert [r.prize for r in before.rows] == [None] * 5  # Eva's 1600 is no prize yet
    begun = RoundResult(1, (table(1, "Ann Bob Cas Dirk", (90, 72), False),), ("Eva",))
    after = evening_standing([begun], FIXED_1600, PrizeRule(top=1, lowest=True))
    assert [(r.player, r.prize) for r in after.rows] == [
        ("Eva", Prize.PLACE),
        ("Ann", None),
        ("Cas", None),
        ("Bob", Prize.LOWEST),
        ("Dirk", Prize.LOWEST),
    ]


def test_a_sit_out_before_any_game_is_finished_is_a_live_estimate() -> None:
    tables = (
        table(1, "Ann Bob Cas Dirk", (400, 300), finished=False),
        table(2, "Eva Fred Gea Hans", None, finished=False),
    )
    # no game finished: the lowest of what is entered, min(400, 300) = 300
    assert sit_out_points(RoundResult(1, tables, ("Ida",)), ROUND_LOWEST) == 300
    nothing = (
        table(1, "Ann Bob Cas Dirk", None, False),
        table(2, "Eva Fred Gea Hans", None, False),
    )
    assert sit_out_points(RoundResult(1, nothing, ("Ida",)), ROUND_LOWEST) == 0
    assert sit_out_points(RoundResult(1, nothing, ("Ida",)), ROUND_AVERAGE) == 0


def test_a_personal_penalty_is_the_offenders_alone() -> None:
    tables = (table(1, "Ann Bob Cas Dirk", (1700, 900), Bob=100),)
    standing = round_standing(RoundResult(1, tables, ("Ida",), closed=True), ROUND_LOWEST)
    # Bob: his team's 900 - his 100 = 800; his partner Dirk keeps 900; Ida sits out on the
    # lowest team total, 900 (a penalty is not a team's score)
    assert points(standing) == {"Ann": 1700, "Cas": 1700, "Dirk": 900, "Bob": 800, "Ida": 900}
    bob = next(s for s in standing.scores if s.player == "Bob")
    assert (bob.penalty, bob.team, bob.table, bob.rank) == (100, 1, 1, 5)


def test_a_late_arrival_and_an_early_leaver_appear_with_what_they_played() -> None:
    fixed = SitOutRule(SitOut.FIXED, 1000)
    rounds = [
        RoundResult(1, (table(1, "Ann Bob Cas Dirk", (1500, 1100)),), ("Leo",), True),
        RoundResult(2, (table(1, "Ann Leo Max Bob", (1200, 1400)),), ("Cas", "Dirk"), True),
        RoundResult(3, (table(1, "Cas Dirk Max Ann", (1300, 1000)),), ("Bob",), True),
    ]
    evening = evening_standing(rounds, fixed, PrizeRule(top=1))
    # Ann 1500 + 1200 + 1000 = 3700      Bob 1100 + 1400 + 1000 (sat) = 3500
    # Cas 1500 + 1000 (sat) + 1300 = 3800 Dirk 1100 + 1000 (sat) + 1000 = 3100
    # Leo (leaves after round 2) 1000 (sat) + 1400 = 2400; Max (arrives for round 2)
    # 1200 + 1300 = 2500.  The poedel goes to the lowest of those there all evening: Dirk.
    assert [(r.player, r.total, r.rank, r.prize, r.played, r.sat_out) for r in evening.rows] == [
        ("Cas", 3800, 1, Prize.PLACE, 2, 1),
        ("Ann", 3700, 2, None, 3, 0),
        ("Bob", 3500, 3, None, 2, 1),
        ("Dirk", 3100, 4, Prize.LOWEST, 2, 1),
        ("Max", 2500, 5, None, 2, 0),
        ("Leo", 2400, 6, None, 1, 1),
    ]
    rows = {r.player: r for r in evening.rows}
    assert [None if s is None else s.points for s in rows["Max"].scores] == [None, 1200, 1300]
    assert [None if s is None else s.points for s in rows["Leo"].scores] == [1000, 1400, None]
    assert not rows["Max"].present and not rows["Leo"].present and rows["Dirk"].present

    shown = json.loads(json.dumps(evening.to_dict()))  # JSON-ready
    assert shown["round_numbers"] == [1, 2, 3]
    leo = next(r for r in shown["standing"] if r["player"] == "Leo")
    assert leo == {
        "player": "Leo", "total": 2400, "rank": 6, "prize": None, "played": 1, "sat_out": 1,
        "rounds": [{"points": 1000, "mark": "sat_out"}, {"points": 1400, "mark": "finished"},
                   None],
    }  # fmt: skip
    assert shown["rounds"][1]["sit_out_points"] == 1000
    assert shown["rounds"][0]["tables"][0]["totals"] == [1500, 1100]


def test_a_sit_out_rule_reads_back_from_its_dict() -> None:
    for rule in (FIXED_1600, ROUND_LOWEST, EVENING_LOWEST, ROUND_AVERAGE):
        assert SitOutRule.from_dict(rule.to_dict()) == rule
    assert SitOutRule.from_dict({"kind": "round_average"}) == ROUND_AVERAGE
    with pytest.raises(ValueError, match="no fixed points"):
        SitOutRule(SitOut.ROUND_LOWEST, 1600)
    with pytest.raises(ValueError):
        SitOutRule.from_dict({"kind": "coin_toss"})


def test_someone_placed_twice_in_a_round_is_refused() -> None:
    result = RoundResult(1, (table(1, "Ann Bob Cas Dirk", (1700, 900)),), ("Ann",))
    with pytest.raises(ValueError, match="Ann"):
        round_standing(result, FIXED_1600)
    with pytest.raises(ValueError, match="Zed"):
        table(1, "Ann Bob Cas Dirk", (1700, 900), Zed=50)


def test_the_standing_takes_a_tables_totals_from_its_score_sheet() -> None:
    first = created("p_ann", 0.0, None, ("Ann", "Bob", "Cas", "Dirk"), 0,
                    Rules.from_dict({"deals": 2}))  # fmt: skip
    sheet = Sheet.from_log("s_1", [first])

    def enter(draft: Draft) -> None:
        for entry in sheet.enter("p_ann", 1.0, sheet.version, draft):
            sheet.apply(entry)

    # deal 1: Ann & Cas play, 100 card points + 20 roem = 120 against 62: made, (120, 62)
    enter(Draft(playing=0, points=(100, None), roem=(20, 0)))
    live = table_result(1, sheet)
    assert (live.totals, live.finished) == ((120, 62), False)
    # deal 2: Bob & Dirk play and take 72 against 90: nat, so Ann & Cas get all 162: (162, 0)
    enter(Draft(playing=1, points=(90, None), roem=(0, 0)))
    done = table_result(1, sheet, {"Dirk": 50})
    # totals 120 + 162 = 282 and 62 + 0 = 62; the 2-deal game is over
    assert (done.seats, done.totals, done.finished) == (
        ("Ann", "Bob", "Cas", "Dirk"),
        (282, 62),
        True,
    )
    standing = round_standing(RoundResult(1, (done,), closed=True), FIXED_1600)
    assert points(standing) == {"Ann": 282, "Cas": 282, "Bob": 62, "Dirk": 12}  # 62 - 50
    assert standing.tables[0].state is Mark.FINISHED
