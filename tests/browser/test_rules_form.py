"""The create-room form offers exactly what the server describes at ``GET /rules``."""

from __future__ import annotations

import pytest
from playwright.async_api import expect

from tests.browser.conftest import Site

pytestmark = pytest.mark.browser


async def options(form, name: str) -> list[str]:
    return await form.locator(f"select[name={name}] option").evaluate_all(
        "(els) => els.map((o) => o.value)"
    )


async def test_the_form_is_built_from_the_servers_catalog(site: Site, open_tab) -> None:
    catalog = await site.get_json("/rules")
    tab = await open_tab()
    await tab.hello("ann")
    form = tab.page.locator("#create-room")
    await expect(form.get_by_role("button", name="Create")).to_be_enabled()

    assert await options(form, "preset") == list(catalog["presets"])
    for field in ("variant", "trump_mode", "roem", "pit_bonus"):
        assert await options(form, field) == catalog["options"][field]["values"], field
    seconds = form.locator("input[name=move_seconds]")
    limits = catalog["room"]["move_seconds"]
    assert await seconds.get_attribute("min") == str(limits["min"])
    assert await seconds.get_attribute("max") == str(limits["max"])

    # a preset sets every rule to the server's values for it
    for name, rules in catalog["presets"].items():
        await form.locator("select[name=preset]").select_option(name)
        for field in ("variant", "trump_mode", "roem", "pit_bonus", "end"):
            await expect(form.locator(f"[name={field}]")).to_have_value(rules[field])
        await expect(form.locator("input[name=end_value]")).to_have_value(str(rules["end_value"]))

    # a match of a number of deals: the server's limits and default
    await form.locator("select[name=end]").select_option("deals")
    deals = catalog["options"]["deals"]
    end_value = form.locator("input[name=end_value]")
    assert await end_value.get_attribute("min") == str(deals["min"])
    assert await end_value.get_attribute("max") == str(deals["max"])
    await expect(end_value).to_have_value(str(deals["default"]))
