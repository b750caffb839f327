"""The browser client's files over plain HTTP on the websocket port."""

from __future__ import annotations

from pathlib import Path

import pytest

from server import static
from tests.server.conftest import Harness
from tests.server.test_rooms import http_get

pytestmark = pytest.mark.server

WEB = Path(static.__file__).with_name("web")


async def test_the_page_and_its_files_are_served(harness: Harness) -> None:
    status, body, kind = await http_get(harness, "/")
    assert status == 200 and kind.startswith("text/html")
    assert body == (WEB / "index.html").read_bytes()
    for path in sorted(WEB.rglob("*")):
        if path.is_file() and path.suffix in static.TYPES:
            name = path.relative_to(WEB).as_posix()
            status, body, kind = await http_get(harness, f"/web/{name}")
            assert (status, body, kind) == (200, path.read_bytes(), static.TYPES[path.suffix])


@pytest.mark.parametrize(
    "path",
    ["/web/README.md", "/web/../static.py", "/web/%2e%2e/static.py", "/web/", "/index.html"],
)
async def test_nothing_else_is_served(harness: Harness, path: str) -> None:
    status, _, _ = await http_get(harness, path)
    assert status == 404
