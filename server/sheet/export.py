"""A score sheet as CSV (one row a deal, every game) and as a printable HTML page: pure."""

from __future__ import annotations

import csv
import html
import io

from engine import EndKind

from .sheet import Sheet


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


def to_html(sheet: Sheet) -> str:
    """A page to print: each game's deals and totals, and who won (the sheet's winner:
    :func:`engine.scoring.match_winner` after the deal that ended the game)."""
    a, b = (html.escape(t) for t in sheet.teams)
    parts = [
        "<!doctype html><html lang=en><meta charset=utf-8>",
        f"<title>Klaverjas score sheet: {a} and {b}</title>",
        "<style>body{font:14px system-ui,sans-serif;margin:2em}table{border-collapse:collapse;"
        "margin:1em 0}th,td{border:1px solid #999;padding:.25em .6em;text-align:right}"
        "th:first-child,td:first-child{text-align:left}tfoot td{font-weight:bold}"
        "@media print{body{margin:0}}</style>",
        f"<h1>{a} &ndash; {b}</h1>",
    ]
    for game in sheet.games:
        winner = sheet.winner(game)  # engine.scoring's, at the deal that ended the game
        unit = "points" if sheet.rules.end is EndKind.TARGET else "deals"
        end = f"{sheet.end_value(game)} {unit}"
        parts.append(f"<h2>Game {game.number} <small>(to {end})</small></h2>")
        parts.append(
            f"<table><thead><tr><th>Deal</th><th>Dealer</th><th>Playing</th><th>{a}</th>"
            f"<th>{b}</th><th>Roem {a}</th><th>Roem {b}</th><th></th><th>Total {a}</th>"
            f"<th>Total {b}</th></tr></thead><tbody>"
        )
        for d in game.deals:
            late = game.ended is not None and d.number > game.ended
            marks = " ".join(
                mark
                for mark, on in (
                    ("nat", d.result.nat), ("pit", d.deal.pit is not None), ("after the end", late),
                )
                if on
            )  # fmt: skip
            parts.append(
                f"<tr><td>{d.number}</td><td>{html.escape(sheet.seat_name(d.dealer))}</td>"
                f"<td>{html.escape(sheet.teams[d.deal.playing])}</td><td>{d.result.score[0]}</td>"
                f"<td>{d.result.score[1]}</td><td>{d.deal.roem[0]}</td><td>{d.deal.roem[1]}</td>"
                f"<td>{marks}</td><td>{d.totals[0]}</td><td>{d.totals[1]}</td></tr>"
            )
        result = "not finished" if winner is None else f"{html.escape(sheet.teams[winner])} won"
        parts.append(
            f"</tbody><tfoot><tr><td colspan=8>{result}</td><td>{game.totals[0]}</td>"
            f"<td>{game.totals[1]}</td></tr></tfoot></table>"
        )
    return "\n".join(parts) + "\n"
