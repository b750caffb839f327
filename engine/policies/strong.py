"""The strong CPU player: search over the hidden hands its view allows.

Perfect-information sampling: draw worlds (deals of the unseen cards consistent with the
view, :mod:`engine.worlds`), solve each exactly with all hands open
(:mod:`engine.solver`), and take the action with the best mean value for the team.  The
budget counts solver nodes, never time: worlds are drawn and solved until the nodes
visited (and :data:`CHECK_NODES` for every check of a play by the play model) reach the
budget (at least one world, at most :data:`MAX_WORLDS`), so the early tricks, where a solve
is dear, get few worlds and the later ones many.  A world whose solve passes
:data:`WORLD_NODES` (a rare opening lead's world takes 25 times the usual) is dropped and
another drawn in its place, so one decision's time has a bound.  A solve's node count
depends only on its position and every draw comes from the ``rng`` handed in, so a
decision is a pure function of the view, the seed and the budget.

Trump choice: no search, microseconds, so the server decides it on its loop
(:meth:`searches`).  Naming a suit is valued by :func:`.trump_eval.value`, an evaluator
learned offline from the exact solver (what the hand is worth, open-card, with that suit
as trump from the seat's place at the table), and where a suit must be named the best is
chosen.  In the bidding's first round, whether to name the best suit or pass is
:func:`.trump_eval.naming_edge`'s, a model learned from play (``klaverjas bid-model``:
deals played out after every choice by strong and the heuristic, where open-card values
had named too often); passing is valued as the best suit less that edge.  In the turned
card's first round whether to take it is the heuristic's rule of thumb's (nothing learned
did better there), and passing is valued, for advice and reviews only (about 1.5 ms), in
:data:`PASS_WORLDS` sampled worlds by bidding on: the later bidders choose by the rule of
thumb and the outcome is the evaluator's value of the chooser's hand, for the seat's team.

Soft information (a drawn world is kept with the probability of what the other seats did
in it, :meth:`engine.worlds.Worlds.draws`): from the bidding, a seat that named a suit it
would not accept by that rule of thumb, or passed a suit it would accept, weighs
:data:`SOFT`.  With inference from play (``eps_opponent`` below 1, :mod:`.inference`),
each card an opponent played that the heuristic holding that world's hand would not have
played weighs ``eps_opponent`` (the partner's, ``eps_partner``; 1.0: not modelled); a world
is mostly rejected at its first play off the model, so it costs a few checks a world
drawn.  It is on at budgets of :data:`INFERENCE_BUDGET` and above (the server's own),
where it measured +5.2 ± 2.5 points a deal on 2,000 duplicate pairs for 1.2 times the CPU
a decision (docs/performance.md), and off below it: the smaller budgets are a busy
server's, which sheds this cost first.

Options (keyword arguments; each measured in duplicate matches against the heuristic,
see README): ``replies`` values each card, world by world, with the opponents' replies in
the current trick played by the heuristic's rules (:func:`.rollout.heuristic_card`, from
their own view of that world) and the rest solved exactly, where plain sampling lets them
reply as perfectly informed players; ``eps_opponent=1`` turns inference from play off;
``rule_trump`` makes the trump choice by the heuristic's rule of thumb (to measure what the
evaluators add), ``bid_rule=1`` lets that rule decide whether to name in the bidding too;
``prior`` adds that many points, over the square root of the worlds solved, to the
heuristic's own card.  ``replies`` and ``prior`` are off: they measured no stronger at the
default budget (docs/performance.md, "Strength experiments").
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..actions import PASS, TAKE, Action, Kind
from ..cards import FULL_MASK, SUIT_NAMES, SUITS, card_str, cards_of, parse_card
from ..deal import BID_CHOICES, TRUMPS, TURNED_CHOICES, TURNED_FORCED, Deal, Phase
from ..rules import TrumpMode
from ..solver import last_nodes, solve, solve_value, solve_within
from ..tables import POINTS
from ..trick import winning_index
from ..views import View
from ..worlds import Likelihood, Worlds
from .heuristic import HeuristicPolicy, accepts, choose_trump, higher, suit_score
from .inference import PlayModel
from .rollout import heuristic_card
from .trump_eval import naming_edge
from .trump_eval import value as hand_value

# Thousands of solver nodes a decision (docs/performance.md, "The strong player's strength").
DEFAULT_BUDGET = 1000
MAX_WORLDS = 48  # worlds a decision at most, however cheap they are
# A world whose solve would pass this many nodes (or the budget, if larger) is dropped and
# another drawn in its place, at most DROPS times a decision: one opening lead's world in
# twenty passes 4 million nodes (about 150 ms), one in a hundred 10 million.
WORLD_NODES = 4_000_000
DROPS = 2
PASS_WORLDS = 64  # worlds in which passing is valued by bidding on
SOFT = 0.3  # the chance a bid against the rule of thumb is kept (see module docstring)
EPS_OPPONENT = 0.02  # the play model's likelihood of an opponent's play off the heuristic
# (1.0: no inference from play; see the module docstring)
INFERENCE_BUDGET = 1000  # inference from play at this budget and above only
EPS_PARTNER = 1.0  # the same for the partner (1.0: the partner's plays are not modelled)
CHECK_NODES = 1000  # what a check of a play against the play model counts in the budget
PRIOR = 0.0  # points for the heuristic's own card, over the square root of the worlds
REPLIES = 0  # 1: the opponents' replies in the current trick are the heuristic's (docstring)

_HEURISTIC = HeuristicPolicy()  # the prior's card (it draws nothing from the rng)

SUIT_SYMBOLS = "♣♦♥♠"
RANK_LABELS = ("7", "8", "9", "10", "J", "Q", "K", "A")
RANK_WORDS = ("seven", "eight", "nine", "ten", "jack", "queen", "king", "ace")


@dataclass(frozen=True, slots=True)
class Advice:
    """A decision with the expected value of every legal action and a reason in words."""

    action: Action
    # The mean over the worlds of the mover's team minus the other team at deal end (a
    # trump choice: the evaluator's); empty for a trump choice by the rule of thumb
    # (``rule_trump``, a bench's option).
    values: dict[Action, float]
    reason: str
    why: dict[str, Any]  # the reason as data (see :func:`why`), for a client's own words


class StrongPolicy:
    """Determinized search with ``budget`` thousand solver nodes a decision (see the module
    docstring)."""

    name = "strong"

    def __init__(
        self,
        budget: int = DEFAULT_BUDGET,
        *,
        eps_opponent: float = EPS_OPPONENT,
        eps_partner: float = EPS_PARTNER,
        rule_trump: int = 0,
        bid_rule: int = 0,
        replies: int = REPLIES,
        prior: float = PRIOR,
    ) -> None:
        if budget < 1:
            raise ValueError("the budget is at least 1 (thousand solver nodes)")
        self.budget = budget
        self.eps_opponent = eps_opponent
        self.eps_partner = eps_partner
        self.rule_trump = rule_trump
        self.bid_rule = bool(bid_rule)
        self.replies = replies
        self.prior = prior

    def act(self, view: View, rng: random.Random) -> Action:
        if len(view.legal) == 1:
            return view.legal[0]
        if view.phase is Phase.TRUMP:  # as advised, without pricing what it does not use
            return self._trump_choice(view, rng, priced=False)[0]
        return self.advise(view, rng).action

    def searches(self, view: View) -> bool:
        """Whether deciding for ``view`` takes more than microseconds: a search.  A trump
        choice (by the evaluators or the rule) and an action with no other legal do not."""
        return len(view.legal) > 1 and view.phase is not Phase.TRUMP

    def advise(self, view: View, rng: random.Random) -> Advice:
        """The decision for ``view``'s seat, its values, and why."""
        if view.seat is None or not view.legal:
            raise ValueError("the view has no decision to make")
        by_rule = False
        if view.phase is Phase.TRUMP:
            action, values, by_rule = self._trump_choice(view, rng)
        else:
            values, solved = self._play_values(view, rng)
            bonus = dict.fromkeys(view.legal, 0.0)
            if self.prior:  # the heuristic's card, by less the more worlds were solved
                bonus[_HEURISTIC.act(view, rng)] = self.prior / solved**0.5
            action = max(view.legal, key=lambda a: values[a] + bonus[a])  # the first on ties
        w = _rule_of_thumb(view, action, values) if by_rule else why(view, action, values)
        return Advice(action, values, english(w), w)

    def _play_values(self, view: View, rng: random.Random) -> tuple[dict[Action, float], int]:
        """Each legal action's mean value over the worlds drawn, and how many distinct
        worlds were solved."""
        worlds = Worlds(view)
        sums = dict.fromkeys(view.legal, 0)
        solved: dict[tuple[int, ...], dict[Action, int]] = {}
        nodes = drawn = dropped = 0
        limit = max(WORLD_NODES, 1000 * self.budget)
        model = self._play_model(view)
        draws = worlds.draws(rng, _product(bid_likelihood(view), model))
        modelled = self.replies and view.phase is Phase.PLAY and len(view.trick) in (0, 2)
        while drawn < MAX_WORLDS and (
            not drawn or nodes + (CHECK_NODES * model.checks if model else 0) < 1000 * self.budget
        ):
            hands = next(draws)
            key = tuple(hands)
            if key not in solved and modelled:
                solved[key], spent = _replied(view, worlds, hands)
                nodes += spent
            elif key not in solved:
                deal = worlds.deal(hands)
                values = solve_within(deal, limit) if dropped < DROPS else solve(deal)
                nodes += last_nodes()
                if values is None:  # too dear a world: another in its place
                    dropped += 1
                    continue
                solved[key] = values
            for action, value in solved[key].items():
                sums[action] += value
            drawn += 1
        return {a: s / drawn for a, s in sums.items()}, len(solved)

    def _play_model(self, view: View) -> PlayModel | None:
        """The likelihood of the other seats' plays (None: no inference, at this budget or
        by the options, or no play yet)."""
        seat = view.seat
        assert seat is not None
        eps = {s: self.eps_partner if s == seat ^ 2 else self.eps_opponent for s in range(4)}
        off = self.budget < INFERENCE_BUDGET or min(eps.values()) >= 1.0
        if off or (not view.tricks and not view.trick):
            return None
        return PlayModel(view, eps)

    def _trump_choice(
        self, view: View, rng: random.Random, priced: bool = True
    ) -> tuple[Action, dict[Action, float], bool]:
        """The choice, every choice's value (passing's only if ``priced`` or the choice
        needs it), and whether the rule of thumb made it."""
        rule = choose_trump(view.hand, view.legal)
        if self.rule_trump:
            return rule, {}, True
        names = view.legal  # whether to name or take: the rule's, but the bidding's model's
        by_rule = PASS in names and (self.bid_rule or not _bidding(view))
        if by_rule:
            names = [a for a in names if a.kind is Kind.TRUMP]
        values = trump_values(view, rng, passing=priced)
        if by_rule and rule == PASS:
            return PASS, values, True
        return max(names, key=values.__getitem__), values, False  # the first on ties


