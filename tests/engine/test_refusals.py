"""Why a card is refused, as a client is told it (``why_not``: a code and the suit or card it
names): in many random positions of both variants, each refused card's reason must be true
of the position, checked from the card texts with the independent referee, and every kind
of reason comes up."""

from __future__ import annotations

import random

import pytest

from engine import Match, Rules
from engine.views import view
from tests.engine.referee import TRUMP_ORDER, winning_index

pytestmark = pytest.mark.engine

CODES = {
    "amsterdam": {"follow", "follow_trump", "trump_higher", "overtrump", "must_trump_opponent",
                  "no_undertrump", "partner_undertrump"},
    "rotterdam": {"follow", "follow_trump", "trump_higher", "overtrump", "must_trump",
                  "must_trump_partner"},
}  # fmt: skip


def above(card: str, than: str) -> bool:
    """A trump ``card`` beats the trump ``than``."""
    return TRUMP_ORDER.index(card[0]) < TRUMP_ORDER.index(than[0])


def check(why: dict[str, str], card: str, v: dict, variant: str) -> None:
    """The reason ``why`` for refusing ``card`` holds in the view ``v`` of the seat on turn."""
    hand, trick, trump, seat = v["hand"], v["trick"], v["trump"], v["seat"]
    led = trick[0][1]
    winner = (v["leader"] + winning_index(trick, trump)) % 4
    partner = winner % 2 == seat % 2
    trumps = [c for c in trick if c[1] == trump]
    high = min(trumps, key=lambda c: TRUMP_ORDER.index(c[0])) if trumps else None
    holds_higher = high is not None and any(c[1] == trump and above(c, high) for c in hand)
    code = why["why"]
    if code in ("follow", "follow_trump"):
        assert why == {"why": code, "suit": led} and card[1] != led
        assert any(c[1] == led for c in hand) and (code == "follow_trump") == (led == trump)
        return
    if code == "trump_higher":  # trump led: a lower trump, while holding a higher one
        assert why == {"why": code, "card": high} and led == trump and holds_higher
        assert card[1] == trump and not above(card, high)
        return
    assert led != trump and not any(c[1] == led for c in hand), why  # cannot follow
    if code == "overtrump":
        assert why == {"why": code, "card": high} and holds_higher
        assert card[1] != trump or not above(card, high)
        return
    assert any(c[1] == trump for c in hand)  # a trump was due
    if code.startswith("must_trump"):
        assert why == {"why": code, "suit": led} and card[1] != trump and not holds_higher
        wanted = {"amsterdam": "must_trump_opponent", "rotterdam": "must_trump"}[variant]
        if variant == "rotterdam" and partner:
            wanted = "must_trump_partner"
        assert code == wanted and not (variant == "amsterdam" and partner)
        return
    # a lower trump in Amsterdam: never while the partner wins, else only with a discard
    assert variant == "amsterdam" and why == {"why": code} and card[1] == trump
    assert high is not None and not above(card, high)
    if code == "partner_undertrump":
        assert partner
    else:
        assert code == "no_undertrump" and not partner and not holds_higher
        assert any(c[1] != trump for c in hand)


@pytest.mark.parametrize("variant", ["amsterdam", "rotterdam"])
def test_every_refused_card_says_a_true_reason(variant: str) -> None:
    seen: set[str] = set()
    for seed in range(120):
        match = Match(Rules.from_dict({"deals": 1, "variant": variant}), seed)
        rng = random.Random(seed)
        while not match.over:
            seat = match.turn
            assert seat is not None
            legal = [str(a) for a in match.legal_actions()]
            v = view(match, seat).to_dict()
            refused = v["why_not"]
            if v["phase"] == "play" and v["trick"]:
                assert set(refused) == set(v["hand"]) - set(legal)
            else:
                assert refused == {}
            for card, why in refused.items():
                check(why, card, v, variant)
                seen.add(why["why"])
            assert view(match, None).to_dict()["why_not"] == {}  # a spectator: no hand
            match.apply(seat, match.legal_actions()[int(rng.random() * len(legal))])
    assert seen == CODES[variant]
