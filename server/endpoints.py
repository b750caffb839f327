"""The HTTP side of the server's port: health, metrics, the rule catalog, finished match
records, the actors this process runs, and the browser client's files."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from http import HTTPStatus
from typing import Any

from websockets.asyncio.server import ServerConnection
from websockets.datastructures import Headers
from websockets.http11 import Request, Response

from . import static
from .catalog import describe
from .metrics import Metrics
from .router import ROOM, TOURNAMENT, Router

Records = Callable[[str], Awaitable[dict[str, Any] | None]]


class Endpoints:
    def __init__(self, router: Router, metrics: Metrics, records: Records, node: str | None):
        self.router = router
        self.metrics = metrics
        self.records = records
        self.node = node
        self.files = static.load()  # the browser client
        self.rules = json.dumps(describe()).encode()

    async def __call__(self, connection: ServerConnection, request: Request) -> Response | None:
        path = request.path.split("?")[0]
        if request.headers.get("Upgrade", "").lower() == "websocket":
            return None
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
            }
            return response(HTTPStatus.OK, json.dumps(body).encode(), "application/json")
        if path in self.files:
            body, kind = self.files[path]
            return response(HTTPStatus.OK, body, kind, cache="no-cache")
        if path.startswith("/matches/"):
            record = await self.records(path.removeprefix("/matches/"))
            if record is None:
                return response(HTTPStatus.NOT_FOUND, b"no such match\n", "text/plain")
            return response(HTTPStatus.OK, json.dumps(record).encode(), "application/json")
        return response(HTTPStatus.NOT_FOUND, b"not found\n", "text/plain")


def response(status: HTTPStatus, body: bytes, kind: str, cache: str | None = None) -> Response:
    headers = Headers([("Content-Type", kind), ("Content-Length", str(len(body)))])
    if cache is not None:
        headers["Cache-Control"] = cache
    return Response(status.value, status.phrase, headers, body)