def trump_values(view: View, rng: random.Random, passing: bool = True) -> dict[Action, float]:
    """Each legal trump choice's value for ``view``'s seat (the module docstring): a suit
    by the evaluator; passing, in the bidding, as the best suit's value less the bidding
    model's edge of naming it, elsewhere (unless not ``passing``) by bidding on in
    :data:`PASS_WORLDS` sampled worlds."""
    seat = view.seat
    assert seat is not None
    place = (seat - view.dealer - 1) & 3
    values = {a: hand_value(view.hand, a.value, place) for a in view.legal if a.kind is Kind.TRUMP}
    if PASS in view.legal and _bidding(view):
        best = max(values, key=values.__getitem__)
        values[PASS] = values[best] - naming_edge(view.hand, best.value, place)
    elif passing and PASS in view.legal:
        worlds = Worlds(view)
        total = 0.0
        for hands in worlds.sample(rng, PASS_WORLDS, bid_likelihood(view)):
            deal = worlds.deal(hands)
            deal.pass_()
            total += _bid_on(deal, seat)
        values[PASS] = total / PASS_WORLDS
    return values


def _bidding(view: View) -> bool:
    """Whether ``view`` is a choice in the bidding's first round (pass or name any suit)."""
    return view.rules.trump_mode is TrumpMode.BIDDING and PASS in view.legal


