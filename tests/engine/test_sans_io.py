"""engine/ stays sans-I/O: no asyncio, sockets, wire models, logging, databases or clock."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

pytestmark = pytest.mark.engine

ENGINE = Path(__file__).resolve().parents[2] / "engine"
FORBIDDEN = {
    "asyncio", "websockets", "pydantic", "structlog", "asyncpg", "redis", "sqlite3",
    "aiosqlite", "time", "datetime", "socket", "logging", "threading", "subprocess",
    "selectors", "ssl", "http", "urllib", "os", "sys", "io", "pathlib",
}  # fmt: skip


def _imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_engine_imports_no_io_or_clock() -> None:
    files = sorted(ENGINE.rglob("*.py"))
    assert len(files) > 5
    bad = {str(f.relative_to(ENGINE)): _imports(f) & FORBIDDEN for f in files}
    assert {f: names for f, names in bad.items() if names} == {}


def test_the_check_catches_a_forbidden_import(tmp_path: Path) -> None:
    sample = tmp_path / "x.py"
    sample.write_text("import asyncio\nfrom time import monotonic\n")
    assert _imports(sample) & FORBIDDEN == {"asyncio", "time"}
