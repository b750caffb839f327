"""CPU players: policies that choose an action from a seat's view only."""

from __future__ import annotations

from .base import Policy
from .heuristic import HeuristicPolicy
from .random import RandomPolicy

POLICIES: dict[str, type[Policy]] = {"random": RandomPolicy, "heuristic": HeuristicPolicy}


def policy(name: str) -> Policy:
    """A policy by name (``random`` or ``heuristic``)."""
    try:
        return POLICIES[name]()
    except KeyError:
        raise ValueError(f"unknown policy {name!r}; choose from {', '.join(POLICIES)}") from None


__all__ = ["POLICIES", "HeuristicPolicy", "Policy", "RandomPolicy", "policy"]
