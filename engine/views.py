"""What one seat, or a spectator, may know: views and per-recipient event projections.

A seat sees its own hand, every card played, the trump choice, the scores and its legal
actions; a spectator sees the same without any hand.  Nothing here ever copies another
seat's unplayed cards (the one exception the rules make: the turned-up card in ``turned``
mode, which every player has seen).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .actions import Action
from .cards import card_str, cards_of, cards_str, mask_of, suit_str
from .deal import Deal, Phase
from .events import DealSummary, Event, Trick
from .legal import refusals
from .match import Match
from .rules import Rules


@dataclass(frozen=True, slots=True)
class View:
    """A seat's (or a spectator's, ``seat is None``) knowledge of a match."""

    seat: int | None
    rules: Rules
    phase: Phase
    deal_number: int
    dealer: int
    turn: int | None
    hand: tuple[int, ...]
    hand_sizes: tuple[int, int, int, int]
    legal: tuple[Action, ...]
    turned: int | None
    bids: tuple[Action, ...]  # trump-choice actions so far, from the first bidder
    first_bidder: int  # who speaks first in the trump choice (the seats then speak in turn)
    trump: int | None
    chooser: int | None
    leader: int
    trick: tuple[int, ...]  # cards of the current trick, from ``leader``
    tricks: tuple[Trick, ...]  # finished tricks of this deal
    points: tuple[int, int]  # card points won so far this deal
    roem: tuple[int, int]  # roem scored so far this deal
    totals: tuple[int, int]
    sheet: tuple[DealSummary, ...]
    winner: int | None

    @property
    def played(self) -> int:
        """Mask of every card played this deal."""
        mask = 0
        for t in self.tricks:
            for c in t.cards:
                mask |= 1 << c
        for c in self.trick:
            mask |= 1 << c
        return mask

    def _tricks(self) -> list[dict[str, Any]]:
        """The finished tricks as in ``trick_taken``, each with its roem by kind and the
        cards behind it."""
        if self.trump is None:
            return []  # no trick is played before trump is named
        return [t.shown(self.trump) for t in self.tricks]

    def why_not(self) -> dict[str, Any]:
        """Why each card of the hand that may not be played now is refused, by card,
        JSON-ready (empty unless this seat is to play a card into a trick under way)."""
        if self.phase is not Phase.PLAY or self.seat is None or self.turn != self.seat:
            return {}
        hand, trick = mask_of(self.hand), list(self.trick)
        trump = self.trump  # named before any card is played
        return _why_not(hand, trick, self.leader, self.seat, trump, self.rules.amsterdam)  # type: ignore[arg-type]

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "rules": self.rules.to_dict(),
            "phase": self.phase.value,
            "deal_number": self.deal_number,
            "dealer": self.dealer,
            "turn": self.turn,
            "hand": cards_str(self.hand),
            "hand_sizes": list(self.hand_sizes),
            "legal": [str(a) for a in self.legal],
            "why_not": self.why_not(),
            "turned": card_str(self.turned) if self.turned is not None else None,
            "bids": [str(a) for a in self.bids],
            "first_bidder": self.first_bidder,
            "trump": suit_str(self.trump) if self.trump is not None else None,
            "chooser": self.chooser,
            "leader": self.leader,
            "trick": cards_str(self.trick),
            "tricks": self._tricks(),
            "points": list(self.points),
            "roem": list(self.roem),
            "totals": list(self.totals),
            "sheet": [s.to_dict() for s in self.sheet],
            "winner": self.winner,
        }


def view(match: Match, seat: int | None) -> View:
    """The view of ``seat`` (0-3), or of a spectator when ``seat`` is None."""
    return deal_view(
        match.deal,
        seat,
        number=match.deal_number - (1 if match.over else 0),
        totals=(match.totals[0], match.totals[1]),
        sheet=tuple(match.sheet),
        winner=match.winner,
    )


def deal_view(
    deal: Deal,
    seat: int | None,
    *,
    number: int = 0,
    totals: tuple[int, int] = (0, 0),
    sheet: tuple[DealSummary, ...] = (),
    winner: int | None = None,
) -> View:
    """The view of one deal, with the match's scores when it is part of one."""
    d = deal
    own = seat is not None
    over = winner is not None
    bids = d.actions if d.phase is Phase.TRUMP else d.actions[: d.passes + 1]
    # the seats speak in turn: the one to speak (or the chooser, the last to) counts back
    first = (d.turn - len(bids) if d.phase is Phase.TRUMP else d.chooser - len(bids) + 1) & 3
    return View(
        seat=seat,
        rules=d.rules,
        phase=Phase.DONE if over else d.phase,
        deal_number=number,
        dealer=d.dealer,
        turn=None if over else d.turn,
        hand=tuple(cards_of(d.hands[seat])) if own else (),
        hand_sizes=tuple(h.bit_count() for h in d.hands),  # type: ignore[arg-type]
        legal=tuple(d.legal_actions()) if own and not over and d.turn == seat else (),
        turned=d.turned,
        bids=tuple(bids),
        first_bidder=first,
        trump=d.trump if d.trump >= 0 else None,
        chooser=d.chooser if d.chooser >= 0 else None,
        leader=d.leader,
        trick=tuple(d.trick),
        tricks=tuple(d.tricks),
        points=(d.points[0], d.points[1]),
        roem=(d.roem[0], d.roem[1]),
        totals=totals,
        sheet=sheet,
        winner=winner,
    )


def why_not(deal: Deal, seat: int) -> dict[str, Any]:
    """As :meth:`View.why_not`, for ``seat`` of a deal under way (an update's ``why_not``)."""
    if deal.phase is not Phase.PLAY or deal.turn != seat:
        return {}
    hand, trick = deal.hands[seat], deal.trick
    return _why_not(hand, trick, deal.leader, seat, deal.trump, deal.rules.amsterdam)


def _why_not(
    hand: int, trick: list[int], leader: int, seat: int, trump: int, amsterdam: bool
) -> dict[str, Any]:
    found = refusals(hand, trick, leader, seat, trump, amsterdam)
    return {card_str(card): why.to_dict() for card, why in found.items()}


def project(event: Event, seat: int | None) -> dict[str, Any]:
    """``event`` as ``seat`` (or a spectator, None) may see it, as a JSON-ready dict."""
    return event.to_dict(seat)
