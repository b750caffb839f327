"""The house's prize rule: which places win, shared ranks, ties on a prize boundary, and the
poedel, every expectation worked out by hand."""

from __future__ import annotations

import pytest

from server.club.prizes import Prize, PrizeRule, award, prize_places, shared_ranks

pytestmark = pytest.mark.club

P, L = Prize.PLACE, Prize.LOWEST


@pytest.mark.parametrize(
    ("players", "rule", "places"),
    [
        # places 1-4, then every 4th counting on from 4: 8, 12, ..., 28 (32 > 30)
        (30, PrizeRule(top=4, every=4), [1, 2, 3, 4, 8, 12, 16, 20, 24, 28]),
        # top 3 and every 4th from there: 3 + 4 = 7, 11 (15 > 12)
        (12, PrizeRule(top=3, every=4), [1, 2, 3, 7, 11]),
        # one per 4 players, rounded up: ceil(18 / 4) = 5 prizes, so places 4 and 5 join 1-3
        (18, PrizeRule(top=3, per=4), [1, 2, 3, 4, 5]),
        # 30 players at one per 3: ceil(30 / 3) = 10, and 1-4 + every 4th are 10 already
        (30, PrizeRule(top=4, every=4, per=3), [1, 2, 3, 4, 8, 12, 16, 20, 24, 28]),
        # one per 2: ceil(30 / 2) = 15, the best places without one join: 5, 6, 7, 9, 10
        (30, PrizeRule(top=4, every=4, per=2), [*range(1, 11), 12, 16, 20, 24, 28]),
        # fewer players than top places
        (3, PrizeRule(top=4), [1, 2, 3]),
        (0, PrizeRule(top=4, per=4), []),
    ],
)
def test_prize_places(players: int, rule: PrizeRule, places: list[int]) -> None:
    assert prize_places(players, rule) == places


def test_equal_scores_share_a_rank() -> None:
    assert shared_ranks([90, 80, 80, 70]) == [1, 2, 2, 4]
    assert shared_ranks([5, 5, 5]) == [1, 1, 1]
    assert shared_ranks([]) == []
    with pytest.raises(ValueError, match="standing order"):
        shared_ranks([70, 80])


def test_a_tie_on_the_prize_boundary_shares_the_prize() -> None:
    # scores 100 90 80 70 70 60, places 1-4: the tie at rank 4 holds places 4 and 5, place 4
    # is a prize place, so both win it; rank 6 is the lowest score: the poedel
    assert award([1, 2, 3, 4, 4, 6], PrizeRule(top=4)) == [P, P, P, P, P, L]
    # a tie just outside: ranks 1 2 3 3 5 with places 1-2 holds places 3-4, neither a prize
    assert award([1, 2, 3, 3, 5], PrizeRule(top=2)) == [P, P, None, None, L]


def test_a_tie_that_holds_an_every_kth_place_shares_it() -> None:
    # 7 players, places 1-2 then every 3rd: 1, 2, 5; the tie at rank 4 holds places 4-5
    assert award([1, 2, 3, 4, 4, 6, 7], PrizeRule(top=2, every=3)) == [
        P, P, None, P, P, None, L,
    ]  # fmt: skip


def test_the_poedel() -> None:
    # tied lowest: both get it
    assert award([1, 2, 3, 3], PrizeRule(top=1)) == [P, None, L, L]
    # only the eligible (present every round): the last one is not, so rank 3 gets it
    assert award([1, 2, 3, 4], PrizeRule(top=1), [True, True, True, False]) == [
        P, None, L, None,
    ]  # fmt: skip
    # the house gives none
    assert award([1, 2, 3, 4], PrizeRule(top=1, lowest=False)) == [P, None, None, None]
    # a tiny field: the lowest already has a place prize, and gets only that
    assert award([1, 2, 3], PrizeRule(top=3)) == [P, P, P]
    # nobody eligible: no poedel
    assert award([1, 2], PrizeRule(top=1), [False, False]) == [P, None]


def test_a_rule_with_a_negative_count_is_refused() -> None:
    with pytest.raises(ValueError, match="top"):
        PrizeRule(top=-1)
    with pytest.raises(ValueError, match="every"):
        PrizeRule(every=-4)


def test_a_rule_reads_back_from_its_dict() -> None:
    rule = PrizeRule(top=4, every=4, per=3, lowest=False)
    assert PrizeRule.from_dict(rule.to_dict()) == rule
    with pytest.raises(ValueError, match="'places'"):
        PrizeRule.from_dict({"places": 4})
