"""Deal records in the JSON-lines format of ``klaverjas selfplay`` and ``analyze``.

``{"variant", "dealer", "trump", "chooser", "hands", "plays", "tricks", "result"}`` with
cards in two-character notation; ``analyze`` adds ``legal``, the legal set before each play.
A deal not played under the default roem and pit options also names them (``roem``,
``pit_bonus``); in claim mode ``claims`` lists each take or leave in order, so a replay
scores the deal as it was scored.  With ``solve``, ``analyze`` also reviews every decision
with the exact open-card solver (:mod:`engine.solver`): ``solve``, one entry per play, and
in claim mode ``solve_claims``, one per take or leave, each ``{"values": {action: value},
"lost": n}``.
"""

from __future__ import annotations

from typing import Any

from .actions import Action, Kind
from .cards import card_str, mask_str, parse_card, parse_hands, parse_suit, suit_str
from .deal import Deal, Phase
from .errors import IllegalAction, NotationError
from .match import Match
from .rules import PitBonus, RoemMode, Rules, Variant


def deal_record(deal: Deal) -> dict[str, Any]:
    """A finished deal as a record."""
    if deal.result is None:
        raise ValueError("the deal is not finished")
    return {
        "variant": deal.rules.variant.value,
        "dealer": deal.dealer,
        "trump": suit_str(deal.trump),
        "chooser": deal.chooser,
        "hands": [mask_str(h) for h in deal.dealt],
        "plays": [card_str(a.value) for a in deal.actions if a.kind is Kind.PLAY],
        "tricks": [t.to_dict() for t in deal.tricks],
        "result": deal.result.to_dict(),
        **_options(deal),
    }


def _options(deal: Deal) -> dict[str, Any]:
    """What a record says beyond the defaults: the roem and pit options, the claims."""
    out: dict[str, Any] = {}
    if deal.rules.roem is not RoemMode.AUTO:
        out["roem"] = deal.rules.roem.value
        out["claims"] = [a.kind.value for a in deal.actions if a.kind in (Kind.TAKE, Kind.LEAVE)]
    if deal.rules.pit_bonus is not PitBonus.ANY:
        out["pit_bonus"] = deal.rules.pit_bonus.value
    return out


def review(deal: Deal, action: Action) -> dict[str, Any]:
    """The solver's review of ``action`` in ``deal`` (before it is applied): each legal
    action's value (the mover's team's final total minus the other team's, every later
    decision best with all hands open) and ``lost``, the best value minus the chosen one."""
    from .solver import solve  # the compiled solver: only a review needs it

    values = solve(deal)
    return {
        "values": {str(a): v for a, v in values.items()},
        "lost": max(values.values()) - values[action],
    }


def analyze(record: object, solve: bool = False, seat: int | None = None) -> dict[str, Any]:
    """Replay a record's plays; its legal sets, tricks and result, or the first error.

    A deal record answers ``{legal, tricks, result}``; a match record (``rules``, ``seed``,
    ``actions``, as the server stores finished matches) answers ``{deals: [...], totals,
    winner}`` with one such answer per deal.  A malformed record raises
    :class:`NotationError`; an illegal play is answered ``{"error": {"index", "card",
    "reason"}}``.  ``solve`` adds the solver's review of every decision (:func:`review`):
    ``solve`` for the plays and, in claim mode, ``solve_claims`` for the takes and leaves;
    with ``seat``, only that seat's decisions are solved (the others' entries are None).
    """
    if not isinstance(record, dict):
        raise NotationError("a deal record must be a JSON object")
    if "actions" in record and "seed" in record:
        return analyze_match(record, solve)
    for key in ("variant", "dealer", "trump", "chooser", "hands", "plays"):
        if key not in record:
            raise NotationError(f"record has no {key!r}")
    try:
        variant = Variant(record["variant"])
    except ValueError:
        raise NotationError(f"unknown variant {record['variant']!r}") from None
    try:
        rules = Rules(
            variant=variant,
            roem=record.get("roem", RoemMode.AUTO),
            pit_bonus=record.get("pit_bonus", PitBonus.ANY),
        )
    except NotationError as err:
        raise NotationError(f"record: {err}") from None
    claims = record.get("claims", [])
    if not isinstance(claims, list) or not all(c in ("take", "leave") for c in claims):
        raise NotationError("claims must be a list of 'take' and 'leave'")
    claims = list(claims)  # used up below: the caller's record stays as it was
    for key in ("dealer", "chooser"):
        if record[key] not in range(4) or isinstance(record[key], bool):
            raise NotationError(f"{key} must be a seat 0-3, not {record[key]!r}")
    plays = record["plays"]
    if not isinstance(plays, list) or len(plays) > 32:
        raise NotationError("plays must be a list of at most 32 cards")
    deal = Deal.with_trump(
        rules,
        record["dealer"],
        parse_hands(record["hands"]),
        parse_suit(record["trump"]),
        record["chooser"],
    )
    legal: list[list[str]] = []
    reviews: list[dict[str, Any]] = []
    claim_reviews: list[dict[str, Any]] = []
    for index, text in enumerate(plays):
        try:
            card = parse_card(text)
        except NotationError as err:
            return {"error": {"index": index, "card": text, "reason": str(err)}}
        legal.append(mask_str(deal.legal_mask()))
        try:
            deal.check(deal.turn, Action.play(card))
        except IllegalAction as err:
            return {"error": {"index": index, "card": card_str(card), "reason": str(err)}}
        if solve:
            mine = seat is None or deal.turn == seat
            reviews.append(review(deal, Action.play(card)) if mine else None)
        deal.apply(deal.turn, Action.play(card))
        if deal.phase is Phase.CLAIM:  # the trick's winner took or left its roem
            if not claims:
                raise NotationError(f"play {index}: the trick's roem was claimed, say how")
            decision = Action.parse(claims.pop(0))
            if solve:
                mine = seat is None or deal.turn == seat
                claim_reviews.append(review(deal, decision) if mine else None)
            deal.apply(deal.turn, decision)
    answer: dict[str, Any] = {"legal": legal, "tricks": [t.to_dict() for t in deal.tricks]}
    answer["result"] = deal.result.to_dict() if deal.result else None
    if solve:
        answer["solve"] = reviews
        if rules.roem is RoemMode.CLAIM:
            answer["solve_claims"] = claim_reviews
    return answer


def match_deals(record: dict[str, Any]) -> list[dict[str, Any]]:
    """The deal records of a (validated) match record, in order."""
    match = Match.from_record(record)
    replay = Match(match.rules, match.seed, match.first_dealer)
    deals: list[dict[str, Any]] = []
    for action in match.actions:
        deal = replay.deal
        replay.apply(deal.turn, action)
        if deal.result is not None:
            deals.append(deal_record(deal))
    return deals


def analyze_match(record: dict[str, Any], solve: bool = False) -> dict[str, Any]:
    try:
        deals = match_deals(record)
    except IllegalAction as err:
        return {"error": {"index": None, "card": None, "reason": str(err)}}
    totals = [sum(d["result"]["score"][t] for d in deals) for t in (0, 1)]
    winner = None if totals[0] == totals[1] else int(totals[1] > totals[0])
    return {"deals": [analyze(d, solve) for d in deals], "totals": totals, "winner": winner}
