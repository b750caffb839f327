"""Reviewing a finished match: all hands shown, your plays against the exact solver, never
while the match runs, a daily game only once its day is over."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine import Action, Deal, Match, Phase, Rules
from engine.cards import parse_card, parse_hands, parse_suit
from engine.policies.strong import trump_values
from engine.review import label
from engine.solver import solve
from engine.views import deal_view
from tests.server.conftest import Harness, play_until, running_harness, sync
from tests.server.test_daily import DAY, finish, start_daily

pytestmark = [pytest.mark.server, pytest.mark.daily]


async def review(client, match_id: str, deal: int = 0) -> dict:
    return await client.request({"type": "review", "match_id": match_id, "deal": deal}, "review")


def solver_review(deal_record: dict, seat: int) -> list[tuple[str, dict[str, int], int]]:
    """Each of ``seat``'s plays with the solver's values and what it lost, computed here."""
    rules = Rules.from_dict({"variant": deal_record["variant"]})
    hands = parse_hands(deal_record["hands"])
    suit = parse_suit(deal_record["trump"])
    deal = Deal.with_trump(rules, deal_record["dealer"], hands, suit, deal_record["chooser"])
    out = []
    for text in deal_record["plays"]:
        action = Action.play(parse_card(text))
        if deal.turn == seat:
            values = {str(a): v for a, v in solve(deal).items()}
            out.append((text, values, max(values.values()) - values[text]))
        deal.apply(deal.turn, action)
    return out


def bids_review(record: dict, number: int, deal_record: dict) -> list[dict]:
    """Seat 0's trump choices in deal ``number``, valued here by the strong trump evaluation
    with the review's seeds."""
    match = Match.from_record(record)
    replay = Match(match.rules, match.seed, match.first_dealer)
    while replay.deal_number < number:  # the deals before it
        replay.apply(replay.deal.turn, match.actions[len(replay.actions)])
    out = []
    while replay.deal.phase is Phase.TRUMP:
        deal, action = replay.deal, match.actions[len(replay.actions)]
        if deal.turn == 0:
            seed = random.Random(f"review/{number}/{len(deal.actions)}")
            values = {
                str(a): round(v, 1) for a, v in trump_values(deal_view(deal, 0), seed).items()
            }
            best = max(values.values())
            lost = round(best - values[str(action)], 1)
            out.append({
                "index": len(deal.actions), "action": str(action), "values": values,
                "best": [a for a, v in values.items() if v == best], "lost": lost,
                "label": label(lost),
            })  # fmt: skip
        replay.apply(deal.turn, action)
    assert replay.deal.chooser == deal_record["chooser"]
    return out


async def test_a_finished_solo_game_reviewed_deal_by_deal(harness: Harness) -> None:
    anna = await harness.client("Anna")
    message = {"type": "new_game", "level": "heuristic", "rules": {"deals": 4}}
    snap = await anna.request(message, "snapshot")
    room_id = snap["room_id"]
    running = await review(anna, room_id)
    assert running["code"] == "no_such_match"  # never while it runs
    await play_until([anna], room_id, lambda: anna.tables[room_id].over)
    await sync(anna)
    played = (await review(anna, room_id))["deals"]
    record = (await anna.request({"type": "get_record", "match_id": room_id}, "record"))["record"]
    bid_count = 0
    assert played >= 4  # more only after equal totals
    for number in range(played):
        answer = await review(anna, room_id, number)
        assert (answer["seat"], answer["number"], answer["deals"]) == (0, number, played)
        deal = answer["deal"]
        assert [len(hand) for hand in deal["hands"]] == [8, 8, 8, 8]
        assert len(deal["plays"]) == 32 and len(deal["tricks"]) == 8
        expected = solver_review(deal, 0)
        got = [(p["card"], p["values"], p["lost"]) for p in answer["plays"]]
        assert got == expected
        for play in answer["plays"]:
            assert play["label"] == label(play["lost"])
            best = max(play["values"].values())
            assert play["best"] == sorted(c for c, v in play["values"].items() if v == best)
        assert answer["bids"] == bids_review(record, number, deal)
        bid_count += len(answer["bids"])
    assert bid_count  # seat 0 bids first in one deal of four at least
    missing = await review(anna, room_id, played)
    assert missing["code"] == "no_such_deal"
    # someone who did not play sees the deal, and no plays of theirs
    bob = await harness.client("Bob")
    other = await review(bob, room_id)
    assert other["seat"] is None and other["plays"] == [] and other["deal"]["hands"]
    assert other["bids"] == []


def test_labels() -> None:
    assert [label(n) for n in (0, 9, 10, 29, 30, 59, 60, 300)] == [
        None, None, "inaccuracy", "inaccuracy", "mistake", "mistake", "blunder", "blunder",
    ]  # fmt: skip


async def test_a_daily_game_is_reviewed_once_its_day_is_over(tmp_path: Path) -> None:
    async with running_harness(tmp_path, "sqlite", daily_deals=1) as h:
        anna = await h.client("Anna")
        snap = await start_daily(anna)
        await finish(anna, snap["room_id"])
        refused = await review(anna, snap["room_id"])
        assert refused["code"] == "daily_not_over"
        h.advance(DAY)
        answer = await review(anna, snap["room_id"])
        assert answer["seat"] == 0 and len(answer["plays"]) == 8
