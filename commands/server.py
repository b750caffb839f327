"""The server's commands: ``klaverjas serve``, ``klaverjas tournament schedule`` and
``klaverjas protocol-schema``.  The server is imported only when a command runs."""

from __future__ import annotations

import argparse
import json

from server.tournament.state import FORMATS, REPEATS


def cmd_serve(args: argparse.Namespace) -> int:
    import asyncio
    import gc
    import signal

    from server.app import Server
    from server.config import Settings
    from server.logs import configure

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

    from server.config import Settings
    from server.store.factory import open_store
    from server.tournament.schedule import new_tournament, parse_time

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
    from server.protocol import json_schema

    print(json.dumps(json_schema(), indent=2))
    return 0


def add_commands(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("serve", help="run the server (SQLite and one process by default)")
    p.add_argument("--host", help="address to listen on (KLAVERJAS_HOST, default 127.0.0.1)")
    p.add_argument("--port", type=int, help="port (KLAVERJAS_PORT, default 8765)")
    p.add_argument("--db", help="SQLite file (KLAVERJAS_DB, default klaverjas.sqlite3)")
    p.set_defaults(func=cmd_serve)

    p = sub.add_parser("tournament", help="tournaments")
    tsub = p.add_subparsers(dest="action", required=True)
    t = tsub.add_parser("schedule", help="schedule a tournament (a running server picks it up)")
    t.add_argument("--format", choices=sorted(FORMATS), required=True)
    t.add_argument("--at", required=True, help="start time, ISO 8601 (no zone: UTC)")
    t.add_argument("--repeat", choices=sorted(REPEATS))
    t.add_argument("--fill-with-cpu", action="store_true", help="CPUs fill empty places")
    t.add_argument("--db", help="SQLite file (KLAVERJAS_DB)")
    t.set_defaults(func=cmd_tournament_schedule)

    p = sub.add_parser("protocol-schema", help="print the JSON Schema of the wire protocol")
    p.set_defaults(func=cmd_protocol_schema)
