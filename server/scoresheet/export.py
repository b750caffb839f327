"""A score sheet as CSV (one row a deal, every game) and as a printable HTML page in the
page's languages: pure (the words are read once, at import)."""

from __future__ import annotations

import csv
import html
import io
import json
from pathlib import Path

from engine import EndKind

from .sheet import Sheet

# The print page's words: English here, the other languages in the web client's language
# files (namespace ``print``), so that one file a language holds all its words.
PRINT = {
    "title": "Klaverjas score sheet: {a} and {b}",
    "game": "Game {n}",
    "to": "to {end}",
    "endPoints": "{n} points",
    "endDeals": "{n} deals",
    "deal": "Deal",
    "dealer": "Dealer",
    "playing": "Playing",
    "roem": "Roem {team}",
    "total": "Total {team}",
    "nat": "nat",
    "pit": "pit",
    "late": "after the end",
    "unfinished": "not finished",
    "won": "{team} won",
}
LANGUAGES = Path(__file__).parents[1] / "web" / "i18n"


def translations(namespace: str, english: dict[str, str]) -> dict[str, dict[str, str]]:
    """A printable page's words by language: ``english``, and each language file's words
    of ``namespace`` (English for a word the file lacks)."""
    words = {"en": english}
    for path in sorted(LANGUAGES.glob("*.json")):
        theirs = json.loads(path.read_text(encoding="utf-8")).get(namespace, {})
        words[path.stem] = {key: theirs.get(key, text) for key, text in english.items()}
    return words


WORDS = translations("print", PRINT)


def to_csv(sheet: Sheet) -> str:
    """Every deal of every game with both teams' points, roem, marks, scores and totals."""
    a, b = sheet.teams
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([
        "game", "deal", "dealer", "playing", f"points {a}", f"points {b}", f"roem {a}",
        f"roem {b}", "nat", "pit", f"score {a}", f"score {b}", f"total {a}", f"total {b}",
    ])  # fmt: skip
    for game in sheet.games:
        for d in game.deals:
            deal, result = d.deal, d.result
            writer.writerow([
                game.number, d.number, sheet.seat_name(d.dealer), sheet.teams[deal.playing],
                *deal.points, *deal.roem, "nat" if result.nat else "",
                "" if deal.pit is None else sheet.teams[deal.pit], *result.score, *d.totals,
            ])  # fmt: skip
    return out.getvalue()


def to_html(sheet: Sheet, language: str = "en") -> str:
    """A page to print in ``language`` (English for one we do not have): each game's deals
    and totals, and who won (the sheet's winner: :func:`engine.scoring.match_winner` after
    the deal that ended the game)."""
    language = language if language in WORDS else "en"
    words = WORDS[language]

    def say(key: str, **values: object) -> str:  # a template filled, all of it escaped
        return html.escape(words[key].format(**values))

    a, b = sheet.teams
    parts = [
        f"<!doctype html><html lang={language}><meta charset=utf-8>",
        f"<title>{say('title', a=a, b=b)}</title>",
        "<style>body{font:14px system-ui,sans-serif;margin:2em}table{border-collapse:collapse;"
        "margin:1em 0}th,td{border:1px solid #999;padding:.25em .6em;text-align:right}"
        "th:first-child,td:first-child{text-align:left}tfoot td{font-weight:bold}"
        "@media print{body{margin:0}}</style>",
        f"<h1>{html.escape(a)} &ndash; {html.escape(b)}</h1>",
    ]
    for game in sheet.games:
        winner = sheet.winner(game)  # engine.scoring's, at the deal that ended the game
        unit = "endPoints" if sheet.rules.end is EndKind.TARGET else "endDeals"
        end = words[unit].format(n=sheet.end_value(game))
        parts.append(f"<h2>{say('game', n=game.number)} <small>({say('to', end=end)})</small></h2>")
        cells = [
            say("deal"), say("dealer"), say("playing"), html.escape(a), html.escape(b),
            say("roem", team=a), say("roem", team=b), "",
            say("total", team=a), say("total", team=b),
        ]  # fmt: skip
        head = "".join(f"<th>{cell}</th>" for cell in cells)
        parts.append(f"<table><thead><tr>{head}</tr></thead><tbody>")
        for d in game.deals:
            late = game.ended is not None and d.number > game.ended
            marks = (("nat", d.result.nat), ("pit", d.deal.pit is not None), ("late", late))
            parts.append(
                f"<tr><td>{d.number}</td><td>{html.escape(sheet.seat_name(d.dealer))}</td>"
                f"<td>{html.escape(sheet.teams[d.deal.playing])}</td><td>{d.result.score[0]}</td>"
                f"<td>{d.result.score[1]}</td><td>{d.deal.roem[0]}</td><td>{d.deal.roem[1]}</td>"
                f"<td>{' '.join(say(mark) for mark, on in marks if on)}</td>"
                f"<td>{d.totals[0]}</td><td>{d.totals[1]}</td></tr>"
            )
        result = say("unfinished") if winner is None else say("won", team=sheet.teams[winner])
        parts.append(
            f"</tbody><tfoot><tr><td colspan=8>{result}</td><td>{game.totals[0]}</td>"
            f"<td>{game.totals[1]}</td></tr></tfoot></table>"
        )
    return "\n".join(parts) + "\n"
