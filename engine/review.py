"""A finished match reviewed for one seat: each of its plays against the best open-card
play (the exact solver), labelled by the points it gave away.

A play's ``lost`` is the solver's best value minus the value of the card played, both the
final score of the mover's team minus the other team's with every later decision best for
its side and all hands open.  Moving ``n`` points from one team to the other changes that
difference by ``2n``: a lost of 10 is five points given away.  The labels, by ``lost``:
``inaccuracy`` from 10, ``mistake`` from 30, ``blunder`` from 60 (a ten or more given away;
a nat or a lost pit costs far more).
"""

from __future__ import annotations

from typing import Any

from .record import analyze, match_deals

LABELS = (("blunder", 60), ("mistake", 30), ("inaccuracy", 10))  # worst first


def label(lost: int) -> str | None:
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
    return {"number": number, "deals": len(deals), "deal": deal, "plays": plays}
