"""Events: what an action caused, as tiny immutable values.

``DealStarted`` holds every hand; send it only through :func:`engine.views.project`,
which keeps each seat's own hand and drops the rest.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from .cards import card_str, cards_of, cards_str, suit_str
from .trick import NO_ROEM, RoemParts, roem_cards, roem_parts


class Trick(NamedTuple):
    """A finished trick (a named tuple: built eight times a deal on the hot path)."""

    leader: int
    cards: tuple[int, ...]
    winner: int
    points: int  # card points, without the last-trick 10
    roem: int  # roem scored by this trick (0 when left in claim mode)

    def to_dict(self) -> dict[str, Any]:
        return {
            "leader": self.leader,
            "cards": cards_str(self.cards),
            "winner": self.winner,
            "points": self.points,
            "roem": self.roem,
        }

    def roem_parts(self, trump: int) -> RoemParts:
        """The roem this trick scores, by kind: all 0 when it has none or it was left."""
        return roem_parts(self.cards, trump) if self.roem else NO_ROEM

    def shown(self, trump: int) -> dict[str, Any]:
        """As a view shows it: with the roem it scores by kind, and the cards behind it."""
        parts = self.roem_parts(trump)
        cards = cards_str(roem_cards(self.cards, trump, parts))
        return self.to_dict() | {"roem_parts": parts.to_dict(), "roem_cards": cards}


@dataclass(frozen=True, slots=True)
class DealResult:
    card_points: tuple[int, int]
    roem: tuple[int, int]  # each team's roem plus any pit bonus
    nat: bool
    pit: int | None  # the team that took all eight tricks
    score: tuple[int, int]
    bonus: tuple[int, int] = (0, 0)  # the pit bonus in ``roem``, per team

    def to_dict(self) -> dict[str, Any]:
        """As a record's ``result`` (the shared rule cases' shape: no ``bonus``)."""
        return {
            "card_points": list(self.card_points),
            "roem": list(self.roem),
            "nat": self.nat,
            "pit": self.pit,
            "score": list(self.score),
        }


@dataclass(frozen=True, slots=True)
class DealSummary:
    """One line of the score sheet: a finished deal."""

    number: int
    dealer: int
    trump: int
    chooser: int
    result: DealResult

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "dealer": self.dealer,
            "trump": suit_str(self.trump),
            "chooser": self.chooser,
            **self.result.to_dict(),
            "bonus": list(self.result.bonus),
        }


@dataclass(frozen=True, slots=True)
class DealStarted:
    number: int
    dealer: int
    hands: tuple[int, int, int, int]  # masks: private, see engine.views.project
    turned: int | None

    def to_dict(self, seat: int | None) -> dict[str, Any]:
        return {
            "type": "deal_started",
            "number": self.number,
            "dealer": self.dealer,
            "hand": cards_str(cards_of(self.hands[seat])) if seat is not None else [],
            "hand_sizes": [hand.bit_count() for hand in self.hands],
            "turned": card_str(self.turned) if self.turned is not None else None,
        }


@dataclass(frozen=True, slots=True)
class Passed:
    seat: int

    def to_dict(self, seat: int | None = None) -> dict[str, Any]:
        return {"type": "passed", "seat": self.seat}


@dataclass(frozen=True, slots=True)
class TrumpChosen:
    seat: int
    suit: int

    def to_dict(self, seat: int | None = None) -> dict[str, Any]:
        return {"type": "trump_chosen", "seat": self.seat, "suit": suit_str(self.suit)}


@dataclass(frozen=True, slots=True)
class CardPlayed:
    seat: int
    card: int

    def to_dict(self, seat: int | None = None) -> dict[str, Any]:
        return {"type": "card_played", "seat": self.seat, "card": card_str(self.card)}


@dataclass(frozen=True, slots=True)
class TrickTaken:
    number: int
    trick: Trick
    roem_pending: bool  # claim mode: the winner must take or leave the roem
    roem_parts: RoemParts  # the trick's roem by kind (pending ones included)

    def to_dict(self, seat: int | None = None) -> dict[str, Any]:
        trick = self.trick
        # a trick with stuk holds trumps, so the card that took it is a trump
        trump = trick.cards[(trick.winner - trick.leader) & 3] >> 3
        return {
            "type": "trick_taken",
            "number": self.number,
            **trick.to_dict(),
            "roem_parts": self.roem_parts.to_dict(),
            "roem_cards": cards_str(roem_cards(trick.cards, trump, self.roem_parts)),
            "roem_pending": self.roem_pending,
        }


@dataclass(frozen=True, slots=True)
class RoemDecided:
    seat: int
    take: bool
    roem: int

    def to_dict(self, seat: int | None = None) -> dict[str, Any]:
        return {"type": "roem_decided", "seat": self.seat, "take": self.take, "roem": self.roem}


@dataclass(frozen=True, slots=True)
class DealEnded:
    summary: DealSummary
    totals: tuple[int, int]

    def to_dict(self, seat: int | None = None) -> dict[str, Any]:
        return {"type": "deal_ended", **self.summary.to_dict(), "totals": list(self.totals)}


@dataclass(frozen=True, slots=True)
class MatchEnded:
    totals: tuple[int, int]
    winner: int

    def to_dict(self, seat: int | None = None) -> dict[str, Any]:
        return {"type": "match_ended", "totals": list(self.totals), "winner": self.winner}


Event = (
    DealStarted
    | Passed
    | TrumpChosen
    | CardPlayed
    | TrickTaken
    | RoemDecided
    | DealEnded
    | MatchEnded
)
