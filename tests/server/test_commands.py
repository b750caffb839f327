"""The server's commands run as processes: ``klaverjas tournament schedule`` says what it
scheduled and where, and refuses a start in the past, a time it cannot read, or a database
that is not there or not a database (it never makes one the server would not see);
``serve`` refuses a bad port, a database in a folder that does not exist, a file that is
no database, and an event loop or a tournament schedule it does not know.  Each mistake is
one line and exit code 2; ``serve`` runs on uvloop unless asked for asyncio."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from websockets.sync.client import connect

from server.core.config import Settings
from server.store import open_stores
from tests.commands import scheduled_id
from tests.engine.helpers import ROOT
from tests.engine.test_cli import one_line_error

pytestmark = pytest.mark.server


def klaverjas_in(
    cwd: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("KLAVERJAS_")} | (env or {})
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.run(
        [sys.executable, "-m", "commands", *args], cwd=cwd, env=env, capture_output=True,
        text=True, timeout=60,
    )  # fmt: skip


@pytest.fixture
async def server_db(tmp_path: Path) -> Path:
    """A server's SQLite database (made as the server makes it: migrations applied)."""
    path = tmp_path / "server" / "klaverjas.sqlite3"
    path.parent.mkdir()
    stores = open_stores(Settings(db=str(path)))
    await stores.open()
    await stores.close()
    return path


SCHEDULE = ("tournament", "schedule", "--format", "quick")


async def test_schedule_says_what_and_where(server_db: Path) -> None:
    done = klaverjas_in(server_db.parent, *SCHEDULE, "--at", "2031-05-01T19:00:00+02:00",
                        "--repeat", "daily", "--fill-with-cpu")  # fmt: skip
    assert done.returncode == 0, done.stderr
    tid = scheduled_id(done.stdout)
    assert done.stdout == (
        f"scheduled quick tournament {tid}: starts 2031-05-01 17:00 UTC (repeats daily; CPUs "
        f"fill the empty places), in {server_db}\n"
    )
    stores = open_stores(Settings(db=str(server_db)))
    await stores.open()
    try:
        row = await stores.tournaments.tournament(tid)
    finally:
        await stores.close()
    assert row is not None and row.status == "scheduled" and row.format == "quick"


@pytest.mark.parametrize(
    ("at", "words"),
    [
        ("tomorrow", ["--at 'tomorrow' is not a time", "ISO 8601"]),
        ("2020-01-01T10:00:00", ["2020-01-01 10:00 UTC, is in the past"]),
    ],
)
async def test_schedule_refuses_a_time_it_cannot_use(server_db: Path, at: str, words) -> None:
    one_line_error(klaverjas_in(server_db.parent, *SCHEDULE, "--at", at), *words)


def test_schedule_elsewhere_makes_no_database_the_server_would_not_see(tmp_path: Path) -> None:
    done = klaverjas_in(tmp_path, *SCHEDULE, "--at", "2031-01-01T10:00:00")
    one_line_error(done, f"no database at {tmp_path / 'klaverjas.sqlite3'}", "--db")
    assert list(tmp_path.iterdir()) == []


def test_serve_refuses_a_port_that_is_none(tmp_path: Path) -> None:
    one_line_error(klaverjas_in(tmp_path, "serve", "--port", "99999"), "0 to 65535, not 99999")


def test_schedule_refuses_a_file_that_is_no_database(tmp_path: Path) -> None:
    notes = tmp_path / "klaverjas.sqlite3"
    notes.write_text("not a database\n")
    done = klaverjas_in(tmp_path, *SCHEDULE, "--at", "2031-01-01T10:00:00")
    one_line_error(done, f"cannot open the database {notes}", "not a database")


