"""Typed errors.  Each names what was wrong and carries a stable ``code`` for the wire."""

from __future__ import annotations


class KlaverjasError(ValueError):
    """Base of every error the engine raises for bad input or a bad action."""

    code = "invalid"


class NotationError(KlaverjasError):
    """A malformed card, suit, hand, action or record."""

    code = "bad_notation"


class IllegalAction(KlaverjasError):
    """An action the rules do not allow now; the game is left unchanged."""

    code = "illegal_action"


class WrongPhase(IllegalAction):
    code = "wrong_phase"


class NotYourTurn(IllegalAction):
    code = "not_your_turn"


class CardNotInHand(IllegalAction):
    code = "card_not_in_hand"


class IllegalCard(IllegalAction):
    """A card in hand that the rules forbid now; ``reason`` says which rule."""

    code = "illegal_card"


class GameOver(IllegalAction):
    code = "game_over"
