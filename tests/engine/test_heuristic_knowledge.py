"""The heuristic player's building blocks, each against an independent reading of its
docstring: rank orders, higher cards, roem formed so far, the voids a seat has shown, what
the acting seat knows, and whether a trick is safe from the opponents still to play."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from engine import Rules, view
from engine.policies.heuristic import (
    Knowledge,
    higher,
    order,
    partial_roem,
    shown_voids,
)
from tests.engine.test_heuristic import CLUBS, DIAMONDS, HEARTS, SPADES, playing

pytestmark = pytest.mark.engine

RANKS = "789TJQKA"
PLAIN_LOW_TO_HIGH, TRUMP_LOW_TO_HIGH = "789JQKTA", "78QKTA9J"


def strength(card: int, trump: int) -> int:
    """Within the card's own suit: 0 for the lowest, 7 for the highest."""
    ladder = TRUMP_LOW_TO_HIGH if card // 8 == trump else PLAIN_LOW_TO_HIGH
    return ladder.index(RANKS[card % 8])


def test_order_ranks_each_suit_from_seven_up() -> None:
    for trump in range(4):
        for card in range(32):
            assert order(card, trump) == strength(card, trump), (card, trump)


def test_higher_is_the_cards_of_the_same_suit_that_beat_it() -> None:
    for trump in range(4):
        for card in range(32):
            beats = [
                c
                for c in range(32)
                if c // 8 == card // 8 and strength(c, trump) > strength(card, trump)
            ]
            assert higher(card, trump) == sum(1 << c for c in beats), (card, trump)


