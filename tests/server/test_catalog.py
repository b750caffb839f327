"""``GET /rules``: the server describes what a client may choose, and accepts exactly that."""

from __future__ import annotations

import asyncio
import json
import urllib.request
from typing import Any

import pytest

from engine.rules import PRESETS, PitBonus, RoemMode, TrumpMode, Variant
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
