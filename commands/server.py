"""The server's commands: ``klaverjas serve``, ``klaverjas tournament schedule`` and
``klaverjas protocol-schema``.  The server is imported only when a command runs."""

from __future__ import annotations

import argparse
import asyncio
import json
from collections.abc import Callable
from pathlib import Path

from server.tournament.state import FORMATS, REPEATS

from .errors import UsageError, port


def unwrap(err: Exception) -> str:
    """A store's refusal without what it was doing: "file is not a database"."""
    return str(err).rpartition(" failed: ")[2] or str(err)


def cmd_serve(args: argparse.Namespace) -> int:
    import signal

    from server.app import Server
    from server.core.config import Settings
    from server.core.logs import configure
    from server.core.tidy import tend_collector
    from server.store import StoreError
    from server.tournament.schedule import parse_schedule

    settings = Settings.from_env(host=args.host, port=args.port, db=args.db)
    try:
        parse_schedule(settings.quick_schedule)
    except ValueError as err:
        raise UsageError(str(err)) from None
    folder = Path(settings.db).resolve().parent
    if not settings.database_url and not folder.is_dir():
        raise UsageError(
            f"cannot make the database {settings.db}: the folder {folder} does not exist"
        )
    configure(settings.log_level)

    async def run() -> None:
        server = Server(settings)
        try:
            await server.start()
        except StoreError as err:
            where = settings.database_url or settings.db
            raise UsageError(f"cannot open the database {where}: {unwrap(err)}") from None
        collector = tend_collector(settings.gc_tenure, server.metrics.freezes)
        tenure = asyncio.create_task(collector, name="gc-tenure")
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)
        print(f"klaverjas serving on ws://{settings.host}:{server.port}/", flush=True)
        await stop.wait()
        tenure.cancel()
        await server.stop()

    with asyncio.Runner(loop_factory=loop_factory(settings.loop)) as runner:
        runner.run(run())
    return 0


def loop_factory(name: str) -> Callable[[], asyncio.AbstractEventLoop] | None:
    """The event loop ``klaverjas serve`` runs on: asyncio's own (None), or uvloop's when
    ``KLAVERJAS_LOOP=uvloop`` and it is installed."""
    if name == "asyncio":
        return None
    if name != "uvloop":
        raise UsageError(f"KLAVERJAS_LOOP={name!r}: give asyncio or uvloop")
    try:
        import uvloop
    except ImportError:
        raise UsageError("KLAVERJAS_LOOP=uvloop, but uvloop is not installed") from None
    return uvloop.new_event_loop


def cmd_tournament_schedule(args: argparse.Namespace) -> int:
    import time
    from datetime import UTC, datetime

    from server.core.config import Settings
    from server.store import StoreError, open_stores
    from server.tournament.schedule import new_tournament, parse_time

    settings = Settings.from_env(db=args.db)
    try:
        start = parse_time(args.at)
    except ValueError:
        raise UsageError(
            f"--at {args.at!r} is not a time: give it as ISO 8601, such as "
            "2026-12-01T19:00:00+01:00 (without a zone: UTC)"
        ) from None
    now = time.time()
    shown = datetime.fromtimestamp(start, UTC).strftime("%Y-%m-%d %H:%M UTC")
    if start <= now:
        raise UsageError(f"the start, {shown}, is in the past: a server would cancel it at once")
    where = settings.database_url or str(Path(settings.db).resolve())
    if not settings.database_url and not Path(settings.db).is_file():
        raise UsageError(
            f"no database at {where}: run this where the server runs, or name the server's "
            "database with --db (or KLAVERJAS_DB)"
        )

    async def run() -> str:
        stores = open_stores(settings)
        try:
            await stores.open()
        except StoreError as err:
            raise UsageError(f"cannot open the database {where}: {unwrap(err)}") from None
        try:
            tid, _ = await new_tournament(
                stores.tournaments, args.format, start, args.fill_with_cpu, False, args.repeat, now
            )
        finally:
            await stores.close()
        return tid

    tid = asyncio.run(run())
    extras = [f"repeats {args.repeat}"] if args.repeat else []
    if args.fill_with_cpu:
        extras.append("CPUs fill the empty places")
    more = f" ({'; '.join(extras)})" if extras else ""
    print(f"scheduled {args.format} tournament {tid}: starts {shown}{more}, in {where}")
    return 0


def cmd_protocol_schema(args: argparse.Namespace) -> int:
    from server.wire.protocol import json_schema

    print(json.dumps(json_schema(), indent=2))
    return 0


def add_commands(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "serve", help="run the server (SQLite and one process by default)",
        description="Run the server: websocket clients and the browser client at "
        "http://HOST:PORT/ (http://127.0.0.1:8765/ by default). Settings come from "
        "KLAVERJAS_* environment variables (see the README); these flags override them.",
    )  # fmt: skip
    p.add_argument("--host", help="address to listen on (KLAVERJAS_HOST, default 127.0.0.1)")
    p.add_argument("--port", type=port, help="port (KLAVERJAS_PORT, default 8765; 0: any free)")
    p.add_argument("--db", help="SQLite file (KLAVERJAS_DB, default klaverjas.sqlite3)")
    p.set_defaults(func=cmd_serve)

    p = sub.add_parser("tournament", help="tournaments", description="Tournaments.")
    tsub = p.add_subparsers(dest="action", required=True, metavar="ACTION")
    t = tsub.add_parser(
        "schedule", help="schedule a tournament (a running server picks it up)",
        description="Schedule a tournament in the server's database; a running server "
        "lists it within KLAVERJAS_TOURNAMENT_POLL seconds and starts it on time.",
    )  # fmt: skip
    t.add_argument(
        "--format", choices=sorted(FORMATS), required=True,
        help="classic: 16 players, 3 rounds; quick: 8 players, 2 rounds",
    )  # fmt: skip
    t.add_argument(
        "--at", required=True, help="the start, ISO 8601, such as 2026-12-01T19:00:00+01:00 "
        "(no zone: UTC); it must be in the future",
    )  # fmt: skip
    t.add_argument("--repeat", choices=sorted(REPEATS), help="schedule the next one each time")
    t.add_argument("--fill-with-cpu", action="store_true", help="CPUs fill empty places")
    t.add_argument(
        "--db", help="the server's SQLite file (KLAVERJAS_DB; default klaverjas.sqlite3 here); "
        "with KLAVERJAS_DATABASE_URL, its PostgreSQL database",
    )  # fmt: skip
    t.set_defaults(func=cmd_tournament_schedule)

    p = sub.add_parser("protocol-schema", help="print the JSON Schema of the wire protocol")
    p.set_defaults(func=cmd_protocol_schema)
