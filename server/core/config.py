"""Settings from environment variables (``KLAVERJAS_*``), overridden by command-line flags."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field, fields, replace
from typing import Any

from engine.policies import DEFAULT_BUDGET
from engine.rules import STANDARD_DEALS


def _cores() -> int:
    """One bot worker per core: they run below the server's priority (see server.bots)."""
    return os.cpu_count() or 1


@dataclass(frozen=True, slots=True)
class Settings:
    host: str = "127.0.0.1"
    port: int = 8765
    db: str = "klaverjas.sqlite3"
    database_url: str | None = None  # PostgreSQL instead of the SQLite file ``db``
    commit_pace: float = 0.002  # SQLite: least seconds between append commits under load
    database_schema: str | None = None  # PostgreSQL schema (default: the server's search path)
    redis_url: str | None = None  # Redis: several nodes share one lobby (needs database_url)
    redis_prefix: str = "kj"  # Redis keys and channels start with this (one cluster each)
    node_id: str | None = None  # this node's name in the cluster (default: random)
    lease_seconds: float = 5.0  # a dead node's tables are taken over after at most this
    route: str = ""  # e.g. "/n/{node}/": the path that reaches one node; a client on another
    # node is told where a room or tournament it joins runs ("": no routing hints)
    cpu_delay: float = 0.6  # seconds a CPU player waits before acting
    away_after: int = 2  # timeouts in a row that mark a seat away
    deal_pause: float = 8.0  # seconds between deals for the players to see the result; 0: none
    abandon_after: float = 120.0  # seconds an open room's seated players (or its owner) may be gone
    hello_timeout: float = 10.0  # seconds a new connection has to say hello
    max_connections: int = 10_000  # connections this node holds at once
    max_per_address: int = 20  # connections one client address may hold at once
    attempts: int = 10  # wrong invite codes, sheet codes or tokens an address may try ...
    attempts_window: float = 60.0  # ... in this many seconds
    trust_forwarded: bool = False  # behind a proxy: a client's address from X-Forwarded-For
    allowed_origins: str = ""  # pages beside the server's own (the browser's Host) that may
    # open a websocket, comma-separated
    history: int = 40  # updates kept per room for resume (a deal: 32 cards and the trump)
    outbox: int = 256  # frames queued per connection before it is dropped
    tidy_every: float = 10.0  # seconds between looks at the load, to give memory back
    gc_tenure: float = 5.0  # `klaverjas serve`: seconds between freezes of what lives long; 0: off
    rate: float = 20.0  # messages per second a connection may send
    burst: int = 40
    chat_rate: float = 1.0  # chat messages per second per player
    chat_burst: int = 5
    strikes: int = 20  # refused messages in a row before the connection is closed (1008)
    ping_interval: float = 20.0  # seconds between WebSocket keepalive pings
    ping_timeout: float = 20.0  # seconds a ping may go unanswered before closing (1011)
    log_level: str = "info"
    check_frames: bool = False  # validate every frame sent against its model (the tests do)
    loop: str = "asyncio" if sys.platform == "win32" else "uvloop"  # of `klaverjas serve`
    quick_when_full: bool = True  # keep one "start when full" Quick tournament open
    quick_schedule: str = "hourly"  # a Quick tournament, CPUs filling its empty places:
    # hourly, hourly@MM, daily, daily@HH:MM (UTC) or off
    tournament_poll: float = 5.0  # seconds between looks for newly scheduled tournaments
    bot_workers: int = field(default_factory=_cores)  # processes searching for CPUs
    bot_queue: int = 4  # searches that may wait for a busy worker before moves fall back
    bot_budget: int = DEFAULT_BUDGET  # thousands of solver nodes a strong decision visits; 0: none
    daily_deals: int = STANDARD_DEALS  # deals of the daily game
    daily_grace: float = 7200.0  # seconds after midnight a day's game may still be finished
    # (at most a day): then it is closed unfinished, and the day's results are revealed
    daily_secret: str | None = None  # the daily seed's key (default: one kept in the database)

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None, **overrides: Any) -> Settings:
        env = dict(os.environ if env is None else env)
        values: dict[str, Any] = {}
        for f in fields(cls):
            raw = env.get(f"KLAVERJAS_{f.name.upper()}")
            if raw is not None and raw != "":
                default = getattr(cls(), f.name)
                if isinstance(default, bool):
                    values[f.name] = raw.lower() in ("1", "true", "yes", "on")
                else:
                    values[f.name] = (type(default) if default is not None else str)(raw)
        settings = cls(**values)
        return replace(settings, **{k: v for k, v in overrides.items() if v is not None})