def roem_so_far(cards: tuple[int, ...], trump: int) -> int:
    """A run of three or four in one suit (20, 50), plus 20 for the trump king and queen."""
    best = 0
    for suit in range(4):
        ranks = {c % 8 for c in cards if c // 8 == suit}
        for start in ranks:
            length = 1
            while start + length in ranks:
                length += 1
            best = max(best, 50 if length >= 4 else 20 if length == 3 else 0)
    stuk = {trump * 8 + RANKS.index("K"), trump * 8 + RANKS.index("Q")} <= set(cards)
    return best + (20 if stuk else 0)


def test_roem_formed_by_an_unfinished_trick() -> None:
    for size in (0, 1, 2, 3):
        for cards in combinations(range(32), size):
            for trump in range(4):
                assert partial_roem(cards, trump) == roem_so_far(cards, trump), (cards, trump)
    assert partial_roem((24, 25, 26, 27), CLUBS) == 50  # a run of four spades


# -- voids shown by the cards played ------------------------------------------------------


def voids_of(match, seat: int) -> list[set[str]]:
    seen = view(match, seat)
    bits = shown_voids(seen, seen.trump)
    return [{"cdhs"[s] for s in range(4) if bits[who] >> s & 1} for who in range(4)]


def test_a_seat_keeps_every_void_it_has_shown() -> None:
    """Seat 1 shows no clubs in trick 1 and no diamonds in trick 2: both are remembered."""
    match = playing(
        SPADES,
        0,
        "Ac 7h Kc Qc  Ad 8h Kd Qd",
        s0="Ac Ad 7c 8c 7d 8d 7s 8s",
        s1="7h 8h 9h Th Jh Qh Kh Ah",
        s2="Kc Kd 9c Tc 9d Td Js Qs",
        s3="Qc Qd Jc Jd 9s Ts Ks As",
    )
    assert match.turn == 0
    voids = voids_of(match, 0)
    # Amsterdam: seat 1 discarded a heart under an opponent's winning ace, with no trump
    # in the trick: it could not trump, so it holds no spades either.
    assert voids[1] == {"c", "d", "s"}
    assert voids[0] == voids[2] == voids[3] == set()


def test_discarding_under_a_winning_partner_shows_no_trump_void_in_amsterdam() -> None:
    match = playing(
        SPADES,
        0,
        "Ac Kc 7h",
        s0="Ac Ad 7c 8c 7d 8d 7s 8s",
        s1="Kc 8h 9h Th Jh Qh 9s Ts",
        s2="7h Kd 9d Td Jd Qd Js Qs",
        s3="9c Tc Jc Qc Kh Ah Ks As",
    )
    assert voids_of(match, 3)[2] == {"c"}  # partner (seat 0) held the trick: no proof


def test_in_rotterdam_any_discard_shows_no_trumps() -> None:
    rotterdam = Rules(variant="rotterdam")
    match = playing(
        SPADES,
        0,
        "Ac Kc 7h",
        rotterdam,
        s0="Ac Ad 7c 8c 7d 8d 7s 8s",
        s1="Kc 8h 9h Th Jh Qh 9s Ts",
        s2="7h Kd 9d Td Jd Qd Kh Ah",
        s3="9c Tc Jc Qc Js Qs Ks As",
    )
    assert voids_of(match, 3)[2] == {"c", "s"}


def test_discarding_after_an_opponent_trumped_shows_no_trump_void() -> None:
    """Amsterdam: seat 2 may keep lower trumps when it cannot overtrump, so a discard after
    seat 1 trumped proves nothing about its trumps."""
    match = playing(
        SPADES,
        0,
        "Ac Js 7h",
        s0="Ac Ad 7c 8c 7d 8d 7s 8s",
        s1="Js 8h 9h Th Jh Qh Kh Ah",
        s2="7h Kd 9d Td Jd Qd 9s Ts",
        s3="Kc Qc Jc Tc 9c Qs Ks As",
    )
    voids = voids_of(match, 3)
    assert voids[1] == {"c"} and voids[2] == {"c"}


def test_the_void_goes_to_the_seat_that_played_the_card() -> None:
    """The dealer is 3, so seat 0 leads; here seat 2 is the one off suit."""
    match = playing(
        HEARTS,
        1,
        "Ac 7c 7d",
        Rules(variant="rotterdam"),
        s0="Ac Ad 8c 9c 8d 9d 7s 8s",
        s1="7c Kd Tc Jc 7h 8h 9s Ts",
        s2="7d Qd Td Jd Js Qs Ks As",
        s3="Kc Qc 9h Th Jh Qh Kh Ah",
    )
    voids = voids_of(match, 3)
    assert voids[2] == {"c", "h"} and voids[1] == voids[0] == set()


# -- what the acting seat knows -----------------------------------------------------------


def test_knowledge_of_a_view() -> None:
    match = playing(
        HEARTS,
        1,
        "Ac 7c 7d",
        s0="Ac Ad 8c 9c 8d 9d 7s 8s",
        s1="7c Kd Tc Jc 7h 8h 9s Ts",
        s2="7d Qd Td Jd Js Qs Ks As",
        s3="Kc Qc 9h Th Jh Qh Kh Ah",
    )
    seen = view(match, 3)
    known = Knowledge.of(seen)
    hand = sum(1 << c for c in seen.hand)
    played = sum(1 << c for c in seen.trick)
    assert known.seat == 3 and known.trump == HEARTS and known.leader == 0
    assert known.playing  # seat 1 named trump: seats 1 and 3 play
    assert known.trick == seen.trick
    assert known.legal == tuple(a.value for a in seen.legal)
    assert known.unseen == (1 << 32) - 1 - hand - played
    clubs = 0xFF << (8 * CLUBS)
    assert known.possible[2] == known.unseen & ~clubs  # seat 2 did not follow clubs
    assert known.possible[0] == known.possible[1] == known.unseen
    assert not known.last
    defender = Knowledge.of(view(playing(HEARTS, 0, "Ac", s0="Ac Ad 8c 9c 8d 9d 7s 8s"), 1))
    assert not defender.playing and defender.opponents == (2, 0)


def test_knowledge_knows_the_last_trick() -> None:
    rng = random.Random(3)
    match = playing(DIAMONDS, 0)
    while len(match.deal.tricks) < 7:
        legal = match.legal_actions()
        match.apply(match.turn, legal[int(rng.random() * len(legal))])
    assert Knowledge.of(view(match, match.turn)).last


# -- whether a trick is safe --------------------------------------------------------------


def beats(card: int, best: int, led: int, trump: int) -> bool:
    if card // 8 == best // 8:
        return strength(card, trump) > strength(best, trump)
    return card // 8 == trump  # a trump beats any card of another suit


def safe(known: Knowledge, cards: tuple[int, ...], strict: bool) -> bool:
    """No opponent still to play may hold a card that takes the trick from our card;
    unless ``strict``, an opponent who may still hold the suit led is taken to follow it."""
    trump, led = known.trump, cards[0] // 8
    best_at = 0
    for i in range(1, len(cards)):
        if beats(cards[i], cards[best_at], led, trump):
            best_at = i
    if (known.leader + best_at - known.seat) % 2:
        return False
    best = cards[best_at]
    for i in range(len(cards), 4):
        seat = (known.leader + i) % 4
        if (seat - known.seat) % 2 == 0:
            continue
        held = [c for c in range(32) if known.possible[seat] >> c & 1]
        if not strict and any(c // 8 == led for c in held):
            held = [c for c in held if c // 8 == led]
        if any(beats(c, best, led, trump) for c in held):
            return False
    return True


def test_holds_against_every_card_the_opponents_may_hold() -> None:
    rng = random.Random(11)
    for _ in range(3000):
        deck = list(range(32))
        rng.shuffle(deck)
        size = rng.randrange(1, 4)
        cards = tuple(deck[:size])
        possible = tuple(sum(1 << c for c in deck[size:] if rng.random() < 0.3) for _ in range(4))
        known = Knowledge(
            seat=rng.randrange(4),
            trump=rng.randrange(4),
            playing=True,
            leader=rng.randrange(4),
            trick=(),
            legal=(),
            unseen=0,
            possible=possible,
            last=False,
        )
        for strict in (True, False):
            assert known.holds(cards, strict) == safe(known, cards, strict), (known, cards)
