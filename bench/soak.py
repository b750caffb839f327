"""Soak: many tables of simulated players against two real nodes, with faults at random
moments; at the end, every room's durable log is replayed and checked.  CI runs it only
for seconds (``bench/smoke.py``).

Usage::

    python bench/soak.py --minutes 30                 # the long run
    nice python bench/soak.py --minutes 5 --tables 6  # a short check
    python bench/soak.py --matches 200 --seed 7       # bounded by a count instead

What runs
---------
Two nodes (``python -m commands serve``) on a fresh PostgreSQL schema
(``--database-url``, default the tests' ``postgresql://postgres@127.0.0.1:5432/test``)
and a private ``redis-server`` on a free port (so it can be restarted), with the lease of
the multinode tests (2 s).  ``--tables`` tables play at once, each four bots (the multinode
tests' :class:`tests.multinode.players.Bot`: legal actions with ``act.version``, retry on
``room_unavailable`` / ``storage_unavailable``, reconnect to another node with their token
and resume when a connection closes), two on each node, and every other table a spectator
bot.  A finished match is audited at once and the table starts another (new bots), until
``--minutes`` are up or ``--matches`` have finished; the matches under way then finish.

Faults, one at a time, at random moments (``--fault-every`` seconds apart on average), of a
kind drawn by weight (``--faults``) or, with ``--cycle``, each kind in turn:

* ``client_drop``: a bot's socket is cut (no close frame); it reconnects and resumes;
* ``node_kill``: a node is killed (SIGKILL), and started again 2-6 s later;
* ``redis_restart``: the private Redis is killed and started again 0.5-3 s later (empty);
* ``slow_client``: a client with a 4 KiB receive buffer watches the tables and the lobby,
  asks for a table's snapshot 3,000 times (``watch``: some 10 MiB) and never reads; the
  node must drop it (``1013``, too slow) and go on.

What is checked
---------------
For each match as it ends: every bot ended at the same version and winner, with versions
going up by one and no refusal a correct cluster does not give; the room's log has
versions 1..N, replays through the server's own fold, its acts are the stored record's and
the record ends the match; every ``act`` update any bot received (an acknowledged action)
is in the log exactly once; every frame a bot received shows it its own seat's hand at that
version only (a spectator none); the fencing epochs that wrote the log never go down.
At the end, for every room in the schema: versions 1..N, the log replays, a finished room
has its record (and it agrees), epochs never go down.  Each node's log holds no error and
no warning that the faults do not explain (a list below).  Each node process's RSS is
sampled every 10 s: memory is flat when a process that lived through the second half grew
less than 15% (and 40 MiB) from its first sample in that half to its last.

Output: the figures (tables, matches, actions, faults by kind, invariants checked by kind,
RSS start and end by node process, unexplained log lines) and one JSON line at the end.
The exit status is 0 when every invariant held, 1 otherwise.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import random
import secrets
import socket
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import pytest  # noqa: E402
from websockets.asyncio.client import connect  # noqa: E402
from websockets.exceptions import ConnectionClosed  # noqa: E402

from tests.multinode.audit import (  # noqa: E402
    check_finished_match,
    check_hands,
    check_table_end,
    log_epochs,
    stored_room,
)
from tests.multinode.conftest import SERVING, Cluster, RedisServer, pg_rows  # noqa: E402
from tests.multinode.players import Bot, Table, seat_table  # noqa: E402
from tests.postgres import PG_URL, fresh_schema  # noqa: E402

# Warnings the faults explain (event names of the nodes' JSON logs).
EXPLAINED = {
    "redis_lost": "Redis restarted",
    "redis_reconnected": "Redis restarted",
    "redis_write_failed": "Redis restarted",
    "redis_recover_failed": "Redis restarted (a fresh server drops old connections)",
    "cluster_job_failed": "Redis restarted, or the database refused a sweep meanwhile",
    "cluster_cut_off": "Redis down for more than two leases",
    "cluster_rejoined": "Redis back",
    "adopt_failed": "a node or Redis went away while adopting",
    "fenced": "a node took over a room whose old owner still wrote",
    "fenced_off": "a node cut from Redis saw its fence move",
    "relinquished": "a lease lost to a Redis restart or a takeover",
    "rejoin_failed": "a connection could not be re-attached while its room moved",
    "unavailable": "a client told to try again (room moving, node or Redis away)",
    "deadline_action_refused": "a CPU move refused while its room moved",
    "told_command_failed": "a re-attachment queued in a room that moved on",
    "bus_task_not_ended": "a node stopping",
    "connections_not_closed": "a node stopping",
}
FAULTS = "client_drop=5,node_kill=2,redis_restart=1,slow_client=1"  # kind=weight


@dataclass
class Figures:
    started: float = field(default_factory=time.monotonic)
    matches_started: int = 0
    matches_finished: int = 0
    setups_failed: int = 0
    actions: int = 0
    faults: Counter[str] = field(default_factory=Counter)
    checks: Counter[str] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)
    slow: Counter[str] = field(default_factory=Counter)  # slow clients: dropped / kept up
    rss: dict[str, list[tuple[float, int]]] = field(default_factory=dict)  # process -> samples
    unexplained: list[str] = field(default_factory=list)
    warnings: Counter[str] = field(default_factory=Counter)

    def fail(self, text: str) -> None:
        self.failures.append(text)
        print(f"FAIL {text}", flush=True)


class Soak:
    def __init__(self, args: argparse.Namespace, cluster: Cluster, redis: RedisServer) -> None:
        self.args = args
        self.cluster = cluster
        self.redis = redis
        self.rng = random.Random(args.seed)
        self.figures = Figures()
        self.deadline = time.monotonic() + args.minutes * 60
        faults = dict(kv.split("=") for kv in args.faults.split(",") if kv)
        unknown = set(faults) - {"client_drop", "node_kill", "redis_restart", "slow_client"}
        if unknown:
            raise SystemExit(f"soak: no such fault {sorted(unknown)}")
        self.kinds, self.weights = list(faults), [float(w) for w in faults.values()]
        self.tables: dict[int, Table] = {}  # slot -> the table playing there now
        self.last_fault = 0.0
        self.stopping = False

    # -- tables ----------------------------------------------------------------------------

    def done(self) -> bool:
        f = self.figures
        return time.monotonic() >= self.deadline or (
            self.args.matches and f.matches_finished >= self.args.matches
        )

    async def slot(self, index: int) -> None:
        """One table after another at this slot until the soak is done."""
        number = 0
        while not self.done():
            number += 1
            await self.match(index, number)

    async def match(self, index: int, number: int) -> None:
        nodes = [n for n in self.cluster.nodes if n.alive]
        nodes = nodes[index % len(nodes) :] + nodes[: index % len(nodes)]
        rules: dict[str, Any] = {
            "deals": self.rng.choice([1, 1, 2]),
            "trump_mode": self.rng.choice(["bidding", "dealer", "forced", "turned"]),
            "roem": self.rng.choice(["auto", "claim"]),
        }
        pace = self.rng.uniform(0.02, 0.15)
        seed = self.rng.randrange(1 << 30)
        made: list[Bot] = []
        try:
            table = await seat_table(
                self.cluster, nodes, rules, spectator=index % 2 == 0, pace=pace, seed=seed,
                made=made,
            )  # fmt: skip
        except Exception as err:  # a node or Redis went away while seating: try again
            self.figures.setups_failed += 1
            self.note(f"table {index}.{number}: set-up failed ({type(err).__name__}: {err})")
            await self.discard(made)
            await asyncio.sleep(1.0)
            return
        self.figures.matches_started += 1
        self.tables[index] = table
        try:
            await self.cluster.until(table.over, self.args.match_timeout, "the match to end")
        except AssertionError as err:
            where = await self.whereabouts(table.room_id)
            self.figures.fail(f"table {index}.{number} {table.room_id} stuck ({where}): {err}")
        else:
            self.figures.matches_finished += 1
            await self.audit(table)
        finally:
            del self.tables[index]
            await self.discard(table.bots)

    async def whereabouts(self, room_id: str) -> str:
        """Who runs a room, and how far its log goes (for a stuck table's diagnosis)."""
        try:
            owners = await self.cluster.ownership()
            runs = [n for n, answer in owners.items() if room_id in answer.get("rooms", [])]
            rows = await pg_rows(
                self.cluster.schema,
                "SELECT max(version) AS v FROM room_log WHERE room_id = $1", room_id,
            )  # fmt: skip
            return f"run by {runs or 'nobody'}, log at v{rows[0]['v']}"
        except Exception as err:
            return f"whereabouts unknown: {err!r}"

    async def discard(self, bots: list[Bot]) -> None:
        for bot in bots:
            await bot.stop()
            await bot.close()
            with contextlib.suppress(ValueError):
                self.cluster.bots.remove(bot)

    async def audit(self, table: Table) -> None:
        checks, room_id = self.figures.checks, table.room_id
        try:
            await asyncio.sleep(0.2)  # the record is stored before the last update goes out
            check_table_end(table)
            checks["match: bots agree, versions one by one, no refusal"] += 1
            stored = await stored_room(self.cluster.schema, room_id)
            checks["log: versions contiguous, replays"] += 1
            acked = check_finished_match(stored, table.bots)
            checks["match: the record is the log's and ends it"] += 1
            checks["acknowledged actions in the log exactly once"] += acked
            checks["frames: own hand only"] += check_hands(stored, table.bots)
            epochs = await log_epochs(self.cluster.schema, room_id)
            checks["log: fencing epochs never go down"] += 1
            if len(epochs) > 1:
                checks["matches that changed node (epochs)"] += 1
            self.figures.actions += len(stored.acts)
        except AssertionError as err:
            self.figures.fail(f"{room_id}: {err}")

    # -- faults ----------------------------------------------------------------------------

    def note(self, text: str) -> None:
        self.cluster.note(text)
        if self.args.verbose:
            print(f"{time.monotonic() - self.figures.started:7.1f}s {text}", flush=True)

    async def chaos(self) -> None:
        while not self.done():
            await asyncio.sleep(self.rng.expovariate(1 / self.args.fault_every))
            if self.done():
                return
            if not self.kinds:
                return
            if self.args.cycle:
                kind = self.kinds[sum(self.figures.faults.values()) % len(self.kinds)]
            else:
                kind = self.rng.choices(self.kinds, self.weights)[0]
            self.figures.faults[kind] += 1
            self.note(f"fault: {kind}")
            try:
                await getattr(self, kind)()
            except (Exception, pytest.fail.Exception) as err:  # a node that did not start
                self.figures.fail(f"fault {kind} could not be injected: {str(err)[:600]}")
            self.last_fault = time.monotonic()

    async def client_drop(self) -> None:
        bots = [b for t in self.tables.values() for b in t.bots if b.client is not None]
        if bots:
            bot = self.rng.choice(bots)
            assert bot.client is not None
            bot.client.ws.transport.abort()

    async def node_kill(self) -> None:
        alive = [n for n in self.cluster.nodes if n.alive]
        if len(alive) < 2:
            return
        node = self.rng.choice(alive)
        with contextlib.suppress(TimeoutError):  # dead, if its pipes linger in a worker
            await self.cluster.kill(node)
        await asyncio.sleep(self.rng.uniform(2, 6))
        await node.start()
        self.note(f"{node.node_id} started again on :{node.port}")
        answer = await node.cluster()  # the port it reported is its own (issue 33)
        if answer.get("node") != node.node_id:
            self.figures.fail(f"{node.node_id}'s port :{node.port} answers {answer}")

    async def redis_restart(self) -> None:
        await self.redis.kill()
        await asyncio.sleep(self.rng.uniform(0.5, 3))
        await self.redis.start()

    async def slow_client(self) -> None:
        """A client that watches busy tables and the lobby and never reads."""
        node = self.rng.choice([n for n in self.cluster.nodes if n.alive])
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.setblocking(False)
        await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", node.port))
        ws = await connect(node.url, sock=sock, max_queue=1, open_timeout=5, close_timeout=1)
        try:
            await ws.send(json.dumps({"type": "hello", "nickname": "slow"}))
            await ws.recv()
            await ws.send(json.dumps({"type": "lobby_subscribe"}))
            for table in list(self.tables.values()):
                await ws.send(json.dumps({"type": "watch", "room_id": table.room_id}))
            tables = list(self.tables.values())
            if tables:  # and asks for far more than its buffers hold: snapshots, unread
                ask = json.dumps({"type": "watch", "room_id": tables[0].room_id})
                for _ in range(3000):
                    await ws.send(ask)
            await asyncio.sleep(self.args.slow_for)  # never reading
            code = None
            with contextlib.suppress(ConnectionClosed, TimeoutError):
                async with asyncio.timeout(10):
                    async for _ in ws:  # what it had, then the close
                        pass
            code = ws.close_code
            if code == 1013 and "too slow" in (ws.close_reason or ""):
                self.figures.slow["dropped with 1013"] += 1
            elif code == 1006:  # the node closed it, its close frame stuck behind the rest
                self.figures.slow["dropped (its close could not be sent)"] += 1
            elif node.alive:
                self.figures.slow[f"kept up (closed {code})"] += 1
            else:
                self.figures.slow["its node was killed meanwhile"] += 1
        finally:
            await ws.close()

    # -- memory ----------------------------------------------------------------------------

    async def sample(self) -> None:
        while True:
            for node in self.cluster.nodes:
                if node.alive and node.process is not None:
                    rss = rss_of(node.process.pid)
                    if rss is not None:
                        key = f"{node.node_id} pid {node.process.pid}"
                        now = time.monotonic() - self.figures.started
                        self.figures.rss.setdefault(key, []).append((now, rss))
            await asyncio.sleep(10)


def rss_of(pid: int) -> int | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    except OSError:
        return None
    return None


# -- the end -------------------------------------------------------------------------------


async def final_audit(soak: Soak) -> None:
    """Every room of the schema, straight from PostgreSQL."""
    schema, f = soak.cluster.schema, soak.figures
    rows = await pg_rows(schema, "SELECT id, status FROM rooms ORDER BY created_at")
    for row in rows:
        try:
            stored = await stored_room(schema, row["id"])
            f.checks["end: room log contiguous and replays"] += 1
            if stored.room.status == "finished":
                assert stored.record is not None, f"{row['id']}: finished without a record"
                logged = [action for _, _, action in stored.acts.values()]
                assert stored.record["actions"] == logged, f"{row['id']}: record is not the log"
                f.checks["end: finished room has its record"] += 1
            await log_epochs(schema, row["id"])
            f.checks["end: epochs never go down"] += 1
        except AssertionError as err:
            f.fail(f"end: {err}")
    f.checks["end: rooms audited"] = len(rows)


def read_logs(soak: Soak) -> None:
    """Every error, and every warning the faults do not explain, in the nodes' logs."""
    f = soak.figures
    for path in sorted(soak.cluster.tmp_path.glob("n*.log")):
        for line in path.read_text(errors="replace").splitlines():
            try:
                record = json.loads(line)
            except ValueError:
                if line.strip() and not line.startswith(SERVING.decode()):
                    f.unexplained.append(f"{path.name}: {line[:200]}")
                continue
            if not isinstance(record, dict):
                continue
            event, level = str(record.get("event")), record.get("level")
            if level in ("error", "critical") or "exception" in record:
                f.unexplained.append(f"{path.name}: {line[:300]}")
            elif level == "warning":
                f.warnings[event] += 1
                if event not in EXPLAINED:
                    f.unexplained.append(f"{path.name}: {line[:300]}")


def memory(f: Figures, seconds: float) -> tuple[bool, dict[str, Any]]:
    """Per node process: RSS at its first and last sample; flat if every process that lived
    through the second half grew little over it."""
    out: dict[str, Any] = {}
    flat = True
    for key, samples in f.rss.items():
        first, last = samples[0][1], samples[-1][1]
        entry = {"start_mib": round(first / 2**20, 1), "end_mib": round(last / 2**20, 1),
                 "samples": len(samples)}  # fmt: skip
        half = [rss for at, rss in samples if at >= seconds / 2]
        if len(half) >= 3 and samples[0][0] < seconds / 2:
            growth = half[-1] - half[0]
            entry["second_half_growth_mib"] = round(growth / 2**20, 1)
            if growth > max(0.15 * half[0], 40 * 2**20):
                flat = False
        out[key] = entry
    return flat, out


async def run(args: argparse.Namespace) -> int:
    tmp = Path(tempfile.mkdtemp(prefix="klaverjas-soak-"))
    redis = RedisServer(tmp)
    await redis.start()
    prefix = "soak" + secrets.token_hex(4)
    async with fresh_schema("kj_soak") as schema:
        cluster = Cluster(tmp, schema, prefix)
        cluster.database_url = args.database_url
        cluster.redis_url = redis.url
        soak = Soak(args, cluster, redis)
        f = soak.figures
        sampler = None
        try:
            await cluster.start("n1", "n2", KLAVERJAS_LOG_LEVEL="warning")
            sampler = asyncio.create_task(soak.sample())
            chaos = asyncio.create_task(soak.chaos())
            slots = [asyncio.create_task(soak.slot(i)) for i in range(args.tables)]
            progress = asyncio.create_task(report_progress(soak))
            await asyncio.gather(*slots)
            if chaos.done() and not chaos.cancelled() and chaos.exception() is not None:
                f.fail(f"the faults stopped early: {chaos.exception()!r}")
            chaos.cancel()
            progress.cancel()
            await asyncio.gather(chaos, progress, return_exceptions=True)
            for node in cluster.nodes:  # one that was killed last must be back for the end
                if not node.alive and node.process is not None:
                    await node.start()
            await final_audit(soak)
        finally:
            if sampler is not None:
                sampler.cancel()
            await cluster.close()
            await redis.kill()
        read_logs(soak)
        gc.collect()  # the nodes' pipes, while the loop still runs
    seconds = time.monotonic() - f.started
    flat, rss = memory(f, seconds)
    if not flat:
        f.fail("memory grew in the second half: " + json.dumps(rss))
    ok = not f.failures and not f.unexplained
    print_figures(soak, seconds, flat, rss, ok, tmp)
    return 0 if ok else 1


async def report_progress(soak: Soak) -> None:
    f = soak.figures
    while True:
        await asyncio.sleep(30)
        print(
            f"{time.monotonic() - f.started:6.0f}s: {f.matches_finished} matches finished, "
            f"{f.actions} actions, faults {dict(f.faults)}, failures {len(f.failures)}",
            flush=True,
        )


def print_figures(soak: Soak, seconds: float, flat: bool, rss: dict, ok: bool, tmp: Path):
    f = soak.figures
    print()
    print(f"soak: {seconds / 60:.1f} min, {soak.args.tables} tables at once, 2 nodes, seed "
          f"{soak.args.seed}")  # fmt: skip
    print(f"  matches: {f.matches_started} started, {f.matches_finished} finished and audited"
          f", {f.setups_failed} set-ups retried after a fault")  # fmt: skip
    print(f"  actions: {f.actions} in the finished matches' logs")
    print(f"  faults: {dict(f.faults)}; slow clients: {dict(f.slow)}")
    print("  invariants checked:")
    for name, count in sorted(f.checks.items()):
        print(f"    {count:8d}  {name}")
    print(f"  memory ({'flat' if flat else 'GREW'}):")
    for key, entry in rss.items():
        print(f"    {key}: {entry}")
    print(f"  warnings explained by the faults: {dict(f.warnings)}")
    print(f"  unexplained log lines: {len(f.unexplained)}")
    for line in f.unexplained[:20]:
        print(f"    {line}")
    print(f"  failures: {len(f.failures)}")
    for line in f.failures[:20]:
        print(f"    {line}")
    print(f"  node logs in {tmp}")
    print(json.dumps({
        "bench": "soak", "ok": ok, "minutes": round(seconds / 60, 2), "seed": soak.args.seed,
        "tables": soak.args.tables, "matches_started": f.matches_started,
        "matches_finished": f.matches_finished, "actions": f.actions, "faults": dict(f.faults),
        "slow_clients": dict(f.slow), "invariants": dict(f.checks), "memory_flat": flat,
        "rss": rss, "unexplained": len(f.unexplained), "failures": len(f.failures),
    }))  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=30.0, help="how long to play")
    parser.add_argument("--matches", type=int, default=0, help="or stop after this many")
    parser.add_argument("--tables", type=int, default=8, help="tables playing at once")
    parser.add_argument("--fault-every", type=float, default=20.0,
                        help="mean seconds between faults")  # fmt: skip
    parser.add_argument("--faults", default=FAULTS,
                        help=f"kinds of fault, weighted (default {FAULTS})")  # fmt: skip
    parser.add_argument("--cycle", action="store_true",
                        help="take the kinds in turn, not by weight (the smoke run)")  # fmt: skip
    parser.add_argument("--slow-for", type=float, default=30.0,
                        help="seconds a slow client goes without reading")  # fmt: skip
    parser.add_argument("--match-timeout", type=float, default=180.0,
                        help="seconds a match may take before it counts as stuck")  # fmt: skip
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database-url", default=PG_URL)
    parser.add_argument("--verbose", action="store_true", help="print each fault as it comes")
    args = parser.parse_args(argv)
    return asyncio.run(run(args))


if __name__ == "__main__":
    sys.exit(main())
