"""The ``klaverjas`` command: ``selfplay``, ``analyze`` (and the server commands)."""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Iterable, Iterator
from typing import IO

from engine import Deal, Rules, Variant
from engine.errors import KlaverjasError
from engine.playout import policy_playout, random_playout
from engine.policies import POLICIES, policy
from engine.record import analyze, deal_record


def selfplay(deals: int, seed: int, rules: Rules, policy_name: str) -> Iterator[Deal]:
    """``deals`` independent deals of ``seed``, dealer rotating, one policy in every seat."""
    rng = random.Random(seed)
    if policy_name == "random":
        for number in range(deals):
            yield random_playout(Deal.shuffled(rules, seed, number, number & 3), rng)
        return
    players = [policy(policy_name) for _ in range(4)]
    for number in range(deals):
        yield policy_playout(Deal.shuffled(rules, seed, number, number & 3), players, rng)


def cmd_selfplay(args: argparse.Namespace) -> int:
    rules = Rules(variant=Variant(args.variant))
    played = selfplay(args.deals, args.seed, rules, args.policy)
    if args.out:
        with _open_out(args.out) as out:
            for deal in played:
                out.write(json.dumps(deal_record(deal), separators=(",", ":")) + "\n")
        return 0
    start = time.perf_counter()
    nat = pit = roem = 0
    for deal in played:
        result = deal.result
        assert result is not None
        nat += result.nat
        pit += result.pit is not None
        roem += sum(deal.roem)
    elapsed = time.perf_counter() - start
    n = max(args.deals, 1)
    print(f"deals          {args.deals}")
    print(f"deals/second   {args.deals / elapsed:,.0f}")
    print(f"nat            {100 * nat / n:.1f}%")
    print(f"pit            {100 * pit / n:.1f}%")
    print(f"average roem   {roem / n:.1f}")
    return 0


def cmd_analyze(args: argparse.Namespace) -> int:
    failed = False
    source = sys.stdin if args.file == "-" else open(args.file, encoding="utf-8")  # noqa: SIM115
    with source:
        for answer in analyze_lines(source):
            failed |= "error" in answer
            print(json.dumps(answer, separators=(",", ":")), flush=False)
    return 1 if failed else 0


def analyze_lines(lines: Iterable[str]) -> Iterator[dict]:
    """One answer per non-blank line: the analysis, or ``{"error": {...}}``."""
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            yield analyze(json.loads(line))
        except json.JSONDecodeError as err:
            yield {"error": {"line": number, "reason": f"malformed JSON: {err.msg}"}}
        except KlaverjasError as err:
            yield {"error": {"line": number, "reason": str(err)}}


class _open_out:
    """``-`` is standard output (left open); anything else a file."""

    def __init__(self, path: str) -> None:
        self.path = path

    def __enter__(self) -> IO[str]:
        self.file = sys.stdout if self.path == "-" else open(self.path, "w", encoding="utf-8")
        return self.file

    def __exit__(self, *exc: object) -> None:
        if self.file is not sys.stdout:
            self.file.close()
        else:
            self.file.flush()


def cmd_serve(args: argparse.Namespace) -> int:
    import asyncio
    import gc
    import signal

    from .app import Server
    from .config import Settings
    from .logs import configure

    settings = Settings.from_env(host=args.host, port=args.port, db=args.db)
    configure(settings.log_level)

    async def run() -> None:
        server = Server(settings)
        await server.start()
        # Freeze what start-up built.  Every collection walks thousands of in-flight
        # futures and coroutines (one set per connection), so its pause grows with the
        # young generation: small young collections keep each pause to a few ms, and the
        # old generations are collected rarely (bench/load.py: p99 at 1,000 tables).
        gc.collect()
        gc.freeze()
        gc.set_threshold(2_000, 100, 1_000)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)
        print(f"klaverjas serving on ws://{settings.host}:{server.port}/", flush=True)
        await stop.wait()
        await server.stop()

    asyncio.run(run())
    return 0


def cmd_tournament_schedule(args: argparse.Namespace) -> int:
    import asyncio
    import time

    from .config import Settings
    from .store.factory import open_store
    from .tournament.schedule import new_tournament, parse_time

    settings = Settings.from_env(db=args.db)

    async def run() -> str:
        store = open_store(settings)
        await store.open()
        try:
            tid, _ = await new_tournament(
                store, args.format, parse_time(args.at), args.fill_with_cpu, False, args.repeat,
                time.time(),
            )  # fmt: skip
        finally:
            await store.close()
        return tid

    print(asyncio.run(run()))
    return 0


def cmd_protocol_schema(args: argparse.Namespace) -> int:
    from .protocol import json_schema

    print(json.dumps(json_schema(), indent=2))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="klaverjas", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("selfplay", help="play deals with a CPU policy in all four seats")
    p.add_argument("--deals", type=int, required=True)
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--variant", choices=[v.value for v in Variant], default="amsterdam")
    p.add_argument("--policy", choices=sorted(POLICIES), default="random")
    p.add_argument("--out", help="write one JSON record per deal to FILE, or - for stdout")
    p.set_defaults(func=cmd_selfplay)

    p = sub.add_parser("analyze", help="replay deal records: legal sets, tricks, result")
    p.add_argument("file", nargs="?", default="-")
    p.set_defaults(func=cmd_analyze)

    p = sub.add_parser("serve", help="run the server (SQLite and one process by default)")
    p.add_argument("--host", help="address to listen on (KLAVERJAS_HOST, default 127.0.0.1)")
    p.add_argument("--port", type=int, help="port (KLAVERJAS_PORT, default 8765)")
    p.add_argument("--db", help="SQLite file (KLAVERJAS_DB, default klaverjas.sqlite3)")
    p.set_defaults(func=cmd_serve)

    p = sub.add_parser("tournament", help="tournaments")
    tsub = p.add_subparsers(dest="action", required=True)
    t = tsub.add_parser("schedule", help="schedule a tournament (a running server picks it up)")
    t.add_argument("--format", choices=["classic", "quick"], required=True)
    t.add_argument("--at", required=True, help="start time, ISO 8601 (no zone: UTC)")
    t.add_argument("--repeat", choices=["daily", "hourly"])
    t.add_argument("--fill-with-cpu", action="store_true", help="CPUs fill empty places")
    t.add_argument("--db", help="SQLite file (KLAVERJAS_DB)")
    t.set_defaults(func=cmd_tournament_schedule)

    p = sub.add_parser("protocol-schema", help="print the JSON Schema of the wire protocol")
    p.set_defaults(func=cmd_protocol_schema)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