def test_serve_refuses_a_database_it_cannot_make_or_open(tmp_path: Path) -> None:
    missing = tmp_path / "no" / "such" / "klaverjas.sqlite3"
    done = klaverjas_in(tmp_path, "serve", "--port", "0", "--db", str(missing))
    one_line_error(done, f"the folder {missing.parent} does not exist")
    notes = tmp_path / "notes.txt"
    notes.write_text("not a database\n")
    done = klaverjas_in(tmp_path, "serve", "--port", "0", "--db", str(notes))
    one_line_error(done, f"cannot open the database {notes}", "not a database")


def test_serve_refuses_an_event_loop_it_does_not_know(tmp_path: Path) -> None:
    env = {"KLAVERJAS_LOOP": "trio"}
    one_line_error(klaverjas_in(tmp_path, "serve", "--port", "0", env=env), "asyncio or uvloop")


def test_serve_refuses_a_tournament_schedule_it_does_not_know(tmp_path: Path) -> None:
    env = {"KLAVERJAS_QUICK_SCHEDULE": "weekly"}
    done = klaverjas_in(tmp_path, "serve", "--port", "0", env=env)
    one_line_error(done, "KLAVERJAS_QUICK_SCHEDULE='weekly'", "hourly@MM", "off")


@pytest.mark.parametrize(("asked", "runs_on"), [(None, "uvloop"), ("asyncio", "asyncio")])
def test_serve_runs_on_uvloop_unless_asked_otherwise(
    tmp_path: Path, asked: str | None, runs_on: str
) -> None:
    # (uvloop is a dependency: this runs everywhere but Windows, where asyncio is the default)
    env = {k: v for k, v in os.environ.items() if not k.startswith("KLAVERJAS_")}
    env.update(PYTHONPATH=str(ROOT), KLAVERJAS_BOT_WORKERS="1")
    if asked is not None:
        env["KLAVERJAS_LOOP"] = asked
    serve = [sys.executable, "-m", "commands", "serve", "--port", "0"]
    with subprocess.Popen(
        serve, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    ) as p:
        try:
            assert p.stdout is not None and p.stderr is not None
            assert p.stdout.readline().startswith("klaverjas serving on ws://127.0.0.1:")
            p.send_signal(signal.SIGTERM)
            assert p.wait(timeout=30) == 0
            started = [json.loads(line) for line in p.stderr if "server_started" in line]
            assert [line["loop"] for line in started] == [runs_on]
        finally:
            p.kill()


def freezes(url: str) -> float:
    """The served process's ``klaverjas_gc_freezes_total``, from its /metrics."""
    with urllib.request.urlopen(url.replace("ws://", "http://") + "metrics", timeout=5) as r:
        lines = r.read().decode().splitlines()
    name = "klaverjas_gc_freezes_total "
    return float(next(line.split()[1] for line in lines if line.startswith(name)))


@pytest.mark.parametrize("tenure", ["0.1", "0"])
def test_serve_freezes_what_lives_long(tmp_path: Path, tenure: str) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("KLAVERJAS_")}
    env.update(PYTHONPATH=str(ROOT), KLAVERJAS_GC_TENURE=tenure, KLAVERJAS_BOT_WORKERS="1")
    serve = [sys.executable, "-m", "commands", "serve", "--port", "0"]
    with subprocess.Popen(serve, cwd=tmp_path, env=env, stdout=subprocess.PIPE, text=True) as p:
        try:
            assert p.stdout is not None
            url = p.stdout.readline().split()[-1]
            at_start = freezes(url)  # the freeze of what start-up built
            assert at_start == 1
            with connect(url) as ws:  # a connection: objects that live as long as it does
                ws.send('{"type": "hello", "nickname": "ann"}')
                assert '"welcome"' in ws.recv(timeout=10)
                waited = time.monotonic() + (10 if tenure != "0" else 0.5)
                while not (grew := freezes(url) > at_start) and time.monotonic() < waited:
                    time.sleep(0.1)  # tenures every 0.1 s, if on
            assert grew == (tenure != "0")
            p.send_signal(signal.SIGTERM)
            assert p.wait(timeout=30) == 0
        finally:
            p.kill()
