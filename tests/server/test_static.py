"""The browser client's files over plain HTTP on the websocket port."""

from __future__ import annotations

import pytest

from server.http import static
from tests.server.conftest import Harness

pytestmark = pytest.mark.server

WEB = static.WEB


@pytest.fixture
def database() -> str:
    """Files from the package, whatever the database: SQLite alone."""
    return "sqlite"


async def test_the_page_and_its_files_are_served(harness: Harness) -> None:
    status, body, kind = await harness.http_get("/")
    assert status == 200 and kind.startswith("text/html")
    assert body == (WEB / "index.html").read_bytes()
    for path in sorted(WEB.rglob("*")):
        if path.is_file() and path.suffix in static.TYPES:
            name = path.relative_to(WEB).as_posix()
            status, body, kind = await harness.http_get(f"/web/{name}")
            assert (status, body, kind) == (200, path.read_bytes(), static.TYPES[path.suffix])


@pytest.mark.parametrize(
    "path",
    ["/web/README.md", "/web/../static.py", "/web/%2e%2e/static.py", "/web/", "/index.html"],
)
async def test_nothing_else_is_served(harness: Harness, path: str) -> None:
    status, _, _ = await harness.http_get(path)
    assert status == 404
