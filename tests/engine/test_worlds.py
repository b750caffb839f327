"""Sampled worlds never contradict what the seat has seen, and are drawn uniformly."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import Deal, Phase, Rules
from engine.cards import DECK, cards_of
from engine.legal import legal_mask
from engine.policies.strong import bid_likelihood
from engine.rules import RoemMode, TrumpMode, Variant
from engine.trick import winning_index
from engine.views import deal_view
from engine.worlds import SOFT_TRIES, NoWorld, Worlds, forbidden

pytestmark = pytest.mark.bots

rules_st = st.builds(
    Rules,
    variant=st.sampled_from(Variant),
    trump_mode=st.sampled_from(TrumpMode),
    roem=st.sampled_from(RoemMode),
)


def random_position(rules: Rules, seed: int, steps: int, rng: random.Random) -> Deal:
    """Deal ``seed`` after up to ``steps`` random legal actions (never finished)."""
    deal = Deal.shuffled(rules, seed, 0, seed & 3)
    for _ in range(steps):
        actions = deal.legal_actions()
        deal.apply(deal.turn, actions[int(rng.random() * len(actions))])
        if deal.phase is Phase.DONE:
            raise ValueError("played out")
    return deal


def replays(real: Deal, seat: int, start: list[int]) -> bool:
    """Whether the real actions are legal, step by step, on a deal of ``start`` hands that
    agrees with the seat's own hand and the turned card."""
    if start[seat] != real.dealt[seat] or any(h.bit_count() != 8 for h in start):
        return False
    if real.turned is not None and not start[real.dealer] >> real.turned & 1:
        return False
    deal = Deal(real.rules, real.dealer, start, turned=real.turned)
    for action in real.actions:
        if deal.legal_actions().count(action) != 1:
            return False
        deal.apply(deal.turn, action)
    return True


@given(
    st.integers(0, 6),
    st.lists(st.integers(0, 31), min_size=1, max_size=3, unique=True),
    st.booleans(),
    st.booleans(),
    st.integers(0, 2**32 - 1),
)
def test_forbidden_cards_are_exactly_what_the_rules_of_play_exclude(
    trump: int, trick: list[int], partner: bool, amsterdam: bool, hand_bits: int
) -> None:
    trump %= 4
    best = winning_index(trick, trump)
    high = trick[best] if trick[best] >> 3 == trump else -1
    rest = [c for c in DECK if c not in trick]
    card = rest[hand_bits % len(rest)]
    hand = (hand_bits & ~sum(1 << c for c in trick)) | 1 << card
    banned = forbidden(card, tuple(trick), high, partner, trump, amsterdam)
    legal = legal_mask(hand, trick, high, partner, trump, amsterdam) >> card & 1
    assert bool(legal) == (not hand & banned)


@given(rules_st, st.integers(0, 2**40), st.integers(0, 40), st.integers(0, 3), st.randoms())
def test_sampled_worlds_never_contradict_the_view(
    rules: Rules, seed: int, steps: int, seat: int, rng: random.Random
) -> None:
    try:
        real = random_position(rules, seed, steps, rng)
    except ValueError:
        return
    view = deal_view(real, seat)
    worlds = Worlds(view)
    assert worlds.count() >= 1
    drawn = worlds.sample(random.Random(seed), 6, bid_likelihood(view))
    assert drawn == Worlds(view).sample(random.Random(seed), 6, bid_likelihood(view))
    for hands in drawn:
        assert hands[seat] == real.hands[seat]
        assert [h.bit_count() for h in hands] == [h.bit_count() for h in real.hands]
        assert replays(real, seat, worlds.start_hands(hands))
        deal = worlds.deal(hands)
        assert deal.hands == hands and deal.actions == real.actions
        assert (deal.phase, deal.turn, deal.trick) == (real.phase, real.turn, real.trick)
        if real.turn == seat:
            assert deal.legal_actions() == real.legal_actions()


