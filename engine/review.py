"""A finished match reviewed for one seat: each of its plays against the best open-card
play (the exact solver), labelled by the points it gave away.

A play's ``lost`` is the solver's best value minus the value of the card played, both the
final score of the mover's team minus the other team's with every later decision best for
its side and all hands open.  Moving ``n`` points from one team to the other changes that
difference by ``2n``: a lost of 10 is five points given away.  The labels, by ``lost``:
``inaccuracy`` from 10, ``mistake`` from 30, ``blunder`` from 60 (a ten or more given away;
a nat or a lost pit costs far more).

The seat's bids (each pass or suit named) are reviewed with the strong player's trump
evaluation (:func:`.policies.strong.trump_values`: what the hand is worth with each suit,
and what passing is worth), seeded by the deal and the bid, so a review is the same each
time; labelled as plays, by what they lost.
"""

from __future__ import annotations

import random
from typing import Any

from .deal import Phase
from .match import Match
from .policies.strong import trump_values
from .record import analyze, match_deals
from .views import deal_view

LABELS = (("blunder", 60), ("mistake", 30), ("inaccuracy", 10))  # worst first


def label(lost: float) -> str | None:
    """The label of a play that lost ``lost`` (None: a good play)."""
    return next((name for name, least in LABELS if lost >= least), None)


def review_deal(record: dict[str, Any], number: int, seat: int | None) -> dict[str, Any]:
    """Deal ``number`` of a finished match ``record``: the deal (hands as dealt, plays,
    tricks, result) and, for ``seat``'s plays, the solver's values, ``lost`` and label."""
    deals = match_deals(record)
    if not 0 <= number < len(deals):
        raise IndexError(f"the match has {len(deals)} deals, numbered from 0")
    deal = deals[number]
    solved = analyze(deal, solve=seat is not None, seat=seat)
    plays = []
    for index, entry in enumerate(solved.get("solve", [])):
        if entry is not None:
            card = deal["plays"][index]
            best = max(entry["values"].values())
            plays.append({
                "index": index, "card": card, "values": entry["values"],
                "best": sorted(c for c, v in entry["values"].items() if v == best),
                "lost": entry["lost"], "label": label(entry["lost"]),
            })  # fmt: skip
    bids = [] if seat is None else review_bids(record, number, seat)
    return {"number": number, "deals": len(deals), "deal": deal, "plays": plays, "bids": bids}


def review_bids(record: dict[str, Any], number: int, seat: int) -> list[dict[str, Any]]:
    """``seat``'s trump choices in deal ``number`` of ``record``: each with every choice's
    value by the trump evaluation, the ``best``, what the one made ``lost``, its label."""
    match = Match.from_record(record)
    replay = Match(match.rules, match.seed, match.first_dealer)
    bids: list[dict[str, Any]] = []
    for action in match.actions:
        if replay.deal_number > number:
            break
        deal = replay.deal
        if replay.deal_number == number and deal.phase is Phase.TRUMP and deal.turn == seat:
            index = len(deal.actions)
            values = trump_values(deal_view(deal, seat), random.Random(f"review/{number}/{index}"))
            shown = {str(a): round(v, 1) for a, v in values.items()}
            best = max(shown.values())
            lost = round(best - shown[str(action)], 1)
            bids.append({
                "index": index, "action": str(action), "values": shown,
                "best": [a for a, v in shown.items() if v == best], "lost": lost,
                "label": label(lost),
            })  # fmt: skip
        replay.perform(deal.turn, action)
    return bids
