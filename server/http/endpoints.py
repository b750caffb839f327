"""The HTTP side of the server's port: health, metrics, the rule catalog, finished match
records, the rating board and profiles, score sheets, a club evening's printable pages, QR
codes, what an invite code opens, the actors this process runs, the browser client's files,
and the features' own reads (their :class:`~server.runtime.features.Route`, by path).

Read-only JSON; a bad query gets 400 with ``{"error": code, "message": ...}``.  A request
may carry a player's token (``Authorization: Bearer <token>``) to be answered as that
player sees it."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from http import HTTPStatus
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl, urlsplit

from websockets.asyncio.server import ServerConnection
from websockets.datastructures import Headers
from websockets.http11 import Request, Response

from ..club import print as evening_print
from ..core import qr
from ..core.errors import Refused
from ..core.ids import hash_token
from ..core.metrics import Metrics
from ..edge.limits import FailedAttempts, client_address
from ..runtime.features import Query, Reveals, Route
from ..runtime.router import ROOM, SHEET, TOURNAMENT, Router
from ..scoresheet import export
from ..wire.protocol import BOARD_PAGE, ProtocolError
from . import static
from .catalog import describe

if TYPE_CHECKING:
    from ..club.clubs import Clubs
    from ..club.evenings import Evenings
    from ..lobby.invites import Invites
    from ..players.service import Players
    from ..scoresheet.sheets import Sheets
    from ..store.identities import IdentityStore
    from ..store.rooms import RoomStore

PUBLIC_PLAYERS = "public, max-age=30"  # the rating board and profiles
# A QR code is the same for the same text, but its text may be a link with a secret code.
QR_CACHE = "private, max-age=86400, immutable"
EVENING_PAGES = ("draw", "results")  # /evenings/<code>/print/<page>
HOST = re.compile(r"(?:[A-Za-z0-9.-]{1,253}|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?")


class Endpoints:
    def __init__(
        self, router: Router, metrics: Metrics, store: RoomStore, identities: IdentityStore,
        reveals: Reveals, players: Players, sheets: Sheets, evenings: Evenings, invites: Invites,
        attempts: FailedAttempts, node: str | None, routes: Sequence[Route] = (),
        origins: frozenset[str] = frozenset(), trust_forwarded: bool = False,
        clubs: Clubs | None = None,
    ) -> None:  # fmt: skip
        self.router = router
        self.metrics = metrics
        self.store = store  # the records of finished matches
        self.identities = identities
        self.reveals = reveals  # records not shown yet
        self.players = players
        self.sheets = sheets
        self.evenings = evenings
        self.invites = invites
        self.routes = {route.path: route for route in routes}  # the features' reads
        self.attempts = attempts  # wrong sheet and evening codes count as over the websocket
        self.trust_forwarded = trust_forwarded
        self.clubs = clubs  # a season's CSV
        self.node = node
        self.origins = origins  # the pages allowed to open a websocket (none: our own)
        self.files = static.load()  # the browser client
        self.rules = json.dumps(describe()).encode()

    async def __call__(self, connection: ServerConnection, request: Request) -> Response | None:
        path = request.path.split("?")[0]
        if request.headers.get("Upgrade", "").lower() == "websocket":
            return self._origin_refused(request)
        if path == "/healthz":
            return response(HTTPStatus.OK, b"ok\n", "text/plain")
        if path == "/metrics":
            return response(HTTPStatus.OK, self.metrics.render(), "text/plain; version=0.0.4")
        if path == "/rules":
            return response(HTTPStatus.OK, self.rules, "application/json", cache="no-cache")
        if path == "/cluster":
            body = {
                "node": self.node,
                "rooms": sorted(a.key for a in self.router.held(ROOM)),
                "tournaments": sorted(a.key for a in self.router.held(TOURNAMENT)),
                "sheets": sorted(a.key for a in self.router.held(SHEET)),
            }
            return response(HTTPStatus.OK, json.dumps(body).encode(), "application/json")
        if path == "/qr.svg":
            return self.qr(request.path)
        if path in self.files:
            body, kind = self.files[path]
            return response(HTTPStatus.OK, body, kind, cache="no-cache", policy=PAGE_POLICY)
        if path.startswith("/matches/"):
            record = await self.store.match(path.removeprefix("/matches/"))
            if record is None:
                return response(HTTPStatus.NOT_FOUND, b"no such match\n", "text/plain")
            if self.reveals.hidden(record):
                return refusal(HTTPStatus.FORBIDDEN, "daily_not_over", "shown once its day is over")
            return response(HTTPStatus.OK, json.dumps(record).encode(), "application/json")
        if (route := self.routes.get(path)) is not None:
            try:
                return await self.read(route, request)
            except Refused as err:
                status = HTTPStatus(route.statuses.get(err.code, HTTPStatus.BAD_REQUEST))
                return refusal(status, err.code, err.message)
        if path == "/leaderboard/rating" or path.startswith("/players/"):
            try:
                return await self.player_pages(path, request)
            except Refused as err:
                status = HTTPStatus.NOT_FOUND if err.code == "no_such_player" else 400
                return refusal(HTTPStatus(status), err.code, err.message)
        if path.startswith("/clubs/") and path.endswith("/season.csv") and self.clubs:
            address = client_address(connection, self.trust_forwarded)
            code = path.removeprefix("/clubs/").removesuffix("/season.csv")
            return await self.season_export(self.clubs, code, address)
        if path.startswith("/sheets/"):
            address = client_address(connection, self.trust_forwarded)
            return await self.sheet_export(path.removeprefix("/sheets/"), address, request.path)
        if path.startswith("/invites/"):
            address = client_address(connection, self.trust_forwarded)
            return await self.invite(path.removeprefix("/invites/"), address)
        if path.startswith("/evenings/"):
            address = client_address(connection, self.trust_forwarded)
            return await self.evening_page(path.removeprefix("/evenings/"), address, request)
        return response(HTTPStatus.NOT_FOUND, b"not found\n", "text/plain")

    def _origin_refused(self, request: Request) -> Response | None:
        """A websocket from a page of another site is refused unless ``allowed_origins``
        names it (a page of ours sends the server's own origin; a client that is no page,
        none)."""
        origin = request.headers.get("Origin")
        if origin is None:
            return None
        if origin in self.origins or urlsplit(origin).netloc == request.headers.get("Host", ""):
            return None
        return response(HTTPStatus.FORBIDDEN, b"this origin may not connect\n", "text/plain")

    async def sheet_export(self, rest: str, address: str, target: str) -> Response:
        """``<code>.csv`` (every deal) or ``<code>/print[?lang=xx]`` (a page to print, in the
        page's language) of a score sheet, by either of its codes; never cached (the code is a
        secret, the sheet goes on).  A wrong code counts toward ``address``'s wrong attempts,
        as over the websocket."""
        if rest.endswith(".csv"):
            code, kind = rest.removesuffix(".csv"), "csv"
        else:
            code, kind = rest.removesuffix("/print"), "print" if rest.endswith("/print") else ""
        if not kind or not 4 <= len(code) <= 32:
            return response(HTTPStatus.NOT_FOUND, b"not found\n", "text/plain")
        try:
            language = _query(target, {"lang"} if kind == "print" else set()).get("lang", "en")
        except Refused as err:
            return refusal(HTTPStatus.BAD_REQUEST, err.code, err.message)
        try:
            sheet = await self.attempts.coded(address, self.sheets.read(code))
        except Refused as err:
            return _code_refused(err)
        if kind == "csv":
            body = export.to_csv(sheet).encode()
            return response(HTTPStatus.OK, body, "text/csv; charset=utf-8", cache="no-store")
        body = export.to_html(sheet, language).encode()
        return response(
            HTTPStatus.OK, body, "text/html; charset=utf-8", cache="no-store", policy=PRINT_POLICY
        )

    async def season_export(self, clubs: Clubs, code: str, address: str) -> Response:
        """A club's season standing as CSV, by either kind of its codes; never cached.  A
        wrong code counts toward ``address``'s wrong attempts, as over the websocket."""
        if not 4 <= len(code) <= 32:
            return response(HTTPStatus.NOT_FOUND, b"not found\n", "text/plain")
        try:
            body = (await self.attempts.coded(address, clubs.season_csv(code))).encode()
        except Refused as err:
            return _code_refused(err)
        return response(HTTPStatus.OK, body, "text/csv; charset=utf-8", cache="no-store")

    async def invite(self, code: str, address: str) -> Response:
        """What an invite code opens (for the page of someone who has not said hello yet):
        never cached (the code is a secret, the table changes); a wrong code counts toward
        ``address``'s wrong attempts, as over the websocket."""
        if not 4 <= len(code) <= 32:
            return response(HTTPStatus.NOT_FOUND, b"not found\n", "text/plain")
        try:
            room_id = await self.attempts.coded(address, self.invites.room_of(code))
            body = self.invites.describe(room_id)
        except Refused as err:
            return _code_refused(err)
        return response(HTTPStatus.OK, _json(body), "application/json", cache="no-store")

    def qr(self, target: str) -> Response:
        """``/qr.svg?text=...``: the text's QR code, at most :data:`qr.MAX_TEXT` characters
        (the wall screen's links to the tables' sheets)."""
        try:
            text = _query(target, {"text"}).get("text", "")
            if not 1 <= len(text) <= qr.MAX_TEXT:
                raise ProtocolError("invalid_field", f"text: 1 to {qr.MAX_TEXT} characters")
        except Refused as err:
            return refusal(HTTPStatus.BAD_REQUEST, err.code, err.message)
        return response(HTTPStatus.OK, qr.svg(text).encode(), "image/svg+xml", cache=QR_CACHE)

    async def evening_page(self, rest: str, address: str, request: Request) -> Response:
        """``<code>/print/draw`` or ``<code>/print/results`` ``[?lang=xx]``: a club evening's
        table cards or its results as a page to print, in the page's language, by either of
        its codes (the tables' codes with the organiser code alone); never cached.  A wrong
        code counts toward ``address``'s wrong attempts, as over the websocket."""
        code, _, page = rest.partition("/print/")
        if page not in EVENING_PAGES or not 4 <= len(code) <= 32:
            return response(HTTPStatus.NOT_FOUND, b"not found\n", "text/plain")
        try:
            language = _query(request.path, {"lang"}).get("lang", "en")
        except Refused as err:
            return refusal(HTTPStatus.BAD_REQUEST, err.code, err.message)
        try:
            frame = await self.attempts.coded(address, self.evenings.read(code))
        except Refused as err:
            return _code_refused(err)
        if page == "draw":
            body = evening_print.draw_html(frame, language, self._origin(request))
        else:
            body = evening_print.results_html(frame, language)
        return response(
            HTTPStatus.OK, body.encode(), "text/html; charset=utf-8", cache="no-store",
            policy=PRINT_POLICY,
        )  # fmt: skip

    def _origin(self, request: Request) -> str | None:
        """The site as the request reached it (its ``Host``; ``https`` when a proxy this
        server trusts says so), for the links a printed page holds; None for a strange one."""
        host = request.headers.get("Host", "")
        if not HOST.fullmatch(host):
            return None
        secure = self.trust_forwarded and request.headers.get("X-Forwarded-Proto") == "https"
        return f"{'https' if secure else 'http'}://{host}"

    async def player_pages(self, path: str, request: Request) -> Response:
        """The rating board (the token's own row with a token) and a player's profile (with
        the token of that player, as its player sees it)."""
        query = _query(request.path, {"offset", "limit"})
        offset = _number(query, "offset", 0, 0, 1_000_000)
        limit = _number(query, "limit", 20, 1, BOARD_PAGE)
        if path == "/leaderboard/rating":
            viewer = await self._viewer(request)
            body = await self.players.board(viewer, offset, limit)
            cache = PUBLIC_PLAYERS if viewer is None else "private, max-age=30"
            return response(HTTPStatus.OK, _json(body), "application/json", cache=cache)
        player_id = path.removeprefix("/players/")
        if not 1 <= len(player_id) <= 40:
            raise ProtocolError("no_such_player", "no such player")
        viewer = await self._viewer(request)
        body = await self.players.profile(player_id, offset, limit, viewer)
        cache = PUBLIC_PLAYERS if viewer is None else "private, max-age=30"
        return response(HTTPStatus.OK, _json(body), "application/json", cache=cache)

    async def read(self, route: Route, request: Request) -> Response:
        """A feature's read: its query checked (its own parameters, a page), then answered."""
        query = _query(request.path, {"offset", "limit", *route.params})
        offset = _number(query, "offset", 0, 0, 1_000_000)
        limit = _number(query, "limit", 20, 1, BOARD_PAGE)
        own = {name: value for name, value in query.items() if name in route.params}
        answer = await route.read(Query(own, offset, limit, lambda: self._viewer(request)))
        return response(HTTPStatus.OK, _json(answer.body), "application/json", cache=answer.cache)

    async def _viewer(self, request: Request) -> str | None:
        """The player whose token the request carries, if any (a wrong one is refused)."""
        auth = request.headers.get("Authorization")
        if auth is None:
            return None
        kind, _, token = auth.partition(" ")
        if kind.lower() != "bearer" or not 16 <= len(token) <= 128:
            raise ProtocolError("bad_token", "Authorization: Bearer <your token>")
        player = await self.identities.player_by_token_hash(hash_token(token))
        if player is None:
            raise ProtocolError("bad_token", "unknown token")
        return player.id


