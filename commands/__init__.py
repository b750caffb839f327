"""The ``klaverjas`` command: the engine's commands (:mod:`.engine`: ``selfplay``,
``analyze``) and the server's (:mod:`.server`: ``serve``, ``tournament schedule``,
``protocol-schema``)."""

from __future__ import annotations

import argparse
from typing import NoReturn

from . import bid_model, engine, server, trump_model
from .errors import UsageError

DESCRIPTION = (
    "Klaverjas, the Dutch card game: a real-time multiplayer server and its rules engine. "
    "Run `klaverjas serve` and open http://127.0.0.1:8765/ in a browser."
)


class Parser(argparse.ArgumentParser):
    """Says a mistake in the command line in one line (and points at ``--help``)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="klaverjas", description=DESCRIPTION)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    engine.add_commands(sub)
    server.add_commands(sub)
    trump_model.add_commands(sub)
    bid_model.add_commands(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run a command: 0 on success; a mistake of the user's (a bad value, a missing file)
    is one line on standard error and exit code 2, never a traceback."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except BrokenPipeError:
        return 0
    except UsageError as err:
        command = " ".join(filter(None, (args.command, getattr(args, "action", None))))
        parser.exit(2, f"klaverjas {command}: error: {err}\n")


__all__ = ["build_parser", "main"]
