"""Every hand-checked rule case (tests/data/rules, a copy of ../shared/rules) must hold."""

from __future__ import annotations

import pytest

from engine import Action, Deal, Rules, parse_card, parse_cards, parse_hands
from engine.cards import mask_of, mask_str, parse_suit
from engine.legal import legal_mask
from engine.record import analyze
from engine.tables import STRENGTH
from engine.trick import roem
from tests.conftest import RULES_DIR, SHARED_RULES, load_cases

pytestmark = pytest.mark.engine

LEGAL = load_cases("legal_moves.json")
ROEM = load_cases("roem.json")
DEALS = load_cases("deals.json")


def _ids(cases: list[dict]) -> list[str]:
    return [f"{i}-{c.get('why', '')[:40]}" for i, c in enumerate(cases)]


@pytest.mark.parametrize("case", LEGAL, ids=_ids(LEGAL))
def test_legal_moves(case: dict) -> None:
    trump = parse_suit(case["trump"])
    trick = [parse_card(card) for _, card in case["trick"]]
    high, win_seat, best = -1, -1, -1
    for seat, card in zip((s for s, _ in case["trick"]), trick, strict=True):
        strength = STRENGTH[trump * 4 + (trick[0] >> 3)][card]
        if strength > best:
            best, win_seat = strength, seat
            if card >> 3 == trump:
                high = card
    partner_winning = bool(trick) and (win_seat ^ case["seat"]) & 1 == 0
    mask = legal_mask(
        mask_of(parse_cards(case["hand"])),
        trick,
        high,
        partner_winning,
        trump,
        case["variant"] == "amsterdam",
    )
    assert mask_str(mask) == sorted(case["legal"]), case["why"]


@pytest.mark.parametrize("case", ROEM, ids=_ids(ROEM))
def test_roem(case: dict) -> None:
    assert roem(parse_cards(case["cards"]), parse_suit(case["trump"])) == case["roem"], case["why"]


@pytest.mark.parametrize("case", DEALS, ids=_ids(DEALS))
def test_whole_deals(case: dict) -> None:
    deal = Deal.with_trump(
        Rules(variant=case["variant"]),
        case["dealer"],
        parse_hands(case["hands"]),
        parse_suit(case["trump"]),
        case["chooser"],
    )
    for index, (card, legal) in enumerate(zip(case["plays"], case["legal"], strict=True)):
        assert mask_str(deal.legal_mask()) == sorted(legal), f"legal set before play {index}"
        deal.apply(deal.turn, Action.play(parse_card(card)))
    assert [t.to_dict() for t in deal.tricks] == case["tricks"]
    assert deal.result is not None
    assert deal.result.to_dict() == case["result"]


@pytest.mark.parametrize("case", DEALS, ids=_ids(DEALS))
def test_analyze_reproduces_deals(case: dict) -> None:
    answer = analyze(case)
    assert answer["legal"] == [sorted(x) for x in case["legal"]]
    assert answer["tricks"] == case["tricks"]
    assert answer["result"] == case["result"]


def test_the_copy_equals_the_shared_originals() -> None:
    """The project keeps its own copy of the rule cases; beside the shared notes (as on the
    developers' machines) the copy must equal them, file for file."""
    if not SHARED_RULES.is_dir():
        pytest.skip("no ../shared/rules beside this clone: the copy is all there is")
    ours = {p.name: p.read_bytes() for p in sorted(RULES_DIR.iterdir())}
    theirs = {p.name: p.read_bytes() for p in sorted(SHARED_RULES.iterdir())}
    assert sorted(ours) == sorted(theirs)
    for name, data in theirs.items():
        assert ours[name] == data, f"tests/data/rules/{name} differs from ../shared/rules/{name}"