def _product(bids: Likelihood | None, plays: Likelihood | None) -> Likelihood | None:
    """Two likelihoods as one, the play model's asked only when the bids leave room."""
    if bids is None or plays is None:
        return bids or plays

    def likelihood(start: list[int], floor: float) -> float:
        weight = bids(start, floor)
        return weight if weight <= floor else weight * plays(start, floor / weight)

    return likelihood


def _bid_on(deal: Deal, seat: int) -> float:
    """The evaluator's value, for ``seat``'s team, of the bidding finished from ``deal``:
    the others choose by the heuristic's rule of thumb, ``seat`` by the evaluator."""
    leader = deal.leader
    while deal.phase is Phase.TRUMP:
        turn, choices = deal.turn, deal.trump_choices()
        hand = cards_of(deal.hands[turn])
        if turn == seat:
            names = [a for a in choices if a.kind is Kind.TRUMP]
            choice = max(names, key=lambda a: hand_value(hand, a.value, (turn - leader) & 3))
        else:
            choice = choose_trump(hand, choices)
        if choice.kind is Kind.PASS:
            deal.pass_()
        else:
            deal.choose(choice.value, turn)
    chooser = deal.chooser
    value = hand_value(cards_of(deal.dealt[chooser]), deal.trump, (chooser - leader) & 3)
    return value if not (chooser ^ seat) & 1 else -value


