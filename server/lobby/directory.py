"""The live list of public rooms, pushed to every lobby subscriber, and every live room's
seats (to tell a returning player where it sits).

In a cluster each node keeps one of these, fed with every room's changes by the cluster.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..core.status import FINISHED, LIVE_ROOM, LIVE_TOURNAMENT
from ..wire import protocol as p
from ..wire.frames import frame

if TYPE_CHECKING:
    from ..runtime.peer import Peer as Client


FINISHED_KEPT = 2 * 3600.0  # seconds a finished tournament stays listed (with its places)


class Directory:
    def __init__(self, now: Callable[[], float]) -> None:
        self.now = now  # the clock's monotonic seconds
        self.rooms: dict[str, dict[str, Any]] = {}  # listed: public, open or playing
        self.live: dict[str, dict[str, Any]] = {}  # every open or playing room
        self.rooms_of: dict[str, dict[str, None]] = {}  # player -> the live rooms it sits in
        self.tournaments: dict[str, dict[str, Any]] = {}  # upcoming, running, just finished
        self.finished: dict[str, float] = {}  # finished tournament -> when we heard it
        self.subscribers: set[Client] = set()
        self.online = 0  # players connected, on every node

    def set_online(self, online: int) -> None:
        if online != self.online:
            self.online = online
            for client in list(self.subscribers):
                client.send(frame(p.LobbyPresence, online=online))

    def snapshot(self) -> dict[str, Any]:
        self._forget_finished()
        return frame(
            p.Lobby,
            rooms=list(self.rooms.values()),
            tournaments=list(self.tournaments.values()),
            online=self.online,
        )

    def subscribe(self, client: Client) -> None:
        self.subscribers.add(client)
        client.send(self.snapshot())

    def unsubscribe(self, client: Client) -> None:
        self.subscribers.discard(client)

    def update(self, summary: dict[str, Any]) -> None:
        """A room changed: list, relist or unlist it, and tell the subscribers."""
        room_id = summary["id"]
        live = summary["status"] in LIVE_ROOM
        self._index(room_id, self.live.get(room_id), summary if live else None)
        if live:
            self.live[room_id] = summary
        else:
            self.live.pop(room_id, None)
        listed = not summary["private"] and not summary.get("tournament")
        if listed and summary["status"] in LIVE_ROOM:
            self.rooms[room_id] = summary
            message = frame(p.LobbyRoom, room=summary)
        elif self.rooms.pop(room_id, None) is not None:
            message = frame(p.LobbyRoomGone, room_id=room_id)
        else:
            return
        for client in list(self.subscribers):
            client.send(message)

    def seated(self, player_id: str) -> list[dict[str, Any]]:
        """The live rooms where ``player_id`` has a seat (a look at its own rooms only:
        every welcome asks, and a node may list thousands)."""
        found = []
        for room_id in self.rooms_of.get(player_id, ()):
            summary = self.live[room_id]
            found += [
                {"room_id": room_id, "seat": seat, "status": summary["status"]}
                for seat, s in enumerate(summary["seats"])
                if s["player_id"] == player_id
            ]
        return found

    def _index(self, room_id: str, old: dict[str, Any] | None, new: dict[str, Any] | None) -> None:
        """Keep :attr:`rooms_of` in step with a live room's seats going from ``old`` to
        ``new`` (None: not live)."""
        before = {s["player_id"] for s in old["seats"]} if old else set()
        after = {s["player_id"] for s in new["seats"]} if new else set()
        for player in before - after:
            if player is not None:
                rooms = self.rooms_of[player]
                del rooms[room_id]
                if not rooms:
                    del self.rooms_of[player]
        for player in after - before:
            if player is not None:
                self.rooms_of.setdefault(player, {})[room_id] = None

    def update_tournament(self, summary: dict[str, Any]) -> None:
        """Upcoming and running tournaments are listed, and a finished one for
        :data:`FINISHED_KEPT` seconds (its places shown); the others leave the list."""
        self._forget_finished()
        tid, status = summary["id"], summary["status"]
        if status in LIVE_TOURNAMENT or (status == FINISHED and tid in self.tournaments):
            if status == FINISHED:
                self.finished.setdefault(tid, self.now())
            self.tournaments[tid] = summary
            self._tell(frame(p.LobbyTournament, tournament=summary))
        elif self.tournaments.pop(tid, None) is not None:
            self._tell(frame(p.LobbyTournamentGone, tournament_id=tid))

    def _forget_finished(self) -> None:
        """Tournaments finished long enough ago leave the list."""
        for tid, at in list(self.finished.items()):
            if self.now() - at >= FINISHED_KEPT:
                del self.finished[tid]
                if self.tournaments.pop(tid, None) is not None:
                    self._tell(frame(p.LobbyTournamentGone, tournament_id=tid))

    def _tell(self, message: dict[str, Any]) -> None:
        for client in list(self.subscribers):
            client.send(message)
