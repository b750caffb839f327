"""A server of a benchmark's own: ``klaverjas serve`` on a fresh SQLite file in its own
process, listening on a free port of 127.0.0.1."""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


async def serve(
    db: str,
    env: Mapping[str, str],
    root: Path = ROOT,
    launcher: Sequence[str] = ("-m", "commands"),
) -> tuple[asyncio.subprocess.Process, str]:
    """The server of the checkout at ``root`` (its settings in ``env``, on top of this
    process's), started by ``python <launcher> serve ...``, and the address it says it
    listens on."""
    serve = ["serve", "--host", "127.0.0.1", "--port", "0", "--db", db]
    proc = await asyncio.create_subprocess_exec(
        sys.executable, *launcher, *serve, cwd=root, env={**os.environ, **env},
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL,
    )  # fmt: skip
    assert proc.stdout is not None
    line = (await asyncio.wait_for(proc.stdout.readline(), 60)).decode()
    url = next((word for word in line.split() if word.startswith("ws://")), None)
    if url is None:
        proc.kill()
        await proc.wait()
        raise SystemExit(f"the server did not start: {line!r}")
    return proc, url
