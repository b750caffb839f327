"""A club's season against hand-computed cases: best K of M, the average of the best K,
dropping the lowest D, periods (by count and by dates), minimum attendance, a points
champion who is not the champion, the poedel, each player's evening history, and the CSV
read back."""

from __future__ import annotations

import csv
import io
from datetime import date, timedelta

import pytest

from server.club.prizes import Prize, PrizeRule
from server.club.season import Evening, SeasonRule, Status, season_standing
from server.club.standings import RoundResult, SitOut, SitOutRule, TableResult, evening_standing

pytestmark = pytest.mark.club

C, D, A = Status.COUNTED, Status.DROPPED, Status.ABSENT
TOP_1 = PrizeRule(top=1)


def season(*players: tuple[str, list[int | None]]) -> list[Evening]:
    """Weekly evenings from Friday 2025-09-05, from each player's totals by evening (None:
    absent)."""
    count = len(players[0][1])
    days = [date(2025, 9, 5) + timedelta(weeks=i) for i in range(count)]
    return [
        Evening(days[i], {p: t[i] for p, t in players if t[i] is not None}) for i in range(count)
    ]


def table(standing) -> list[tuple]:
    return [(r.player, r.score_text, r.rank, r.prize) for r in standing.rows]


def statuses(standing, player: str) -> list[Status]:
    return [p.status for p in next(r for r in standing.rows if r.player == player).history]


def test_best_k_of_m() -> None:
    evenings = season(
        ("Ann", [4000, 3000, 3500, None]),  # best 2: 4000 + 3500 = 7500
        ("Bob", [3600, 3700, 3800, 3900]),  # best 2: 3900 + 3800 = 7700
        ("Cas", [5000, None, None, None]),  # only one evening: 5000
    )
    standing = season_standing(evenings, SeasonRule(best=2), TOP_1)
    assert table(standing) == [
        ("Bob", "7700", 1, Prize.PLACE),
        ("Ann", "7500", 2, None),
        ("Cas", "5000", 3, Prize.LOWEST),
    ]
    assert statuses(standing, "Ann") == [C, D, C, A]
    assert statuses(standing, "Bob") == [D, D, C, C]
    assert statuses(standing, "Cas") == [C, A, A, A]
    assert standing.champions == ("Bob",)


def test_the_average_of_the_best_k_and_minimum_attendance() -> None:
    # "may miss 2, average of the best 3" of five evenings, at least 3 to qualify
    evenings = season(
        ("Ann", [4000, 3000, 3500, None, 3200]),  # (4000 + 3500 + 3200) / 3 = 3566.67
        ("Bob", [3600, 3700, 3500, 3400, 3300]),  # (3700 + 3600 + 3500) / 3 = 3600
        ("Cas", [5000, 4000, None, None, None]),  # (5000 + 4000) / 2 = 4500, but 2 < 3
    )
    rule = SeasonRule(best=3, average=True, minimum=3)
    standing = season_standing(evenings, rule, TOP_1)
    # the qualified ranked, the poedel among them (Ann); Cas listed after them, unranked
    assert table(standing) == [
        ("Bob", "3600", 1, Prize.PLACE),
        ("Ann", "3566.7", 2, Prize.LOWEST),
        ("Cas", "4500", None, None),
    ]
    assert [(r.attended, r.qualified) for r in standing.rows] == [(5, True), (4, True), (2, False)]
    assert statuses(standing, "Ann") == [C, D, C, A, C]
    assert standing.prize_places == (1,)  # among the 2 qualified


def test_an_average_is_shown_rounded_half_up_to_one_decimal() -> None:
    evenings = season(
        ("Ann", [3000, 3500, 3765, 4000]),  # 14265 / 4 = 3566.25: shown 3566.3
        ("Bob", [3001, 3002, None, None]),  # 6003 / 2 = 3001.5
    )
    standing = season_standing(evenings, SeasonRule(average=True), TOP_1)
    assert table(standing) == [
        ("Ann", "3566.3", 1, Prize.PLACE),
        ("Bob", "3001.5", 2, Prize.LOWEST),
    ]


