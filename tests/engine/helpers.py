"""Small builders shared by the engine tests."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

from engine import Deal, Match, Rules
from engine.views import view

ROOT = Path(__file__).resolve().parent.parent.parent


def klaverjas(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """Run ``klaverjas ARGS`` (``python -m commands``) from the project root."""
    return subprocess.run(
        [sys.executable, "-m", "commands", *args],
        input=stdin,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )


def snapshot(match: Match) -> str:
    """Everything observable about a match, for before/after comparisons."""
    parts = [repr(match.to_record()), repr(match.deal.hands), repr(match.totals)]
    parts += [repr(view(match, s).to_dict()) for s in (0, 1, 2, 3, None)]
    return "\n".join(parts)


def play_random(match: Match, rng: random.Random, until=lambda m: m.over) -> Match:
    """Apply random legal actions until ``until(match)``."""
    while not until(match):
        actions = match.legal_actions()
        match.apply(match.turn, actions[int(rng.random() * len(actions))])
    return match


def deal_at_trump(rules: Rules, hands: list[int], trump: int, chooser: int, dealer=0) -> Match:
    """A match whose first deal is exactly these hands, trump already named."""
    match = Match(rules, 0, first_dealer=dealer)
    match.deal = Deal.with_trump(rules, dealer, hands, trump, chooser)
    return match


def finish_deal(match: Match, rng: random.Random) -> None:
    number = match.deal_number
    play_random(match, rng, until=lambda m: m.over or m.deal_number > number)
