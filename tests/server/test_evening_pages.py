"""What a club evening prints and shows over plain HTTP (issue 35, items 6 and 7): the QR
code of a text (``/qr.svg``), each module where segno puts it; the latest round's table
cards (``/evenings/<code>/print/draw``), the tables' codes and QR codes with the organiser
code alone; the results (``/evenings/<code>/print/results``) in the page's language; a
wrong code counted as over the websocket."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any
from urllib.parse import quote
from xml.etree import ElementTree

import pytest
import segno

from client import GameClient
from server.club import print as evening_print
from server.core import qr
from server.scoresheet.export import LANGUAGES
from tests.server.conftest import SQLITE_ONLY, Harness, running_harness
from tests.server.test_evenings import command, enter
from tests.server.test_web_security import headers

pytestmark = [pytest.mark.server, pytest.mark.club]

SVG = "{http://www.w3.org/2000/svg}"
STEP = re.compile(r"([Mmh])([-\d.]+)(?:\s([-\d.]+))?")


def modules(svg: str) -> list[list[int]]:
    """The dark modules an SVG of :func:`server.core.qr.svg` draws, row by row, without its
    quiet zone (checked to be white: a white square under dark lines of one module)."""
    root = ElementTree.fromstring(svg)
    assert root.tag == f"{SVG}svg", root.tag
    _, _, width, height = (int(n) for n in root.get("viewBox", "").split())
    assert width == height
    light, dark = root.findall(f"{SVG}path")
    assert (light.get("fill"), light.get("d")) == ("#fff", f"M0 0h{width}v{width}h-{width}z")
    assert dark.get("stroke") == "#000" and dark.get("fill") is None
    grid = [[0] * width for _ in range(width)]
    x = y = 0.0
    for op, a, b in STEP.findall(dark.get("d", "")):
        if op == "M":
            x, y = float(a), float(b)
        elif op == "m":
            x, y = x + float(a), y + float(b)
        else:  # a line one module high, centred on its row
            assert y % 1 == 0.5 and x % 1 == 0 and float(a) > 0, (x, y, a)
            for column in range(int(x), int(x + float(a))):
                grid[int(y)][column] = 1
            x += float(a)
    zone = qr.QUIET_ZONE
    border = [*grid[:zone], *grid[-zone:], *(r[:zone] + r[-zone:] for r in grid)]
    assert not any(any(cells) for cells in border)
    return [row[zone:-zone] for row in grid[zone:-zone]]


def segno_modules(text: str) -> list[list[int]]:
    return [list(row) for row in segno.make(text, micro=False).matrix]


def codes_drawn(page: str) -> list[list[list[int]]]:
    return [modules(m) for m in re.findall(r"<svg.*?</svg>", page)]


@SQLITE_ONLY
async def test_a_qr_code_draws_its_text_module_by_module(harness: Harness) -> None:
    texts = [
        "http://192.168.1.20:8765/?sheet=M4X1KV64PV", "hi", "Klaverjas — IJsselmeer ♣ Ünïcode",
        "x" * qr.MAX_TEXT,
    ]  # fmt: skip
    drawn = []
    for text in texts:
        status, body, kind = await harness.http_get(f"/qr.svg?text={quote(text)}")
        assert (status, kind) == (200, "image/svg+xml"), body[:200]
        drawn.append(modules(body.decode()))
        assert drawn[-1] == segno_modules(text), text
    assert drawn[0] != drawn[1] and len(drawn[0]) > 21  # a full QR code, never a Micro QR
    got = await headers(harness, f"/qr.svg?text={quote(texts[0])}")
    assert got["cache-control"] == "private, max-age=86400, immutable"
    assert got["content-security-policy"].startswith("default-src 'none'")
    page = (await headers(harness, "/"))["content-security-policy"]
    assert "img-src 'self'" in page  # the wall screen's <img src="/qr.svg?...">
    for asked in ("/qr.svg?text=" + "x" * (qr.MAX_TEXT + 1), "/qr.svg", "/qr.svg?text=",
                  "/qr.svg?text=a&text=b", "/qr.svg?text=a&size=9"):  # fmt: skip
        status, body, kind = await harness.http_get(asked)
        assert (status, kind) == (400, "application/json"), asked
        assert json.loads(body)["error"] == "invalid_field", asked


async def evening_of(org: GameClient, names: list[str], pairs: bool = False) -> dict[str, Any]:
    """An evening with these players (pairs: ``name`` is the pair's, its members named
    after it) checked in and its first round drawn: the organiser's frame."""
    made = await org.request(
        {"type": "evening_create", "name": "Vrijdag <b>&", "deals": 2, "rounds": 2,
         "format": "pairs" if pairs else "individual"}, "evening",
    )  # fmt: skip
    code, version = made["codes"]["organiser"], made["version"]
    for name in names:
        members = {"members": [f"{name} 1", f"{name} 2"]} if pairs else {}
        version = (await command(org, code, version, "check_in", name=name, **members))["version"]
    return await command(org, code, version, "draw")


async def page(h: Harness, path: str) -> str:
    status, body, kind = await h.http_get(path)
    assert (status, kind) == (200, "text/html; charset=utf-8"), (path, body[:300])
    return body.decode()


