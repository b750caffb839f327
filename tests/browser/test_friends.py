"""Two friends in a private room, the second one joining by the invite link."""

from __future__ import annotations

import re
from urllib.parse import urljoin

import pytest
from playwright.async_api import expect

from tests.browser.conftest import Site
from tests.browser.ui import Tab, card_words

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


async def test_friends_meet_in_a_private_room_by_the_invite_link(site: Site, open_tab) -> None:
    ann: Tab = await open_tab()
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

    bob: Tab = await open_tab(url.removeprefix(site.url))  # a context of its own
    await bob.hello("bob")
    await expect(bob.table).to_be_visible()
    await expect(bob.table).to_have_attribute("data-room-id", room_id)
    await _seats(ann, 0)
    await _seats(bob, 1)
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
    for tab, hand in zip((ann, bob), hands, strict=True):
        labels = await tab.page.locator("#hand button.card").evaluate_all(
            "buttons => buttons.map(b => b.getAttribute('aria-label'))"
        )
        for card, label in zip(hand, labels, strict=True):
            assert card_words(card) in (label or "").lower(), (card, label)
    # bob, after the dealer, speaks first: he alone has trump choices
    await expect(bob.page.locator("#bids button[data-action]:visible").first).to_be_visible()
    await expect(ann.page.locator("#bids button[data-action]:visible")).to_have_count(0)
    ann.assert_clean()
    bob.assert_clean()
