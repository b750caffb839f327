"""Ratings: the Weng-Lin Bayesian rating (``openskill``'s Plackett-Luce model), pure.

Each player's skill is a normal belief ``(mu, sigma)``, new players at ``(25, 25/3)``; a
match of two teams of two updates the four beliefs from which team won.  The leaderboard
ranks by the *conservative* rating ``mu - 3 sigma``: a skill the player very likely has,
so a newcomer's few lucky wins do not top it.

A starter who abandoned the match (a CPU took their seat, or it was away at the end) scores a loss
whatever their team's result: their update is the one their team would get had it lost,
beside the same three others.  CPUs are never rated; a rated match has four human
starters, so no CPU ever stands in a rating update.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from openskill.models import PlackettLuce

MU = 25.0
SIGMA = MU / 3
Z = 3.0  # the conservative rating is mu - Z * sigma

Belief = tuple[float, float]  # (mu, sigma)

_MODEL = PlackettLuce(mu=MU, sigma=SIGMA)


def conservative(mu: float, sigma: float) -> float:
    return mu - Z * sigma


def rate_teams(teams: Sequence[Sequence[Belief]], winner: int) -> list[list[Belief]]:
    """The new beliefs of two teams after ``winner`` (0 or 1) won."""
    rated = _MODEL.rate(
        [[_MODEL.rating(mu=mu, sigma=sigma) for mu, sigma in team] for team in teams],
        ranks=[0, 1] if winner == 0 else [1, 0],
    )
    return [[(r.mu, r.sigma) for r in team] for team in rated]


def rate_match(
    starters: Sequence[str], winner: int, left: frozenset[str], current: Mapping[str, Belief]
) -> dict[str, Belief]:
    """Every starter's new belief: ``starters`` by seat (team ``t`` is seats ``t`` and
    ``t + 2``), ``winner`` the winning team, ``left`` the starters who abandoned (a loss for
    each), ``current`` every starter's belief before the match."""
    seats = [(starters[t], starters[t + 2]) for t in (0, 1)]
    teams = [[current[a], current[b]] for a, b in seats]
    new: dict[str, Belief] = {}
    outcomes = {winner: rate_teams(teams, winner)}
    for t, team in enumerate(seats):
        for i, player in enumerate(team):
            result = 1 - t if player in left else winner  # abandon = loss
            if result not in outcomes:
                outcomes[result] = rate_teams(teams, result)
            new[player] = outcomes[result][t][i]
    return new
