"""What a client may choose, described once by the server (``GET /rules``).

Generated from the engine's rule options and presets, the protocol's limits, the CPU
levels, the tournament formats and the score sheet's limits, so no client (the web client
included) types them out again.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

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

from ..core.levels import DEFAULT_LEVEL, LEVELS
from ..scoresheet.sheet import MAX_ROEM, ROEM_STEPS
from ..scoresheet.sheet import NAME_LENGTH as SHEET_NAME_LENGTH
from ..tournament.state import FORMATS
from ..wire.protocol import MOVE_SECONDS, NAME_LENGTH


def _choice(kind: type[StrEnum], default: StrEnum) -> dict[str, Any]:
    return {"values": [k.value for k in kind], "default": default.value}


def describe() -> dict[str, Any]:
    """The rule options, presets, limits, CPU levels and tournament formats, JSON-ready."""
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
    }
