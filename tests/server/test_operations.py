"""`klaverjas serve` as a real process: settings from the environment, JSON logs, SIGTERM."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import sys
import urllib.request
from pathlib import Path

import pytest

from client import GameClient
from tests.processes import command, descendants, end_with_parent, still_running
from tests.server.conftest import play_until
from tests.server.test_bots import name_trump

pytestmark = pytest.mark.server


async def _serve(tmp_path: Path, **env: str) -> tuple[asyncio.subprocess.Process, int]:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "commands", "serve", "--port", "0",
        env={
            **os.environ, "KLAVERJAS_DB": str(tmp_path / "k.sqlite3"),
            "KLAVERJAS_BOT_BUDGET": "2",  # strong CPUs search little
            **env,
        },
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        preexec_fn=end_with_parent,
    )  # fmt: skip
    assert process.stdout is not None
    line = (await asyncio.wait_for(process.stdout.readline(), 20)).decode()
    assert line.startswith("klaverjas serving on ws://"), line
    return process, int(line.rsplit(":", 1)[1].strip(" /\n"))


async def test_sigterm_shuts_down_in_order_and_the_table_survives(tmp_path: Path) -> None:
    process, port = await _serve(tmp_path, KLAVERJAS_LOG_LEVEL="info", KLAVERJAS_CPU_DELAY="0")
    url = f"ws://127.0.0.1:{port}/"
    health = await asyncio.to_thread(
        lambda: urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz").read()
    )
    assert health == b"ok\n"
    client = await GameClient.connect(url)
    await client.hello("ann")
    created = await client.request({"type": "create_room", "rules": {"deals": 1}}, "snapshot")
    room_id = created["room_id"]
    for seat in (1, 2, 3):
        await client.send({"type": "add_cpu", "room_id": room_id, "seat": seat})
    await client.send({"type": "ready", "room_id": room_id})
    await client.next("update", kind="start")
    version = (await client.next("update", kind="act")).get("version")
    process.send_signal(signal.SIGTERM)
    await asyncio.wait_for(client.ws.wait_closed(), 10)
    assert client.ws.close_code == 1012
    assert await asyncio.wait_for(process.wait(), 20) == 0
    assert process.stderr is not None
    logs = [json.loads(line) for line in (await process.stderr.read()).decode().splitlines()]
    assert all("timestamp" in entry and "level" in entry for entry in logs)
    ours = [entry["event"] for entry in logs if "logger" not in entry]  # not asyncio's, say
    assert ours[0] == "server_started" and ours[-1] == "server_stopped"
    # a new process resumes the room from its log, nothing lost
    process, port = await _serve(tmp_path, KLAVERJAS_CPU_DELAY="0")
    try:
        again = await GameClient.connect(f"ws://127.0.0.1:{port}/")
        welcome = await again.hello(token=client.token)
        assert welcome["rooms"][0]["room_id"] == room_id
        await again.send({"type": "resume", "room_id": room_id, "version": 0})
        snapshot = await again.next("snapshot")
        assert snapshot["version"] >= version
        await again.close()
    finally:
        process.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(process.wait(), 20) == 0


async def test_a_killed_servers_cpu_workers_end_by_themselves(tmp_path: Path) -> None:
    """``kill -9`` of ``klaverjas serve`` while its strong CPUs search: its worker pool's
    processes (forkserver, workers) end within seconds, none left as an orphan."""
    process, port = await _serve(tmp_path, KLAVERJAS_CPU_DELAY="0", KLAVERJAS_BOT_WORKERS="2")
    try:
        client = await GameClient.connect(f"ws://127.0.0.1:{port}/")
        await client.hello("ann")
        room_id = (await client.request({"type": "new_game", "level": "strong"}, "snapshot"))[
            "room_id"
        ]

        def pool_started() -> bool:  # at the first search (a bid is decided at once)
            found = [command(pid) for pid in descendants(process.pid)]
            return len(found) >= 2 and any("forkserver" in c for c in found)

        await play_until([client], room_id, pool_started, pick=name_trump)
        pool = descendants(process.pid)
        commands = [command(pid) for pid in pool]
        assert any("forkserver" in c for c in commands), commands
        assert len(pool) >= 2, commands  # the forkserver and a worker, at least
    finally:
        process.kill()  # SIGKILL: no shutdown of its own
    # (the wait ends once its pipes close: an orphan that kept them would hang it)
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(process.wait(), 20)
    left = await asyncio.to_thread(still_running, pool, 10.0)
    assert not left, [command(pid) for pid in left]
