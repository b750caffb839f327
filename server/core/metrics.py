"""Prometheus metrics of one server process, in its own registry."""

from __future__ import annotations

import gc
import sys
import time
from collections.abc import Callable
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest


class Metrics:
    def __init__(self) -> None:
        self.registry = r = CollectorRegistry()
        self.connections = Gauge("klaverjas_connections", "Open websocket connections", registry=r)
        self.rooms = Gauge("klaverjas_rooms", "Rooms held by this process", registry=r)
        self.tables = Gauge("klaverjas_tables", "Rooms whose match is being played", registry=r)
        self.actions = Counter("klaverjas_actions", "Game actions accepted", ["by"], registry=r)
        self.errors = Counter(
            "klaverjas_client_errors", "Refused client messages", ["code"], registry=r
        )
        self.latency = Histogram(
            "klaverjas_action_latency_seconds",
            "From an action's arrival until its updates are queued for every recipient",
            buckets=(0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 1.0),
            registry=r,
        )
        self.dropped = Counter(
            "klaverjas_dropped_connections", "Connections dropped for a full outbox", registry=r
        )
        self.bot_searches = Counter(
            "klaverjas_bot_searches",
            "CPU decisions asked for, by level, for a move or a hint",
            ["level", "purpose"],
            registry=r,
        )
        self.bot_seconds = Histogram(
            "klaverjas_bot_search_seconds",
            "Seconds a worker process spent on one search",
            buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
            registry=r,
        )
        self.bot_fallbacks = Counter(
            "klaverjas_bot_fallbacks",
            "Searches not run because the worker pool was full, or a move's would not have "
            "ended within the CPU delay (a move played by heuristic, a hint refused)",
            ["purpose"],
            registry=r,
        )
        self.bot_budgets = Counter(
            "klaverjas_bot_budgets",
            "CPU moves searched, by the budget searched with (smaller than the server's when "
            "the pool was busy)",
            ["budget"],
            registry=r,
        )
        self.bot_waits = Counter(
            "klaverjas_bot_waits",
            "Moves of the daily game that waited for a place in a full worker pool (never "
            "played by heuristic instead)",
            registry=r,
        )
        self.bot_pending = Gauge(
            "klaverjas_bot_pending",
            "Searches running or queued in the worker pool, or waiting for a place",
            registry=r,
        )
        self.blocks = Gauge(
            "klaverjas_python_blocks",
            "Memory blocks the interpreter holds (a heap measure: unlike RSS it falls as soon"
            " as objects are freed)",
            registry=r,
        )
        self.blocks.set_function(sys.getallocatedblocks)
        self.freezes = Counter(
            "klaverjas_gc_freezes",
            "Times what outlived the young collections was moved out of the garbage "
            "collector's sight (gc.freeze; a count of the objects there would walk them all)",
            registry=r,
        )
        self.tidied = Counter(
            "klaverjas_memory_tidied",
            "Times the load fell to half its peak and memory was collected and handed back",
            registry=r,
        )
        self.gc_pauses = Histogram(
            "klaverjas_gc_pause_seconds",
            "Garbage collections of this process by generation, each the time it held the loop",
            ["generation"],
            buckets=(0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 1.0),
            registry=r,
        )
        self.crossed = Counter(
            "klaverjas_cluster_forwarded",
            "What this node sent another through Redis: commands of its connections for actors "
            "there (command), frames for connections there (frame)",
            ["what"],
            registry=r,
        )
        self.remote_clients = Gauge(
            "klaverjas_cluster_remote_clients",
            "Connections to other nodes whose commands reach actors here",
            registry=r,
        )

    def watch_gc(self) -> Callable[[], None]:
        """Time every collection of the garbage collector from now; returns the function
        that stops timing them."""
        pauses = [self.gc_pauses.labels(str(generation)) for generation in range(3)]
        started = 0.0

        def timed(phase: str, info: dict[str, Any]) -> None:
            nonlocal started
            if phase == "start":
                started = time.perf_counter()
            else:
                pauses[info["generation"]].observe(time.perf_counter() - started)

        gc.callbacks.append(timed)
        return lambda: gc.callbacks.remove(timed)

    def render(self) -> bytes:
        return generate_latest(self.registry)