def test_drop_the_lowest_d_where_a_missed_evening_is_dropped_first() -> None:
    # five evenings held, drop 2: everyone counts at most 3
    evenings = season(
        ("Ann", [3000, 3500, 4000, 2500, 3700]),  # 4000 + 3700 + 3500 = 11200
        ("Bob", [None, 3600, None, 3800, 3900]),  # the two missed are dropped: 11300
        ("Cas", [4000, None, None, None, 4100]),  # 4000 + 4100 = 8100
        ("Dan", [3700, 3500, 4000, None, None]),  # 3700 + 3500 + 4000 = 11200, Ann's
    )
    standing = season_standing(evenings, SeasonRule(drop=2), PrizeRule(top=2))
    # ranks 1, 2, 2, 4; the tie at rank 2 holds places 2-3, place 2 is a prize: both
    assert table(standing) == [
        ("Bob", "11300", 1, Prize.PLACE),
        ("Ann", "11200", 2, Prize.PLACE),
        ("Dan", "11200", 2, Prize.PLACE),
        ("Cas", "8100", 4, Prize.LOWEST),
    ]
    assert statuses(standing, "Ann") == [D, C, C, D, C]
    assert statuses(standing, "Bob") == [A, C, A, C, C]


def test_periods_by_count_best_k_of_each_then_the_best_periods() -> None:
    # nine evenings in periods of three: the best 2 of each period, then the best 2 periods
    evenings = season(
        # periods 3400 + 3200 = 6600, 4000 + 3500 = 7500, 2100 + 2200 = 4300: 7500 + 6600
        ("Ann", [3000, 3400, 3200, 4000, None, 3500, 2000, 2100, 2200]),
        # periods 3500 + 3500 = 7000 (the earlier two), 3200 + 3100 = 6300, 3600 + 3700 =
        # 7300: 7300 + 7000 = 14300
        ("Bob", [3500, 3500, 3500, 3000, 3100, 3200, 3600, 3700, None]),
    )
    rule = SeasonRule(best=2, period_length=3, best_periods=2)
    standing = season_standing(evenings, rule, TOP_1)
    assert table(standing) == [("Bob", "14300", 1, Prize.PLACE), ("Ann", "14100", 2, Prize.LOWEST)]
    assert statuses(standing, "Ann") == [D, C, C, C, A, C, D, D, D]
    assert statuses(standing, "Bob") == [C, C, D, D, D, D, C, C, A]
    # without the best periods every period counts: Ann 6600 + 7500 + 4300 = 18400,
    # Bob 7000 + 6300 + 7300 = 20600
    every = season_standing(evenings, SeasonRule(best=2, period_length=3), TOP_1)
    assert table(every) == [("Bob", "20600", 1, Prize.PLACE), ("Ann", "18400", 2, Prize.LOWEST)]


def test_periods_by_start_dates() -> None:
    days = [date(2025, 9, 5), date(2025, 10, 3), date(2025, 12, 5), date(2026, 1, 9),
            date(2026, 2, 6)]  # fmt: skip
    ann = [3000, 3500, None, 3300, 3100]
    bob = [4000, None, None, None, None]
    evenings = [
        Evening(d, {p: t for p, t in (("Ann", a), ("Bob", b)) if t is not None})
        for d, a, b in zip(days, ann, bob, strict=True)
    ]
    rule = SeasonRule(best=1, period_starts=(date(2025, 9, 1), date(2026, 1, 1)))
    standing = season_standing(evenings, rule, TOP_1)
    # autumn: Ann's best 3500; winter: Ann's best 3300: 6800.  Bob: autumn 4000.
    assert table(standing) == [("Ann", "6800", 1, Prize.PLACE), ("Bob", "4000", 2, Prize.LOWEST)]
    assert statuses(standing, "Ann") == [D, C, A, C, D]
    late = SeasonRule(best=1, period_starts=(date(2025, 10, 1),))
    with pytest.raises(ValueError, match="2025-09-05"):
        season_standing(evenings, late, TOP_1)


