"""The strong CPU player: search over the hidden hands its view allows.

Perfect-information sampling: draw worlds (deals of the unseen cards consistent with the
view, :mod:`engine.worlds`), solve each exactly with all hands open
(:mod:`engine.solver`), and take the action with the best mean value for the team.  The
budget counts solver nodes, never time: worlds are drawn and solved until the nodes
visited reach the budget (at least one world, at most :data:`MAX_WORLDS`), so the early
tricks, where a solve is dear, get few worlds and the later ones many.  A solve's node
count depends only on its position and every draw comes from the ``rng`` handed in, so a
decision is a pure function of the view and the seed.

Trump choice: for each suit it may name, the seat solves each world from the opening
lead with that trump and itself as the chooser; passing is valued in the same worlds by
letting the later bidders choose by the heuristic's rule of thumb (and the seat itself,
when the bidding comes back to it, by its best mean).  A full solve is dear and its
open-hand value flatters naming, so the few worlds a budget allows are noisy: the choice
starts from the heuristic's rule of thumb and moves to another only when that one is
better in the same worlds by more than :data:`CONFIDENCE` standard errors (measured: taken
raw, the search's trump choice lost most of what its card play won).  A budget too small
for two worlds (:data:`TRUMP_SEARCH`) keeps the rule of thumb without search.

Soft information from the bidding: a seat that named a suit it would not accept by that
rule of thumb, or passed a suit it would accept, keeps its world only with probability
:data:`SOFT`.

Options (keyword arguments; each measured in duplicate matches against the heuristic,
see README): ``replies`` values each card, world by world, with the opponents' replies in
the current trick played by the heuristic's rules (:func:`.rollout.heuristic_card`, from
their own view of that world) and the rest solved exactly, where plain sampling lets them
reply as perfectly informed players; ``pool`` candidate worlds weighted by the likelihood
of the other seats' plays under the heuristic (:mod:`.inference`, error rates
``eps_opponent`` and ``eps_partner``); ``rollouts`` values every trump choice by that many
heuristic playouts of sampled worlds (:mod:`.rollout`), keeping the rule of thumb unless
another choice beats it by ``margin`` points; ``prior`` adds that many points, over the
square root of the worlds solved, to the heuristic's own card.  All are off by default:
none measured stronger at the default budget (docs/performance.md, "Strength experiments").
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
from ..solver import last_nodes, solve, solve_value
from ..tables import POINTS
from ..trick import winning_index
from ..views import View
from ..worlds import Likelihood, Worlds
from .heuristic import HeuristicPolicy, accepts, choose_trump, higher, suit_score
from .inference import PlayModel
from .rollout import heuristic_card, heuristic_score

# Thousands of solver nodes a decision (docs/performance.md, "The strong player's strength").
DEFAULT_BUDGET = 1000
MAX_WORLDS = 48  # worlds a decision at most, however cheap they are
TRUMP_FACTOR = 4  # a trump choice (once a deal) gets four budgets for naming's solves
TRUMP_WORLDS = 2  # and at least two worlds, so that a difference has a standard error
TRUMP_SEARCH = 8000  # below this many thousand nodes (about two worlds), no trump search
CONFIDENCE = 2.0  # standard errors by which the search must beat the rule of thumb
SOFT = 0.3  # the chance a bid against the rule of thumb is kept (see module docstring)
POOL = 0  # candidate worlds a decision weighted by the play model (0: no inference from play)
EPS_OPPONENT = 0.05  # the play model's likelihood of an opponent's play off the heuristic
EPS_PARTNER = 1.0  # the same for the partner (1.0: the partner's plays are not modelled)
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
    # The mean over the worlds of the mover's team minus the other team at deal end; empty
    # for a trump choice made by the rule of thumb alone (a budget below TRUMP_SEARCH).
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
        pool: int = POOL,
        eps_opponent: float = EPS_OPPONENT,
        eps_partner: float = EPS_PARTNER,
        rollouts: int = 0,
        margin: float = 0.0,
        replies: int = REPLIES,
        prior: float = PRIOR,
    ) -> None:
        if budget < 1:
            raise ValueError("the budget is at least 1 (thousand solver nodes)")
        self.budget = budget
        self.pool = pool
        self.eps_opponent = eps_opponent
        self.eps_partner = eps_partner
        self.rollouts = rollouts
        self.margin = margin
        self.replies = replies
        self.prior = prior

    def act(self, view: View, rng: random.Random) -> Action:
        if len(view.legal) == 1:
            return view.legal[0]
        return self.advise(view, rng).action

    def advise(self, view: View, rng: random.Random) -> Advice:
        """The decision for ``view``'s seat, its values, and why."""
        if view.seat is None or not view.legal:
            raise ValueError("the view has no decision to make")
        if view.phase is Phase.TRUMP:
            action, values = self._trump_choice(view, rng)
        else:
            values, solved = self._play_values(view, rng)
            bonus = dict.fromkeys(view.legal, 0.0)
            if self.prior:  # the heuristic's card, by less the more worlds were solved
                bonus[_HEURISTIC.act(view, rng)] = self.prior / solved**0.5
            action = max(view.legal, key=lambda a: values[a] + bonus[a])  # the first on ties
        w = why(view, action, values)
        return Advice(action, values, english(w), w)

    def _play_values(self, view: View, rng: random.Random) -> tuple[dict[Action, float], int]:
        """Each legal action's mean value over the worlds drawn, and how many distinct
        worlds were solved."""
        worlds = Worlds(view)
        sums = dict.fromkeys(view.legal, 0)
        solved: dict[tuple[int, ...], dict[Action, int]] = {}
        nodes = drawn = 0
        likelihood = bid_likelihood(view)
        pool, weights = self._pool(view, worlds, rng, likelihood)
        modelled = self.replies and view.phase is Phase.PLAY and len(view.trick) in (0, 2)
        while drawn < MAX_WORLDS and (not drawn or nodes < 1000 * self.budget):
            if pool:
                (hands,) = rng.choices(pool, cum_weights=weights)
            else:
                (hands,) = worlds.sample(rng, 1, likelihood)
            key = tuple(hands)
            if key not in solved and modelled:
                solved[key], spent = _replied(view, worlds, hands)
                nodes += spent
            elif key not in solved:
                solved[key] = solve(worlds.deal(hands))
                nodes += last_nodes()
            for action, value in solved[key].items():
                sums[action] += value
            drawn += 1
        return {a: s / drawn for a, s in sums.items()}, len(solved)

    def _pool(
        self, view: View, worlds: Worlds, rng: random.Random, likelihood: Likelihood | None
    ) -> tuple[list[list[int]], list[float]]:
        """Candidate worlds drawn uniformly and their cumulative weights under the bids'
        and the play model's likelihood (empty: no play to learn from)."""
        seat = view.seat
        assert seat is not None
        eps = {s: self.eps_partner if s == seat ^ 2 else self.eps_opponent for s in range(4)}
        if not self.pool or (not view.tricks and not view.trick) or min(eps.values()) >= 1.0:
            return [], []
        model = PlayModel(view, eps)
        pool = [worlds.hands(rng) for _ in range(self.pool)]
        cum, total = [], 0.0
        for hands in pool:
            start = worlds.start_hands(hands)
            total += model(start) * (likelihood(start) if likelihood else 1.0)
            cum.append(total)
        if not total:
            return [], []
        return pool, cum

    def _trump_choice(self, view: View, rng: random.Random) -> tuple[Action, dict[Action, float]]:
        seat = view.seat
        assert seat is not None
        choice = choose_trump(view.hand, view.legal)
        if self.rollouts:
            return self._rollout_choice(view, rng, choice)
        budget = 1000 * TRUMP_FACTOR * self.budget
        if budget < 1000 * TRUMP_SEARCH:
            return choice, {}
        worlds = Worlds(view)
        names = [a for a in view.legal if a.kind is Kind.TRUMP]
        found: dict[Action, list[int]] = {a: [] for a in view.legal}
        drawn: list[list[int]] = []
        nodes = 0
        likelihood = bid_likelihood(view)
        while len(drawn) < MAX_WORLDS and (len(drawn) < TRUMP_WORLDS or nodes < budget):
            (hands,) = worlds.sample(rng, 1, likelihood)
            drawn.append(hands)
            for action in names:
                deal = worlds.deal(hands)
                deal.choose(action.value, seat)
                found[action].append(_value_for(deal, seat))
                nodes += last_nodes()
        if PASS in found:
            mine = max(names, key=lambda a: sum(found[a]))  # if the bidding comes back
            for hands in drawn:
                deal = worlds.deal(hands)
                deal.pass_()
                _finish_bidding(deal, seat, mine)
                found[PASS].append(_value_for(deal, seat))
        values = {a: sum(v) / len(v) for a, v in found.items()}
        best = max(view.legal, key=lambda a: values[a])
        if best != choice and _clearly_better(found[best], found[choice]):
            choice = best
        return choice, values

    def _rollout_choice(
        self, view: View, rng: random.Random, rule: Action
    ) -> tuple[Action, dict[Action, float]]:
        """Each trump choice valued by playing the deal out with the heuristic in the same
        sampled worlds; the rule of thumb's choice unless another beats it by ``margin``."""
        seat = view.seat
        assert seat is not None
        worlds = Worlds(view)
        drawn = worlds.sample(rng, self.rollouts, bid_likelihood(view))
        values = {}
        for action in view.legal:
            total = 0
            for hands in drawn:
                deal = worlds.deal(hands)
                deal.apply(seat, action)
                total += heuristic_score(deal, seat)
            values[action] = total / len(drawn)
        best = max(view.legal, key=lambda a: values[a])
        return (best if values[best] > values[rule] + self.margin else rule), values


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


