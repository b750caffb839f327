"""The floor under the server's CPU an action: the transport alone, and with a durable log.

Usage::

    python bench/floor.py --tables 2000 --duration 40            # relay only
    python bench/floor.py --tables 2000 --duration 40 --durable  # relay + SQLite append

Method
------
A stand-in server (this file with ``--serve``, spawned) does per action only what any server
on this stack must: websockets (the same version and settings as ``klaverjas serve``, on
uvloop) receives one text frame from a seat, and sends one frame of ``--frame`` bytes to each
of the table's four connections the way :class:`server.connection.Client` does (websockets'
synchronous ``broadcast``).  With ``--durable`` it first appends the frame to a room log
through :class:`server.store.sqlite.SqliteDatabase` (WAL, ``synchronous=FULL``, the server's
default commit pace) and awaits the commit, as every accepted move is.  No parsing, rules,
projection, JSON or bookkeeping: what ``bench/load.py`` measures above this floor is the
server's own work.

The generator is ``bench/load.py``'s shape: ``--tables`` tables of four connections in one
asyncio process, each table on its own schedule of one action a second (random phase), the
seat to act rotating; it measures, over the window, actions a second, the time from an
action's frame until all four seats have the answer (p50/p99), and the stand-in's CPU
(``/proc/<pid>/stat``, all threads, user and system apart) an action.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from load import _ms, _quantile, raise_fd_limit
from websockets.asyncio.client import connect

TICK = os.sysconf("SC_CLK_TCK")


# -- the stand-in server -------------------------------------------------------------------


async def serve(port: int, db: str | None, frame_bytes: int) -> None:
    from websockets.asyncio.server import broadcast
    from websockets.asyncio.server import serve as ws_serve

    from server.store.sqlite import SqliteDatabase

    store = None
    if db is not None:
        store = SqliteDatabase(db, pace=0.002)  # Settings.commit_pace's default
        await store.open()
    tables: dict[str, list] = {}
    versions: dict[str, int] = {}
    answer = "x" * frame_bytes

    async def handler(ws) -> None:  # type: ignore[no-untyped-def]
        table = await ws.recv()
        members = tables.setdefault(table, [])
        members.append(ws)
        async for _frame in ws:
            if store is not None:
                version = versions[table] = versions.get(table, 0) + 1
                await store.append(table, version, {"frame": _frame})
            broadcast(members, answer)

    async with ws_serve(handler, "127.0.0.1", port, compression=None, ping_interval=None):
        print("ready", flush=True)
        await asyncio.Future()


# -- the generator -------------------------------------------------------------------------


class Table:
    def __init__(self, name: str, rng: random.Random) -> None:
        self.name = name
        self.phase = rng.random()
        self.seats: list = []
        self.listeners: list[asyncio.Task[None]] = []
        self.turn = 0
        self.sent_at = 0.0
        self.heard = 0
        self.latencies: list[float] = []
        self.measuring = False

    async def connect(self, url: str) -> None:
        for _ in range(4):
            ws = await connect(url, compression=None, max_size=None, ping_interval=None)
            await ws.send(self.name)
            self.seats.append(ws)
        self.listeners = [asyncio.create_task(self._listen(ws)) for ws in self.seats]

    async def _listen(self, ws) -> None:  # type: ignore[no-untyped-def]
        async for _ in ws:
            self.heard += 1
            if self.heard == 4 and self.measuring:
                self.latencies.append(time.perf_counter() - self.sent_at)

    async def play(self, start: float) -> None:
        slot = start + self.phase
        while True:
            await asyncio.sleep(max(0.0, slot - time.perf_counter()))
            slot += 1.0
            self.heard = 0
            self.sent_at = time.perf_counter()
            await self.seats[self.turn].send('{"type":"act","room_id":"r","action":"7S"}')
            self.turn = (self.turn + 1) % 4


def cpu_ticks(pid: int) -> tuple[int, int]:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rpartition(")")[2].split()
    return int(fields[11]), int(fields[12])  # utime, stime


async def run(args: argparse.Namespace) -> dict:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    tmp = tempfile.mkdtemp(prefix="floor-")
    cmd = [sys.executable, __file__, "--serve", str(port), "--frame", str(args.frame)]
    if args.durable:
        cmd += ["--db", str(Path(tmp) / "floor.db")]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
        rng = random.Random(1)
        tables = [Table(f"t{i}", rng) for i in range(args.tables)]
        url = f"ws://127.0.0.1:{port}/"
        for i in range(0, len(tables), 100):
            await asyncio.gather(*(t.connect(url) for t in tables[i : i + 100]))
        start = time.perf_counter()
        players = [asyncio.create_task(t.play(start)) for t in tables]
        await asyncio.sleep(args.warmup)
        for t in tables:
            t.measuring = True
        t0, c0 = time.perf_counter(), cpu_ticks(proc.pid)
        await asyncio.sleep(args.duration)
        t1, c1 = time.perf_counter(), cpu_ticks(proc.pid)
        for t in tables:
            t.measuring = False
        for p in players:
            p.cancel()
        window = t1 - t0
        lat = sorted(x for t in tables for x in t.latencies)
        actions = len(lat)
        user, system = ((c1[i] - c0[i]) / TICK for i in range(2))
        return {
            "tables": args.tables,
            "durable": args.durable,
            "frame_bytes": args.frame,
            "actions_per_s": round(actions / window, 1),
            "latency_ms": {
                "p50": _ms(_quantile(lat, 0.50)),
                "p99": _ms(_quantile(lat, 0.99)),
            },
            "server_cpu_pct": round(100 * (user + system) / window, 1),
            "cpu_us_per_action": round(1e6 * (user + system) / actions),
            "user_us_per_action": round(1e6 * user / actions),
            "system_us_per_action": round(1e6 * system / actions),
        }
    finally:
        proc.terminate()
        proc.wait()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--tables", type=int, default=1000)
    ap.add_argument("--duration", type=float, default=30.0)
    ap.add_argument("--warmup", type=float, default=5.0)
    ap.add_argument("--durable", action="store_true", help="append each action to SQLite")
    ap.add_argument("--frame", type=int, default=260, help="bytes of each seat's answer")
    ap.add_argument("--serve", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--db", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.serve is not None:
        import uvloop

        uvloop.run(serve(args.serve, args.db, args.frame))
        return 0
    raise_fd_limit(8 * args.tables + 100)
    result = asyncio.run(run(args))
    r = result
    print(
        f"-- {r['tables']} tables, {'relay + durable append' if r['durable'] else 'relay only'}:"
        f" {r['actions_per_s']} actions/s, p50 {r['latency_ms']['p50']} ms"
        f" p99 {r['latency_ms']['p99']} ms; server {r['server_cpu_pct']}% of a core,"
        f" {r['cpu_us_per_action']} µs an action (user {r['user_us_per_action']},"
        f" system {r['system_us_per_action']})"
    )
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
