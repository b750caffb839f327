"""The rule options of a game as one frozen value, with the presets of DESIGN.md §1."""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from enum import StrEnum
from typing import Any

from .errors import NotationError


class Variant(StrEnum):
    AMSTERDAM = "amsterdam"
    ROTTERDAM = "rotterdam"


class TrumpMode(StrEnum):
    BIDDING = "bidding"
    DEALER = "dealer"
    FORCED = "forced"
    TURNED = "turned"


class RoemMode(StrEnum):
    AUTO = "auto"
    CLAIM = "claim"


class PitBonus(StrEnum):
    ANY = "any"
    PLAYING = "playing"


class EndKind(StrEnum):
    TARGET = "target"
    DEALS = "deals"


TARGET_RANGE = (100, 10_000)
DEALS_RANGE = (1, 100)
STANDARD_DEALS = 16  # the standard length: solo and daily games, GET /rules' default


@dataclass(frozen=True, slots=True)
class Rules:
    """Every option that changes how a match is played or scored."""

    variant: Variant = Variant.AMSTERDAM
    trump_mode: TrumpMode = TrumpMode.BIDDING
    roem: RoemMode = RoemMode.AUTO
    pit_bonus: PitBonus = PitBonus.ANY
    end: EndKind = EndKind.TARGET
    end_value: int = 1500

    def __post_init__(self) -> None:
        for name, kind in (
            ("variant", Variant),
            ("trump_mode", TrumpMode),
            ("roem", RoemMode),
            ("pit_bonus", PitBonus),
            ("end", EndKind),
        ):
            value = getattr(self, name)
            try:
                object.__setattr__(self, name, kind(value))
            except ValueError:
                choices = ", ".join(k.value for k in kind)
                raise NotationError(f"{name} must be one of {choices}, not {value!r}") from None
        low, high = TARGET_RANGE if self.end is EndKind.TARGET else DEALS_RANGE
        if not isinstance(self.end_value, int) or isinstance(self.end_value, bool):
            raise NotationError(f"{self.end.value} must be a whole number")
        if not low <= self.end_value <= high:
            raise NotationError(f"{self.end.value} must be from {low} to {high}")

    @property
    def amsterdam(self) -> bool:
        return self.variant is Variant.AMSTERDAM

    def to_dict(self) -> dict[str, Any]:
        return {k: (v.value if isinstance(v, StrEnum) else v) for k, v in asdict(self).items()}

    @classmethod
    def from_dict(cls, data: object) -> Rules:
        """Options by name, on top of a ``preset`` when one is named."""
        if not isinstance(data, dict):
            raise NotationError("rules must be an object")
        data = dict(data)
        base = preset(data.pop("preset", "amsterdam"))
        if "target" in data:
            data["end"], data["end_value"] = EndKind.TARGET, data.pop("target")
        if "deals" in data:
            data["end"], data["end_value"] = EndKind.DEALS, data.pop("deals")
        unknown = set(data) - set(cls.__dataclass_fields__)
        if unknown:
            raise NotationError(f"unknown rule option {sorted(unknown)[0]!r}")
        return replace(base, **data)


PRESETS: dict[str, Rules] = {
    "amsterdam": Rules(),
    "rotterdam": Rules(variant=Variant.ROTTERDAM),
    "tournament": Rules(trump_mode=TrumpMode.DEALER, end_value=1001),
}


def preset(name: object) -> Rules:
    if not isinstance(name, str) or name not in PRESETS:
        raise NotationError(f"unknown preset {name!r}; choose from {', '.join(PRESETS)}")
    return PRESETS[name]
