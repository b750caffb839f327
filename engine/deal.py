"""One deal as a state machine: choosing trump, eight tricks, roem, and the score.

Phases and their transitions (the only place they change):

    TRUMP --pass (not the 4th) / pass (4th: the forced round)--> TRUMP
    TRUMP --trump:s--> PLAY
    PLAY  --card (trick not full)--> PLAY
    PLAY  --4th card, roem and claim mode--> CLAIM
    PLAY  --4th card of trick 8, no claim--> DONE ; otherwise --> PLAY
    CLAIM --take/leave--> PLAY, or DONE after trick 8

:meth:`Deal.apply` validates and returns events; :meth:`Deal.perform` returns the events
of an action already checked (the server's accepted actions, replays of its logs); and
``choose``, ``pass_``, ``play`` and ``decide``, without events, are the fast path that
playouts use.
"""

from __future__ import annotations

from enum import StrEnum

from .actions import LEAVE, PASS, PLAYS, TAKE, Action, Kind
from .cards import SUIT_MASK, SUIT_NAMES, card_str, cards_of
from .errors import CardNotInHand, GameOver, IllegalAction, IllegalCard, NotYourTurn, WrongPhase
from .events import (
    CardPlayed,
    DealResult,
    Event,
    Passed,
    RoemDecided,
    Trick,
    TrickTaken,
    TrumpChosen,
)
from .legal import legal_mask, why_illegal
from .rng import deal_hands, shuffled_deck
from .rules import RoemMode, Rules, TrumpMode
from .scoring import score_deal
from .tables import LAST_TRICK, POINTS, STRENGTH
from .trick import roem as trick_roem

TRUMPS = tuple(Action.trump(s) for s in range(4))
BID_CHOICES = (PASS, *TRUMPS)
TURNED_CHOICES = tuple((PASS, TRUMPS[s]) for s in range(4))
TURNED_FORCED = tuple(tuple(t for t in TRUMPS if t.value != s) for s in range(4))
_new_tuple = tuple.__new__  # builds a Trick without NamedTuple's slower __new__


class Phase(StrEnum):
    TRUMP = "trump"
    PLAY = "play"
    CLAIM = "claim"
    DONE = "done"