def _replied(view: View, worlds: Worlds, hands: list[int]) -> tuple[dict[Action, int], int]:
    """Each legal action's value in one world when the opponents' replies in this trick
    are the heuristic's (the rest solved exactly), and the solver nodes spent."""
    seat = view.seat
    assert seat is not None
    values, nodes = {}, 0
    for action in view.legal:
        deal = worlds.deal(hands)
        deal.play(action.value)
        while deal.phase is Phase.PLAY and deal.trick and (deal.turn ^ seat) & 1:
            deal.play(heuristic_card(deal))
        if deal.phase is Phase.DONE:
            assert deal.result is not None
            score = deal.result.score
            values[action] = score[seat & 1] - score[1 - (seat & 1)]
            continue
        value = solve_value(deal)
        nodes += last_nodes()
        values[action] = value if not (deal.turn ^ seat) & 1 else -value
    return values, nodes


# -- soft information from the bidding ------------------------------------------------------


def bid_choices(view: View, number: int) -> tuple[int, tuple[Action, ...]]:
    """The seat that made bid ``number`` of ``view.bids`` and the choices it had."""
    mode = view.rules.trump_mode
    if mode is TrumpMode.DEALER:
        return view.dealer, TRUMPS
    seat = (view.dealer + 1 + number) & 3
    if mode is TrumpMode.FORCED or number >= 4:
        if mode is TrumpMode.TURNED and view.turned is not None:
            return seat, TURNED_FORCED[view.turned >> 3]
        return seat, TRUMPS
    if mode is TrumpMode.TURNED and view.turned is not None:
        return seat, TURNED_CHOICES[view.turned >> 3]
    return seat, BID_CHOICES


def bid_weight(hand: Sequence[int], bid: Action, choices: Sequence[Action]) -> float:
    """How well a bid fits a dealt hand: 1 when the heuristic's rule of thumb would make it
    (name a suit it accepts, pass with none; forced, name an accepted or the best suit),
    else :data:`SOFT`."""
    names = [a for a in choices if a.kind is Kind.TRUMP]
    if bid.kind is Kind.PASS:
        return SOFT if any(accepts(hand, a.value) for a in names) else 1.0
    if accepts(hand, bid.value):
        return 1.0
    if PASS not in choices:
        best = max(suit_score(hand, a.value) for a in names)
        return 1.0 if suit_score(hand, bid.value) == best else SOFT
    return SOFT


def bid_likelihood(view: View) -> Likelihood | None:
    """The weight of a world's dealt hands given the other seats' bids (None: no bids)."""
    bids = [(*bid_choices(view, n), bid) for n, bid in enumerate(view.bids)]
    bids = [(seat, choices, bid) for seat, choices, bid in bids if seat != view.seat]
    if not bids:
        return None

    def likelihood(start: list[int], floor: float) -> float:  # a cheap weight: no early end
        weight = 1.0
        for seat, choices, bid in bids:
            weight *= bid_weight(cards_of(start[seat]), bid, choices)
        return weight

    return likelihood


# -- reasons in words -----------------------------------------------------------------------


def card_label(card: int) -> str:
    """``A♠``, ``10♥``: a card as the reason shows it."""
    return RANK_LABELS[card & 7] + SUIT_SYMBOLS[card >> 3]


