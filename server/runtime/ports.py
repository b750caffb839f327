"""What an actor may use of the process around it: a few small interfaces, no hub.

Rooms and tournaments are handed one :class:`Ports` when they are made; they never import
the server that composes them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..core.clock import Clock
    from ..core.config import Settings
    from ..core.metrics import Metrics
    from .bots import Bots
    from .domain_events import Events
    from .journal import Journal
    from .router import Router


@dataclass(frozen=True, slots=True)
class Ports:
    settings: Settings
    clock: Clock  # deadlines and the times clients are shown
    journal: Journal  # the fenced log: durable before anything is sent
    router: Router  # tell another actor, wherever it runs
    events: Events  # publish domain events once they are durable
    names: Mapping[str, str]  # player id -> nickname, for summaries
    metrics: Metrics
    bots: Bots  # CPU decisions and hints, searched in worker processes
