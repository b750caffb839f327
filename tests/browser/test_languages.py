"""The interface's languages (issue 14): every word of the page in English, Dutch, French,
Portuguese, Bulgarian and Tagalog; the language follows the browser, can be chosen and is
remembered; each language's table view at both sizes, saved as screenshots to look at."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Page, expect

from tests.browser.ui import SIZES, Tab, cut_labels, shot

pytestmark = pytest.mark.browser

WEB = Path(__file__).resolve().parents[2] / "server" / "web"
LANGUAGES = ("nl", "fr", "pt", "bg", "tl")
SLOT = re.compile(r"\{(\w+)\}")

# Every module's English words: the page's, and the wall screen's (a page of its own).
ENGLISH = """() => import('/web/wall.js')
    .then(() => import('/web/i18n.js')).then(m => m.englishTables())"""
CATEGORIES = "lang => new Intl.PluralRules(lang).resolvedOptions().pluralCategories"


def is_plural(value: Any) -> bool:
    return isinstance(value, dict) and "other" in value


def slots(text: str) -> set[str]:
    return set(SLOT.findall(text))


Tables = dict[str, dict[str, Any]]


def problems(english: Tables, words: dict[str, Any], categories: set[str]) -> list[str]:
    """What is wrong with one language's words against the English tables."""
    found: list[str] = []
    same = set(words.get("_same", []))
    for ns, table in english.items():
        theirs = words.get(ns, {})
        found += [f"{ns}.{key}: not in English (stale)" for key in theirs if key not in table]
        for key, source in table.items():
            name = f"{ns}.{key}"
            if key not in theirs:
                found.append(f"{name}: missing")
                continue
            word = theirs[key]
            if is_plural(source):
                if not isinstance(word, dict) or "other" not in word:
                    found.append(f"{name}: a plural needs its forms, 'other' at least")
                    continue
                found += [f"{name}: no form {c!r} here" for c in word if c not in categories]
                if "one" in categories and "one" not in word:
                    found.append(f"{name}: form 'one' missing")
                wanted = set().union(*(slots(f) for f in source.values())) - {"n"}
                have = set().union(*(slots(f) for f in word.values()))
                if not wanted <= have or not have <= wanted | {"n"}:
                    found.append(f"{name}: slots {sorted(have)} for {sorted(wanted | {'n'})}")
                forms = list(word.values())
            elif isinstance(source, str):
                if not isinstance(word, str):
                    found.append(f"{name}: should be a string")
                    continue
                if slots(word) != slots(source):
                    found.append(f"{name}: slots {sorted(slots(word))} for {sorted(slots(source))}")
                forms = [word]
            else:
                continue  # not words (a number, a list of codes)
            if any(not f.strip() for f in forms):
                found.append(f"{name}: empty")
            wordy = SLOT.sub("", str(source)).strip(" .:·—-/0123456789")
            if word == source and name not in same and wordy:
                found.append(f"{name}: still English ({source!r}); list it in _same if it is right")
    found += [f"{n}: in _same but translated" for n in same if _translated(english, words, n)]
    return found


def _translated(english: dict[str, Any], words: dict[str, Any], name: str) -> bool:
    ns, _, key = name.partition(".")
    return key in english.get(ns, {}) and words.get(ns, {}).get(key) != english[ns][key]


async def open_in(open_tab, language: str, size: tuple[int, int] = SIZES["desktop"]) -> Tab:
    tab: Tab = await open_tab(f"/?lang={language}", size=size)
    await expect(tab.page.locator("#status")).to_have_attribute("data-state", "open")
    return tab


async def hello(page: Page, nickname: str) -> None:
    await page.locator("#nickname").fill(nickname)
    await page.locator("#hello-form button[type=submit]").click()
    await expect(page.locator("#me")).to_contain_text(nickname)


@pytest.mark.parametrize("language", LANGUAGES)
async def test_every_word_is_translated(open_tab, language: str) -> None:
    tab = await open_in(open_tab, language)
    english = await tab.page.evaluate(ENGLISH)
    assert len(english) > 10 and {"page", "wall"} <= set(english), sorted(english)
    words = json.loads((WEB / "i18n" / f"{language}.json").read_text(encoding="utf-8"))
    categories = set(await tab.page.evaluate(CATEGORIES, language))
    found = problems(english, words, categories)
    assert not found, f"{len(found)} problems in {language}.json:\n" + "\n".join(found)
    assert await tab.page.evaluate("() => document.documentElement.lang") == language
    tab.assert_clean()


async def test_the_language_follows_the_browser_and_the_choice(browser, site) -> None:
    context = await browser.new_context(locale="nl-NL", viewport={"width": 1280, "height": 800})
    try:
        page = await context.new_page()
        await page.goto(site.url)
        await expect(page.locator("html")).to_have_attribute("lang", "nl")
        await expect(page.locator("#language")).to_have_value("nl")
        await page.locator("#language").select_option("fr")
        await expect(page.locator("html")).to_have_attribute("lang", "fr")
        await page.reload()  # remembered on this device
        await expect(page.locator("html")).to_have_attribute("lang", "fr")
        await page.goto(site.url + "?lang=bg")  # an address that names one wins
        await expect(page.locator("html")).to_have_attribute("lang", "bg")
        await page.goto(site.url + "?lang=xx")  # one we do not have: the choice again
        await expect(page.locator("html")).to_have_attribute("lang", "fr")
    finally:
        await context.close()


@pytest.mark.parametrize("language", ("en", *LANGUAGES))
@pytest.mark.parametrize("size", sorted(SIZES))
async def test_the_table_in_every_language(open_tab, language: str, size: str) -> None:
    """A solo game in each language: the lobby and the table mid-deal, no label cut off,
    screenshots to look at."""
    tab = await open_in(open_tab, language, SIZES[size])
    page = tab.page
    await hello(page, "ann")
    await expect(page.locator("#lobby")).to_be_visible()
    assert not await cut_labels(page, "#lobby"), await cut_labels(page, "#lobby")
    await shot(page, f"languages/{language}-lobby-{size}.png")
    await page.locator("#new-game-button").click()
    await expect(tab.table).to_have_attribute("data-status", "playing")
    await expect(page.locator("#hand button.card")).to_have_count(8)
    await expect(page.locator("#trick .played, #bids button").first).to_be_visible()
    assert not await cut_labels(page, "#table"), await cut_labels(page, "#table")
    await shot(page, f"languages/{language}-table-{size}.png")
    tab.assert_clean()
