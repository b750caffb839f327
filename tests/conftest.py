"""Shared test settings: the project's own copy of the hand-checked rule cases, the
databases a server runs on in the tests, and the check that the run leaves no process of
its own behind."""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import signal
from collections.abc import Iterator
from multiprocessing import forkserver, resource_tracker
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, settings

from tests.processes import MARK, command, marked, still_running

ROOT = Path(__file__).resolve().parent.parent
RULES_DIR = ROOT / "tests" / "data" / "rules"  # a copy: a user's clone has nothing beside it
SHARED_RULES = ROOT.parent / "shared" / "rules"  # the hand-checked originals, when present

DATABASES = ["sqlite", "postgres"]
RUN = os.environ[MARK] = secrets.token_hex(8)  # this run's mark: every process it starts
# inherits it (a run inside a test marks its own)
os.environ["KLAVERJAS_CHECK_FRAMES"] = "1"  # the servers it starts check every frame they send
LINGER = 15.0  # seconds a process the run started may take to end once the run is over

settings.register_profile(
    "default", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)

settings.register_profile("ci", max_examples=120, deadline=None, derandomize=True)
# Mutation runs (bench/mutation.py): the same examples every run, and no shrinking, which
# would spend minutes on a failure a mutant caused.
settings.register_profile(
    "mutation",
    max_examples=60,
    deadline=None,
    derandomize=True,
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=[HealthCheck.too_slow],
)
# Long runs of the property tests, not in CI: ``HYPOTHESIS_PROFILE=soak`` (the room machine,
# tests/server/test_room_machine.py, raises its own counts under it too).
settings.register_profile(
    "soak", max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") == "true" else "default")
)


def load_cases(name: str) -> list[dict]:
    """A rule-case file of the project's copy; a missing file fails the suite."""
    path = RULES_DIR / name
    if not path.is_file():
        pytest.fail(f"rule cases not found at {path}")
    return json.loads(path.read_text())


@pytest.fixture(params=DATABASES)
def database(request: pytest.FixtureRequest) -> str:
    """The database of a test's server: each test that uses it runs once on each."""
    return request.param


@pytest.fixture(scope="session", autouse=True)
def no_process_left_behind() -> Iterator[None]:
    """Wraps the whole run: once it is over, no process it started may still run (servers,
    their CPU worker pools, Redis, browsers...), but this process's own multiprocessing
    helpers, which end with it.  What is left is named, killed, and fails the run."""
    yield
    own = {forkserver._forkserver._forkserver_pid, resource_tracker._resource_tracker._pid}
    left = still_running(marked(RUN) - own, LINGER)
    if left:
        named = [f"{pid}: {command(pid)[:200]}" for pid in sorted(left)]
        for pid in left:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        pytest.fail("the run left processes running:\n" + "\n".join(named), pytrace=False)
