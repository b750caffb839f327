"""Deal and match records (the ``selfplay``/``analyze`` format), in process.

The hand-checked whole deals of ``tests/data/rules/deals.json`` are records already: a
replayed deal must give them back, and ``analyze`` must answer them or name what is wrong.
"""

from __future__ import annotations

import copy
import json
import random

import pytest

from engine import Action, Deal, Match, NotationError, Rules, parse_card, parse_hands
from engine.cards import parse_suit
from engine.record import analyze, deal_record, match_deals
from tests.conftest import load_cases
from tests.engine.helpers import play_random

pytestmark = pytest.mark.engine

DEALS = load_cases("deals.json")
RECORD_KEYS = ("variant", "dealer", "trump", "chooser", "hands", "plays", "tricks", "result")


def replay(case: dict, plays: int = 32) -> Deal:
    deal = Deal.with_trump(
        Rules(variant=case["variant"]),
        case["dealer"],
        parse_hands(case["hands"]),
        parse_suit(case["trump"]),
        case["chooser"],
    )
    for card in case["plays"][:plays]:
        deal.apply(deal.turn, Action.play(parse_card(card)))
    return deal


@pytest.mark.parametrize("index", range(len(DEALS)))
def test_a_finished_deal_gives_back_its_record(index: int) -> None:
    case = DEALS[index]
    record = deal_record(replay(case))
    assert record == {key: case[key] for key in RECORD_KEYS}
    assert json.loads(json.dumps(record)) == record


def test_an_unfinished_deal_has_no_record() -> None:
    with pytest.raises(ValueError, match=r"^the deal is not finished$"):
        deal_record(replay(DEALS[0], plays=31))


def test_analyze_an_unfinished_deal() -> None:
    """Fewer than 32 plays: the legal sets and tricks so far, and no result yet."""
    case = {**DEALS[0], "plays": DEALS[0]["plays"][:6]}
    answer = analyze(case)
    assert answer == {
        "legal": [sorted(legal) for legal in DEALS[0]["legal"][:6]],
        "tricks": DEALS[0]["tricks"][:1],
        "result": None,
    }


def _with(case: dict, **changes: object) -> dict:
    record = copy.deepcopy({key: case[key] for key in RECORD_KEYS[:6]})
    record.update(changes)
    return record


@pytest.mark.parametrize(
    ("record", "message"),
    [
        ([], "a deal record must be a JSON object"),
        ("Jh", "a deal record must be a JSON object"),
        (_with(DEALS[0], variant="paris"), "unknown variant 'paris'"),
        (_with(DEALS[0], dealer=4), "dealer must be a seat 0-3, not 4"),
        (_with(DEALS[0], dealer=-1), "dealer must be a seat 0-3, not -1"),
        (_with(DEALS[0], chooser=True), "chooser must be a seat 0-3, not True"),
        (_with(DEALS[0], chooser="1"), "chooser must be a seat 0-3, not '1'"),
        (_with(DEALS[0], plays="Jh"), "plays must be a list of at most 32 cards"),
        (
            _with(DEALS[0], plays=DEALS[0]["plays"] + ["7c"]),
            "plays must be a list of at most 32 cards",
        ),
        (_with(DEALS[0], trump="x"), "unknown suit 'x'"),
    ],
)
def test_malformed_records_are_refused_by_name(record: object, message: str) -> None:
    with pytest.raises(NotationError) as raised:
        analyze(record)
    assert str(raised.value) == message


@pytest.mark.parametrize("missing", RECORD_KEYS[:6])
def test_a_record_without_a_field_is_refused(missing: str) -> None:
    record = _with(DEALS[0])
    del record[missing]
    with pytest.raises(NotationError) as raised:
        analyze(record)
    assert str(raised.value) == f"record has no {missing!r}"


def test_analyze_reports_an_unknown_card_as_written() -> None:
    record = _with(DEALS[0], plays=[*DEALS[0]["plays"][:3], "Xz", *DEALS[0]["plays"][4:]])
    assert analyze(record) == {"error": {"index": 3, "card": "Xz", "reason": "unknown card 'Xz'"}}