def _signed(value: float) -> str:
    return f"{value:+.0f}"


def why(view: View, action: Action, values: dict[Action, float]) -> dict[str, Any]:
    """Why ``action``, as data a client can put in words in its own language (the wire's
    ``why`` of a hint; :func:`reason` says it in English).

    ``kind``: ``play`` (``card``, and the ``effect`` of playing it with its own fields, see
    :func:`_play_effect`),
    ``take`` or ``leave`` (the roem), ``name`` (``suit``) or ``pass`` valued; ``thumb_pass``,
    ``thumb_name`` (``suit``, ``held`` cards of it, ``top``: ``jack`` or ``nine_ace``) and
    ``thumb_forced`` (``suit``) by the rule of thumb alone.  Valued: ``value`` (the
    action's expected value), ``margin`` (over the next best) and ``compare``: ``only``
    (no other choice), ``even`` (a card as good as the next best) or ``better``; a trump
    choice also names the ``next`` best: ``pass`` or ``trump:<suit>``.
    """
    if not values:
        return _rule_of_thumb(view, action)
    others = [v for a, v in values.items() if a != action]
    exact = values[action] - max(others) if others else 0.0
    margin, value = round(exact, 1), round(values[action], 1)
    if action.kind is Kind.PLAY:
        compare = "only" if not others else "even" if exact < 0.5 else "better"
        return {
            "kind": "play",
            "card": card_str(action.value),
            **_play_effect(view, action.value),
            "value": value,
            "margin": margin,
            "compare": compare,
        }
    if view.phase is Phase.CLAIM:
        return {"kind": "take" if action == TAKE else "leave", "value": value, "margin": margin}
    out: dict[str, Any] = {"kind": "pass", "value": value, "margin": margin}
    if action.kind is Kind.TRUMP:
        out = {"kind": "name", "suit": SUITS[action.value], "value": value, "margin": margin}
    if not others:
        return {**out, "compare": "only"}
    second = max((a for a in values if a != action), key=lambda a: values[a])
    return {**out, "compare": "better", "next": str(second)}


def reason(view: View, action: Action, values: dict[Action, float]) -> str:
    """One line in words: what ``action`` does and what it is expected to gain."""
    return english(why(view, action, values))


def english(w: dict[str, Any]) -> str:
    """A :func:`why` in English."""
    kind, margin = w["kind"], w.get("margin", 0.0)
    if kind == "thumb_pass" and "suit" in w:
        return (
            "Pass: no suit of three or more cards with its jack, or its nine and ace; your "
            f"hand is worth about {_signed(w['worth'])} with {SUIT_NAMES[SUITS.index(w['suit'])]}"
        )
    if kind == "thumb_pass":
        return "Pass: no suit of three or more cards with its jack, or its nine and ace"
    if kind == "thumb_name":
        suit = SUITS.index(w["suit"])
        top = "its jack" if w["top"] == "jack" else "its nine and ace"
        return f"Name {SUIT_NAMES[suit]}: {w['held']} {SUIT_SYMBOLS[suit]} with {top}"
    if kind == "thumb_forced":
        suit_name = SUIT_NAMES[SUITS.index(w["suit"])]
        return f"Name {suit_name}: the strongest suit in hand, and a suit must be named"
    if kind == "play":
        head = f"Play {card_label(parse_card(w['card']))}: {_effect_english(w)}"
        if w["compare"] == "only":
            return f"{head}; the only legal card"
        if w["compare"] == "even":
            return f"{head}; as good as the next best (expected {_signed(w['value'])})"
        return f"{head}; expected {_signed(margin)} over the next best"
    if kind == "take":
        return f"Take the roem: expected {_signed(margin)} over leaving it"
    if kind == "leave":
        return (
            f"Leave the roem: the roem would count for the other side if the deal goes nat; "
            f"expected {_signed(margin)} over taking it"
        )
    if kind == "name":
        suit = SUIT_NAMES[SUITS.index(w["suit"])]
        head = f"Name {suit}: your hand is worth about {_signed(w['value'])} with {suit} as trump"
        if w["compare"] == "only":
            return f"{head}; the only choice"
        nxt = w["next"]
        what = "passing" if nxt == "pass" else f"naming {SUIT_NAMES[SUITS.index(nxt[-1])]}"
        return f"{head}, {_signed(margin)} over {what}"
    if w["compare"] == "only":
        return f"Pass: expected {_signed(w['value'])}; the only choice"
    best = SUIT_NAMES[SUITS.index(w["next"][-1])]
    return (
        f"Pass: your hand is worth about {_signed(w['value'] - margin)} with {best}, "
        f"less than passing ({_signed(w['value'])})"
    )