def test_the_points_champion_need_not_be_the_champion() -> None:
    evenings = season(
        ("Ann", [4000, 4000, None]),  # best 2: 8000; plain 8000
        ("Bob", [3000, 3000, 3000]),  # best 2: 6000; plain 9000
    )
    standing = season_standing(evenings, SeasonRule(best=2), TOP_1)
    assert standing.champions == ("Ann",)
    assert standing.points_champions == ("Bob",)
    # the points champion regardless of attendance: unqualified still counts
    strict = season_standing(evenings, SeasonRule(best=2, minimum=3), TOP_1)
    assert table(strict) == [("Bob", "6000", 1, Prize.PLACE), ("Ann", "8000", None, None)]
    assert strict.points_champions == ("Bob",)


def test_the_csv_reads_back() -> None:
    cas = 'Cas "de Haan", jr.'  # quotes and a comma: the csv module quotes it
    evenings = season(
        ("Ann", [4000, 3000, 3500, None, 3200]),
        ("Bob", [3600, 3700, 3500, 3400, 3300]),
        (cas, [5000, 4000, None, None, None]),
    )
    standing = season_standing(evenings, SeasonRule(best=3, average=True, minimum=3), TOP_1)
    rows = list(csv.reader(io.StringIO(standing.to_csv())))
    header = ["rank", "player", "score", "total", "attended", "qualified", "prize",
              "points_champion", "2025-09-05", "2025-09-12", "2025-09-19", "2025-09-26",
              "2025-10-03"]  # fmt: skip
    assert rows == [
        header,
        # Bob: 3600+3700+3500+3400+3300 = 17500 in all, the most: the points champion
        ["1", "Bob", "3600", "17500", "5", "yes", "place", "yes",
         "3600", "3700", "3500", "(3400)", "(3300)"],
        # Ann: 4000+3000+3500+3200 = 13700
        ["2", "Ann", "3566.7", "13700", "4", "yes", "lowest", "",
         "4000", "(3000)", "3500", "", "3200"],
        ["", cas, "4500", "9000", "2", "no", "", "", "5000", "4000", "", "", ""],
    ]  # fmt: skip


def test_a_season_of_evening_standings() -> None:
    fixed = SitOutRule(SitOut.FIXED, 1000)

    def night(players: str, totals: tuple[int, int]) -> Evening:
        seats = tuple(players.split())
        round_ = RoundResult(1, (TableResult(1, seats, totals, True),), closed=True)  # type: ignore[arg-type]
        return Evening.of(date(2025, 9, 5), evening_standing([round_], fixed, TOP_1))

    first = night("Ann Bob Cas Dirk", (1500, 1100))
    assert first.totals == {"Ann": 1500, "Cas": 1500, "Bob": 1100, "Dirk": 1100}
    second = Evening(date(2025, 9, 12), night("Ann Bob Cas Eva", (900, 1700)).totals)
    standing = season_standing([second, first], SeasonRule(), PrizeRule(top=1, lowest=False))
    # Ann 1500 + 900 = 2400, Bob 1100 + 1700 = 2800, Cas 1500 + 900 = 2400, Dirk 1100,
    # Eva 1700; the evenings in date order whatever order they came in
    assert table(standing) == [
        ("Bob", "2800", 1, Prize.PLACE), ("Ann", "2400", 2, None), ("Cas", "2400", 2, None),
        ("Eva", "1700", 4, None), ("Dirk", "1100", 5, None),
    ]  # fmt: skip
    assert standing.dates == (date(2025, 9, 5), date(2025, 9, 12))


def test_contradictory_rules_are_refused() -> None:
    with pytest.raises(ValueError, match="not both"):
        SeasonRule(best=5, drop=2)
    with pytest.raises(ValueError, match="needs periods"):
        SeasonRule(best_periods=5)
    with pytest.raises(ValueError, match="increase"):
        SeasonRule(period_starts=(date(2026, 1, 1), date(2025, 9, 1)))