def all_consistent(real: Deal, seat: int) -> set[tuple[int, ...]]:
    """Every deal of the cards the seat has not seen that replays the real actions."""
    played = [0, 0, 0, 0]
    for trick in real.tricks:
        for i, card in enumerate(trick.cards):
            played[(trick.leader + i) & 3] |= 1 << card
    for i, card in enumerate(real.trick):
        played[(real.leader + i) & 3] |= 1 << card
    others = [s for s in range(4) if s != seat]
    unseen = cards_of(sum(real.hands[s] for s in others))
    sizes = [real.hands[s].bit_count() for s in others]
    found = set()
    for first in combinations(unseen, sizes[0]):
        left = [c for c in unseen if c not in first]
        for second in combinations(left, sizes[1]):
            third = [c for c in left if c not in second]
            hands = [0, 0, 0, 0]
            hands[seat] = real.hands[seat]
            for s, part in zip(others, (first, second, third), strict=True):
                hands[s] = sum(1 << c for c in part)
            start = [h | p for h, p in zip(hands, played, strict=True)]
            if replays(real, seat, start):
                found.add(tuple(hands))
    return found


@pytest.mark.parametrize("seed", range(12))
def test_worlds_are_exactly_the_consistent_deals_and_uniform(seed: int) -> None:
    rng = random.Random(seed)
    modes = list(TrumpMode)
    rules = Rules(
        variant=list(Variant)[seed % 2],
        trump_mode=modes[seed % 4],
        roem=list(RoemMode)[seed % 3 % 2],
    )
    real = random_position(rules, seed, 21 + seed % 6, rng)
    seat = seed % 4
    truth = all_consistent(real, seat)
    worlds = Worlds(deal_view(real, seat))
    assert worlds.count() == len(truth)
    draws = 300 * len(truth) if len(truth) <= 40 else 2000
    counted = Counter(tuple(h) for h in worlds.sample(random.Random(seed), draws))
    assert set(counted) <= truth
    if len(truth) <= 40:  # each world about equally often: within 30% of the mean
        assert set(counted) == truth
        assert all(abs(n - 300) < 90 for n in counted.values())


def test_a_seat_that_named_trump_tends_to_hold_its_jack_or_nine() -> None:
    rules = Rules(trump_mode=TrumpMode.BIDDING)
    shown = plain = 0
    for seed in range(40):
        deal = Deal.shuffled(rules, seed, 0, 0)
        deal.pass_()  # seat 1 passes, seat 2 names its longest suit
        suit = max(range(4), key=lambda s: (deal.hands[2] >> (8 * s) & 255).bit_count())
        deal.choose(suit, 2)
        view = deal_view(deal, 1)
        worlds = Worlds(view)
        top = 1 << (8 * suit + 4) | 1 << (8 * suit + 2)  # its jack and nine
        for weighted, sample in (
            (True, worlds.sample(random.Random(seed), 30, bid_likelihood(view))),
            (False, worlds.sample(random.Random(seed), 30)),
        ):
            held = sum(1 for hands in sample if hands[2] & top)
            if weighted:
                shown += held
            else:
                plain += held
    assert shown > plain * 1.1


def test_a_world_none_of_whose_draws_is_kept_is_one_kept_before_or_the_last_draw() -> None:
    """:meth:`Worlds.draws` keeps a draw when the likelihood beats a uniform floor, tries
    ``SOFT_TRIES`` draws a world, and when none is kept gives a world kept before (a narrow
    posterior) or, if none was, the last draw."""
    view = deal_view(Deal.shuffled(Rules(), 5, 0, 0), 1)
    floors: list[float] = []

    def first_only(start: list[int], floor: float) -> float:
        floors.append(floor)
        return 1.0 if len(floors) == 1 else 0.0

    plain = random.Random(2)
    uniform = [Worlds(view).hands(plain) for _ in range(2)]
    draws = Worlds(view).draws(random.Random(2), first_only)
    assert next(draws) == uniform[0] and len(floors) == 1
    assert next(draws) == uniform[0]  # the only world kept, again
    assert len(floors) == 1 + SOFT_TRIES and all(0.0 <= f < 1.0 for f in floors)
    assert next(draws) == uniform[0]

    plain = random.Random(2)
    for _ in range(SOFT_TRIES):
        last = Worlds(view).hands(plain)
        plain.random()  # the floor drawn for it
    never = Worlds(view).sample(random.Random(2), 1, lambda start, floor: 0.0)
    assert never == [last]
    assert Worlds(view).sample(random.Random(2), 2) == uniform[:2]


def test_a_view_that_no_deal_fits_is_refused() -> None:
    deal = Deal.shuffled(Rules(), 3, 0, 0)
    view = deal_view(deal, 0)
    bad = view.__class__(
        **{**{f: getattr(view, f) for f in view.__slots__}, "hand_sizes": (8, 8, 8, 7)}
    )
    with pytest.raises(NoWorld):
        Worlds(bad)
    with pytest.raises(ValueError):
        Worlds(deal_view(deal, None))