def _rule_of_thumb(
    view: View, action: Action, values: dict[Action, float] | None = None
) -> dict[str, Any]:
    """Why the heuristic's rule of thumb made this trump choice (a pass valued: with the
    best ``suit`` and what the hand is ``worth`` with it)."""
    if action.kind is Kind.PASS:
        valued = {a: v for a, v in (values or {}).items() if a.kind is Kind.TRUMP}
        if not valued:
            return {"kind": "thumb_pass"}
        best = max(valued, key=valued.__getitem__)
        return {"kind": "thumb_pass", "suit": SUITS[best.value], "worth": round(valued[best], 1)}
    suit = action.value
    held = [c for c in view.hand if c >> 3 == suit]
    ranks = {c & 7 for c in held}
    if accepts(view.hand, suit):
        top = "jack" if 4 in ranks else "nine_ace"
        return {"kind": "thumb_name", "suit": SUITS[suit], "held": len(held), "top": top}
    return {"kind": "thumb_forced", "suit": SUITS[suit]}


def _play_effect(view: View, card: int) -> dict[str, Any]:
    """What playing ``card`` does to the trick: ``lead_trumps``, ``lead_highest`` (the
    highest of its ``suit`` still out), ``lead`` (``suit``), ``takes`` (the last card wins
    the trick's ``points``), ``trumps`` (trumps the trick), ``winning`` (wins it so far),
    ``partner_wins`` / ``partner_winning`` (the partner's ``partner_card`` holds it), ``follows``
    or ``discards`` (the opponents hold the trick)."""
    assert view.seat is not None and view.trump is not None
    trump, trick = view.trump, view.trick
    if not trick:
        if card >> 3 == trump:
            return {"effect": "lead_trumps"}
        unseen = FULL_MASK & ~sum(1 << c for c in view.hand) & ~view.played
        if not unseen & higher(card, trump):
            return {"effect": "lead_highest", "suit": SUITS[card >> 3]}
        return {"effect": "lead", "suit": SUITS[card >> 3]}
    cards = (*trick, card)
    win = winning_index(cards, trump)
    winner = (view.leader + win) & 3
    last = len(trick) == 3
    if winner == view.seat:
        if last:
            return {"effect": "takes", "points": sum(POINTS[trump][c] for c in cards)}
        if card >> 3 == trump and trick[0] >> 3 != trump:
            return {"effect": "trumps"}
        return {"effect": "winning"}
    if not (winner ^ view.seat) & 1:
        effect = "partner_wins" if last else "partner_winning"
        return {"effect": effect, "partner_card": card_str(cards[win])}
    if card >> 3 == trick[0] >> 3:
        return {"effect": "follows"}
    return {"effect": "discards"}


def _effect_english(e: dict[str, Any]) -> str:
    match e["effect"]:
        case "lead_trumps":
            return "lead trumps"
        case "lead_highest":
            return f"the highest {SUIT_SYMBOLS[SUITS.index(e['suit'])]} still out"
        case "lead":
            return f"lead {SUIT_SYMBOLS[SUITS.index(e['suit'])]}"
        case "takes":
            return f"takes the trick ({e['points']} points)"
        case "trumps":
            return "trumps the trick"
        case "winning":
            return "wins the trick so far"
        case "partner_wins" | "partner_winning":
            word = RANK_WORDS[parse_card(e["partner_card"]) & 7]
            verb = "wins" if e["effect"] == "partner_wins" else "is winning"
            return f"your partner's {word} {verb} this trick"
        case "follows":
            return "follows suit; the opponents hold the trick"
        case _:
            return "discards; the opponents hold the trick"


__all__ = [
    "DEFAULT_BUDGET", "Advice", "StrongPolicy", "bid_likelihood", "card_label", "english", "why",
]  # fmt: skip
