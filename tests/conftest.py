"""Shared test settings: where the hand-checked rule cases live."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parent.parent
RULES_DIR = Path(os.environ.get("KLAVERJAS_RULES_DIR", ROOT.parent / "shared" / "rules"))

settings.register_profile(
    "default", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("ci", max_examples=120, deadline=None, derandomize=True)
settings.load_profile("ci" if os.environ.get("CI") == "true" else "default")


def load_cases(name: str) -> list[dict]:
    """A shared rule-case file; missing files fail the suite (they are required input)."""
    path = RULES_DIR / name
    if not path.is_file():
        pytest.fail(f"shared rule cases not found at {path} (set KLAVERJAS_RULES_DIR)")
    return json.loads(path.read_text())
