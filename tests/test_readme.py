"""The README opens with the two commands and the address to open; its settings tables
name every setting the server reads, with its default; and what the README,
``docs/performance.md`` and ``bench/README.md`` tell a reader to run or open exists."""

from __future__ import annotations

import re
import shlex
from dataclasses import MISSING, fields
from pathlib import Path

import pytest

from commands import build_parser
from server.core.config import Settings

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()
NAMES = ("README.md", "docs/performance.md", "bench/README.md")
DOCS = {name: (ROOT / name).read_text() for name in NAMES}
TOP = ("engine", "server", "client", "commands", "bench", "tests", "deploy", "docs", ".ci")
FILES = ("Makefile", "Dockerfile", "docker-compose.yml", "pyproject.toml", "client_protocol.md")


def settings_rows() -> dict[str, str]:
    """Each setting a README table row names, and the row's default cell."""
    rows = {}
    for line in README.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if not line.startswith("| `KLAVERJAS_") or len(cells) < 3:
            continue
        names = re.findall(r"`KLAVERJAS_([A-Z_]+)`", cells[0])
        values = re.findall(r"`([^`]*)`", cells[1])
        for i, name in enumerate(names):
            rows[name.lower()] = values[i] if len(values) == len(names) else ""
    return rows


def code_lines(text: str) -> list[str]:
    """The lines of the text's shell blocks, comments dropped."""
    blocks = re.findall(r"```(?:sh)?\n(.*?)```", text, re.S)
    lines = (line.split(" #")[0].strip() for block in blocks for line in block.splitlines())
    return [line for line in lines if line]


def test_the_readme_opens_with_the_two_commands_and_the_address() -> None:
    opening = README[: README.index("## ")]
    assert "make serve" in opening and "make test" in opening
    assert "http://127.0.0.1:8765/" in opening


def test_the_settings_tables_name_every_setting_and_nothing_else() -> None:
    named = settings_rows()
    missing = [f.name for f in fields(Settings) if f.name not in named]
    assert not missing, f"README.md's settings tables lack {missing}"
    unknown = set(named) - {f.name for f in fields(Settings)}
    assert not unknown, f"README.md's settings tables name settings that do not exist: {unknown}"


def test_the_settings_tables_give_each_default() -> None:
    """Where a row gives a setting's default as a value, it is the one the server uses."""
    wrong = []
    for f in fields(Settings):
        shown = settings_rows().get(f.name, "")
        if not shown or f.default is MISSING or f.default is None:
            continue
        if isinstance(f.default, bool):
            ok = shown == str(int(f.default))
        elif isinstance(f.default, int | float):
            ok = float(shown) == f.default
        else:
            ok = shown == f.default
        if not ok:
            wrong.append(f"KLAVERJAS_{f.name.upper()}: README {shown!r}, server {f.default!r}")
    assert not wrong, wrong


@pytest.mark.parametrize("name", DOCS)
def test_every_path_named_exists(name: str) -> None:
    """A path in backquotes (`server/edge/`, `bench/load.py`) is one of the repository's."""
    top = "|".join(map(re.escape, TOP))
    named = set(re.findall(rf"`((?:{top})/[\w./-]*)`", DOCS[name]))
    named |= {f for f in FILES if f"`{f}`" in DOCS[name]}
    missing = sorted(path for path in named if not (ROOT / path).exists())
    assert not missing, f"{name} names paths that do not exist: {missing}"


@pytest.mark.parametrize("name", DOCS)
def test_every_command_shown_exists(name: str) -> None:
    """`make X` is a target of the Makefile; a `klaverjas` line in a shell block parses;
    a bench run names a bench file and only flags that bench has."""
    text = DOCS[name]
    target = r"[a-z]+(?:-[a-z]+)*"  # serve, trump-model
    targets = set(re.findall(rf"^({target}):", (ROOT / "Makefile").read_text(), re.M))
    made = set(re.findall(rf"(?:`|^)make ({target})\b", text, re.M))
    assert made <= targets, f"{name} shows make targets that do not exist: {made - targets}"
    runs = [line for line in code_lines(text) if re.search(r"\bklaverjas \w", line)]
    for line in runs:
        words = shlex.split(line.rstrip("&").split("klaverjas ", 1)[1])
        try:
            build_parser().parse_args(words)
        except SystemExit:
            pytest.fail(f"{name} shows a klaverjas command that does not parse: {line}")
    shown = re.findall(r"bench/([a-z_]+)\.py((?: [^`\n]*)?)", text)
    shown += re.findall(r"^\| `([a-z_]+)\.py` \|(.*)$", text, re.M)  # bench/README.md's tables
    for bench, flags in shown:
        path = ROOT / "bench" / f"{bench}.py"
        assert path.is_file(), f"{name} runs bench/{bench}.py, which does not exist"
        source = path.read_text()
        asked = re.findall(r"(?<![\w-])--[a-z][\w-]*", flags)
        unknown = [flag for flag in asked if f'"{flag}"' not in source]
        assert not unknown, f"{name}: bench/{bench}.py has no flags {unknown}"
