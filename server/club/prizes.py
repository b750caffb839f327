"""The house's prize rule: which places of a standing win a prize, and the prize for the
lowest score (the "poedel").

A place is a position in the standing, 1 to the number of players.  The ``top`` places win
(places 1-4), then every ``every``-th place counting on from the last top place (1-4 then
every 4th: 8, 12, 16, ...), then, while that is fewer than one prize per ``per`` players
(rounded up: 18 players at one per 4 need 5 prizes), the best places still without one.

Ties: equal scores share a rank (1, 2, 2, 4), and a tie holds the places from its rank on
(two players tied at rank 7 hold places 7 and 8).  Every player of a tie that holds a prize
place wins a place prize: the tie shares it (the house splits it or draws lots; the
software never tosses a coin), so a tie can mark more players than there are prize places.

The poedel goes to the lowest score among the players eligible for it (on an evening, those
present every round: a late arrival's short evening is no "lowest score"), to every one of
them when tied; a player who wins a place prize already (a tiny field) gets no poedel too:
one player, one prize.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class Prize(StrEnum):
    PLACE = "place"  # a prize place, shared by a tie that holds it
    LOWEST = "lowest"  # the poedel


@dataclass(frozen=True, slots=True)
class PrizeRule:
    """Places 1 to ``top``, then every ``every``-th place (0: none), at least one prize
    per ``per`` players (0: no minimum), and the poedel for the lowest score or not."""

    top: int = 3
    every: int = 0
    per: int = 0
    lowest: bool = True

    def __post_init__(self) -> None:
        for name in ("top", "every", "per"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise ValueError(f"the prize rule's {name} must be a whole number >= 0")

    def to_dict(self) -> dict[str, Any]:
        return {"top": self.top, "every": self.every, "per": self.per, "lowest": self.lowest}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PrizeRule:
        unknown = set(data) - {"top", "every", "per", "lowest"}
        if unknown:
            raise ValueError(f"unknown prize rule option {sorted(unknown)[0]!r}")
        return cls(**data)


def prize_places(players: int, rule: PrizeRule) -> list[int]:
    """The places that win a prize among ``players``, best first."""
    places = set(range(1, min(rule.top, players) + 1))
    if rule.every:
        places.update(range(rule.top + rule.every, players + 1, rule.every))
    if rule.per:
        needed = -(-players // rule.per)
        for place in range(1, players + 1):
            if len(places) >= needed:
                break
            places.add(place)
    return sorted(places)


def shared_ranks(scores: Sequence[Any]) -> list[int]:
    """The ranks of ``scores`` in standing order (best first), equal scores sharing a rank:
    ``[90, 80, 80, 70]`` ranks ``[1, 2, 2, 4]``."""
    ranks: list[int] = []
    for position, score in enumerate(scores):
        if position and score > scores[position - 1]:
            raise ValueError("scores must be in standing order, best first")
        same = position and score == scores[position - 1]
        ranks.append(ranks[-1] if same else position + 1)
    return ranks


def award(
    ranks: Sequence[int], rule: PrizeRule, eligible: Sequence[bool] | None = None
) -> list[Prize | None]:
    """Each player's prize, from the ranks of a standing in order (:func:`shared_ranks`);
    ``eligible`` says who may get the poedel (None: everyone)."""
    places = set(prize_places(len(ranks), rule))
    tied = Counter(ranks)
    prizes: list[Prize | None] = [
        Prize.PLACE if places.intersection(range(rank, rank + tied[rank])) else None
        for rank in ranks
    ]
    candidates = [i for i in range(len(ranks)) if eligible is None or eligible[i]]
    if rule.lowest and candidates:
        last = max(ranks[i] for i in candidates)
        for i in candidates:
            if ranks[i] == last and prizes[i] is None:
                prizes[i] = Prize.LOWEST
    return prizes


__all__ = ["Prize", "PrizeRule", "award", "prize_places", "shared_ranks"]
