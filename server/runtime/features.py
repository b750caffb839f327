"""How a feature attaches beyond the domain events: the messages it answers, the HTTP
reads it serves, and what it keeps secret for a while.

The connection handler and the HTTP endpoints name no feature: the composition root
(``server.app``) hands them each feature's :data:`Handler` by message class, its
:class:`Route` by path, and the :class:`Reveals` that decides what is not shown yet.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from .peer import Peer

# A client message of a feature's, parsed and validated, from an identified peer: the reply
# (the connection adds the request's ``ref``), or None when there is none to send.
Handler = Callable[["Peer", Any], Awaitable[dict[str, Any] | None]]


class Reveals(Protocol):
    """What may not be shown yet: results kept secret until a day's are revealed."""

    def hidden(self, record: Mapping[str, Any]) -> bool:
        """Whether a finished match's record may not be shown to anyone yet."""
        ...

    def revealed(self, day: str) -> bool:
        """Whether ``day``'s results are shown to everyone."""
        ...

    def first_hidden(self) -> str:
        """The first day whose results are not revealed yet."""
        ...


@dataclass(frozen=True, slots=True)
class Query:
    """A GET of a feature's route: ``params`` are the route's own (each at most once,
    unchecked), ``offset`` and ``limit`` a page (checked)."""

    params: Mapping[str, str]
    offset: int
    limit: int
    viewer: Callable[[], Awaitable[str | None]]  # the player whose token came, if any


@dataclass(frozen=True, slots=True)
class Answer:
    body: dict[str, Any]  # the JSON reply
    cache: str  # its Cache-Control


@dataclass(frozen=True, slots=True)
class Route:
    """A feature's JSON read at one path; a refusal (:class:`~server.core.errors.Refused`)
    is a 400 unless ``statuses`` says otherwise by its code."""

    path: str
    read: Callable[[Query], Awaitable[Answer]]
    params: frozenset[str] = frozenset()  # beyond offset and limit
    statuses: Mapping[str, int] = field(default_factory=dict)
