"""permessage-deflate: what it would cost the server a frame, and what it would save.

Usage::

    python bench/deflate.py                          # 25 tables, 60 s of play
    python bench/deflate.py --tables 100 --duration 120

Method
------
``klaverjas serve`` does not compress (``compression=None``): the issue asks what
permessage-deflate would cost per frame, and what a context-takeover setting would save.
A server is spawned as ``bench/load.py --spawn`` spawns it and ``--tables`` tables play
for ``--duration`` seconds (``load.py``'s clients; one-deal matches, a new one when one
ends); every frame each client reads is kept, in order.  Then each client's frames go, in
that order, through websockets' own ``PerMessageDeflate`` as a server would run it for
that connection, once per setting:

* ``takeover``: websockets' server default (context takeover, a 12-bit window,
  ``memLevel`` 5): one compressor for the connection's life, so later frames refer to
  earlier ones;
* ``takeover-15``: what a browser's offer gives a server that accepts it as asked (15-bit
  window, zlib's ``memLevel`` 8);
* ``no-takeover``: a new compressor per frame (``server_no_context_takeover``): nothing kept
  between frames, a compressor made and dropped for each.

For each: CPU a frame (this process's CPU time over every frame, best of ``--repeat``
passes), bytes on the wire against plain text, and the memory a connection keeps between
frames (``tracemalloc``, which sees zlib's allocations, over 100 compressors that have
each sent a frame; none with no takeover).  An action sends four frames (one a seat), so
four times the CPU a frame is what compression would add to an action.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
import tracemalloc
from dataclasses import replace
from pathlib import Path
from typing import Any

from websockets.extensions.permessage_deflate import PerMessageDeflate
from websockets.frames import Frame, Opcode

sys.path.insert(0, str(Path(__file__).resolve().parent))

import load  # bench/load.py, beside this file

SETTINGS = {  # name: (no context takeover, window bits, memLevel)
    "takeover": (False, 12, 5),
    "takeover-15": (False, 15, 8),
    "no-takeover": (True, 12, 5),
}


async def collect(cfg: load.Config) -> list[list[bytes]]:
    """Every frame each client read while ``cfg.tables`` tables played ``cfg.duration`` s."""
    server = await load.Cluster.spawn(cfg)
    cfg = replace(cfg, urls=server.urls)
    stats = load.Stats(frames={})
    tables: list[load.Table] = []
    try:
        tables = [load.Table(i, cfg, stats) for i in range(cfg.tables)]
        for step in (load.Table.connect, load.Table.seat, load.Table.start):
            tables = await load._in_batches(tables, cfg.batch, step, stats)
        await asyncio.sleep(cfg.duration)
        stats.stopping = True
    finally:
        await asyncio.gather(*(table.close() for table in tables))
        await server.stop()
    if stats.errors or stats.setup_failures or stats.client_bugs:
        raise SystemExit(f"the run had problems: {stats.errors} {stats.setup_failures}")
    assert stats.frames is not None
    return [[raw.encode() for raw in frames] for frames in stats.frames.values() if frames]


def extension(setting: tuple[bool, int, int]) -> PerMessageDeflate:
    """A server's side of one connection's permessage-deflate with ``setting``."""
    no_takeover, bits, level = setting
    return PerMessageDeflate(False, no_takeover, 15, bits, {"memLevel": level})


def measure(
    frames: list[list[Frame]], setting: tuple[bool, int, int], repeat: int
) -> tuple[float, int, float]:
    """Compress every client's frames in order with one extension a client, as a server
    would: the best of ``repeat`` passes' CPU seconds, the bytes sent, and the bytes one
    connection's extension keeps between frames."""
    best, wire = float("inf"), 0
    for _ in range(repeat):
        wire = 0
        started = time.process_time()
        for stream in frames:
            ext = extension(setting)
            for frame in stream:
                wire += len(ext.encode(frame).data)
        best = min(best, time.process_time() - started)
    tracemalloc.start()
    kept = [extension(setting) for _ in range(100)]
    for ext in kept:
        ext.encode(frames[0][0])
    held = tracemalloc.get_traced_memory()[0] / len(kept)
    tracemalloc.stop()
    return best, wire, held


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=25)
    parser.add_argument("--duration", type=float, default=60.0, help="seconds of play")
    parser.add_argument("--repeat", type=int, default=5, help="passes over the frames")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.tables < 1 or args.repeat < 1:
        parser.error("--tables and --repeat must be positive")
    cfg = load.Config(
        urls=(), tables=args.tables, rate=1.0, warmup=0.0, duration=args.duration, drain=0.0,
        batch=50, deals=1, move_seconds=120, seed=args.seed, compression=False,
        server_pids=(), spawn=True, nodes=1, database_url=None, redis_url=None,
        profile=None, profile_top=0, timeline=False,
    )  # fmt: skip
    streams = asyncio.run(collect(cfg))
    frames = [[Frame(Opcode.TEXT, data) for data in stream] for stream in streams]
    count = sum(len(stream) for stream in streams)
    plain = sum(len(data) for stream in streams for data in stream)
    mean = round(plain / count)
    print(f"-- {count:,} frames to {len(streams)} clients, {mean} bytes a frame on average")
    result: dict[str, Any] = {"frames": count, "clients": len(streams), "mean_bytes": mean}
    for name, setting in SETTINGS.items():
        seconds, wire, held = measure(frames, setting, args.repeat)
        figures = result[name] = {
            "us_per_frame": round(1e6 * seconds / count, 2),
            "us_per_action": round(4e6 * seconds / count, 1),
            "wire_over_plain": round(wire / plain, 3),
            "kib_per_connection": round(held / 1024, 1),
        }
        print(
            f"   {name:<12} {figures['us_per_frame']:>6.2f} µs a frame"
            f" ({figures['us_per_action']:.1f} an action), wire {figures['wire_over_plain']:.2f}"
            f" of plain, {figures['kib_per_connection']:.1f} KiB kept a connection"
        )
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
