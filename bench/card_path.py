"""The path of one card: the server's functions and modules that carry it to every player.

Usage::

    python bench/card_path.py                          # this checkout's server
    python bench/card_path.py --server-root /tmp/base  # another checkout's (same protocol)
    python bench/card_path.py --list                   # and every function, in order

Starts a server on a fresh SQLite file, seats four players over websockets, plays the trump
choice, and traces the server (``sys.setprofile`` in every thread) from just before the
first card is sent until a moment after all four players have its update: the socket,
validation, routing, the room, the store, the four sends and the domain events.  Counted
are the calls into the server's own code (``server/`` and ``engine/``): *hops* (distinct
named functions: a comprehension or a lambda is part of its function), *calls* (every
entry, helpers and properties included) and *modules*.  The
same count on two checkouts compares their paths; the last line is the result as JSON.
Four players and no CPU: nothing else runs while it is traced.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import signal
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from _served import serve  # noqa: E402

from client.game import GameClient  # noqa: E402

# Run inside the server: install the tracer (on SIGUSR1 it starts, on SIGUSR2 it writes
# what it saw to the file named by KLAVERJAS_CARD_PATH), then serve as ``-m commands``.
TRACER = r"""
import os, runpy, signal, sys, threading
root = os.getcwd()
sys.path.insert(0, root)
ours = tuple(os.path.join(root, p) + os.sep for p in ("server", "engine"))
seen, on = [], [False]

def profile(frame, event, arg):
    if on[0] and event == "call" and frame.f_code.co_filename.startswith(ours):
        code = frame.f_code
        seen.append((os.path.relpath(code.co_filename, root), code.co_qualname))

def start(*_):
    seen.clear()
    on[0] = True

def stop(*_):
    on[0] = False
    with open(os.environ["KLAVERJAS_CARD_PATH"], "w") as out:
        out.writelines(f"{path}\t{name}\n" for path, name in seen)

signal.signal(signal.SIGUSR1, start)
signal.signal(signal.SIGUSR2, stop)
sys.setprofile(profile)
threading.setprofile(profile)
sys.argv = ["commands", *sys.argv[1:]]
runpy.run_module("commands", run_name="__main__", alter_sys=True)
"""


INLINE = re.compile(r"<(listcomp|dictcomp|setcomp|genexpr|lambda)>")  # parts of a function


async def spawn(root: Path, tmp: str, trace: str) -> tuple[asyncio.subprocess.Process, str]:
    env = {"KLAVERJAS_CARD_PATH": trace, "KLAVERJAS_DEAL_PAUSE": "0", "KLAVERJAS_CHECK_FRAMES": "0"}
    return await serve(os.path.join(tmp, "path.sqlite3"), env, root, ("-c", TRACER))


async def seated(url: str) -> tuple[str, list[GameClient]]:
    """Four players at a started table."""
    players = [await GameClient.connect(url) for _ in range(4)]
    for n, player in enumerate(players):
        await player.hello(f"Path{n}")
    created = await players[0].request({"type": "create_room", "name": "path"}, "snapshot")
    room_id = created["room_id"]
    for seat, player in enumerate(players[1:], 1):
        await player.request({"type": "take_seat", "room_id": room_id, "seat": seat}, "snapshot")
    for player in players:
        await player.send({"type": "ready", "room_id": room_id})
    for player in players:
        await player.next("update", kind="start", room_id=room_id)
    return room_id, players


async def to_first_card(room_id: str, players: list[GameClient]) -> GameClient:
    """Play the trump choice (each player's first legal action); the player to lead."""
    while True:
        await asyncio.sleep(0.05)  # let every frame of the last action arrive
        tables = [p.tables[room_id] for p in players]
        turn = tables[0].turn
        mover = next(p for p, t in zip(players, tables, strict=True) if t.seat == turn)
        legal = mover.tables[room_id].legal
        if any(len(action) == 2 for action in legal):  # a card: the trump is chosen
            return mover
        await mover.send({"type": "act", "room_id": room_id, "action": legal[0]})


async def trace(root: Path) -> list[tuple[str, str]]:
    with tempfile.TemporaryDirectory(prefix="klaverjas-path-") as tmp:
        out = os.path.join(tmp, "trace.tsv")
        proc, url = await spawn(root, tmp, out)
        try:
            room_id, players = await seated(url)
            mover = await to_first_card(room_id, players)
            version = mover.tables[room_id].version
            card = mover.tables[room_id].legal[0]
            proc.send_signal(signal.SIGUSR1)
            await asyncio.sleep(0.2)  # the server has taken the signal: it traces
            await mover.send({"type": "act", "room_id": room_id, "action": card})
            for player in players:
                await player.next("update", room_id=room_id, version=version + 1)
            await asyncio.sleep(0.3)  # and what the room does after sending (its events)
            proc.send_signal(signal.SIGUSR2)
            await asyncio.sleep(0.2)
            for player in players:
                await player.close()
            lines = Path(out).read_text().splitlines()
        finally:
            proc.terminate()
            await proc.wait()
    return [tuple(line.split("\t", 1)) for line in lines]  # type: ignore[misc]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--server-root", type=Path, default=ROOT, help="the checkout to trace")
    ap.add_argument("--list", action="store_true", help="print every function, in order")
    args = ap.parse_args()
    calls = asyncio.run(trace(args.server_root.resolve()))
    hops = list(dict.fromkeys((path, name) for path, name in calls if not INLINE.search(name)))
    modules = list(dict.fromkeys(path for path, _ in calls))
    if args.list:
        for path, name in hops:
            print(f"{path}:{name}")
    print(f"{len(hops)} hops (distinct functions) in {len(modules)} modules, {len(calls)} calls")
    for module in modules:
        print(f"  {module}: {sum(1 for path, _ in hops if path == module)}")
    print(json.dumps({"hops": len(hops), "modules": len(modules), "calls": len(calls)}))


if __name__ == "__main__":
    main()
