"""A room as a pure state machine folded from its durable log.

Pure (no I/O, no clock: the time and who follows the room are arguments).  Every rule of
the room lives here: who may come in, sit, ready, act or leave; when the match starts; when
a seat is marked away and back; when the room closes or passes to another owner.
A *transition* (``take_seat``, ``act``, ``expire``, ...) validates a command against the
state and returns the entries it writes, or raises :class:`RoomError`; :meth:`Room.apply`
folds one entry in and returns the engine events it caused; :meth:`Room.follow_up` is what
the room does by itself once an entry is in (the start).  Live play and replay after a
restart both go through ``apply``, so they cannot disagree.

Transitions, in one table (command: entries written | refusals)::

    take_seat(p, s)   [Seated(old, None) +] Seated(s, p)  (a move, for one seated already)
                                                  | room_started already_seated seat_taken
    leave(p)          Seated(s, None) [+ Closed | Owned(h)]  | not_seated match_running
                      (Closed when it leaves an open room with no player seated; an owner
                      who leaves passes the room to h, the next player seated clockwise);
                      Closed alone when the player of a solo game leaves it while it plays
                      (it resigns: the game ends unfinished)
    add_cpu(p, s, l)  Seated(s, cpu, l)           | not_owner room_started seat_taken
    remove(p, s)      Seated(s, None)             | not_owner room_started seat_empty
                                                    cannot_remove_self
    ready(p, r)       Readied(s, r) if it changes | room_started not_seated
    admit(p, i)       nothing                     | solo_game invite_required
    act(p, a, v)      [Away(s, False) +] Acted(s, a, player)
                                                  | not_a_member not_playing not_seated
                                                    deal_pause stale_version bad_notation
                                                    + the engine's refusals
    continue_(p)      Seen(s) while the room pauses between deals and s has not seen
                      the deal's result yet; else nothing | not_a_member not_seated
    end_pause()       Resumed() while the room pauses (its time ran out)
    attendance(c, t)  nothing: keeps since when an open room has had none of its players
                      among the connected c, and its owner gone (from t); says when to
                      look again (abandon, pass_owner)
    abandon(t)        Closed() while open and unattended for `abandon_after` at t
    close(t)          Closed() while live and its closing time (`closes_at`) is past at t:
                      it ends unfinished, with no result
    pass_owner(c, t)  Owned(h) while open and its owner gone for `abandon_after` at t (or at
                      once, t None: it left holding no seat), h the next player seated
                      clockwise from the owner's seat (from seat 0 if it holds none) among
                      the connected c; else nothing
    back(p)           Away(s, False) if away      | not_a_member not_seated
    resume(p)         Away(s, False) if seated and away | not_a_member (a private room's
                                                    stranger)
                      (act, continue_, back and resume at or after the room's closing time
                      write Closed() instead: nothing is played once it is over)
    chat(p)           nothing                     | not_a_member
    expire(d, a)      Acted(turn, a, cpu|timeout) [+ Away(turn, True) after `away_after`
                      timeouts in a row]; nothing once `d` is no longer the decision due
                                                  | the engine's refusals (`a` not legal)
    time_out()        Away(turn, True) when the time of a player nobody may play for ran
                      out (the daily game), unless it is away already
    replace_with_cpu(p)  Seated(s, cpu, strong) if seated
    follow_up()       Started once every seat is filled and every player ready; Resumed
                      once every player the pause waits for has seen the deal's result

In the daily game nobody plays a player's moves (``stands_in`` is false): when its time runs
out the player is marked away (``time_out``) and the game waits for it, with no timer, until
it acts or comes back, or its closing time (``closes_at``, the day's games' end) passes
(``close``); so a daily result holds
only its player's own moves.  ``stood_in`` keeps the seats whose player had a move made for
them (by a room of another kind, or a log written before this rule).

Between two deals (``pauses``, a setting), the room waits before the next deal's first
decision (no decision is due: no timer, no CPU move) until every player seated, not away,
has seen the last deal's result (``continue``) or the pause's time runs out (the actor's
timer: ``end_pause``).

Queries that say what to compute, outside the fold (a search runs in a worker process):
``decision_due()`` is the :class:`Decision` the server takes next (a CPU's move, an away
seat's, or a timeout's once the actor's deadline passes; None for a player nobody may play
for), which ``expire`` then writes;
``hint(p)`` is the decision a hint advises on, or refuses: not_a_member hints_not_allowed
not_playing not_seated not_your_turn.  The commands of a connection say whether it
follows the room (``follows``: a member; the actor knows) and the time (``now``, wall
seconds), so that the room refuses a stranger, and refuses play once it closed.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine import Action, KlaverjasError, Match, Rules
from engine.events import DealEnded, Event
from engine.views import View, view

from ..core.errors import Refused
from ..core.levels import (
    DEFAULT_LEVEL,
    LEGACY_LEVEL,
    STRONG,
    TAKEOVER_LEVEL,
    bare_cpu_name,
    cpu_name,
)
from ..core.status import CLOSED, FINISHED, LIVE_ROOM, OPEN, PLAYING
from .room_entries import (
    CASUAL,
    DAILY,
    SOLO,
    Acted,
    Away,
    Closed,
    Created,
    Entry,
    Owned,
    Readied,
    Resumed,
    Seated,
    Seen,
    Started,
)  # fmt: skip

LIVE = LIVE_ROOM  # a room that still has something to do


class RoomError(Refused):
    """A room command refused by the rules of the room."""


@functools.lru_cache(maxsize=64)
def _rules_dict(rules: Rules) -> dict[str, Any]:
    return rules.to_dict()


@dataclass(frozen=True, slots=True)
class Decision:
    """A decision the server takes (or advises on) for ``seat`` at ``version``: its
    ``level`` of CPU decides from the seat's own ``view`` with ``random.Random(seed)``."""

    version: int
    seat: int
    level: str
    view: View
    seed: str


