"""A club evening's table sheet says where it sits (client_protocol.md §14, the summary's
``evening``): the evening's name, its view code (the players' way to the standing), the
round and the table, on the sheet the draw made and on the new sheets a swap makes; any
other sheet says nothing."""

from __future__ import annotations

import pytest

from tests.server.conftest import Harness
from tests.server.test_evenings import command

pytestmark = [pytest.mark.server, pytest.mark.club]


async def test_a_table_sheet_names_its_evening_round_and_table(harness: Harness) -> None:
    organiser = await harness.client("org")
    made = await organiser.request(
        {"type": "evening_create", "name": "Donderdag", "deals": 1, "rounds": 2}, "evening"
    )
    code, view, version = made["codes"]["organiser"], made["codes"]["view"], made["version"]
    for name in [f"speler {i}" for i in range(1, 9)]:
        version = (await command(organiser, code, version, "check_in", name=name))["version"]
    drawn = await command(organiser, code, version, "draw")
    phone = await harness.client("table")
    for table in drawn["tables"]:
        for sheet_code in (table["code"], table["view_code"]):  # the table's and onlookers'
            sheet = await phone.request({"type": "sheet_open", "code": sheet_code}, "sheet")
            where = {"name": "Donderdag", "view_code": view, "round": 1, "table": table["table"]}
            assert sheet["sheet"]["evening"] == where, sheet["sheet"]

    one, two = drawn["tables"]
    swapped = await command(
        organiser, code, drawn["version"], "swap", a=one["entrants"][0], b=two["entrants"][2]
    )
    for table in swapped["tables"]:  # both tables moved: new sheets, still where they sit
        assert table["code"] not in (one["code"], two["code"])
        sheet = await phone.request({"type": "sheet_open", "code": table["code"]}, "sheet")
        assert sheet["sheet"]["evening"] == {
            "name": "Donderdag", "view_code": view, "round": 1, "table": table["table"]
        }  # fmt: skip

    plain = await phone.request(
        {"type": "sheet_create", "teams": ["Wij", "Zij"], "deals": 16}, "sheet"
    )
    assert plain["sheet"]["evening"] is None
