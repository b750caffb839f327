"""The README opens with the two commands and the address to open, and its table of
settings names every setting the server reads."""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path

from server.core.config import Settings

README = (Path(__file__).resolve().parent.parent / "README.md").read_text()


def test_the_readme_opens_with_the_two_commands_and_the_address() -> None:
    opening = README[: README.index("## ")]
    assert "make serve" in opening and "make test" in opening
    assert "http://127.0.0.1:8765/" in opening


def test_the_readme_names_every_setting() -> None:
    missing = [f.name for f in fields(Settings) if f"KLAVERJAS_{f.name.upper()}" not in README]
    assert not missing, f"README.md does not name the settings {missing}"
