"""The ``klaverjas`` command: the engine's commands (:mod:`.engine`: ``selfplay``,
``analyze``) and the server's (:mod:`.server`: ``serve``, ``tournament schedule``,
``protocol-schema``)."""

from __future__ import annotations

import argparse

from . import engine, server


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="klaverjas", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    engine.add_commands(sub)
    server.add_commands(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except BrokenPipeError:
        return 0


__all__ = ["build_parser", "main"]
