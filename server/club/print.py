"""A club evening's printable pages, in the page's languages: the latest round's table
cards (the draw: a card to lay on each table) and the evening's results (the standing with
each round's points, the prizes, the sit-outs, and how fair the draws were).

Pure: an ``evening`` frame (as :meth:`~server.club.evenings.Evenings.read` gives it) in,
a page out, every name escaped.  A table's code and its QR code are on the cards only when
the frame is an organiser's (only theirs carries the tables' codes)."""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from typing import Any
from urllib.parse import urlsplit

from ..core import qr
from ..scoresheet.export import translations

# The pages' words: English here, the other languages in the web client's language files
# (namespace ``eveningPrint``), as the score sheet's print page does.
PRINT = {
    "drawTitle": "{evening}: the tables of round {round}",
    "resultsTitle": "{evening}: results",
    "round": "Round {round} of {rounds}",
    "roundClosed": "Round {round} of {rounds} (closed)",
    "noRound": "No round has been drawn yet.",
    "table": "Table {table}",
    "north": "North",
    "east": "East",
    "south": "South",
    "west": "West",
    "partners": "{a} and {b} are partners",
    "pairPartners": "{pair}: {a} and {b}",
    "dealsFirst": "{name} deals first.",
    "code": "Table code: {code}",
    "scan": "Scan to open this table's score sheet, or open {link}",
    "sittingOut": "Sitting out this round: {names}",
    "nobodyOut": "Nobody sits out this round.",
    "loopback": (
        "This page was opened at {host}, which the phones in the hall cannot reach: open it "
        "by this computer's address on the hall's network before you print it."
    ),
    "after": "After round {round} of {rounds}",
    "final": "Final standing",
    "place": "Place",
    "name": "Name",
    "roundShort": "R{round}",
    "total": "Total",
    "satOutCount": "Sat out",
    "prize": "Prize",
    "prizePlace": "prize",
    "prizeLowest": "lowest score",
    "markSatOut": "sat out",
    "markPlaying": "still playing",
    "markUnfinished": "not finished",
    "markMissing": "nothing entered",
    "sitOutPoints": "Round {round}: sitting out scores {points}.",
    "fairness": "How fair the draws were",
    "partnerRepeats": "Partnerships played more than once: {n}",
    "opponentRepeats": "Meetings as opponents more than once: {n}",
    "spread": "Sit-outs: the most and the fewest differ by {n}",
    "againPartners": "{a} and {b}: partners in {n} rounds",
    "againOpponents": "{a} and {b}: opponents in {n} rounds",
    "sitOuts": "Sat out: {list}",
    "sitOut": "{name} ({n})",
}
WORDS = translations("eveningPrint", PRINT)
SEATS = ("north", "east", "south", "west")  # seat 0 to 3: 0 and 2 partners, 0 deals first
MARKS = {
    "sat_out": "markSatOut", "playing": "markPlaying", "unfinished": "markUnfinished",
    "missing": "markMissing",
}  # fmt: skip
AGAIN = (("repeated_partners", "againPartners"), ("repeated_opponents", "againOpponents"))
LOOPBACK = ("localhost", "127.0.0.1", "::1")

# Two table cards to an A4 page: each card says its evening and round, the page's own head
# is for the screen.
STYLE = (
    "body{font:12pt/1.35 system-ui,sans-serif;margin:1.5em;color:#000}"
    "h1{font-size:20pt;margin:0 0 .2em}h2{font-size:14pt;margin:1.2em 0 .4em}"
    ".warn{border:2px solid #b3261e;padding:.5em;margin:1em 0;color:#b3261e}"
    ".card{border:1px dashed #888;padding:.6cm .8cm;margin:0 0 .6cm;break-inside:avoid;"
    "display:grid;grid-template-columns:1fr auto;align-content:start;gap:0 1cm;"
    "min-height:12.6cm;box-sizing:border-box}"
    ".card header{grid-column:1/-1;display:flex;align-items:baseline;gap:1em}"
    ".card h2{font-size:36pt;margin:0}.card header p{margin:0 0 0 auto;color:#555}"
    ".compass{display:grid;grid-template:auto auto auto/1fr 7em 1fr;gap:.3em;"
    "align-items:center;text-align:center;font-size:14pt;margin:.4cm 0}"
    ".compass .seat small{display:block;font-size:8pt;color:#555;text-transform:uppercase}"
    ".compass .top{grid-area:1/2}.compass .left{grid-area:2/1}.compass .right{grid-area:2/3}"
    ".compass .bottom{grid-area:3/2}.compass .felt{grid-area:2/2;border:2px solid #000;"
    "border-radius:.5em;aspect-ratio:1;display:grid;place-items:center;font-size:36pt;"
    "font-weight:bold}.card p.who{margin:0;font-size:11pt}"
    ".side{text-align:center;width:5.6cm;align-self:center}"
    ".side svg{width:5cm;height:5cm;display:block;margin:0 auto}"
    ".side .code{font:bold 13pt monospace}.side p{font-size:8pt;overflow-wrap:anywhere}"
    "table{border-collapse:collapse;margin:.5em 0}th,td{border:1px solid #999;"
    "padding:.2em .5em;text-align:right}th.name,td.name{text-align:left}"
    "tr.place td{font-weight:bold}tr.lowest td{font-style:italic}td small{color:#555}"
    "@page{size:A4;margin:1cm}@media print{body{margin:0}.warn,.screen{display:none}"
    "body>p{margin:0 0 .3cm}.card{height:12.9cm;margin:0 0 .4cm}"
    ".card:nth-of-type(2n){break-after:page}}"
)


