"""The browser client's files (``server/web``), served at ``/`` and ``/web/<name>``, and
the club evening's wall screen at ``/wall``.

Read once at start-up into memory: a fixed set of names, so no request can reach any
other file.
"""

from __future__ import annotations

from pathlib import Path

WEB = Path(__file__).parents[1] / "web"
TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".json": "application/json",
}


def load(root: Path = WEB) -> dict[str, tuple[bytes, str]]:
    """URL path -> (body, content type) for every servable file under ``root``."""
    files: dict[str, tuple[bytes, str]] = {}
    for path in sorted(root.rglob("*")):
        kind = TYPES.get(path.suffix)
        if path.is_file() and kind is not None:
            files["/web/" + path.relative_to(root).as_posix()] = (path.read_bytes(), kind)
    if "/web/index.html" in files:
        files["/"] = files["/web/index.html"]
    if "/web/wall.html" in files:  # a club evening's screen on the wall
        files["/wall"] = files["/web/wall.html"]
    return files