def _query(target: str, known: set[str]) -> dict[str, str]:
    """A request's query parameters: each known one at most once, no others."""
    pairs = parse_qsl(urlsplit(target).query, keep_blank_values=True)
    query: dict[str, str] = {}
    for name, value in pairs:
        if name not in known:
            raise ProtocolError("invalid_field", f"unknown parameter {name[:32]!r}")
        if name in query:
            raise ProtocolError("invalid_field", f"{name}: given twice")
        query[name] = value
    return query


def _number(query: dict[str, str], name: str, default: int, least: int, most: int) -> int:
    text = query.get(name)
    if text is None:
        return default
    if not text.isdigit() or not least <= int(text) <= most:
        raise ProtocolError("invalid_field", f"{name}: a whole number from {least} to {most}")
    return int(text)


def _json(body: dict[str, Any]) -> bytes:
    return json.dumps(body, separators=(",", ":")).encode()


def refusal(status: HTTPStatus, code: str, message: str) -> Response:
    body = _json({"error": code, "message": message})
    return response(status, body, "application/json", cache="no-store")


def _code_refused(err: Refused) -> Response:
    """A secret code's refusal: 429 from an address out of attempts, else 404."""
    tired = err.code == "too_many_attempts"
    status = HTTPStatus.TOO_MANY_REQUESTS if tired else HTTPStatus.NOT_FOUND
    return refusal(status, err.code, err.message)


# The page's own scripts and styles only (no inline script, nothing from elsewhere), its
# websocket back to where it came from; anything else a document at all: nothing.
PAGE_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
PRINT_POLICY = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'"
NO_DOCUMENT = "default-src 'none'; frame-ancestors 'none'"


def response(
    status: HTTPStatus, body: bytes, kind: str, cache: str | None = None,
    policy: str = NO_DOCUMENT,
) -> Response:  # fmt: skip
    """A reply with the headers every reply carries: its type not to be guessed, no referrer
    (a page's address may hold an invite or sheet code), and its Content-Security-Policy."""
    headers = Headers([
        ("Content-Type", kind), ("Content-Length", str(len(body))),
        ("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "no-referrer"),
        ("Content-Security-Policy", policy),
    ])  # fmt: skip
    if cache is not None:
        headers["Cache-Control"] = cache
    return Response(status.value, status.phrase, headers, body)