class _Page:
    """The words of one language, each template filled and escaped, and the evening's
    names by entrant."""

    def __init__(self, frame: dict[str, Any], language: str) -> None:
        self.language = language if language in WORDS else "en"
        self.words = WORDS[self.language]
        self.evening = frame["evening"]
        self.names = {e["id"]: e for e in self.evening["entrants"]}

    def say(self, key: str, **values: object) -> str:
        return html.escape(self.words[key].format(**values))

    def name(self, entrant: str) -> str:
        return self.names[entrant]["name"] if entrant in self.names else entrant

    def start(self, title: str, head: str = "") -> list[str]:
        """The page's start: its title, its style, the evening's name (``head``: its class)."""
        return [
            f"<!doctype html><html lang={self.language}><meta charset=utf-8>",
            f"<title>{title}</title><style>{STYLE}</style>",
            f"<h1 class='{head}'>{html.escape(self.evening['name'])}</h1>",
        ]


def draw_html(frame: dict[str, Any], language: str = "en", origin: str | None = None) -> str:
    """The latest round's table cards: each table's number, who sits where, who partners
    whom and who deals first; with an organiser's frame its code, and its QR code (of the
    link ``origin + "/?sheet=" + code``, given the site's ``origin``) to open its score
    sheet; and who sits out."""
    page = _Page(frame, language)
    evening = page.evening
    drawn = evening["drawn"]
    number = drawn[-1]["number"] if drawn else 0
    parts = page.start(page.say("drawTitle", evening=evening["name"], round=number), "screen")
    host = urlsplit(origin).hostname if origin else None
    if host is not None and (host in LOOPBACK or host.startswith("127.")):
        parts.append(f"<p class=warn>{page.say('loopback', host=host)}</p>")
    if not drawn:
        return _end(parts, f"<p>{page.say('noRound')}</p>")
    latest = drawn[-1]
    heading = "roundClosed" if latest["closed"] else "round"
    round_ = page.say(heading, round=number, rounds=evening["rounds"])
    out = [page.name(e) for e in latest["sitting_out"]]
    said = page.say("sittingOut", names=", ".join(out)) if out else page.say("nobodyOut")
    parts.append(f"<p class=screen>{round_}</p><p>{said}</p>")
    codes = {t["table"]: t.get("code") for t in frame["tables"] if t["round"] == number}
    for table in latest["tables"]:
        parts.append(_card(page, table, round_, codes.get(table["table"]), origin))
    return _end(parts, "")


def _card(
    page: _Page, table: dict[str, Any], round_: str, code: str | None, origin: str | None
) -> str:
    seats = seat_names(page.names, table["entrants"])
    say = page.say
    compass = "".join(
        f'<div class="seat {where}"><small>{say(seat)}</small>{html.escape(name)}</div>'
        for seat, where, name in zip(SEATS, ("top", "right", "bottom", "left"), seats, strict=True)
    )
    if len(table["entrants"]) == 2:  # a pairs evening: north-south and east-west pairs
        pairs = [page.name(e) for e in table["entrants"]]
        together = [say("pairPartners", pair=pairs[i], a=seats[i], b=seats[i + 2]) for i in (0, 1)]
    else:
        together = [say("partners", a=seats[i], b=seats[i + 2]) for i in (0, 1)]
    card = [
        f"<section class=card><header><h2>{say('table', table=table['table'])}</h2>",
        f"<p>{html.escape(page.evening['name'])} &middot; {round_}</p></header>",
        f"<div><div class=compass>{compass}<div class=felt>{table['table']}</div></div>",
        f"<p class=who>{'<br>'.join(together)}<br>{say('dealsFirst', name=seats[0])}</p></div>",
    ]
    if code is not None:  # an organiser's: the code, and with the site's address its QR code
        link = f"{origin}/?sheet={code}"
        scan = qr.svg(link) if origin else ""
        said = f"<p>{say('scan', link=link)}</p>" if origin else ""
        card.append(
            f"<div class=side>{scan}<div class=code>{say('code', code=code)}</div>{said}</div>"
        )
    card.append("</section>")
    return "".join(card)


