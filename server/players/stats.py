"""What a player did in a match, for their profile: counted from the match's score sheet.

Pure: the profiles' subscriber counts it from the match's record when the match ends.  A
starter who left (a CPU took the seat) is counted for the deals finished before they
left.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.events import DealSummary
from engine.rules import PitBonus, Rules
from engine.scoring import PIT_BONUS


@dataclass(frozen=True, slots=True)
class SeatStats:
    """One seat's part of a match: ``points`` its team's deal scores, ``chooser`` the deals
    in which it named trump and ``nat`` those of them lost; ``pits`` the deals its team took
    every trick; ``roem`` its team's roem (without pit bonuses)."""

    deals: int = 0
    points: int = 0
    chooser: int = 0
    nat: int = 0
    pits: int = 0
    roem: int = 0


def seat_stats(rules: Rules, sheet: Sequence[DealSummary], seat: int) -> SeatStats:
    """``seat``'s stats over the deals of ``sheet``."""
    team = seat & 1
    points = chooser = nat = pits = roem = 0
    for deal in sheet:
        result = deal.result
        points += result.score[team]
        roem += result.roem[team]
        if deal.chooser == seat:
            chooser += 1
            nat += result.nat
        if result.pit == team:
            pits += 1
            if rules.pit_bonus is PitBonus.ANY or team == deal.chooser & 1:
                roem -= PIT_BONUS
    return SeatStats(len(sheet), points, chooser, nat, pits, roem)