def _clearly_better(these: list[int], those: list[int]) -> bool:
    """Whether ``these`` beat ``those`` (paired by world) by :data:`CONFIDENCE` standard
    errors of the mean difference."""
    diffs = [a - b for a, b in zip(these, those, strict=True)]
    n = len(diffs)
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean > 0 and mean * mean * n > CONFIDENCE * CONFIDENCE * var


def _value_for(deal: Deal, seat: int) -> int:
    """The open-hand value of ``deal`` (at its opening lead) for ``seat``'s team."""
    value = solve_value(deal)
    return value if not (deal.turn ^ seat) & 1 else -value


def _finish_bidding(deal: Deal, seat: int, mine: Action) -> None:
    """The rest of the bidding: the others by the heuristic's rule, ``seat`` forced to name
    picks ``mine`` when it may."""
    while deal.phase is Phase.TRUMP:
        choices = deal.trump_choices()
        if deal.turn == seat and mine in choices:
            choice = mine
        else:
            choice = choose_trump(cards_of(deal.hands[deal.turn]), choices)
        if choice.kind is Kind.PASS:
            deal.pass_()
        else:
            deal.choose(choice.value, deal.turn)


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

    def likelihood(start: list[int]) -> float:
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
    ``take`` or ``leave`` (the roem), ``name`` (``suit``) or ``pass`` searched; ``thumb_pass``,
    ``thumb_name`` (``suit``, ``held`` cards of it, ``top``: ``jack`` or ``nine_ace``) and
    ``thumb_forced`` (``suit``) by the rule of thumb alone.  Searched: ``value`` (the
    action's expected value), ``margin`` (over the next best) and ``compare``: ``only``
    (no other choice), ``even`` (a card as good as the next best), ``better``, or ``worse``
    (a trump choice kept by the rule of thumb though ``next`` looked better: ``pass`` or
    ``trump:<suit>``).
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
    return {**out, "compare": "better" if exact >= 0 else "worse", "next": str(second)}


def reason(view: View, action: Action, values: dict[Action, float]) -> str:
    """One line in words: what ``action`` does and what it is expected to gain."""
    return english(why(view, action, values))


def english(w: dict[str, Any]) -> str:
    """A :func:`why` in English."""
    kind, margin = w["kind"], w.get("margin", 0.0)
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
        head = f"Name {suit}: expected {_signed(w['value'])} with {suit} as trump"
    else:
        head = f"Pass: expected {_signed(w['value'])} by passing"
    if w["compare"] == "only":
        return f"{head}; the only choice"
    nxt = w["next"]
    what = "passing" if nxt == "pass" else f"naming {SUIT_NAMES[SUITS.index(nxt[-1])]}"
    if w["compare"] == "better":
        return f"{head}, {_signed(margin)} over {what}"
    return (
        f"{head}; {what} looks {-margin:.0f} better in the worlds searched, "
        f"not clearly enough to leave the rule of thumb"
    )


def _rule_of_thumb(view: View, action: Action) -> dict[str, Any]:
    """Why the heuristic's rule of thumb made this trump choice."""
    if action.kind is Kind.PASS:
        return {"kind": "thumb_pass"}
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
