"""Tournaments: a pure state machine (:mod:`.state`) driven by an actor (:mod:`.actor`)."""

from .actor import TournamentActor
from .state import FORMATS, Tournament, TournamentError

__all__ = ["FORMATS", "Tournament", "TournamentActor", "TournamentError"]
