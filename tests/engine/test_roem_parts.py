"""A trick's roem broken down (run, four of a kind, stuk), in events and views alike."""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import Action, Match, Phase, Rules, card_str, parse_cards
from engine.cards import parse_suit
from engine.events import RoemDecided, Trick, TrickTaken
from engine.trick import RoemParts, roem, roem_cards, roem_parts, winning_index
from engine.views import project, view
from tests.conftest import load_cases
from tests.engine import referee
from tests.engine.helpers import play_random

pytestmark = pytest.mark.engine

ROEM = load_cases("roem.json")
NONE = {"run": 0, "four": 0, "stuk": 0}


@pytest.mark.parametrize("case", ROEM, ids=[c["why"][:40] for c in ROEM])
def test_every_roem_case_breaks_down_into_parts_that_sum_to_its_roem(case: dict) -> None:
    parts = roem_parts(parse_cards(case["cards"]), parse_suit(case["trump"]))
    assert parts.total == sum(parts) == case["roem"], case["why"]
    assert parts.run in (0, 20, 50) and parts.four in (0, 100, 200) and parts.stuk in (0, 20)
    assert parts.to_dict() == referee.roem_parts(case["cards"], case["trump"]), case["why"]


@pytest.mark.parametrize(
    ("trump", "cards", "parts"),
    [
        ("h", "Kh Qh Jh 7c", RoemParts(run=20, stuk=20)),  # stuk inside a run of three
        ("h", "Ah Kh Qh Jh", RoemParts(run=50, stuk=20)),  # stuk inside a run of four
        ("h", "Qh 9h Kh Th", RoemParts(stuk=20)),  # K Q 10 9: no run, but stuk
        ("c", "Kh Qh Jh 7c", RoemParts(run=20)),  # K Q of a plain suit: a run, no stuk
        ("s", "Jc Jd Jh Js", RoemParts(four=200)),
        ("h", "Kc Kd Kh Ks", RoemParts(four=100)),  # four kings: no queen, so no stuk
        ("d", "9c 9d 9h 9s", RoemParts()),  # four nines count nothing
        ("c", "7d 8d 9d Kc", RoemParts(run=20)),
    ],
)
def test_parts_by_kind(trump: str, cards: str, parts: RoemParts) -> None:
    assert roem_parts(parse_cards(cards.split()), parse_suit(trump)) == parts


@pytest.mark.parametrize(
    ("trump", "cards", "marked"),
    [
        ("h", "Kh Qh Jh 7c", "Kh Qh Jh"),  # a run of three with stuk inside
        ("h", "Ah Kh Qh Jh", "Ah Kh Qh Jh"),
        ("h", "Qh 9h Kh Th", "Qh Kh"),  # stuk alone: K Q 10 9 is no run
        ("c", "Kh Qh Jh 7c", "Kh Qh Jh"),
        ("d", "9d 7s 8s 9s", "7s 8s 9s"),  # a run of another suit than the one led
        ("s", "Kh Qh Ks Qs", "Ks Qs"),  # two kings and queens: only trump's make stuk
        ("h", "Kh Qh Ks Qs", "Kh Qh"),
        ("s", "Jc Jd Jh Js", "Jc Jd Jh Js"),
        ("d", "9c 9d 9h 9s", ""),  # four nines count nothing
        ("c", "7d 8d Td Kc", ""),
        ("h", "Qc Kc Ac 7d", "Qc Kc Ac"),  # a run ends at its suit's ace: 7d starts another
    ],
)
def test_the_cards_behind_roem(trump: str, cards: str, marked: str) -> None:
    """In the engine, and as ``trick_taken`` sends them (which knows no trump)."""
    played, suit = parse_cards(cards.split()), parse_suit(trump)
    assert roem_cards(played, suit, roem_parts(played, suit)) == tuple(parse_cards(marked.split()))
    trick = Trick(0, tuple(played), winning_index(played, suit), 0, roem(played, suit))
    sent = TrickTaken(1, trick, False, roem_parts(played, suit)).to_dict()
    assert sent["roem_cards"] == marked.split()


def test_every_trick_under_every_trump_matches_the_referee() -> None:
    """All 35,960 four-card sets, each suit as trump: parts sum to the fast path's roem and
    equal the referee's (DESIGN.md §1 by card text)."""
    for cards in combinations(range(32), 4):
        texts = [card_str(c) for c in cards]
        for trump in range(4):
            parts = roem_parts(cards, trump)
            assert parts.total == roem(cards, trump)
            assert parts.to_dict() == referee.roem_parts(texts, "cdhs"[trump]), texts


@given(st.integers(0, 2**32), st.sampled_from(["auto", "claim"]))
def test_events_and_views_carry_the_same_parts(seed: int, mode: str) -> None:
    """Each trick_taken's parts sum to its roem and equal the view's finished trick; a roem
    left in claim mode shows as 0 with parts all 0 (a one-deal match: one deal's view)."""
    match = Match(Rules(roem=mode, end="deals", end_value=1), seed)
    rng = random.Random(seed)
    while not match.over:
        legal = match.legal_actions()
        for event in match.apply(match.turn, legal[int(rng.random() * len(legal))]):
            last = view(match, None).to_dict()["tricks"][-1:]
            if isinstance(event, TrickTaken):
                sent = project(event, None)
                assert sum(sent["roem_parts"].values()) == sent["roem"]
                assert [{k: sent[k] for k in last[0]}] == last, "event and view show it alike"
            if isinstance(event, RoemDecided) and not event.take:
                assert (last[0]["roem"], last[0]["roem_parts"]) == (0, NONE)


def test_a_left_roem_keeps_no_parts() -> None:
    match = Match(Rules(roem="claim"), 3)
    play_random(match, random.Random(3), until=lambda m: m.deal.phase is Phase.CLAIM)
    pending = view(match, 0).to_dict()["tricks"][-1]
    assert pending["roem"] > 0 and sum(pending["roem_parts"].values()) == pending["roem"]
    assert pending["roem_cards"]
    match.apply(match.turn, Action.parse("leave"))
    left = view(match, 0).to_dict()["tricks"][-1]
    assert (left["roem"], left["roem_parts"], left["roem_cards"]) == (0, NONE, [])
