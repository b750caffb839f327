"""The lobby of this process: the room and tournament lists, and who is online.

It subscribes to the domain events of rooms and tournaments.  Alone, a process lists what
it hears in its :class:`~server.lobby.Directory`; in a cluster a :class:`Relay` (Redis)
carries every change to every node's lobby, this one's included, and players are told of
their tournaments wherever they are connected.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from ..runtime.domain_events import Events, RoomChanged, TournamentChanged
from ..runtime.peer import encode
from ..wire.frames import frame as make
from ..wire.protocol import TournamentStatus
from .directory import Directory

if TYPE_CHECKING:
    from ..runtime.peer import Peer as Client


class Relay(Protocol):
    """What carries lobby changes to the other nodes of a cluster."""

    def publish_room(self, summary: dict[str, Any]) -> None: ...

    def publish_tournament(self, summary: dict[str, Any]) -> None: ...

    def to_players(self, players: frozenset[str], frame: str) -> None: ...


class Lobby:
    def __init__(self, now: Callable[[], float]) -> None:
        self.directory = Directory(now)
        self.sessions: dict[str, set[Client]] = {}  # player id -> its connections here
        self.relay: Relay | None = None  # set when this process is one node of a cluster

    def subscribe(self, events: Events) -> None:
        events.subscribe(RoomChanged, self._room_changed)
        events.subscribe(TournamentChanged, self._tournament_changed)

    def _room_changed(self, e: RoomChanged) -> None:
        if self.relay is not None:
            self.relay.publish_room(e.summary)
        else:
            self.directory.update(e.summary)

    def _tournament_changed(self, e: TournamentChanged) -> None:
        if self.relay is not None:
            self.relay.publish_tournament(e.summary)
        else:
            self.directory.update_tournament(e.summary)
        if e.players:
            frame = encode(make(TournamentStatus, tournament=e.summary))
            self.to_players(e.players, frame)
            if self.relay is not None:
                self.relay.to_players(e.players, frame)

    def tell(self, players: frozenset[str], message: dict[str, Any]) -> None:
        """Send ``message`` to every connection of these players, on every node."""
        frame = encode(message)
        self.to_players(players, frame)
        if self.relay is not None:
            self.relay.to_players(players, frame)

    def to_players(self, players: frozenset[str], frame: str) -> None:
        """Send ``frame`` to every connection of these players to this process."""
        for player in players:
            for client in self.sessions.get(player, ()):
                client.send_text(frame)

    # -- presence ------------------------------------------------------------------------

    def online_here(self) -> int:
        return len(self.sessions)

    def arrived(self, client: Client) -> None:
        """An identified connection: count its player online."""
        self.sessions.setdefault(client.player_id, set()).add(client)
        self._presence_changed()

    def departed(self, client: Client) -> None:
        self.directory.unsubscribe(client)
        clients = self.sessions.get(client.player_id)
        if clients is not None:
            clients.discard(client)
            if not clients:
                del self.sessions[client.player_id]
                self._presence_changed()

    def _presence_changed(self) -> None:
        if self.relay is None:  # a cluster counts every node's players on its sweep
            self.directory.set_online(self.online_here())