class Deal:
    """The state of one deal.  Seats 0-3 clockwise; team of a seat is ``seat & 1``."""

    __slots__ = (
        "_amsterdam",
        "_claim",
        "_strength",
        "actions",
        "chooser",
        "dealer",
        "dealt",
        "forced",
        "hands",
        "high_trump",
        "leader",
        "passes",
        "phase",
        "points",
        "result",
        "roem",
        "rules",
        "trick",
        "tricks",
        "trump",
        "turn",
        "turned",
        "win_seat",
        "win_strength",
        "won",
    )

    def __init__(self, rules: Rules, dealer: int, hands: list[int], turned: int | None = None):
        self.rules = rules
        self.dealer = dealer
        self.hands = list(hands)
        self.dealt = tuple(hands)
        self._amsterdam = rules.amsterdam
        self._claim = rules.roem is RoemMode.CLAIM
        self.turned = turned if rules.trump_mode is TrumpMode.TURNED else None
        self.trump = -1
        self.chooser = -1
        self.passes = 0
        mode = rules.trump_mode
        self.forced = mode is not TrumpMode.BIDDING and mode is not TrumpMode.TURNED
        self.turn = dealer if mode is TrumpMode.DEALER else (dealer + 1) & 3
        self.phase = Phase.TRUMP
        self.leader = (dealer + 1) & 3
        self.trick: list[int] = []
        self.high_trump = -1
        self.win_seat = -1
        self.win_strength = -1
        self._strength: tuple[int, ...] = ()
        self.tricks: list[Trick] = []
        self.points = [0, 0]
        self.roem = [0, 0]
        self.won = [0, 0]
        self.result: DealResult | None = None
        self.actions: list[Action] = []

    @classmethod
    def shuffled(cls, rules: Rules, seed: int, number: int = 0, dealer: int = 0) -> Deal:
        """Deal ``number`` of seed ``seed``, dealt 3-2-3 from left of ``dealer``."""
        deck = shuffled_deck(seed, number)
        return cls(rules, dealer, deal_hands(deck, dealer), turned=deck[31])

    @classmethod
    def with_trump(cls, rules: Rules, dealer: int, hands: list[int], trump: int, chooser: int):
        """A deal whose trump is already chosen (records that start at the first lead)."""
        deal = cls(rules, dealer, hands)
        deal.choose(trump, chooser)
        return deal

    # -- queries -------------------------------------------------------------------------

    @property
    def playing_team(self) -> int:
        return self.chooser & 1

    def legal_mask(self) -> int:
        """The cards the seat to act may play (PLAY phase).

        Leading, and following a plain suit, are answered here; everything else goes
        to :func:`engine.legal.legal_mask`, the full rule.
        """
        turn = self.turn
        hand = self.hands[turn]
        trick = self.trick
        if not trick:
            return hand
        led = trick[0] >> 3
        if led != self.trump and hand & SUIT_MASK[led]:
            return hand & SUIT_MASK[led]
        return legal_mask(
            hand,
            trick,
            self.high_trump,
            not (self.win_seat ^ turn) & 1,
            self.trump,
            self._amsterdam,
        )

    def trump_choices(self) -> tuple[Action, ...]:
        """The legal actions of the TRUMP phase."""
        if self.turned is None:
            return TRUMPS if self.forced else BID_CHOICES
        suit = self.turned >> 3
        return TURNED_FORCED[suit] if self.forced else TURNED_CHOICES[suit]

    def legal_actions(self) -> list[Action]:
        if self.phase is Phase.PLAY:
            return [Action.play(c) for c in cards_of(self.legal_mask())]
        if self.phase is Phase.TRUMP:
            return list(self.trump_choices())
        if self.phase is Phase.CLAIM:
            return [TAKE, LEAVE]
        return []

    # -- validated path ------------------------------------------------------------------

    def check(self, seat: int, action: Action) -> None:
        """Raise why ``action`` by ``seat`` is refused now; return quietly if it is allowed."""
        if self.phase is Phase.DONE:
            raise GameOver("the deal is over")
        if seat != self.turn:
            raise NotYourTurn(f"it is seat {self.turn}'s turn, not seat {seat}'s")
        kind = action.kind
        if kind is Kind.PLAY:
            if self.phase is not Phase.PLAY:
                raise WrongPhase(f"cards are not being played now (phase {self.phase})")
            card = action.value
            if not self.hands[seat] >> card & 1:
                raise CardNotInHand(f"{card_str(card)} is not in your hand")
            if not self.legal_mask() >> card & 1:
                why = why_illegal(self.hands[seat], self.trick, self.high_trump, self.trump, card)
                raise IllegalCard(f"{card_str(card)} is not legal: {why}")
        elif kind is Kind.PASS or kind is Kind.TRUMP:
            if self.phase is not Phase.TRUMP:
                raise WrongPhase(f"trump is not being chosen now (phase {self.phase})")
            if action not in self.trump_choices():
                raise IllegalAction(self._why_not_trump(action))
        elif self.phase is not Phase.CLAIM:
            raise WrongPhase(f"there is no roem to take or leave now (phase {self.phase})")

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Check ``action`` by ``seat``, apply it and return its events; else raise and
        leave the deal unchanged."""
        self.check(seat, action)
        return self.perform(seat, action)

    def _why_not_trump(self, action: Action) -> str:
        if action.kind is Kind.PASS:
            return "you must name trump: passing is not allowed now"
        if self.turned is not None and not self.forced:
            return f"only {SUIT_NAMES[self.turned >> 3]} (the turned card's suit) or pass"
        return f"{SUIT_NAMES[action.value]} may not be named: the turned card's suit was refused"

    # -- trusted fast path ---------------------------------------------------------------

    def perform(self, seat: int, action: Action) -> list[Event]:
        """Apply ``action`` by ``seat`` that :meth:`check` has accepted, unchecked, and
        return its events (replays and the server's accepted actions: checked once)."""
        kind = action.kind
        if kind is Kind.PLAY:
            before = len(self.tricks)
            self.play(action.value)
            events: list[Event] = [CardPlayed(seat, action.value)]
            if len(self.tricks) > before:
                trick = self.tricks[-1]
                pending = self.phase is Phase.CLAIM
                events.append(TrickTaken(before + 1, trick, pending, trick.roem_parts(self.trump)))
            return events
        if kind is Kind.PASS:
            self.pass_()
            return [Passed(seat)]
        if kind is Kind.TRUMP:
            self.choose(action.value, seat)
            return [TrumpChosen(seat, action.value)]
        roem = self.tricks[-1].roem
        self.decide(kind is Kind.TAKE)
        return [RoemDecided(seat, kind is Kind.TAKE, roem)]

    def pass_(self) -> None:
        self.actions.append(PASS)
        self.passes += 1
        if self.passes == 4:
            self.forced = True
            self.turn = (self.dealer + 1) & 3
        else:
            self.turn = (self.turn + 1) & 3

    def choose(self, suit: int, seat: int) -> None:
        self.actions.append(Action.trump(suit))
        self.trump = suit
        self.chooser = seat
        self.phase = Phase.PLAY
        self.turn = self.leader

    def play(self, card: int) -> None:
        """Play ``card`` for the seat to act, trusting that it is legal."""
        self.actions.append(PLAYS[card])
        seat = self.turn
        self.hands[seat] ^= 1 << card
        trick = self.trick
        trick.append(card)
        if len(trick) == 1:
            self._strength = strength = STRENGTH[self.trump * 4 + (card >> 3)]
            self.win_seat = seat
            self.win_strength = strength[card]
            self.high_trump = card if card >> 3 == self.trump else -1
        else:
            s = self._strength[card]
            if s > self.win_strength:
                self.win_strength = s
                self.win_seat = seat
                if s >= 16:  # a trump (see tables.STRENGTH)
                    self.high_trump = card
            if len(trick) == 4:
                self._close_trick()
                return
        self.turn = (seat + 1) & 3

    def decide(self, take: bool) -> None:
        """Take or leave the roem of the trick just won (claim mode)."""
        self.actions.append(TAKE if take else LEAVE)
        last = self.tricks[-1]
        if take:
            self.roem[last.winner & 1] += last.roem
        else:
            self.tricks[-1] = last._replace(roem=0)
        if len(self.tricks) == 8:
            self._score()
        else:
            self.phase = Phase.PLAY

    def _close_trick(self) -> None:
        trick, trump, winner = self.trick, self.trump, self.win_seat
        p = POINTS[trump]
        points = p[trick[0]] + p[trick[1]] + p[trick[2]] + p[trick[3]]
        roem = trick_roem(trick, trump)
        team = winner & 1
        self.tricks.append(_new_tuple(Trick, (self.leader, tuple(trick), winner, points, roem)))
        self.points[team] += points
        self.won[team] += 1
        self.trick = []
        self.high_trump = self.win_seat = -1
        self.leader = self.turn = winner
        if roem and self._claim:
            self.phase = Phase.CLAIM
            return
        self.roem[team] += roem
        if len(self.tricks) == 8:
            self._score()

    def _score(self) -> None:
        self.points[self.tricks[-1].winner & 1] += LAST_TRICK
        pit = 0 if self.won[0] == 8 else 1 if self.won[1] == 8 else None
        self.result = score_deal(
            (self.points[0], self.points[1]), (self.roem[0], self.roem[1]), self.chooser & 1,
            pit, self.rules.pit_bonus,
        )  # fmt: skip
        self.phase = Phase.DONE
