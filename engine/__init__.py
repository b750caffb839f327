"""The pure Klaverjas rules engine: no I/O, no clock, no asyncio.

Read in this order: :mod:`cards` (notation, masks), :mod:`rules` (options and presets),
:mod:`legal` and :mod:`trick` (the rules of play), :mod:`scoring` (what a deal is worth,
when a match ends), :mod:`deal` (one deal's state machine),
:mod:`match`, :mod:`views` (what each seat may know), :mod:`record` (JSON records),
:mod:`policies` (CPU players).
"""

from __future__ import annotations

from .actions import LEAVE, PASS, TAKE, Action, Kind
from .cards import card_str, cards_of, mask_of, parse_card, parse_cards, parse_hands
from .deal import Deal, Phase
from .errors import (
    CardNotInHand,
    GameOver,
    IllegalAction,
    IllegalCard,
    KlaverjasError,
    NotationError,
    NotYourTurn,
    WrongPhase,
)
from .events import DealResult, DealSummary, Event, Trick
from .match import Match
from .rules import PRESETS, EndKind, PitBonus, RoemMode, Rules, TrumpMode, Variant, preset
from .views import View, project, view

__all__ = [
    "LEAVE",
    "PASS",
    "PRESETS",
    "TAKE",
    "Action",
    "CardNotInHand",
    "Deal",
    "DealResult",
    "DealSummary",
    "EndKind",
    "Event",
    "GameOver",
    "IllegalAction",
    "IllegalCard",
    "Kind",
    "KlaverjasError",
    "Match",
    "NotYourTurn",
    "NotationError",
    "Phase",
    "PitBonus",
    "RoemMode",
    "Rules",
    "Trick",
    "TrumpMode",
    "Variant",
    "View",
    "WrongPhase",
    "card_str",
    "cards_of",
    "mask_of",
    "parse_card",
    "parse_cards",
    "parse_hands",
    "preset",
    "project",
    "view",
]
