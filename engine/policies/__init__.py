"""CPU players: policies that choose an action from a seat's view only."""

from __future__ import annotations

from .base import Policy
from .heuristic import HeuristicPolicy
from .random import RandomPolicy
from .strong import DEFAULT_BUDGET, Advice, StrongPolicy

POLICIES: dict[str, type[Policy]] = {
    "random": RandomPolicy,
    "heuristic": HeuristicPolicy,
    "strong": StrongPolicy,
}


def policy(name: str, budget: int | None = None) -> Policy:
    """A policy by name (``random``, ``heuristic`` or ``strong``); ``budget`` (worlds a
    decision) applies to ``strong`` only, else its default."""
    try:
        kind = POLICIES[name]
    except KeyError:
        raise ValueError(f"unknown policy {name!r}; choose from {', '.join(POLICIES)}") from None
    if kind is StrongPolicy and budget is not None:
        return StrongPolicy(budget)
    return kind()


__all__ = [
    "DEFAULT_BUDGET",
    "POLICIES",
    "Advice",
    "HeuristicPolicy",
    "Policy",
    "RandomPolicy",
    "StrongPolicy",
    "policy",
]