def test_analyze_reports_an_illegal_play_in_notation() -> None:
    """The first play that breaks a rule: its index, the card as the engine spells it (a
    ten is ``T`` even when written ``10``), and the rule's reason."""
    case = DEALS[0]
    deal = replay(case, plays=1)
    led = parse_card(case["plays"][0])
    hand = deal.hands[deal.turn]
    wrong = next(
        c for c in range(32) if hand >> c & 1 and not deal.legal_mask() >> c & 1
    )  # a card held but not legal now
    suit_letter = "cdhs"[wrong >> 3]
    written = ("10" if wrong & 7 == 3 else "789TJQKA"[wrong & 7]) + suit_letter
    answer = analyze(_with(case, plays=[case["plays"][0], written]))
    error = answer["error"]
    assert error["index"] == 1
    assert error["card"] == "789TJQKA"[wrong & 7] + suit_letter
    suit = ("clubs", "diamonds", "hearts", "spades")[led >> 3]
    assert error["reason"].startswith(f"{error['card']} is not legal: must follow {suit}")


def _finished_match(seed: int, **rules: object) -> Match:
    match = Match(Rules(end="deals", end_value=3, **rules), seed)
    return play_random(match, random.Random(seed))


@pytest.mark.parametrize(
    "options",
    [
        {"trump_mode": "bidding"},
        {"trump_mode": "turned"},
        {"roem": "claim"},
        {"pit_bonus": "playing", "variant": "rotterdam"},
        {"roem": "claim", "pit_bonus": "playing"},
    ],
    ids=["bidding", "turned", "claim", "pit-playing", "claim-and-pit-playing"],
)
def test_a_match_record_is_analyzed_deal_by_deal(options: dict) -> None:
    """A deal record names the roem and pit options it was played under (none for the
    defaults) and, in claim mode, each take or leave: analysed, every deal scores as it did."""
    match = _finished_match(5, **options)
    record = json.loads(json.dumps(match.to_record()))
    if options.get("roem") == "claim":  # the case that matters: some roem was left
        assert "leave" in [str(a) for a in match.actions]
    deals = match_deals(record)
    for deal in deals:
        assert deal.get("roem") == options.get("roem")
        assert deal.get("pit_bonus") == options.get("pit_bonus")
        assert ("claims" in deal) == ("roem" in options)
    assert len(deals) == len(match.sheet)
    for line, deal in zip(match.sheet, deals, strict=True):
        assert deal["dealer"] == line.dealer and deal["chooser"] == line.chooser
        assert deal["trump"] == "cdhs"[line.trump]
        assert deal["result"] == line.result.to_dict()
        assert len(deal["plays"]) == 32
    answer = analyze(record)
    assert answer["totals"] == match.totals
    assert answer["winner"] == match.winner
    assert len(answer["deals"]) == len(match.sheet)
    for line, analyzed in zip(match.sheet, answer["deals"], strict=True):
        assert analyzed["result"] == line.result.to_dict()
        assert len(analyzed["legal"]) == 32 and len(analyzed["tricks"]) == 8


def test_analyze_an_unfinished_match_record() -> None:
    """Deals so far only: an unfinished match has no winner unless its totals differ."""
    match = Match(Rules(end="deals", end_value=3), 8)
    play_random(match, random.Random(8), until=lambda m: m.deal_number == 1)
    answer = analyze(match.to_record())
    assert len(answer["deals"]) == 1
    assert answer["totals"] == match.totals
    totals = match.totals
    assert answer["winner"] == (None if totals[0] == totals[1] else int(totals[1] > totals[0]))


def test_analyze_a_match_record_with_an_illegal_action() -> None:
    match = _finished_match(2, trump_mode="forced")
    record = match.to_record()
    # Seat 1 names trump in forced mode; then the leader's first card: play one it lacks.
    lead = record["actions"][1]
    holder = Match(match.rules, match.seed)
    holder.apply(holder.turn, Action.parse(record["actions"][0]))
    foreign = next(c for c in range(32) if not holder.deal.hands[holder.turn] >> c & 1)
    assert str(Action.play(foreign)) != lead
    record["actions"][1] = str(Action.play(foreign))
    answer = analyze(record)
    assert answer["error"]["index"] is None and answer["error"]["card"] is None
    assert answer["error"]["reason"].startswith(f"action 1 ({str(Action.play(foreign))!r}):")
    assert "is not in your hand" in answer["error"]["reason"]


def test_a_malformed_match_record_is_refused() -> None:
    record = _finished_match(2).to_record()
    record["actions"][3] = "bid"
    with pytest.raises(NotationError, match=r"^action 3 \('bid'\): unknown action 'bid'$"):
        analyze(record)
