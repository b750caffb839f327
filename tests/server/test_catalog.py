"""``GET /rules``: the server describes what a client may choose, and accepts exactly that."""

from __future__ import annotations

import asyncio
import json
import urllib.request
from typing import Any

import pytest

from engine import Match, Rules
from engine.cards import RANKS, SUITS, card_str, parse_card, parse_cards
from engine.rules import PRESETS, PitBonus, RoemMode, TrumpMode, Variant
from engine.scoring import score_deal
from engine.trick import card_points, roem_parts, winning_index
from server.core.config import Settings
from server.tournament.state import FORMATS
from tests.server.conftest import Harness

pytestmark = pytest.mark.server


async def get_rules(harness: Harness) -> dict[str, Any]:
    url = harness.url.replace("ws://", "http://") + "rules"

    def fetch() -> dict[str, Any]:
        direct = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        with direct.open(url, timeout=10) as reply:
            assert reply.headers["Content-Type"] == "application/json"
            return json.loads(reply.read())

    return await asyncio.to_thread(fetch)


async def test_the_catalog_is_the_engines_own(harness: Harness) -> None:
    catalog = await get_rules(harness)
    options = catalog["options"]
    for name, kind in (("variant", Variant), ("trump_mode", TrumpMode), ("roem", RoemMode),
                       ("pit_bonus", PitBonus)):  # fmt: skip
        assert options[name]["values"] == [k.value for k in kind]
    assert catalog["presets"] == {name: rules.to_dict() for name, rules in PRESETS.items()}
    assert options["target"] == {"min": 100, "max": 10_000, "default": 1500}
    assert options["deals"] == {"min": 1, "max": 100, "default": 16}
    assert catalog["tournaments"]["classic"] == {
        "players": 16, "rounds": 3, "tables": [4, 2, 1], "preset": "tournament",
        "target": 1001, "move_seconds": 30,
    }  # fmt: skip
    assert set(catalog["tournaments"]) == set(FORMATS)


async def test_every_choice_offered_is_accepted_and_nothing_else(harness: Harness) -> None:
    catalog = await get_rules(harness)
    ann = await harness.client("ann")

    async def create(rules: dict[str, Any], **more: Any) -> dict[str, Any]:
        message = {"type": "create_room", "rules": rules, "seat": None, **more}
        return await ann.request(message, "snapshot")

    for name in catalog["presets"]:
        assert (await create({"preset": name}))["type"] == "snapshot"
    for name in ("variant", "trump_mode", "roem", "pit_bonus"):
        for value in catalog["options"][name]["values"]:
            reply = await create({name: value})
            assert reply["room"]["rules"][name] == value
        assert (await create({name: "elsewhere"}))["code"] == "invalid_field"
    for end in ("target", "deals"):
        limits = catalog["options"][end]
        for value in (limits["min"], limits["max"]):
            assert (await create({end: value}))["room"]["rules"]["end_value"] == value
        for value in (limits["min"] - 1, limits["max"] + 1):
            assert (await create({end: value}))["code"] == "invalid_field"
    seconds = catalog["room"]["move_seconds"]
    for value in (seconds["min"], seconds["max"]):
        assert (await create({}, move_seconds=value))["room"]["move_seconds"] == value
    for value in (seconds["min"] - 1, seconds["max"] + 1):
        assert (await create({}, move_seconds=value))["code"] == "invalid_field"


@pytest.mark.sheet
async def test_the_sheet_limits_offered_are_the_sheets(harness: Harness) -> None:
    limits = (await get_rules(harness))["sheet"]
    ann = await harness.client("ann")
    longest = "x" * limits["name_length"]
    made = await ann.request({"type": "sheet_create", "teams": [longest, "y"]}, "sheet")
    assert made["sheet"]["teams"] == [longest, "y"]
    too_long = await ann.request({"type": "sheet_create", "teams": [longest + "x", "y"]}, "error")
    assert too_long["code"] == "bad_name"
    code, top = made["codes"]["edit"], limits["max_roem"]
    entry = {"type": "sheet_deal", "code": code, "playing": 0, "points": [100, None]}
    over = await ann.request({**entry, "version": 1, "roem": [top + 10, 0]}, "error")
    assert over["code"] == "invalid_deal"
    at_most = await ann.request({**entry, "version": 1, "roem": [top, 0]}, "sheet_update")
    assert at_most["sheet"]["game"]["deals"][0]["roem"] == [top, 0]
    assert all(step % 10 == 0 for step in limits["roem_steps"])


async def test_the_card_tables_are_the_engines_own(harness: Harness) -> None:
    """The orders, points, roem and bonuses ``GET /rules`` gives the page are what the engine
    plays by: checked through the engine's play and scoring, not its tables."""
    catalog = await get_rules(harness)
    cards, scoring = catalog["cards"], catalog["scoring"]
    for trump in range(4):
        for kind, suit in (("trump", trump), ("plain", (trump + 1) % 4)):
            order = [parse_card(rank + SUITS[suit]) for rank in cards[kind]["order"]]
            assert len(set(order)) == 8
            points = cards[kind]["points"]
            for i, stronger in enumerate(order):
                assert card_points([stronger], trump) == points[card_str(stronger)[0]]
                for weaker in order[i + 1 :]:  # the stronger takes the trick, led or not
                    assert winning_index([weaker, stronger], trump) == 1
                    assert winning_index([stronger, weaker], trump) == 0
    assert cards["ranks"] == list(RANKS) and cards["suits"] == list(SUITS)
    # a whole deal: every card point and the last trick's
    match = Match(Rules.from_dict({"deals": 1}), seed=5)
    while not match.over:
        match.apply(match.turn, match.legal_actions()[0])  # type: ignore[arg-type]
    deal = match.sheet[0]
    played = sum(card_points(t.cards, deal.trump) for t in match.deal.tricks)
    assert sum(deal.result.card_points) == scoring["deal_points"]
    assert scoring["deal_points"] - played == scoring["last_trick"]
    pit = score_deal((scoring["deal_points"], 0), (0, 0), 0, 0, PitBonus.ANY)
    assert pit.roem == (scoring["pit_bonus"], 0)
    # roem: runs by length, four of a kind by rank, stuk
    roem = scoring["roem"]
    assert roem_parts(parse_cards(["7h", "8h", "9h", "Ac"]), 0).run == roem["run"]["3"]
    assert roem_parts(parse_cards(["7h", "8h", "9h", "Th"]), 0).run == roem["run"]["4"]
    assert roem_parts(parse_cards(["Qs", "Ks", "7h", "Ac"]), 3).stuk == roem["stuk"]
    for rank in RANKS:
        assert roem_parts(parse_cards([rank + s for s in SUITS]), 0).four == roem["four"][rank]
    # 16 deals has one home: the daily game's and a new game's length are /rules' default
    assert Settings().daily_deals == catalog["options"]["deals"]["default"]