def seat_names(names: dict[str, dict[str, Any]], entrants: Sequence[str]) -> list[str]:
    """The names of seats 0 to 3 of a table: its four players, or in a pairs evening its
    north-south pair's two players and its east-west pair's, each pair's first first."""
    if len(entrants) == 2:
        ns, ew = (names[e]["members"] for e in entrants)
        return [ns[0], ew[0], ns[1], ew[1]]
    return [names[e]["name"] for e in entrants]


def results_html(frame: dict[str, Any], language: str = "en") -> str:
    """The standing with each round's points (a sit-out's, an unfinished table's and one
    with nothing entered marked), the prizes and the lowest score, the sit-outs, the points
    a sit-out scored each round, and how fair the draws were."""
    page = _Page(frame, language)
    evening, standing = page.evening, frame["standing"]
    say = page.say
    parts = page.start(say("resultsTitle", evening=evening["name"]))
    rounds = standing["rounds"]
    if not rounds:
        return _end(parts, f"<p>{say('noRound')}</p>")
    closed = [r for r in rounds if r["closed"]]
    if len(closed) == evening["rounds"]:
        parts.append(f"<h2>{say('final')}</h2>")
    else:
        latest = rounds[-1]["number"]
        parts.append(f"<h2>{say('after', round=latest, rounds=evening['rounds'])}</h2>")
    heads = [
        say("place"), say("name"), *(say("roundShort", round=r["number"]) for r in rounds),
        say("total"), say("satOutCount"), say("prize"),
    ]  # fmt: skip
    parts.append("<table><thead><tr>")
    parts += [f"<th{' class=name' if i == 1 else ''}>{h}</th>" for i, h in enumerate(heads)]
    parts.append("</tr></thead><tbody>")
    prizes = {"place": "prizePlace", "lowest": "prizeLowest"}
    for row in standing["standing"]:
        cells = [f"<td>{_round_cell(say, r)}</td>" for r in row["rounds"]]
        prize = say(prizes[row["prize"]]) if row["prize"] in prizes else ""
        parts.append(
            f'<tr class={row["prize"] or "none"} data-player="{html.escape(row["player"])}">'
            f"<td>{row['rank']}</td><td class=name>{html.escape(page.name(row['player']))}</td>"
            f"{''.join(cells)}<td>{row['total']}</td><td>{row['sat_out'] or ''}</td>"
            f"<td>{prize}</td></tr>"
        )
    parts.append("</tbody></table>")
    sit_out_points = [
        say("sitOutPoints", round=r["number"], points=r["sit_out_points"])
        for r in rounds if r["sit_out_points"] is not None and _anyone_out(standing, r)
    ]  # fmt: skip
    if sit_out_points:
        parts.append(f"<p>{'<br>'.join(sit_out_points)}</p>")
    parts.append(_fairness(page, frame["fairness"]))
    return _end(parts, "")


def _round_cell(say: Callable[..., str], cell: dict[str, Any]) -> str:
    mark = MARKS.get(cell["mark"])
    return f"{cell['points']}" + (f" <small>{say(mark)}</small>" if mark else "")


def _anyone_out(standing: dict[str, Any], round_: dict[str, Any]) -> bool:
    index = standing["rounds"].index(round_)
    return any(row["rounds"][index]["mark"] == "sat_out" for row in standing["standing"])


def _fairness(page: _Page, fairness: dict[str, Any]) -> str:
    say = page.say
    lines = [
        say("partnerRepeats", n=fairness["partner_repeats"]),
        say("opponentRepeats", n=fairness["opponent_repeats"]),
        say("spread", n=fairness["sit_out_spread"]),
    ]
    for key, word in AGAIN:
        lines += [
            say(word, a=page.name(a), b=page.name(b), n=item["rounds"])
            for item in fairness[key] for a, b in [item["players"]]
        ]  # fmt: skip
    out = [
        page.words["sitOut"].format(name=page.name(e), n=n)
        for e, n in fairness["sit_outs"].items() if n
    ]  # fmt: skip
    if out:
        lines.append(say("sitOuts", list=", ".join(out)))
    return f"<h2>{say('fairness')}</h2><p>{'<br>'.join(lines)}</p>"


def _end(parts: list[str], last: str) -> str:
    return "\n".join([*parts, last]) + "\n"
