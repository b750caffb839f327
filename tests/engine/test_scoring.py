"""The scoring functions that played deals and the score sheet share (engine.scoring)."""

from __future__ import annotations

import pytest

from engine.rules import EndKind, PitBonus
from engine.scoring import PIT_BONUS, extra_deal, match_over, match_winner, score_deal

pytestmark = pytest.mark.engine

ANY, PLAYING = PitBonus.ANY, PitBonus.PLAYING


@pytest.mark.parametrize(
    ("points", "roem", "playing", "pit", "bonus", "nat", "score"),
    [
        ((90, 72), (0, 0), 0, None, ANY, False, (90, 72)),
        ((81, 81), (0, 0), 0, None, ANY, True, (0, 162)),  # a tie is nat
        ((81, 81), (20, 0), 0, None, ANY, False, (101, 81)),  # roem breaks it
        ((71, 91), (20, 0), 0, None, ANY, True, (0, 182)),  # 91 == 71 + 20: nat
        ((60, 102), (50, 20), 1, None, ANY, False, (110, 122)),
        ((60, 102), (70, 20), 1, None, ANY, True, (252, 0)),  # all roem to the others
        ((162, 0), (40, 0), 0, 0, ANY, False, (162 + 40 + PIT_BONUS, 0)),
        ((162, 0), (40, 0), 0, 0, PLAYING, False, (162 + 40 + PIT_BONUS, 0)),
        ((162, 0), (20, 0), 1, 0, ANY, True, (162 + 20 + PIT_BONUS, 0)),  # pit on them
        ((162, 0), (20, 0), 1, 0, PLAYING, True, (162 + 20, 0)),  # no bonus for them
    ],
)
def test_a_deal_is_scored(points, roem, playing, pit, bonus, nat, score) -> None:
    result = score_deal(points, roem, playing, pit, bonus)
    assert (result.nat, result.score, result.card_points) == (nat, score, points)
    assert sum(result.score) == 162 + sum(result.roem)  # nothing is lost or made


def test_a_match_ends_on_its_target_or_deals_never_on_equal_totals() -> None:
    target, deals = EndKind.TARGET, EndKind.DEALS
    assert not match_over(target, 1500, (1499, 1200), 12)
    assert match_over(target, 1500, (1500, 1200), 12)
    assert match_over(target, 1500, (1520, 1610), 13) and match_winner((1520, 1610)) == 1
    assert not match_over(target, 1500, (1600, 1600), 14)  # both over, equal: once more
    assert extra_deal(target, 1500, (1600, 1600), 14)
    assert not extra_deal(target, 1500, (1400, 1400), 14)
    assert not match_over(deals, 16, (1800, 1200), 15) and match_over(deals, 16, (1800, 1200), 16)
    assert not match_over(deals, 16, (1500, 1500), 16) and extra_deal(deals, 16, (1500, 1500), 16)
    assert match_over(deals, 16, (1500, 1520), 17) and match_winner((1500, 1520)) == 1