async def test_the_table_cards_and_the_results_to_print(harness: Harness) -> None:
    org = await harness.client("org")
    names = ["Ann", "Bob", "Cas", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy"]
    drawn = await evening_of(org, names)
    codes, tables = drawn["codes"], drawn["tables"]
    name = {e["id"]: e["name"] for e in drawn["evening"]["entrants"]}
    (out,) = drawn["evening"]["drawn"][0]["sitting_out"]
    await enter(await harness.client("table1"), tables[0]["code"], 100)

    cards = await page(harness, f"/evenings/{codes['organiser']}/print/draw")
    assert "Vrijdag &lt;b&gt;&amp;" in cards and "<b>&" not in cards  # escaped
    assert "Round 1 of 2" in cards and f"Sitting out this round: {name[out]}" in cards
    origin = f"http://127.0.0.1:{harness.server.port}"  # type: ignore[union-attr]
    assert "phones in the hall cannot reach" in cards  # opened on the laptop itself
    for t in tables:
        card = cards.split(f"<h2>Table {t['table']}</h2>")[1].split("</section>")[0]
        seats = [name[e] for e in t["entrants"]]
        for seat, who in zip(("North", "East", "South", "West"), seats, strict=True):
            assert f"<small>{seat}</small>{who}</div>" in card
        assert f"{seats[0]} and {seats[2]} are partners" in card
        assert f"{seats[0]} deals first." in card
        assert f"Table code: {t['code']}" in card
        assert codes_drawn(card) == [segno_modules(f"{origin}/?sheet={t['code']}")]
    viewed = await page(harness, f"/evenings/{codes['view']}/print/draw?lang=en")
    assert all(name[e] in viewed for t in tables for e in t["entrants"])
    assert "<svg" not in viewed and "Table code" not in viewed
    assert not any(t["code"] in viewed for t in tables)

    results = await page(harness, f"/evenings/{codes['view']}/print/results")
    assert "After round 1 of 2" in results
    rows = re.findall(r'<tr class=(\w+) data-player="(e\d+)"><td>(\d+)</td>'
                      r"<td class=name>([^<]+)</td><td>(\d+)", results)  # fmt: skip
    assert len(rows) == len(names)
    by_id = {row[1]: row for row in rows}
    first = tables[0]["entrants"]
    assert by_id[first[0]][4] == by_id[first[2]][4] == "100"  # the table's deal, live
    assert by_id[first[1]][4] == "62" and by_id[first[0]][0] == "place"
    assert {row[3] for row in rows} == set(names)
    assert "sat out" in results.split(f'data-player="{out}"')[1].split("</tr>")[0]
    assert "How fair the draws were" in results and f"Sat out: {name[out]} (1)" in results

    dutch = await page(harness, f"/evenings/{codes['view']}/print/results?lang=nl")
    words = json.loads((LANGUAGES / "nl.json").read_text(encoding="utf-8"))["eveningPrint"]
    assert "<html lang=nl>" in dutch and words["fairness"] in dutch
    assert "How fair the draws were" not in dutch


async def test_a_pairs_evening_s_cards_seat_each_pair_s_players(harness: Harness) -> None:
    org = await harness.client("org")
    drawn = await evening_of(org, ["Oost", "West", "Noord", "Zuid"], pairs=True)
    cards = await page(harness, f"/evenings/{drawn['codes']['organiser']}/print/draw")
    pair = {e["id"]: e for e in drawn["evening"]["entrants"]}
    for t in drawn["tables"]:
        ns, ew = (pair[e] for e in t["entrants"])
        card = cards.split(f"<h2>Table {t['table']}</h2>")[1].split("</section>")[0]
        seated = [ns["members"][0], ew["members"][0], ns["members"][1], ew["members"][1]]
        for seat, who in zip(("North", "East", "South", "West"), seated, strict=True):
            assert f"<small>{seat}</small>{who}</div>" in card
        assert f"{ns['name']}: {ns['members'][0]} and {ns['members'][1]}" in card
        assert f"{ew['name']}: {ew['members'][0]} and {ew['members'][1]}" in card


async def test_wrong_evening_codes_count_as_over_the_websocket(tmp_path: Path) -> None:
    async with running_harness(tmp_path, attempts=3) as h:
        org = await h.client("org")
        view = (await evening_of(org, ["Ann", "Bob", "Cas", "Dee"]))["codes"]["view"]
        for asked in (f"/evenings/{view}/print/other", f"/evenings/{view}/print",
                      "/evenings/ABC/print/draw"):  # fmt: skip
            assert (await h.http_get(asked))[0] == 404  # no such page: not a code tried
        status, body, _ = await h.http_get(f"/evenings/{view}/print/draw?size=2")
        assert (status, json.loads(body)["error"]) == (400, "invalid_field")
        for asked in ("/evenings/WRONGCODE1/print/draw", "/evenings/WRONGCODE2/print/results"):
            status, body, _ = await h.http_get(asked)
            assert (status, json.loads(body)["error"]) == (404, "bad_evening_code")
        wrong = await org.request({"type": "evening_open", "code": "WRONGCODE3"}, "error")
        assert wrong["code"] == "bad_evening_code"  # the third, over the websocket
        status, body, _ = await h.http_get(f"/evenings/{view}/print/results")  # even a right one
        assert (status, json.loads(body)["error"]) == (429, "too_many_attempts")
        h.advance(h.settings.attempts_window)
        assert (await h.http_get(f"/evenings/{view}/print/results"))[0] == 200


def test_the_print_pages_have_every_word_in_every_language() -> None:
    """The pages' words (``print.PRINT``) in each of the page's language files, with the
    same slots, translated (a word the same as in English listed in ``_same``)."""
    slots = re.compile(r"\{(\w+)\}")
    files = sorted(LANGUAGES.glob("*.json"))
    assert len(files) >= 5
    for path in files:
        every = json.loads(path.read_text(encoding="utf-8"))
        words, same = every["eveningPrint"], set(every.get("_same", []))
        assert set(words) == set(evening_print.PRINT), path.name
        for key, english in evening_print.PRINT.items():
            assert set(slots.findall(words[key])) == set(slots.findall(english)), (path, key)
            assert words[key] != english or f"eveningPrint.{key}" in same, (path.name, key)
