"""Finished matches to publish as a room would: real records, played by random CPUs."""

from __future__ import annotations

import functools
import random

from engine import Match, Rules
from engine.policies import RandomPolicy
from engine.views import view


@functools.cache
def won_by(team: int, deals: int = 1) -> Match:
    """A match of ``deals`` deals that ``team`` won (the first seed that gives it)."""
    for seed in range(200):
        match = Match(Rules.from_dict({"deals": deals}), seed)
        rng = random.Random(seed)
        while not match.over:
            match.apply(match.turn, RandomPolicy().act(view(match, match.turn), rng))
        if match.winner == team:
            return match
    raise AssertionError(f"no seed of 200 gives team {team} the match")


def ending(match: Match) -> dict:
    """A finished match's fields of ``MatchEnded``: its winner, totals, record and scores."""
    return {
        "winner": match.winner,
        "totals": (match.totals[0], match.totals[1]),
        "record": match.to_record(),
        "scores": tuple((d.result.score[0], d.result.score[1]) for d in match.sheet),
    }
