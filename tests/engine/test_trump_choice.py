"""Choosing trump in every mode, table-driven; dealer 0, so seat 1 is left of the dealer."""

from __future__ import annotations

import pytest

from engine import Action, IllegalAction, Match, NotYourTurn, Phase, Rules, WrongPhase
from engine.cards import SUITS
from tests.engine.helpers import snapshot

pytestmark = pytest.mark.engine

ALL = ["trump:c", "trump:d", "trump:h", "trump:s"]

# mode, [(seat, action)], legal actions before each action, chooser, trump ("T" = turned suit)
CASES = [
    ("bidding", [(1, "trump:h")], [["pass", *ALL]], 1, "h"),
    ("bidding", [(1, "pass"), (2, "pass"), (3, "trump:c")], [["pass", *ALL]] * 3, 3, "c"),
    (
        "bidding",
        [(1, "pass"), (2, "pass"), (3, "pass"), (0, "trump:d")],
        [["pass", *ALL]] * 4,
        0,
        "d",
    ),
    (
        "bidding",
        [(1, "pass"), (2, "pass"), (3, "pass"), (0, "pass"), (1, "trump:s")],
        [["pass", *ALL]] * 4 + [ALL],
        1,
        "s",
    ),
    ("dealer", [(0, "trump:h")], [ALL], 0, "h"),
    ("forced", [(1, "trump:d")], [ALL], 1, "d"),
    ("turned", [(1, "pass"), (2, "accept")], [["pass", "accept"]] * 2, 2, "T"),
    ("turned", [(1, "accept")], [["pass", "accept"]], 1, "T"),
    (
        "turned",
        [(1, "pass"), (2, "pass"), (3, "pass"), (0, "pass"), (1, "other")],
        [["pass", "accept"]] * 4 + ["others"],
        1,
        "O",
    ),
]


def _resolve(text: str, turned_suit: str) -> str:
    other = next(s for s in SUITS if s != turned_suit)
    return {"accept": f"trump:{turned_suit}", "other": f"trump:{other}"}.get(text, text)


@pytest.mark.parametrize(("mode", "steps", "legal", "chooser", "trump"), CASES)
def test_trump_choice(mode, steps, legal, chooser, trump) -> None:
    match = Match(Rules(trump_mode=mode), seed=11)
    turned = match.deal.turned
    turned_suit = SUITS[turned >> 3] if turned is not None else ""
    assert (turned is not None) == (mode == "turned")
    for (seat, text), expected in zip(steps, legal, strict=True):
        assert match.turn == seat
        if expected == "others":
            expected = [f"trump:{s}" for s in SUITS if s != turned_suit]
        expected = [_resolve(t, turned_suit) for t in expected]
        assert [str(a) for a in match.legal_actions()] == expected
        match.apply(seat, Action.parse(_resolve(text, turned_suit)))
    deal = match.deal
    assert deal.phase is Phase.PLAY
    assert deal.chooser == chooser
    expected_trump = {"T": turned_suit, "O": _resolve("other", turned_suit)[-1]}.get(trump, trump)
    assert SUITS[deal.trump] == expected_trump
    assert match.turn == 1, "left of the dealer always leads the first trick"


@pytest.mark.parametrize(
    ("mode", "steps", "seat", "action", "error", "message"),
    [
        ("bidding", [], 2, "pass", NotYourTurn, "seat 1's turn"),
        ("bidding", [], 1, "Jh", WrongPhase, "phase trump"),
        ("bidding", [], 1, "take", WrongPhase, "no roem"),
        ("bidding", ["pass"] * 4, 1, "pass", IllegalAction, "passing is not allowed"),
        ("dealer", [], 0, "pass", IllegalAction, "passing is not allowed"),
        ("forced", [], 1, "pass", IllegalAction, "passing is not allowed"),
        ("turned", [], 1, "other", IllegalAction, "turned card's suit"),
        ("turned", ["pass"] * 4, 1, "accept", IllegalAction, "suit was refused"),
    ],
)
def test_refused_trump_actions_change_nothing(mode, steps, seat, action, error, message) -> None:
    match = Match(Rules(trump_mode=mode), seed=5)
    for text in steps:
        match.apply(match.turn, Action.parse(text))
    turned_suit = SUITS[match.deal.turned >> 3] if match.deal.turned is not None else "h"
    before = snapshot(match)
    with pytest.raises(error, match=message):
        match.apply(seat, Action.parse(_resolve(action, turned_suit)))
    assert snapshot(match) == before