@dataclass(slots=True)
class Seat:
    player: str | None = None
    cpu: bool = False
    level: str | None = None  # a CPU's level
    ready: bool = False
    away: bool = False
    timeouts: int = 0  # in a row

    @property
    def empty(self) -> bool:
        return self.player is None and not self.cpu


@dataclass(slots=True)
class Room:
    id: str
    owner: str
    name: str
    rules: Rules
    move_seconds: int
    private: bool
    invite_code: str | None
    seed: int
    tournament: str | None = None
    away_after: int = 2  # timeouts in a row that mark a seat away (a setting, not logged)
    mode: str = CASUAL  # see server.table.entries
    day: str | None = None  # a daily game's day
    rated: bool = False  # see rated_match
    status: str = OPEN
    seats: list[Seat] = field(default_factory=lambda: [Seat() for _ in range(4)])
    match: Match | None = None
    version: int = 0
    starters: tuple[str | None, ...] | None = None  # by seat at the start; None a CPU
    left_at: dict[int, int] = field(default_factory=dict)  # seat -> deals done when its
    # starter lost it to a CPU (a tournament player who left)
    pauses: bool = False  # between deals, wait for the players (a setting, not logged)
    abandon_after: float = 120.0  # seconds an open room waits for its players or owner (a
    # setting, not logged)
    closes_at: float | None = None  # when a live room closes unfinished (wall seconds)
    alone_since: float | None = None  # an open room: since when none of its players has
    # followed it (not logged: counted from the server's start)
    owner_gone_since: float | None = None  # an open room: since when its owner has not
    # followed it (not logged)
    cpu_names: tuple[str | None, ...] | None = None  # names of its first CPUs, by seat
    waiting: frozenset[int] | None = None  # pausing: the seats yet to see the last deal
    stood_in: set[int] = field(default_factory=set)  # seats whose player had a move made
    # for them (its time ran out, or it was away)

    # -- construction ----------------------------------------------------------------

    @classmethod
    def from_log(
        cls, room_id: str, entries: list[Entry], away_after: int = 2, pauses: bool = False,
        abandon_after: float = 120.0,
    ) -> Room:  # fmt: skip
        """Rebuild a room by replaying its whole log (with the server's settings)."""
        first = entries[0]
        if not isinstance(first, Created):
            raise ValueError(f"room {room_id}: log does not start with 'created'")
        room = cls(
            room_id, first.owner, first.name, first.rules, first.move_seconds, first.private,
            first.invite_code, first.seed, first.tournament, away_after, first.mode,
            first.day, first.rated, version=1, pauses=pauses, cpu_names=first.cpu_names,
            abandon_after=abandon_after, closes_at=first.closes_at,
        )  # fmt: skip
        for index, player in enumerate(first.seats or ()):
            cpu = player is None
            level = first.cpu_level if cpu else None
            room.seats[index] = Seat(player=player, cpu=cpu, level=level, ready=True)
        for entry in entries[1:]:
            room.apply(entry)
        return room

    # -- queries ---------------------------------------------------------------------

    @property
    def live(self) -> bool:
        return self.status in LIVE

    @property
    def solo(self) -> bool:
        """A game of one player against CPUs (a solo or a daily game): nobody else may
        enter or watch it."""
        return self.mode in (SOLO, DAILY)

    def seated(self, player: str) -> bool:
        return self.seat_of(player) is not None

    def admit(self, player: str, invited: bool) -> None:
        """Refuses ``player`` a seat in or a view of the room where it may not come: a solo
        or daily game to all but its player; a private room to one without its invite."""
        if self.solo and not self.seated(player):
            raise RoomError(
                "solo_game", "this is another player's game against CPUs: only they may play "
                "or watch it",
            )  # fmt: skip
        if self.private and not invited and not self.solo:
            raise RoomError("invite_required", "this room is private: use its invite code")

    def seat_of(self, player: str) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat.player == player:
                return index
        return None

    @property
    def turn(self) -> int | None:
        """The seat to act; None outside a running match and while pausing between deals."""
        if self.status != PLAYING or self.match is None or self.waiting is not None:
            return None
        return self.match.turn

    def waiting_on(self) -> tuple[int, bool] | None:
        """The seat whose decision is due, and whether the server takes it (CPU, away);
        None when nothing is due, and while the daily game waits for its absent player
        (no timer runs then)."""
        turn = self.turn
        if turn is None:
            return None
        seat = self.seats[turn]
        if seat.away and not self.stands_in:
            return None
        return turn, self._automatic(seat)

    @property
    def stands_in(self) -> bool:
        """Whether the server plays a player's move when its time runs out or it is away:
        everywhere but in the daily game, whose ranked result holds only the player's own
        moves (it waits for them instead)."""
        return self.mode != DAILY

    def _automatic(self, seat: Seat) -> bool:
        """The server decides for this seat: a CPU's, or an away player's (where it stands
        in)."""
        return seat.cpu or (seat.away and self.stands_in)

    def summary(self, nicknames: Mapping[str, str]) -> dict[str, Any]:
        """What the lobby and the room's members see of the room (never any cards)."""
        return {
            "id": self.id,
            "name": self.name,
            "owner": self.owner,
            "owner_nickname": nicknames.get(self.owner),  # who made it (an invite says so)
            "private": self.private,
            "tournament": self.tournament,
            "mode": self.mode,
            "day": self.day,
            "status": self.status,
            "rules": _rules_dict(self.rules),
            "move_seconds": self.move_seconds,
            "seats": [
                {
                    "player_id": s.player,
                    "nickname": self.cpu_nickname(i) if s.cpu else nicknames.get(s.player or ""),
                    "cpu": s.cpu,
                    "level": s.level,  # a player's seat has none
                    "cpu_name": bare_cpu_name(self.cpu_nickname(i)) if s.cpu else None,
                    "ready": s.ready or s.cpu,
                    "away": s.away,
                }
                for i, s in enumerate(self.seats)
            ],
            "totals": list(self.match.totals) if self.match else [0, 0],
            "hints": self.hints,
            "rated": self.rated,
            "pause": None if self.waiting is None else {"waiting": sorted(self.waiting)},
        }

    def cpu_nickname(self, index: int) -> str:
        """A CPU seat's nickname: its own if it was seated when the room was made with
        names (a tournament's CPU entrant, a rematch's CPU), else the room's name for that
        seat."""
        named = self.cpu_names[index] if self.cpu_names else None
        if named is not None and (self.starters is None or self.starters[index] is None):
            return named
        return cpu_name(self.seed, index, self.seats[index].level or LEGACY_LEVEL)

    # -- transitions: command -> entries ---------------------------------------------

    def take_seat(self, player: str, seat: int) -> list[Entry]:
        """``player`` sits in ``seat``; one seated elsewhere in the room moves there."""
        self._open()
        now = self.seat_of(player)
        if now == seat:
            raise RoomError("already_seated", f"you sit in seat {seat} already")
        if not self.seats[seat].empty:
            raise RoomError("seat_taken", f"seat {seat} is taken")
        return ([] if now is None else [Seated(now, None)]) + [Seated(seat, player)]

    def leave(self, player: str) -> list[Entry]:
        seat = self._seated(player)
        if self.status == PLAYING and self.mode == SOLO:
            return [Closed()]  # its one player resigns: the game ends unfinished
        if self.status == PLAYING:
            raise RoomError("match_running", "the match is running; your seat stays yours")
        entries: list[Entry] = [Seated(seat, None)]
        heir = self._heir(seat)
        if self.status == OPEN and heir is None:
            entries.append(Closed())
        elif self.status == OPEN and player == self.owner:
            entries.append(Owned(heir))  # type: ignore[arg-type]
        return entries

    def add_cpu(self, player: str, seat: int, level: str = DEFAULT_LEVEL) -> list[Entry]:
        """A CPU of ``level`` (one of ``server.levels.LEVELS``, checked by the protocol)."""
        self._owner(player)
        self._open()
        if not self.seats[seat].empty:
            raise RoomError("seat_taken", f"seat {seat} is taken")
        return [Seated(seat, None, cpu=True, level=level)]

    def remove(self, player: str, seat: int) -> list[Entry]:
        self._owner(player)
        self._open()
        if self.seats[seat].empty:
            raise RoomError("seat_empty", f"seat {seat} is empty")
        if self.seats[seat].player == player:
            raise RoomError("cannot_remove_self", "leave the room instead of removing yourself")
        return [Seated(seat, None)]

    def ready(self, player: str, ready: bool) -> list[Entry]:
        """A seated player's ready mark (nothing when it is that already)."""
        self._open()
        seat = self._seated(player)
        return [] if self.seats[seat].ready == ready else [Readied(seat, ready)]

    def act(
        self, player: str, text: str, version: int | None, *, follows: bool = True,
        now: float | None = None,
    ) -> list[Entry]:  # fmt: skip
        if closing := self._command(follows, now):
            return closing
        if self.status != PLAYING or self.match is None:
            raise RoomError("not_playing", f"no match is being played (the room is {self.status})")
        seat = self.seat_of(player)
        if seat is None:
            raise RoomError("not_seated", "you have no seat at this table")
        if self.waiting is not None:
            raise RoomError(
                "deal_pause", "the next deal starts once everyone has seen the last one's "
                "result (continue), or in a few seconds",
            )  # fmt: skip
        if version is not None and version != self.version:
            raise RoomError(
                "stale_version", f"the table is at version {self.version}, not {version}"
            )
        try:
            action = Action.parse(text)
            self.match.check(seat, action)
        except KlaverjasError as err:
            raise RoomError(err.code, str(err)) from None
        entries: list[Entry] = [Away(seat, False)] if self.seats[seat].away else []
        entries.append(Acted(seat, action, "player"))
        return entries

    def back(self, player: str, *, follows: bool = True, now: float | None = None) -> list[Entry]:
        if closing := self._command(follows, now):
            return closing
        seat = self._seated(player)
        return [Away(seat, False)] if self.seats[seat].away else []

    def continue_(
        self, player: str, *, follows: bool = True, now: float | None = None
    ) -> list[Entry]:
        """``player`` has seen the last deal's result (nothing when the room is not waiting
        for them)."""
        if closing := self._command(follows, now):
            return closing
        seat = self._seated(player)
        return [Seen(seat)] if self.waiting is not None and seat in self.waiting else []

    def end_pause(self) -> list[Entry]:
        """The pause between deals ran out of time."""
        return [Resumed()] if self.waiting is not None else []

    def attendance(self, connected: frozenset[str], now: float) -> float | None:
        """The players that follow the open room now are ``connected``: keep since when it
        has had none of its seated players (or, with nobody seated, nobody at all) and
        since when its owner has been gone, counted from ``now`` if that just began; the
        time at which the room must look again (:meth:`abandon`, :meth:`pass_owner`), or
        None."""
        if self.status != OPEN:
            return None
        seated = {s.player for s in self.seats if s.player is not None}
        alone = not (connected & seated) if seated else not connected
        self.alone_since = (
            (now if self.alone_since is None else self.alone_since) if alone else None
        )
        gone = self.owner not in connected
        self.owner_gone_since = (
            (now if self.owner_gone_since is None else self.owner_gone_since) if gone else None
        )
        if self.alone_since is not None:
            return self.alone_since + self.abandon_after
        if self.owner_gone_since is not None and self._successor(connected) is not None:
            return self.owner_gone_since + self.abandon_after
        return None

    def abandon(self, now: float) -> list[Entry]:
        """An open room none of whose seated players has followed it for `abandon_after`
        closes, and leaves the lobby's list."""
        alone = self.alone_since
        if self.status == OPEN and alone is not None and now >= alone + self.abandon_after:
            return [Closed()]
        return []

    def close(self, now: float) -> list[Entry]:
        """A live room whose closing time has passed (a daily game when its day's games
        close) is closed unfinished."""
        due = self.closes_at is not None and now >= self.closes_at
        return [Closed()] if self.live and due else []

    def pass_owner(self, connected: frozenset[str], now: float | None = None) -> list[Entry]:
        """The owner is gone, at once (``now`` None: it left the room holding no seat) or
        for `abandon_after` at ``now``: the room passes to the next player seated clockwise
        from the owner's seat, or from seat 0 if it holds none, among the ``connected``;
        nothing if none of them is seated."""
        if self.status != OPEN:
            return []
        gone = self.owner_gone_since
        if now is not None and (gone is None or now < gone + self.abandon_after):
            return []
        successor = self._successor(connected)
        return [] if successor is None else [Owned(successor)]

    def _successor(self, connected: frozenset[str]) -> str | None:
        """Who takes the room over from its owner among the ``connected`` (None: nobody)."""
        start = self.seat_of(self.owner)
        order = range(4) if start is None else [(start + step) % 4 for step in (1, 2, 3)]
        for index in order:
            player = self.seats[index].player
            if player is not None and player != self.owner and player in connected:
                return player
        return None

    def resume(self, player: str, now: float | None = None) -> list[Entry]:
        """A connection of ``player`` follows the room again: no longer away, if seated.
        A private room only for its players; nobody once it closed."""
        seat = self.seat_of(player)
        if seat is None and self.private:
            raise RoomError("not_a_member", "resume a private room only where you have a seat")
        if closing := self._command(True, now):
            return closing
        return [Away(seat, False)] if seat is not None and self.seats[seat].away else []

    def chat(self, player: str, *, follows: bool = True) -> None:
        """A chat line to the room: only from a connection that follows it."""
        self._follows(follows)

    def _command(self, follows: bool, now: float | None) -> list[Entry]:
        """Refuses a command from a connection that does not follow the room; once the
        room's closing time has passed (at ``now``), the command closes it instead of
        doing what it asks (nothing is played after it: its timer would close it too)."""
        self._follows(follows)
        return [] if now is None else self.close(now)

    def _follows(self, follows: bool) -> None:
        if not follows:
            raise RoomError("not_a_member", f"join, watch or resume room {self.id!r} first")

    def decision_due(self) -> Decision | None:
        """The decision the server takes next if the seat to act does not (None outside a
        running match): a CPU's at its level; an away seat's or a timeout's by the level
        that takes seats over.  Seeded from the room's seed and version, so a replay, or
        another node, decides alike."""
        turn = self.turn
        if turn is None or self.match is None:
            return None
        seat = self.seats[turn]
        if not seat.cpu and not self.stands_in:
            return None  # nobody plays this player's moves: the time only marks it away
        level = (seat.level or LEGACY_LEVEL) if seat.cpu else TAKEOVER_LEVEL
        return Decision(self.version, turn, level, view(self.match, turn), self._seed())

    def expire(self, decision: Decision, text: str) -> list[Entry]:
        """``decision`` (from :meth:`decision_due`) was taken: ``text`` is written for its
        seat, by ``cpu`` (a CPU or an away seat) or ``timeout`` (its time ran out).
        Nothing when it is no longer the decision due (a player acted meanwhile)."""
        turn = self.turn  # None without a match
        if turn is None:
            return []
        if (self.version, turn) != (decision.version, decision.seat):
            return []  # a stale answer: the room moved on
        try:
            action = Action.parse(text)
            self.match.check(turn, action)  # type: ignore[union-attr]
        except KlaverjasError as err:
            raise RoomError(err.code, str(err)) from None
        seat = self.seats[turn]
        if self._automatic(seat):
            return [Acted(turn, action, "cpu")]
        entries: list[Entry] = [Acted(turn, action, "timeout")]
        if seat.timeouts + 1 >= self.away_after:
            entries.append(Away(turn, True))
        return entries

    def time_out(self) -> list[Entry]:
        """The time of the player on turn ran out where nobody may play its move (the daily
        game): it is marked away, and the game waits for it (nothing if it is away
        already, or the server plays its move: see :meth:`expire`)."""
        turn = self.turn
        if turn is None or self.stands_in:
            return []
        seat = self.seats[turn]
        return [Away(turn, True)] if not seat.cpu and not seat.away else []

    def hint(self, player: str, *, follows: bool = True) -> Decision:
        """What a hint for ``player`` advises on: its own seat's decision, now due, as the
        strong CPU would take it there (the same seed as a timeout's at this version)."""
        self._follows(follows)
        self._hints_allowed()
        if self.status != PLAYING or self.match is None:
            raise RoomError("not_playing", f"no match is being played (the room is {self.status})")
        seat = self.seat_of(player)
        if seat is None:
            raise RoomError("not_seated", "you have no seat at this table")
        if self.match.turn != seat:
            raise RoomError("not_your_turn", f"it is seat {self.match.turn}'s turn, not yours")
        return Decision(self.version, seat, STRONG, view(self.match, seat), self._seed())

    @property
    def hints(self) -> bool:
        """The one rule of which games give hints: casual and solo games, not tournament
        tables, the daily game nor a rated match."""
        return self.tournament is None and self.mode != DAILY and not self.rated_match

    @property
    def same_for_all(self) -> bool:
        """Whether the decisions the server takes must be the same for everyone who plays
        this game (the daily game): a search is waited for, never replaced by another
        policy."""
        return self.mode == DAILY

    @property
    def rated_match(self) -> bool:
        """Whether the match changes ratings: a rated room whose four seats were humans
        when it started (before the start: are humans now)."""
        players = self.starters
        if players is None:
            players = tuple(None if s.cpu else s.player for s in self.seats)
        return self.rated and all(player is not None for player in players)

    def _hints_allowed(self) -> None:
        if not self.hints:
            where = (
                "in the daily game" if self.mode == DAILY
                else "at a tournament table" if self.tournament is not None
                else "in a rated match"
            )  # fmt: skip
            raise RoomError("hints_not_allowed", f"no hints {where}")

    def _seed(self) -> str:
        """A decision's seed: the room's and how many actions the match has had, so that
        what a CPU decides depends on the play alone (not on pauses, aways or comebacks)."""
        assert self.match is not None
        return f"{self.seed}/{len(self.match.actions)}"

    def replace_with_cpu(self, player: str) -> list[Entry]:
        """A player abandoned its tournament: a CPU plays its seat to the end."""
        seat = self.seat_of(player)
        return [] if seat is None else [Seated(seat, None, cpu=True, level=TAKEOVER_LEVEL)]

    def follow_up(self) -> Entry | None:
        """What the room does by itself now: start once every seat is filled and every
        player is ready; play on once the players the pause waits for have all seen it."""
        if self.status == OPEN and all(not s.empty and (s.cpu or s.ready) for s in self.seats):
            return Started()
        if self.waiting is not None and not self.waiting:
            return Resumed()
        return None

    def _heir(self, seat: int) -> str | None:
        """Who takes an open room its owner leaves from ``seat``: the next player seated
        clockwise (None: nobody is)."""
        for step in (1, 2, 3):
            heir = self.seats[(seat + step) % 4].player
            if heir is not None:
                return heir
        return None

    def _watchers(self) -> frozenset[int] | None:
        """The seats a pause between deals waits for: its players, not away (None: nobody,
        no pause)."""
        seats = frozenset(
            i for i, s in enumerate(self.seats) if s.player is not None and not s.cpu and not s.away
        )
        return seats or None

    def _open(self) -> None:
        if self.status != OPEN:
            raise RoomError("room_started", f"the room is {self.status}; seats are fixed")

    def _seated(self, player: str) -> int:
        seat = self.seat_of(player)
        if seat is None:
            raise RoomError("not_seated", "you have no seat in this room")
        return seat

    def _owner(self, player: str) -> None:
        if player != self.owner:
            raise RoomError("not_owner", "only the room's owner may do that")

    # -- the fold --------------------------------------------------------------------

    def apply(self, entry: Entry) -> list[Event]:
        """Fold one log entry into the room; the engine events it caused."""
        self.version += 1
        events: list[Event] = []
        match entry:
            case Acted(seat=index, action=action, by=by):
                assert self.match is not None
                seat = self.seats[index]
                events = self.match.perform(index, action)  # checked when it was accepted
                self.waiting = None  # (a log written without pauses acts on through them)
                if by == "player":
                    seat.timeouts = 0
                elif by == "timeout":
                    seat.timeouts += 1
                if by != "player" and not seat.cpu:
                    self.stood_in.add(index)
                if self.match.over:
                    self.status = FINISHED
                elif self.pauses and any(isinstance(e, DealEnded) for e in events):
                    self.waiting = self._watchers()
            case Seated(seat=index, player=player, cpu=cpu, level=level):
                if self.match is not None and self.status == PLAYING:
                    self.left_at.setdefault(index, len(self.match.sheet))
                if self.waiting is not None:
                    self.waiting -= {index}
                self.seats[index] = Seat(player, cpu, (level or LEGACY_LEVEL) if cpu else None)
                if player is None and not cpu:
                    for s in self.seats:  # a seat emptied: everyone confirms again
                        s.ready = False
            case Readied(seat=index, ready=ready):
                self.seats[index].ready = ready
            case Started():
                self.status = PLAYING
                self.starters = tuple(s.player for s in self.seats)  # a CPU's: None
                self.match = Match(self.rules, self.seed)
                events.append(self.match.start_event())
            case Away(seat=index, away=away):
                seat = self.seats[index]
                seat.away = away
                if not away:
                    seat.timeouts = 0
                elif self.waiting is not None:
                    self.waiting -= {index}  # it cannot say it has seen it
            case Seen(seat=index):
                if self.waiting is not None:
                    self.waiting -= {index}
            case Resumed():
                self.waiting = None
            case Owned(player=player):
                self.owner = player
            case Closed():
                self.status = CLOSED
            case _:
                raise ValueError(f"unexpected log entry {entry!r}")
        return events
