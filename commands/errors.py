"""What a command says when its user asked for something it cannot do."""

from __future__ import annotations

import argparse


class UsageError(Exception):
    """A bad value, a missing file, a start in the past: said in one line, exit code 2."""


def positive(text: str) -> int:
    """An ``argparse`` type: a whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def whole(text: str) -> int:
    """An ``argparse`` type: any whole number (a seed)."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None


def port(text: str) -> int:
    """An ``argparse`` type: a TCP port (0: any free one)."""
    value = whole(text)
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 0 to 65535, not {value}")
    return value
