"""The engine's commands: ``klaverjas selfplay`` and ``klaverjas analyze``.

They use the rules engine alone (no server), reading and writing deal records.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO

from engine import Deal, Rules, Variant
from engine.errors import KlaverjasError
from engine.playout import policy_playout, random_playout
from engine.policies import POLICIES, policy
from engine.record import analyze, deal_record

from .errors import UsageError, positive, whole


def selfplay(
    deals: int, seed: int, rules: Rules, teams: tuple[str, str], budget: int | None = None
) -> Iterator[Deal]:
    """``deals`` independent deals of ``seed``, dealer rotating: team 0 (seats 0 and 2)
    plays policy ``teams[0]``, team 1 ``teams[1]``; ``budget`` is strong's search budget."""
    rng = random.Random(seed)
    if teams == ("random", "random"):
        for number in range(deals):
            yield random_playout(Deal.shuffled(rules, seed, number, number & 3), rng)
        return
    players = [policy(teams[seat & 1], budget) for seat in range(4)]
    for number in range(deals):
        yield policy_playout(Deal.shuffled(rules, seed, number, number & 3), players, rng)


def _teams(args: argparse.Namespace) -> tuple[str, str]:
    if args.policies is None:
        return args.policy, args.policy
    names = args.policies.split(",")
    if len(names) != 2 or any(name not in POLICIES for name in names):
        raise UsageError(f"--policies takes two of {', '.join(sorted(POLICIES))}, as A,B")
    return names[0], names[1]


def cmd_selfplay(args: argparse.Namespace) -> int:
    rules = Rules(variant=Variant(args.variant))
    teams = _teams(args)
    played = selfplay(args.deals, args.seed, rules, teams, args.budget)
    if args.out:
        if args.out != "-" and not Path(args.out).parent.is_dir():
            raise UsageError(
                f"cannot write {args.out}: the folder {Path(args.out).parent} does not exist"
            )
        with _open_out(args.out) as out:
            for deal in played:
                out.write(json.dumps(deal_record(deal), separators=(",", ":")) + "\n")
        return 0
    start = time.perf_counter()
    nat = pit = roem = margin = 0
    for deal in played:
        result = deal.result
        assert result is not None
        nat += result.nat
        pit += result.pit is not None
        roem += sum(deal.roem)
        margin += result.score[0] - result.score[1]
    elapsed = time.perf_counter() - start
    n = args.deals
    print(f"deals          {args.deals}")
    print(f"deals/second   {args.deals / elapsed:,.0f}")
    print(f"nat            {100 * nat / n:.1f}%")
    print(f"pit            {100 * pit / n:.1f}%")
    print(f"average roem   {roem / n:.1f}")
    if teams[0] != teams[1]:
        print(f"{teams[0]} - {teams[1]}  {margin / n:+.1f} points a deal")
    return 0


def cmd_analyze(args: argparse.Namespace) -> int:
    failed = False
    if args.file is None and sys.stdin.isatty():
        raise UsageError(
            "give a file of deal records (one JSON object a line), or - for standard input"
        )
    if args.file in (None, "-"):
        source = sys.stdin
    else:
        try:
            source = open(args.file, encoding="utf-8")  # noqa: SIM115
        except OSError as err:
            raise UsageError(f"cannot read {args.file}: {err.strerror.lower()}") from None
    with source:
        try:
            for answer in analyze_lines(source, args.solve):
                failed |= "error" in answer
                print(json.dumps(answer, separators=(",", ":")), flush=False)
        except UnicodeDecodeError:
            name = "standard input" if args.file in (None, "-") else args.file
            raise UsageError(f"cannot read {name}: it is not text (UTF-8)") from None
    return 1 if failed else 0


def analyze_lines(lines: Iterable[str], solve: bool = False) -> Iterator[dict]:
    """One answer per non-blank line: the analysis (with the solver's review of every
    decision when ``solve``), or ``{"error": {...}}``."""
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            yield analyze(json.loads(line), solve)
        except json.JSONDecodeError as err:
            yield {"error": {"line": number, "reason": f"malformed JSON: {err.msg}"}}
        except KlaverjasError as err:
            yield {"error": {"line": number, "reason": str(err)}}


class _open_out:
    """``-`` is standard output (left open); anything else a file."""

    def __init__(self, path: str) -> None:
        self.path = path

    def __enter__(self) -> IO[str]:
        if self.path == "-":
            self.file = sys.stdout
            return self.file
        try:
            self.file = open(self.path, "w", encoding="utf-8")
        except OSError as err:  # a folder, a file we may not write, ...
            raise UsageError(f"cannot write {self.path}: {err.strerror.lower()}") from None
        return self.file

    def __exit__(self, *exc: object) -> None:
        if self.file is not sys.stdout:
            self.file.close()
        else:
            self.file.flush()


def add_commands(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "selfplay", help="play deals with CPU players in all four seats",
        description="Play deals with CPU players in all four seats and print how they went "
        "(or write each deal's record).",
    )  # fmt: skip
    p.add_argument("--deals", type=positive, required=True, help="how many deals to play")
    p.add_argument(
        "--seed", type=whole, required=True, help="the deals' seed: the same seed, the same deals"
    )
    p.add_argument(
        "--variant", choices=[v.value for v in Variant], default="amsterdam",
        help="the rules of trumping (default amsterdam)",
    )  # fmt: skip
    p.add_argument(
        "--policy", choices=sorted(POLICIES), default="random",
        help="the CPU player in every seat (default random)",
    )  # fmt: skip
    p.add_argument("--policies", metavar="A,B", help="team 0 (seats 0, 2) plays A, team 1 B")
    p.add_argument(
        "--budget", type=positive, help="strong's budget: thousands of solver nodes a decision"
    )
    p.add_argument(
        "--out",
        metavar="FILE",
        help="write one JSON record per deal to FILE, or - for standard output",
    )
    p.set_defaults(func=cmd_selfplay)

    p = sub.add_parser(
        "analyze", help="replay deal records: legal sets, tricks, result",
        description="Replay deal records (one JSON object a line, as selfplay --out writes "
        "them): each play's legal choices, the tricks and the result, or what is wrong.",
    )  # fmt: skip
    p.add_argument("file", nargs="?", help="the records, or - for standard input")
    p.add_argument(
        "--solve",
        action="store_true",
        help="add each decision's exact open-card value and the points it lost (solver)",
    )
    p.set_defaults(func=cmd_analyze)
