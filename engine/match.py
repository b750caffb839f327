"""A match: deals with a rotating dealer until the target score or the deal count.

A match is its rules, its seed and its actions; :meth:`Match.from_record` replays them.
"""

from __future__ import annotations

from typing import Any

from .actions import Action
from .deal import Deal, Phase
from .errors import GameOver, NotationError
from .events import DealEnded, DealStarted, DealSummary, Event, MatchEnded
from .rules import Rules
from .scoring import match_over, match_winner


class Match:
    """The state of a match; :meth:`apply` is the one way to change it."""

    def __init__(self, rules: Rules, seed: int, first_dealer: int = 0) -> None:
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise NotationError(f"seed must be a whole number, not {seed!r}")
        if first_dealer not in range(4):
            raise NotationError(f"first dealer must be a seat 0-3, not {first_dealer!r}")
        self.rules = rules
        self.seed = seed
        self.first_dealer = first_dealer
        self.sheet: list[DealSummary] = []
        self.totals = [0, 0]
        self.winner: int | None = None
        self.actions: list[Action] = []
        self.deal = self._new_deal()

    def _new_deal(self) -> Deal:
        number = len(self.sheet)
        return Deal.shuffled(self.rules, self.seed, number, (self.first_dealer + number) & 3)

    # -- queries -------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.winner is not None

    @property
    def turn(self) -> int | None:
        return None if self.over else self.deal.turn

    @property
    def deal_number(self) -> int:
        return len(self.sheet)

    def legal_actions(self) -> list[Action]:
        """The legal actions now: none once the match is over (its last deal is done)."""
        return self.deal.legal_actions()

    def start_event(self) -> DealStarted:
        """The event that opened the current deal (private: project it per seat)."""
        d = self.deal
        return DealStarted(self.deal_number, d.dealer, d.dealt, d.turned)  # type: ignore[arg-type]

    # -- the one mutator -----------------------------------------------------------------

    def check(self, seat: int, action: Action) -> None:
        """Raise why ``action`` by ``seat`` is refused now; return quietly if allowed."""
        if self.over:
            raise GameOver("the match is over")
        self.deal.check(seat, action)

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Validate and apply ``action`` by ``seat``; return every event it caused."""
        self.check(seat, action)
        return self.perform(seat, action)

    def perform(self, seat: int, action: Action) -> list[Event]:
        """Apply ``action`` by ``seat`` that :meth:`check` has accepted, unchecked (the
        trusted path: an accepted action, or a log written only of accepted ones)."""
        events = self.deal.perform(seat, action)
        self.actions.append(action)
        if self.deal.phase is Phase.DONE:
            events.extend(self._end_deal())
        return events

    def _end_deal(self) -> list[Event]:
        d = self.deal
        assert d.result is not None
        summary = DealSummary(self.deal_number, d.dealer, d.trump, d.chooser, d.result)
        self.sheet.append(summary)
        self.totals[0] += d.result.score[0]
        self.totals[1] += d.result.score[1]
        totals = (self.totals[0], self.totals[1])
        events: list[Event] = [DealEnded(summary, totals)]
        if self._finished():
            self.winner = match_winner(totals)
            events.append(MatchEnded(totals, self.winner))
        else:
            self.deal = self._new_deal()
            events.append(self.start_event())
        return events

    def _finished(self) -> bool:
        totals = (self.totals[0], self.totals[1])
        return match_over(self.rules.end, self.rules.end_value, totals, len(self.sheet))

    # -- records -------------------------------------------------------------------------

    def to_record(self) -> dict[str, Any]:
        return {
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "first_dealer": self.first_dealer,
            "actions": [str(a) for a in self.actions],
        }

    @classmethod
    def from_record(cls, record: object) -> Match:
        """Replay a record, validating every action; a bad one raises naming its index."""
        if not isinstance(record, dict):
            raise NotationError("a match record must be an object")
        for key in ("rules", "seed", "actions"):
            if key not in record:
                raise NotationError(f"match record has no {key!r}")
        if not isinstance(record["actions"], list):
            raise NotationError("match record 'actions' must be a list")
        match = cls(Rules.from_dict(record["rules"]), record["seed"], record.get("first_dealer", 0))
        for index, text in enumerate(record["actions"]):
            try:
                match.apply(match.deal.turn, Action.parse(text))
            except (NotationError, GameOver) as err:
                raise NotationError(f"action {index} ({text!r}): {err}") from None
            except ValueError as err:
                raise type(err)(f"action {index} ({text!r}): {err}") from None
        return match
