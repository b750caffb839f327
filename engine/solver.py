"""The exact open-card solver: every legal action's value with all four hands known.

A value is the final deal total of the mover's team minus the other team's (card points,
last trick, roem with stuk, pit bonus, nat with ties nat), when every later play and
take/leave decision is best for its side.  The search runs in the compiled
``engine._solver`` (built by ``pip install -e .``, i.e. ``make install``); the method is
described, and specified in plain Python, in :mod:`engine.solver_reference`, which the
tests hold the compiled solver to.
"""

from __future__ import annotations

from .actions import LEAVE, PLAYS, TAKE, Action
from .deal import Deal, Phase
from .rules import PitBonus, RoemMode
from .tables import LAST_TRICK

try:
    from . import _solver
except ImportError as err:  # pragma: no cover - a broken install
    raise ImportError(
        "engine._solver, the compiled solver, is not built: run `make install` "
        "(or `pip install -e .`) with gcc and the Python headers present"
    ) from err

__all__ = ["best", "last_nodes", "position", "solve", "solve_value", "solve_within"]

_CODES: tuple[Action, ...] = (*PLAYS, TAKE, LEAVE)


def position(deal: Deal) -> tuple[int, ...]:
    """The arguments of ``_solver.solve`` for ``deal`` (phase PLAY or CLAIM), without the
    last one (0: every action, 1: the best one)."""
    phase = deal.phase
    if phase is not Phase.PLAY and phase is not Phase.CLAIM:
        raise ValueError(f"nothing to solve in phase {phase}")
    p = deal.chooser & 1
    points = list(deal.points)
    pending = 0
    leader = deal.leader
    if phase is Phase.CLAIM:
        last = deal.tricks[-1]
        pending = last.roem
        if len(deal.tricks) == 8:  # the last trick's 10 is added when the deal is scored
            points[last.winner & 1] += LAST_TRICK
    m = points[p] + deal.roem[p] - points[1 - p] - deal.roem[1 - p]
    rules = deal.rules
    h = deal.hands
    return (
        h[0],
        h[1],
        h[2],
        h[3],
        tuple(deal.trick),
        leader,
        len(deal.tricks),
        (deal.won[0] > 0) | (deal.won[1] > 0) << 1,
        deal.trump,
        rules.amsterdam,
        rules.roem is RoemMode.CLAIM,
        p,
        rules.pit_bonus is PitBonus.ANY,
        m,
        deal.roem[0] + deal.roem[1],
        pending,
    )


def _sign(deal: Deal) -> int:
    return 1 if deal.turn & 1 == deal.chooser & 1 else -1


def solve(deal: Deal) -> dict[Action, int]:
    """Every legal action of the seat to move (phase PLAY or CLAIM) with its exact value
    for the mover's team, in legal order.  Does not modify ``deal``."""
    values = _solve(deal, 0)
    assert values is not None  # (no limit)
    return values


def solve_within(deal: Deal, limit: int) -> dict[Action, int] | None:
    """:func:`solve`, or None once the search has visited more than ``limit`` nodes (and
    :func:`last_nodes` says how many, a few more as it stopped): a bound on a solve's work
    that is the same on every machine."""
    if limit < 1:
        raise ValueError("the limit is at least one node")
    return _solve(deal, limit)


def _solve(deal: Deal, limit: int) -> dict[Action, int] | None:
    solved = _solver.solve(*position(deal), 0, limit)
    if solved is None:
        return None
    sign = _sign(deal)
    return {_CODES[code]: sign * g for code, g in solved}


def best(deal: Deal) -> tuple[Action, int]:
    """The best action and its value; on a tie the first in legal order (lowest card,
    take before leave).  Cheaper than :func:`solve`."""
    ((code, g),) = _solver.solve(*position(deal), 1)
    return _CODES[code], _sign(deal) * g


def solve_value(deal: Deal) -> int:
    """The value of the position for the team to move."""
    return best(deal)[1]


def last_nodes() -> int:
    """The number of search nodes the last solve in this process visited."""
    return _solver.nodes()
