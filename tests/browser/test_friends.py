"""Two friends in a private room, the second one joining by the invite link: asked where
to sit (the inviter's partner seat unless chosen otherwise), told who invited them to
which table, and free to move to another empty seat until the match starts (issue 14,
item 5)."""

from __future__ import annotations

import re
from urllib.parse import urljoin

import pytest
from playwright.async_api import expect

from tests.browser.conftest import Site
from tests.browser.ui import SIZES, Tab, card_words, shot

pytestmark = pytest.mark.browser

# Everything in #invite that could hold the link: its text, and links and field values.
INVITE_TEXTS = """invite => [invite.innerText,
    ...[...invite.querySelectorAll('a[href]')].map(a => a.href),
    ...[...invite.querySelectorAll('input, textarea')].map(i => i.value),
    ...[...invite.querySelectorAll('[data-link], [data-url], [data-copy]')].map(
        e => e.dataset.link || e.dataset.url || e.dataset.copy)].join('\\n')"""


async def _seats(tab: Tab, seat: int) -> None:
    """The page sits at ``seat``: bottom is its own seat, top its partner's."""
    page = tab.page
    await expect(page.locator(".seat")).to_have_count(4)
    await expect(page.locator('.seat[data-pos="bottom"]')).to_have_attribute("data-seat", str(seat))
    await expect(page.locator('.seat[data-pos="top"]')).to_have_attribute(
        "data-seat", str((seat + 2) % 4)
    )
    await expect(page.locator('.seat[data-pos="bottom"] .name')).to_contain_text(tab.name)


@pytest.mark.parametrize("size", SIZES)
async def test_friends_meet_in_a_private_room_by_the_invite_link(
    site: Site, open_tab, size: str
) -> None:
    ann: Tab = await open_tab(size=SIZES[size])
    await ann.hello("ann")
    room_id = await ann.create_room(private=True)
    invite = ann.page.locator("#invite")
    await expect(invite).to_be_visible()
    await expect(invite).to_contain_text(re.compile(r"\w{4,}"))
    texts = await invite.evaluate(INVITE_TEXTS)
    link = re.search(r"\S*[?&]invite=([A-Za-z0-9-]+)", texts)
    assert link, f"no ?invite= link in #invite: {texts!r}"
    code = link.group(1)
    await expect(invite).to_have_attribute("data-code", code)
    rest = re.sub(r"[\s-]", "", texts.replace(link.group(0), "")).upper()
    assert code.replace("-", "").upper() in rest, f"the code is not shown: {texts!r}"
    url = urljoin(site.url, link.group(0))
    assert url.startswith(site.url), url

    # the code shown is the room's, and the room is not listed
    watcher = await site.bot("watcher")
    watched = await watcher.request({"type": "watch", "invite_code": code}, "snapshot")
    assert watched.get("room_id") == room_id, watched
    lobby = await watcher.request({"type": "lobby_subscribe"}, "lobby")
    assert room_id not in [r["id"] for r in lobby["rooms"]]

    # the friend is told who invited them to which table, and offered ann's partner seat
    bob: Tab = await open_tab(url.removeprefix(site.url), size=SIZES[size])  # its own context
    await bob.hello("bob")
    await expect(bob.table).to_have_attribute("data-room-id", room_id)
    asked = bob.page.locator("#join-seat")
    await expect(asked).to_be_visible()
    await expect(asked.locator("#join-seat-title")).to_have_text("ann invited you")
    await expect(asked).to_contain_text("ann's table")
    await expect(asked.locator('input[name=seat][value="2"]')).to_be_checked()
    await expect(asked.locator('input[name=seat][value="0"]')).to_be_disabled()
    await expect(asked.locator('input[name=seat][value="2"]')).to_be_focused()
    await shot(bob.page, f"invite-{size}.png")
    await asked.get_by_role("button", name="Sit down").click()
    await expect(asked).to_be_hidden()
    await _seats(ann, 0)
    await _seats(bob, 2)
    await expect(ann.page.locator('.seat[data-pos="top"] .name')).to_have_text("bob")

    # bob moves to another empty seat, across from ann now
    await bob.page.locator('.seat[data-seat="1"] button[data-sit]').click()
    await _seats(bob, 1)
    await expect(ann.page.locator('.seat[data-seat="1"] .name')).to_have_text("bob")
    await expect(ann.page.locator('.seat[data-seat="2"]')).to_have_class(re.compile(r"\bempty\b"))

    # a code typed in the lobby asks the same; Escape just watches
    cas: Tab = await open_tab(size=SIZES[size])
    await cas.hello("cas")
    await cas.page.locator("#invite-code").fill(code)
    await cas.page.locator("#join-form").get_by_role("button", name="Join").click()
    asked = cas.page.locator("#join-seat")
    await expect(asked).to_be_visible()
    await expect(asked.locator('input[name=seat][value="2"]')).to_be_checked()
    await cas.page.keyboard.press("Escape")
    await expect(asked).to_be_hidden()
    await expect(cas.table).to_have_attribute("data-spectator", "true")
    await expect(cas.page.locator(".seat button[data-sit]")).to_have_count(2)

    await expect(ann.page.locator(".seat .name", has_text="bob")).to_have_count(1)
    await expect(bob.page.locator(".seat .name", has_text="ann")).to_have_count(1)
    await expect(bob.page.locator("button[data-add-cpu]:visible")).to_have_count(0)

    # table talk reaches the friend
    await ann.page.locator("#chat-input").fill("hoi bob")
    await ann.page.locator("#chat-input").press("Enter")
    await expect(bob.page.locator("#chat-log")).to_contain_text("hoi bob")

    await ann.add_cpu()
    await ann.add_cpu()
    for tab in (ann, bob):
        await expect(tab.page.locator(".seat .badge-cpu")).to_have_count(2)
        await expect(tab.page.locator("button[data-add-cpu]:visible")).to_have_count(0)
    await ann.ready()
    await bob.ready()

    hands = [await ann.expect_dealt(), await bob.expect_dealt()]
    assert not set(hands[0]) & set(hands[1]), hands
    for tab, hand in zip((ann, bob), hands, strict=True):  # each card named in words
        for card in hand:
            named = tab.page.locator("#hand").get_by_role("button", name=card_words(card))
            await expect(named).to_have_attribute("data-card", card)
    # bob, after the dealer, speaks first: he alone has trump choices
    await expect(bob.page.locator("#bids button[data-action]:visible").first).to_be_visible()
    await expect(ann.page.locator("#bids button[data-action]:visible")).to_have_count(0)
    ann.assert_clean()
    bob.assert_clean()
    cas.assert_clean()
