"""Scoring, as pure functions of the counts: what a finished deal is worth, and when a match
is over.  A played deal (:class:`~engine.deal.Deal`) and match (:class:`~engine.match.Match`)
score through these, and so does the score sheet of a game played with real cards
(``server/sheet``), so the two can never disagree.

A deal: the playing team must score more than the other team, card points and roem
together; otherwise (a tie too) it is nat: the playing team scores 0 and the other team
162 plus all the roem of the deal, both teams' and any pit bonus.  A team that took all
eight tricks (pit) earns :data:`PIT_BONUS` as roem, with ``pit_bonus: playing`` only if it
is the playing team.

A match ends after a deal in which a team has reached the target (or once the number of
deals is played) and the totals differ: the higher total wins; equal totals play another
deal.
"""

from __future__ import annotations

from .events import DealResult
from .rules import EndKind, PitBonus
from .tables import DEAL_POINTS

PIT_BONUS = 100


def score_deal(
    points: tuple[int, int],
    roem: tuple[int, int],
    playing: int,
    pit: int | None,
    pit_bonus: PitBonus,
) -> DealResult:
    """A deal's result from each team's card points (the last trick's 10 included), each
    team's roem, the playing team, and the team that took every trick (None: neither)."""
    bonus = [0, 0]
    if pit is not None and (pit_bonus is PitBonus.ANY or pit == playing):
        bonus[pit] = PIT_BONUS
    with_bonus = (roem[0] + bonus[0], roem[1] + bonus[1])
    total = [points[0] + with_bonus[0], points[1] + with_bonus[1]]
    other = 1 - playing
    nat = total[playing] <= total[other]
    if nat:
        total[playing] = 0
        total[other] = DEAL_POINTS + with_bonus[0] + with_bonus[1]
    return DealResult(
        (points[0], points[1]), with_bonus, nat, pit, (total[0], total[1]), (bonus[0], bonus[1])
    )


def match_over(end: EndKind, end_value: int, totals: tuple[int, int], deals: int) -> bool:
    """Whether a match with these ``totals`` after ``deals`` deals has ended."""
    a, b = totals
    if a == b:
        return False  # equal totals: another deal
    if end is EndKind.TARGET:
        return max(a, b) >= end_value
    return deals >= end_value


def extra_deal(end: EndKind, end_value: int, totals: tuple[int, int], deals: int) -> bool:
    """Whether the match would have ended but for equal totals (another deal is played)."""
    a, b = totals
    reached = max(a, b) >= end_value if end is EndKind.TARGET else deals >= end_value
    return a == b and reached


def match_winner(totals: tuple[int, int]) -> int:
    """The winning team of an ended match: the higher total."""
    return 0 if totals[0] > totals[1] else 1
