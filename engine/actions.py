"""Player actions and their text notation: ``pass``, ``trump:h``, ``Jh``, ``take``, ``leave``."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .cards import card_str, parse_card, parse_suit, suit_str
from .errors import NotationError


class Kind(StrEnum):
    PASS = "pass"
    TRUMP = "trump"
    PLAY = "play"
    TAKE = "take"
    LEAVE = "leave"


@dataclass(frozen=True, slots=True)
class Action:
    """One decision of one seat; ``value`` is the suit named or the card played."""

    kind: Kind
    value: int = -1

    def __str__(self) -> str:
        if self.kind is Kind.PLAY:
            return card_str(self.value)
        if self.kind is Kind.TRUMP:
            return f"trump:{suit_str(self.value)}"
        return self.kind.value

    @staticmethod
    def play(card: int) -> Action:
        return PLAYS[card]

    @staticmethod
    def trump(suit: int) -> Action:
        return _TRUMPS[suit]

    @staticmethod
    def parse(text: object) -> Action:
        """An action from its notation; a malformed one raises :class:`NotationError`."""
        if not isinstance(text, str):
            raise NotationError(f"unknown action {text!r}")
        if text in _SIMPLE:
            return _SIMPLE[text]
        if text.startswith("trump:"):
            return Action.trump(parse_suit(text[6:]))
        try:
            return Action.play(parse_card(text))
        except NotationError:
            raise NotationError(f"unknown action {text!r}") from None


PASS = Action(Kind.PASS)
TAKE = Action(Kind.TAKE)
LEAVE = Action(Kind.LEAVE)
_SIMPLE = {"pass": PASS, "take": TAKE, "leave": LEAVE}
PLAYS = tuple(Action(Kind.PLAY, c) for c in range(32))
_TRUMPS = tuple(Action(Kind.TRUMP, s) for s in range(4))
