"""What a client may choose, and the game's tables, described once by the server
(``GET /rules``).

Generated from the engine's rule options, presets and card tables (orders, points, roem,
the pit bonus), the protocol's limits, the CPU levels, the tournament formats and the score
sheet's limits, so no client (the web client included) types them out again.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import Any

from engine.cards import RANKS, SUITS
from engine.rules import (
    DEALS_RANGE,
    PRESETS,
    STANDARD_DEALS,
    TARGET_RANGE,
    PitBonus,
    RoemMode,
    Rules,
    TrumpMode,
    Variant,
)
from engine.scoring import PIT_BONUS
from engine.tables import (
    DEAL_POINTS,
    FOUR_ROEM,
    LAST_TRICK,
    PLAIN_ORDER,
    PLAIN_POINTS,
    RUN_ROEM,
    STUK_ROEM,
    TRUMP_ORDER,
    TRUMP_POINTS,
)

from ..core.levels import DEFAULT_LEVEL, LEVELS
from ..scoresheet.sheet import MAX_ROEM, ROEM_STEPS
from ..scoresheet.sheet import NAME_LENGTH as SHEET_NAME_LENGTH
from ..tournament.state import FORMATS
from ..wire.protocol import MOVE_SECONDS, NAME_LENGTH


def _choice(kind: type[StrEnum], default: StrEnum) -> dict[str, Any]:
    return {"values": [k.value for k in kind], "default": default.value}


def _suit(order: Sequence[int], points: Sequence[int]) -> dict[str, Any]:
    """A suit's ranks strongest first and each rank's card points, from the engine's
    tables (indexed by rank in natural order)."""
    ranks = sorted(range(len(RANKS)), key=lambda r: -order[r])
    return {"order": [RANKS[r] for r in ranks], "points": {RANKS[r]: points[r] for r in ranks}}


def cards() -> dict[str, Any]:
    """The suits, the ranks in natural order (runs follow it), and the trump suit's and a
    plain suit's order and points."""
    return {
        "suits": list(SUITS),
        "ranks": list(RANKS),
        "trump": _suit(TRUMP_ORDER, TRUMP_POINTS),
        "plain": _suit(PLAIN_ORDER, PLAIN_POINTS),
    }


def scoring() -> dict[str, Any]:
    """A deal's points, the last trick's, the pit bonus, and roem: a run by its length,
    four of a kind by rank, stuk."""
    runs = {str(n): RUN_ROEM[(1 << n) - 1] for n in range(1, 5) if RUN_ROEM[(1 << n) - 1]}
    return {
        "deal_points": DEAL_POINTS,
        "last_trick": LAST_TRICK,
        "pit_bonus": PIT_BONUS,
        "roem": {
            "run": runs,
            "four": {rank: FOUR_ROEM[r] for r, rank in enumerate(RANKS)},
            "stuk": STUK_ROEM,
        },
    }


def describe() -> dict[str, Any]:
    """The rule options, presets, limits, CPU levels, tournament formats and the game's
    tables, JSON-ready."""
    default = Rules()
    return {
        "options": {
            "variant": _choice(Variant, default.variant),
            "trump_mode": _choice(TrumpMode, default.trump_mode),
            "roem": _choice(RoemMode, default.roem),
            "pit_bonus": _choice(PitBonus, default.pit_bonus),
            "target": {
                "min": TARGET_RANGE[0],
                "max": TARGET_RANGE[1],
                "default": default.end_value,
            },
            "deals": {"min": DEALS_RANGE[0], "max": DEALS_RANGE[1], "default": STANDARD_DEALS},
        },
        "presets": {name: rules.to_dict() for name, rules in PRESETS.items()},
        "room": {
            "move_seconds": dict(zip(("min", "max", "default"), MOVE_SECONDS, strict=True)),
            "name_length": NAME_LENGTH,
        },
        "cpu": {"levels": list(LEVELS), "default": DEFAULT_LEVEL},
        "sheet": {"name_length": SHEET_NAME_LENGTH, "max_roem": MAX_ROEM, "roem_steps": ROEM_STEPS},
        "tournaments": {
            name: {
                "players": f.players,
                "rounds": f.rounds,
                "tables": f.tables,
                "preset": f.preset,
                "target": PRESETS[f.preset].end_value,
                "move_seconds": f.move_seconds,
            }
            for name, f in FORMATS.items()
        },
        "cards": cards(),
        "scoring": scoring(),
    }
