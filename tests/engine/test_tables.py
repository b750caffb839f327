"""The precomputed tables against the rules of DESIGN.md §1, read independently.

The tables are built once, at import; these tests also call the builders themselves, so
that a wrong builder is caught by its own answer and not only by the games it spoils.
"""

from __future__ import annotations

from itertools import combinations

import pytest

from engine import tables
from engine.cards import parse_card, parse_suit
from engine.rng import _positions, deal_hands
from engine.trick import roem
from tests.conftest import load_cases

pytestmark = pytest.mark.engine

NATURAL = "789TJQKA"  # runs use this order whatever the trump
FOUR_OF_A_KIND = {"J": 200, "A": 100, "T": 100, "K": 100, "Q": 100, "9": 0, "8": 0, "7": 0}


def longest_run(ranks: set[int]) -> int:
    """The longest streak of ranks adjacent in the natural order 7 8 9 T J Q K A."""
    best = 0
    for start in ranks:
        length = 1
        while start + length in ranks:
            length += 1
        best = max(best, length)
    return best


def run_points(length: int) -> int:
    """A run of three scores 20, a run of four (or more: one run a trick) 50."""
    return 50 if length >= 4 else 20 if length == 3 else 0


def trick_roem_without_stuk(cards: tuple[int, ...]) -> int:
    """The roem of four cards by the rules: one run, or four of a kind (stuk aside)."""
    ranks = {c % 8 for c in cards}
    if len(ranks) == 1:
        return FOUR_OF_A_KIND[NATURAL[cards[0] % 8]]
    suits = {c // 8 for c in cards}
    return max(run_points(longest_run({c % 8 for c in cards if c // 8 == s})) for s in suits)


def test_run_roem_of_every_suit_byte() -> None:
    for byte in range(256):
        ranks = {r for r in range(8) if byte >> r & 1}
        expected = run_points(longest_run(ranks))
        assert tables._run_roem(byte) == expected, f"ranks {ranks}"
        assert tables.RUN_ROEM[byte] == expected


def test_trick_roem_of_every_four_cards() -> None:
    """All 35,960 four-card sets: the builder lists exactly those with roem, at its value."""
    expected = {}
    for cards in combinations(range(32), 4):
        value = trick_roem_without_stuk(cards)
        if value:
            expected[sum(1 << c for c in cards)] = value
    assert tables._trick_roem_masks() == expected
    assert expected == tables.TRICK_ROEM


@pytest.mark.parametrize("case", load_cases("roem.json"), ids=lambda c: c["why"][:40])
def test_the_builder_prices_the_hand_checked_roem_cases(case: dict) -> None:
    """The rule cases again, through a table built now: run or four of a kind, plus stuk."""
    cards = [parse_card(c) for c in case["cards"]]
    trump = parse_suit(case["trump"])
    mask = sum(1 << c for c in cards)
    king, queen = trump * 8 + NATURAL.index("K"), trump * 8 + NATURAL.index("Q")
    stuk = 20 if king in cards and queen in cards else 0
    assert tables._trick_roem_masks().get(mask, 0) + stuk == case["roem"], case["why"]
    assert roem(cards, trump) == case["roem"], case["why"]


def test_deal_positions_are_three_two_three_from_the_dealers_left() -> None:
    """Packets of 3, then 2, then 3, to each seat clockwise from the dealer's left."""
    for dealer in range(4):
        order = [(dealer + k) % 4 for k in (1, 2, 3, 4)]
        expected: dict[int, list[int]] = {seat: [] for seat in range(4)}
        position = 0
        for packet in (3, 2, 3):
            for seat in order:
                expected[seat] += list(range(position, position + packet))
                position += packet
        built = _positions(dealer)
        assert [list(built[seat]) for seat in range(4)] == [expected[s] for s in range(4)]
        deck = list(reversed(range(32)))  # any order: a hand holds the cards at its positions
        hands = deal_hands(deck, dealer)
        for seat in range(4):
            assert hands[seat] == sum(1 << deck[p] for p in expected[seat])


def test_points_and_strength_follow_the_rank_orders() -> None:
    """Card points, and which card takes a trick, by the orders of DESIGN.md §1."""
    plain_points = dict(zip(NATURAL, (0, 0, 0, 10, 2, 3, 4, 11), strict=True))
    trump_points = dict(zip(NATURAL, (0, 0, 14, 10, 20, 3, 4, 11), strict=True))
    plain_high_to_low, trump_high_to_low = "ATKQJ987", "J9ATKQ87"
    for trump in range(4):
        for card in range(32):
            rank, is_trump = NATURAL[card % 8], card // 8 == trump
            points = trump_points[rank] if is_trump else plain_points[rank]
            assert tables.POINTS[trump][card] == points
        for led in range(4):
            strength = tables.STRENGTH[trump * 4 + led]
            ranking = sorted(range(32), key=strength.__getitem__, reverse=True)
            trumps = [c for c in ranking if c // 8 == trump]
            assert "".join(NATURAL[c % 8] for c in trumps) == trump_high_to_low
            if led != trump:
                followers = ranking[8:16]
                assert {c // 8 for c in followers} == {led}
                assert "".join(NATURAL[c % 8] for c in followers) == plain_high_to_low
            assert all(strength[c] == 0 for c in range(32) if c // 8 not in {trump, led})
    assert sum(tables.POINTS[0]) + tables.LAST_TRICK == tables.DEAL_POINTS == 162
