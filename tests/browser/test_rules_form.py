"""The create-room form offers exactly what the server describes at ``GET /rules``: one
rules control (a preset, or Custom as soon as a rule is changed by hand, and the preset
again when the rules are its), nothing cut off at either size (issue 14, item 10)."""

from __future__ import annotations

import pytest
from playwright.async_api import expect

from tests.browser.conftest import Site
from tests.browser.ui import SIZES, cut_labels, shot

pytestmark = pytest.mark.browser

RULE_FIELDS = ("variant", "trump_mode", "roem", "pit_bonus")


async def options(form, name: str) -> list[str]:
    return await form.locator(f"select[name={name}] option").evaluate_all(
        "(els) => els.map((o) => o.value)"
    )


async def option_words(form, name: str) -> list[str]:
    return await form.locator(f"select[name={name}] option").evaluate_all(
        "(els) => els.map((o) => o.text)"
    )


async def test_the_form_is_built_from_the_servers_catalog(site: Site, open_tab) -> None:
    catalog = await site.get_json("/rules")
    tab = await open_tab()
    await tab.hello("ann")
    form = tab.page.locator("#create-room")
    await expect(form.get_by_role("button", name="Create")).to_be_enabled()

    assert await options(form, "preset") == [*catalog["presets"], "custom"]
    for field in RULE_FIELDS:
        assert await options(form, field) == catalog["options"][field]["values"], field
    seconds = form.locator("input[name=move_seconds]")
    limits = catalog["room"]["move_seconds"]
    assert await seconds.get_attribute("min") == str(limits["min"])
    assert await seconds.get_attribute("max") == str(limits["max"])

    # a preset sets every rule to the server's values for it
    for name, rules in catalog["presets"].items():
        await form.locator("select[name=preset]").select_option(name)
        for field in (*RULE_FIELDS, "end"):
            await expect(form.locator(f"[name={field}]")).to_have_value(rules[field])
        await expect(form.locator("input[name=end_value]")).to_have_value(str(rules["end_value"]))

    # a match of a number of deals: the server's limits and default
    await form.locator("select[name=end]").select_option("deals")
    deals = catalog["options"]["deals"]
    end_value = form.locator("input[name=end_value]")
    assert await end_value.get_attribute("min") == str(deals["min"])
    assert await end_value.get_attribute("max") == str(deals["max"])
    await expect(end_value).to_have_value(str(deals["default"]))


@pytest.mark.parametrize("size", SIZES)
async def test_one_rules_control_that_says_custom_and_nothing_cut_off(
    site: Site, open_tab, size: str
) -> None:
    catalog = await site.get_json("/rules")
    tournament = catalog["presets"]["tournament"]
    tab = await open_tab(size=SIZES[size])
    await tab.hello("ann")
    page = tab.page
    form = page.locator("#create-room")
    preset = form.locator("select[name=preset]")
    await expect(form.get_by_role("button", name="Create")).to_be_enabled()

    # one control names the presets: no other label or option repeats "Variant" or a
    # preset's name
    labels = [t.strip() for t in await form.locator("label").all_inner_texts()]
    assert "Variant" not in labels and len(labels) == len(set(labels)), labels
    preset_words = {w for w in await option_words(form, "preset") if w != "Custom"}
    for field in RULE_FIELDS:
        words = await option_words(form, field)
        assert not preset_words & set(words), (field, words)
    assert await cut_labels(page, "#create-room") == []

    # a rule changed by hand: Custom; changed back: the preset again
    await preset.select_option("tournament")
    await expect(form.locator("select[name=trump_mode]")).to_have_value(tournament["trump_mode"])
    await form.locator("select[name=trump_mode]").select_option("bidding")
    await expect(preset).to_have_value("custom")
    await expect(preset.locator("option:checked")).to_have_text("Custom")
    await form.locator("select[name=trump_mode]").select_option(tournament["trump_mode"])
    await expect(preset).to_have_value("tournament")
    # the length is part of a preset: 1500 points and bidding are Amsterdam's
    await form.locator("input[name=end_value]").fill("1500")
    await expect(preset).to_have_value("custom")
    await form.locator("select[name=trump_mode]").select_option("bidding")
    await expect(preset).to_have_value("amsterdam")
    await form.locator("select[name=variant]").select_option("rotterdam")
    await expect(preset).to_have_value("rotterdam")
    await form.locator("select[name=roem]").select_option("claim")
    await expect(preset).to_have_value("custom")
    assert await cut_labels(page, "#create-room") == []
    await shot(page, f"create-form-{size}.png")

    # a custom table is made with the rules shown, and the form remembers them
    await tab.create_room(move_seconds=60)
    await expect(page.locator("#room-rules")).to_contain_text("Rotterdam")
    await expect(page.locator("#room-rules")).to_contain_text("roem claimed")
    await page.reload()
    await expect(tab.table).to_be_visible()
    await page.locator("#leave").click()
    await expect(form.get_by_role("button", name="Create")).to_be_enabled()
    await expect(preset).to_have_value("custom")
    await expect(form.locator("select[name=roem]")).to_have_value("claim")

    # the New game dialog: the same single control (its length is no preset's part)
    await page.locator("#new-game-rules").click()
    dialog = page.locator("#new-game-form")
    await expect(dialog.get_by_role("button", name="Play")).to_be_enabled()
    assert await options(dialog, "preset") == [*catalog["presets"], "custom"]
    await dialog.locator("select[name=preset]").select_option("rotterdam")
    await dialog.locator("select[name=pit_bonus]").select_option("playing")
    await expect(dialog.locator("select[name=preset]")).to_have_value("custom")
    await dialog.locator("select[name=pit_bonus]").select_option("any")
    await expect(dialog.locator("select[name=preset]")).to_have_value("rotterdam")
    assert await cut_labels(page, "#new-game") == []
    tab.assert_clean()
