"""Invariants over random games: points, legal sets, refusals, replay, hidden cards."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import Action, Kind, KlaverjasError, Match, Phase, Rules
from engine.cards import card_str, cards_of
from engine.events import DealStarted
from engine.rules import PitBonus, RoemMode, TrumpMode, Variant
from engine.views import project, view
from tests.engine.helpers import snapshot

pytestmark = pytest.mark.engine

rules_st = st.builds(
    Rules,
    variant=st.sampled_from(Variant),
    trump_mode=st.sampled_from(TrumpMode),
    roem=st.sampled_from(RoemMode),
    pit_bonus=st.sampled_from(PitBonus),
    end=st.just("deals"),
    end_value=st.integers(1, 2),
)
seeds = st.integers(-(2**63), 2**63)


def _strings(value: object) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(_strings(v) for v in value.values())) if value else set()
    if isinstance(value, list | tuple):
        return set().union(*(_strings(v) for v in value)) if value else set()
    return set()


def _hidden_from(match: Match, seat: int | None) -> set[str]:
    """Card texts ``seat`` must not see: other seats' unplayed cards (bar the turned card)."""
    deal = match.deal
    hidden = set()
    for other in range(4):
        if other != seat:
            hidden |= {card_str(c) for c in cards_of(deal.hands[other])}
    if deal.turned is not None and deal.hands[deal.dealer] >> deal.turned & 1:
        hidden.discard(card_str(deal.turned))
    return hidden


@given(rules_st, seeds, st.randoms(use_true_random=False))
def test_invariants_over_whole_matches(rules: Rules, seed: int, rng: random.Random) -> None:
    match = Match(rules, seed)
    while not match.over:
        deal = match.deal
        seat = match.turn
        legal = match.legal_actions()
        assert legal, "the legal set is never empty"
        if deal.phase is Phase.PLAY:
            hand = deal.hands[seat]
            assert all(hand >> a.value & 1 for a in legal), "legal cards are in the hand"
            assert deal.legal_mask() & ~hand == 0
        hidden = {who: _hidden_from(match, who) for who in (0, 1, 2, 3, None)}
        for who in (0, 1, 2, 3, None):
            seen = _strings(view(match, who).to_dict())
            assert not seen & hidden[who], f"view of {who} leaks a hidden card"
        action = legal[int(rng.random() * len(legal))]
        if action.kind is Kind.PLAY:
            hidden = {who: cards - {str(action)} for who, cards in hidden.items()}
        for event in match.apply(seat, action):
            for who in (0, 1, 2, 3, None):
                projected = project(event, who)
                if isinstance(event, DealStarted):
                    own = cards_of(event.hands[who]) if who is not None else []
                    assert projected["hand"] == [card_str(c) for c in own]
                    assert not _strings(projected) & _hidden_from(match, who)
                else:
                    assert not _strings(projected) & hidden[who]
    for line in match.sheet:
        assert sum(line.result.card_points) == 162, "card points and last trick total 162"
        r = line.result
        if r.nat:
            assert 0 in r.score and sum(r.score) == 162 + sum(r.roem)
        else:
            assert r.score == (r.card_points[0] + r.roem[0], r.card_points[1] + r.roem[1])
    replayed = Match.from_record(json.loads(json.dumps(match.to_record())))
    assert snapshot(replayed) == snapshot(match), "replay gives the same state"


_all_actions = [Action.parse(t) for t in ("pass", "take", "leave")]
_all_actions += [Action.trump(s) for s in range(4)] + [Action.play(c) for c in range(32)]


@given(rules_st, seeds, st.randoms(use_true_random=False), st.integers(0, 120))
def test_every_input_gives_a_result_or_a_typed_error(
    rules: Rules, seed: int, rng: random.Random, steps: int
) -> None:
    match = Match(rules, seed)
    for _ in range(steps):
        if match.over:
            break
        legal = match.legal_actions()
        match.apply(match.turn, legal[int(rng.random() * len(legal))])
    before = snapshot(match)
    for seat in range(4):
        for action in _all_actions:
            allowed = not match.over and seat == match.turn and action in match.legal_actions()
            if allowed:
                continue
            with pytest.raises(KlaverjasError) as raised:
                match.apply(seat, action)
            assert str(raised.value), "every refusal says why"
            assert snapshot(match) == before, f"refused {action} by {seat} changed the game"


@given(st.text(max_size=6) | st.integers() | st.none() | st.lists(st.text(max_size=3)))
def test_malformed_notation_is_a_typed_error(value: object) -> None:
    try:
        Action.parse(value)
    except KlaverjasError as err:
        assert str(err)
