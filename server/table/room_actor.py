"""One task per room: the only writer of its state, timers included.

The actor commits and sends; the :class:`~server.table.room.Room` decides.  Every change
is a log entry from one of the room's transitions: appended to the fenced log (durable),
folded into the room, sent to each member as its own projection, then published as domain
events.  Sending never blocks: members are :class:`~server.peer.Peer` objects
(connections here, with bounded outboxes, or stand-ins for connections to other nodes).

A decision the server takes (a CPU's, an away seat's, a timeout's) is searched off the
loop (``ports.bots``) while the mailbox keeps going: asked for as soon as it is due for an
automatic seat (the CPU delay runs meanwhile) or when a player's time runs out; the answer
comes back as a message and is committed once the deadline has passed, if the room is
still at the version it was asked at.  Anything committed meanwhile drops it.  In the daily
game (``Room.same_for_all``) a decision is never played by another policy: it waits for a
place in a full pool (``Bots.decide(wait=True)``), and a search that failed (a worker
died) is run again, at most ``SEARCH_TRIES`` times in all.

A room with a closing time (``Room.closes_at``: a daily game's, when its day's games
close) has no deadline beyond it: its timer closes it then (``Room.close``), and the room
refuses a command that comes later (``room_closed``), so nobody plays a day's deals once its
results are revealed.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from engine.events import DealEnded as DealEndedEvent
from engine.events import DealStarted, Event
from engine.views import project, view, why_not

from ..core.logs import log
from ..runtime.actor import Actor
from ..runtime.actor_messages import Message, ReplaceWithCpu
from ..runtime.bots import fallback
from ..runtime.domain_events import DealEnded, MatchEnded, RoomChanged
from ..runtime.history import History
from ..runtime.peer import encode, with_fields
from ..runtime.router import ROOM
from ..wire import protocol as p
from ..wire.frames import frame
from .room import FINISHED, OPEN, Decision, Room
from .room_entries import Acted, Entry

if TYPE_CHECKING:
    from ..runtime.peer import Peer
    from ..runtime.ports import Ports


@dataclass(frozen=True, slots=True)
class Step:
    """One committed entry as it was sent: kept so a resuming client sees it the same.

    Only what an update shows is kept (a room's :class:`History` holds the latest)."""

    version: int
    kind: str
    seat: int | None
    by: str | None
    events: tuple[Event, ...]
    turn: int | None
    deadline: float | None
    summary: dict[str, Any] | None


SUMMARY_CHANGES = frozenset(
    {"created", "seat", "ready", "start", "away", "closed", "seen", "resumed", "owner"}
)
CHAT_KEPT = 30  # chat lines a room keeps for the snapshot of a (re)joining member
SEARCH_TRIES = 3  # a daily game's searches for one decision before heuristic plays it


@dataclass(slots=True, eq=False)
class Pending:
    """A decision asked of the bots: its answer, and whether its deadline has passed."""

    decision: Decision
    answer: asyncio.Future[str]
    due: bool = False  # the deadline passed: commit as soon as the answer is in
    tries: int = 1  # searches asked for this decision (the last is ``answer``)


class RoomActor(Actor):
    kind = ROOM
    closed_code = "room_closed"

    def __init__(self, room: Room, ports: Ports) -> None:
        super().__init__(ports.clock, f"room {room.id}", log.bind(room_id=room.id))
        self.room = room
        self.ports = ports
        self.members: dict[Peer, int | None] = {}
        self.history: History[Step] = History(ports.settings.history, room.version)
        self.chat_lines: deque[dict[str, Any]] = deque(maxlen=CHAT_KEPT)  # in memory only
        self.deadline_wall: float | None = None  # a decision's, shown to the players
        self.pause_until: float | None = None  # the pause between deals ends then (wall)
        self.pending: Pending | None = None  # the decision being searched

    @property
    def key(self) -> str:
        return self.room.id

    def start(self) -> None:
        self._schedule()
        self._think()
        super().start()

    def finished(self) -> bool:
        return not self.room.live

    def on_exit(self) -> None:
        """A finished room lets its members go; a stopped one (moved, or the server is
        stopping) forgets them, who keep their versions to resume wherever it runs next."""
        self._drop_pending()  # a search for a closed, finished or stopped room is wasted
        for member in list(self.members):
            if self.finished():
                self.detach(member)
            else:
                member.memberships.pop(self.key, None)
        self.members.clear()

    def on_failure(self) -> None:
        self._schedule(retry=True)
        self._think()

    # -- timers --------------------------------------------------------------------------

    def _schedule(self, retry: bool = False) -> None:
        """Set the deadline of the decision now due (none outside a running match), never
        beyond the room's closing time; a search for an earlier version is dropped."""
        if self.pending is not None and self.pending.decision.version != self.room.version:
            self._drop_pending()
        self._schedule_due(retry)
        self._by_closing()

    def _by_closing(self) -> None:
        """A room's deadline is its closing time at the latest."""
        closes = self.room.closes_at
        if closes is None or not self.room.live:
            return
        closing = self.clock.now() + (closes - self.clock.wall())
        self.deadline = closing if self.deadline is None else min(self.deadline, closing)

    def _schedule_due(self, retry: bool) -> None:
        """The deadline of the decision now due.  An open room's is when it must look
        again at who follows it (``Room.attendance``)."""
        if self.room.status == OPEN:
            self._attend()
            return
        if self.room.waiting is not None:  # between deals: the pause's own time
            if self.pause_until is None:
                pause = self.ports.settings.deal_pause
                self.deadline = self.clock.now() + pause
                self.pause_until = self.clock.wall() + pause
            self.deadline_wall = None
            return
        self.pause_until = None
        due = self.room.waiting_on()
        if due is None:
            self.deadline = self.deadline_wall = None
            return
        _, automatic = due
        wait = self.ports.settings.cpu_delay if automatic else self.room.move_seconds
        if retry:
            wait = max(wait, 1.0)
        self.deadline = self.clock.now() + wait
        self.deadline_wall = None if automatic else self.clock.wall() + wait

    async def on_deadline(self) -> None:
        """The deadline passed: an open room nobody seated comes back to closes (or one
        whose owner does not come back passes to a player who is there), the pause
        between deals is over, a room closes at its closing time, a daily game marks its
        player away, or commit the decision due once its answer is in."""
        if closed := self.room.close(self.clock.wall()):
            await self.commit_all(closed)
            return
        if self.room.status == OPEN:
            now = self.clock.now()
            await self.commit_all(
                self.room.abandon(now) or self.room.pass_owner(self._connected(), now)
            )
            self._attend()
            return
        if self.room.waiting is not None:
            await self.commit_all(self.room.end_pause())
            return
        pending = self._ask()
        if pending is None:  # nobody may play this move: the daily game waits for its player
            if entries := self.room.time_out():
                await self.commit_all(entries)
            else:
                self._by_closing()
            return
        pending.due = True
        if not pending.answer.done():
            self._by_closing()
            return  # ``_answered`` brings the deadline back when it is
        entries = self._expire(pending)
        if entries is None:  # searched again
            self._by_closing()
            return
        await self.commit_all(entries)

    def _expire(self, pending: Pending) -> list[Entry] | None:
        """The entries of a searched decision.  If the search failed or answered something
        illegal (our bug: logged), a daily game's is searched again (None) until it has
        been tried ``SEARCH_TRIES`` times; then, or elsewhere, ``heuristic`` plays it (a
        failure that repeats is the pure function's own: it fails alike for everyone)."""
        decision, answer = pending.decision, pending.answer
        try:
            if answer.cancelled():
                raise RuntimeError("the search was cancelled")
            return self.room.expire(decision, answer.result())
        except Exception as err:
            self.log.error("bot_failed", level=decision.level, error=repr(err))
            if self.room.same_for_all and pending.tries < SEARCH_TRIES:
                self._search(decision, pending.tries + 1).due = True
                return None
            return self.room.expire(decision, fallback(decision.view, decision.seed))

    def _think(self) -> None:
        """An automatic seat's decision is searched at once: the CPU delay runs meanwhile."""
        due = self.room.waiting_on()
        if due is not None and due[1]:
            self._ask()

    def _ask(self) -> Pending | None:
        """The search for the decision due now (started if it is not yet)."""
        pending = self.pending
        if pending is not None and pending.decision.version == self.room.version:
            return pending
        self._drop_pending()
        decision = self.room.decision_due()
        if decision is None:
            return None
        return self._search(decision, 1)

    def _search(self, decision: Decision, tries: int) -> Pending:
        """Ask the bots for ``decision`` (a daily game's waits for a place in a full pool)."""
        wait = self.room.same_for_all
        answer = self.ports.bots.decide(decision.level, decision.view, decision.seed, wait)
        self.pending = pending = Pending(decision, answer, tries=tries)
        answer.add_done_callback(lambda _: self.tell(lambda: self._answered(pending)))
        return pending

    async def _answered(self, pending: Pending) -> None:
        """A search ended: if it is still wanted and overdue, the deadline is now."""
        if pending is self.pending and pending.due:
            self.deadline = self.clock.now()

    def _drop_pending(self) -> None:
        if self.pending is not None:
            self.pending.answer.cancel()  # a search not started yet never runs
            self.pending = None

    # -- committing ----------------------------------------------------------------------

    async def commit_all(self, entries: list[Entry], started: float | None = None) -> None:
        """Commit a transition's entries in order, then whatever the room does by itself;
        then start thinking for an automatic seat whose turn it is."""
        for entry in entries:
            await self.commit(entry, started)
        while (entry := self.room.follow_up()) is not None:
            await self.commit(entry)
        self._think()

    async def commit(self, entry: Entry, started: float | None = None) -> None:
        """Make ``entry`` durable, fold it in, send every member its projection, then
        publish what happened."""
        room, ports = self.room, self.ports
        version = room.version + 1
        await ports.journal.append(room.id, version, entry.to_dict(), self.epoch)
        status, turn, waiting = room.status, room.turn, room.waiting
        events = room.apply(entry)
        if entry.tag in ("act", "start", "away", "seat", "resumed") or room.turn != turn:
            self._schedule()  # a new decision (or a seat became automatic): a new deadline
        changed = status != room.status or entry.tag in SUMMARY_CHANGES or waiting != room.waiting
        summary = self.summary() if changed else None
        step = Step(
            version, entry.tag, getattr(entry, "seat", None), getattr(entry, "by", None),
            tuple(events), room.turn, self.deadline_wall, summary,
        )  # fmt: skip
        self.history.append(version, step)  # kept at once: resuming replays it, sent or not
        if room.status == FINISHED and status != FINISHED:  # durable, and heard by its
            await self._save_record()  # subscribers, before anyone hears it ended
            await self._publish_ending(events)
        frames: dict[int | None, str] = {}  # one encoding per seat (None: spectators)
        for client, seat in list(self.members.items()):
            if seat not in frames:
                frames[seat] = self._frame(step, seat, frames)
            client.deliver(room.id, version, frames[seat])
        if isinstance(entry, Acted):
            ports.metrics.actions.labels(entry.by).inc()
            if started is not None:
                ports.metrics.latency.observe(time.perf_counter() - started)
        if status != room.status:  # stored after an ending was heard: if a crash comes
            self.log.info("room_status", status=room.status, version=version)  # first,
            await ports.journal.set_room_status(room.id, room.status)  # it is told again
        await self._publish(events, summary)

    async def _save_record(self) -> None:
        await self.ports.journal.save_match(self.room.id, self._record())

    def _record(self) -> dict[str, Any]:
        """The match record; a daily game's names its day (it is not shown before the day
        is over: its seed is that day's)."""
        room = self.room
        assert room.match is not None
        record = room.match.to_record()
        if room.day is not None:
            record["daily"] = room.day
        return record

    async def _publish(self, events: list[Event], summary: dict[str, Any] | None) -> None:
        if summary is not None:
            await self.ports.events.publish(RoomChanged(summary))
        if self.room.status != FINISHED:
            await self._publish_deals(events)

    async def _publish_ending(self, events: list[Event]) -> None:
        await self._publish_deals(events)
        await self.ports.events.publish(self._ending())

    async def _publish_deals(self, events: list[Event]) -> None:
        """A tournament table's ended deals (nobody outside a room follows its deals)."""
        room = self.room
        if room.tournament is None:
            return
        for event in events:
            if isinstance(event, DealEndedEvent):
                deal = DealEnded(room.id, room.tournament, event.summary.number, event.totals)
                await self.ports.events.publish(deal)

    def _ending(self) -> MatchEnded:
        room, match = self.room, self.room.match
        assert match is not None and match.winner is not None
        totals = (match.totals[0], match.totals[1])
        starters = room.starters or (None, None, None, None)
        abandoned = frozenset(
            player for player, seat in zip(starters, room.seats, strict=True)
            if player is not None and (seat.player != player or seat.away)
        )  # fmt: skip
        stood_in = frozenset(
            player for seat in room.stood_in if (player := starters[seat]) is not None
        )
        return MatchEnded(
            room.id, room.tournament, match.winner, totals, self._record(),
            tuple(None if s.cpu else s.player for s in room.seats), room.mode, room.day,
            tuple((d.result.score[0], d.result.score[1]) for d in match.sheet),
            room.rated_match, starters, abandoned, stood_in,
            tuple(room.left_at.get(seat) for seat in range(4)),
        )  # fmt: skip

    async def conclude(self) -> None:
        """A room replayed from its log that had ended while its status or record were not
        yet stored (a crash in between): store them, and publish its ending again."""
        await self.ports.journal.set_room_status(self.room.id, self.room.status)
        await self.relist()
        if self.room.status == FINISHED:
            await self._save_record()
            await self.ports.events.publish(self._ending())

    def _frame(self, step: Step, seat: int | None, frames: dict[int | None, str]) -> str:
        """The latest update's text as ``seat`` sees it.  Only a deal's start shows a seat
        something of its own (its hand): any other update is the spectators' (encoded once,
        kept in ``frames``) with, for the seat on turn, its legal actions added."""
        if seat is not None and any(isinstance(e, DealStarted) for e in step.events):
            return encode(self._update(step, seat, current=True))
        shared = frames.get(None)
        if shared is None:
            shared = frames[None] = encode(self._update(step, None, current=True))
        return with_fields(shared, self._legal(seat))

    def _legal(self, seat: int | None) -> dict[str, Any]:
        """``seat``'s legal actions if the decision now due is its own, and why each card
        of its hand that it may not play is refused (``why_not``, when any); else nothing."""
        match = self.room.match
        if seat is None or match is None or self.room.turn != seat:
            return {}
        legal: dict[str, Any] = {"legal": [str(a) for a in match.legal_actions()]}
        refused = why_not(match.deal, seat)
        if refused:
            legal["why_not"] = refused
        return legal

    def _update(self, step: Step, seat: int | None, current: bool) -> dict[str, Any]:
        """An update as ``seat`` (None: a spectator) may see it; ``legal`` and ``why_not``
        (always last) only when it is the latest update and that seat's decision."""
        fields: dict[str, Any] = {
            "room_id": self.room.id,
            "version": step.version,
            "kind": step.kind,
            "events": [project(e, seat) for e in step.events],
            "turn": step.turn,
            "deadline": step.deadline,
        }
        if step.seat is not None:
            fields["seat"] = step.seat
        if step.by is not None:
            fields["by"] = step.by
        if step.summary is not None:
            fields["room"] = step.summary
        if current:
            fields.update(self._legal(seat))
        return frame(p.Update, **fields)

    def summary(self) -> dict[str, Any]:
        summary = self.room.summary(self.ports.names)
        if summary["pause"] is not None:
            summary["pause"]["until"] = self.pause_until
        return summary

    async def relist(self) -> None:
        await self.ports.events.publish(RoomChanged(self.summary()))

    def snapshot(self, seat: int | None, player: str = "") -> dict[str, Any]:
        room = self.room
        insider = seat is not None or player == room.owner
        return frame(
            p.Snapshot,
            room_id=room.id,
            version=room.version,
            room=self.summary(),
            seat=seat,
            invite_code=room.invite_code if insider else None,
            view=self._view(seat),
            deadline=self.deadline_wall,
            chat=list(self.chat_lines),
            recent=self._recent(seat),
        )

    def _view(self, seat: int | None) -> dict[str, Any] | None:
        """The match as ``seat`` knows it; while nobody may act (the pause between deals, a
        closed room) its ``turn`` is null and it has no legal actions, as the updates say."""
        room = self.room
        if room.match is None:
            return None
        shown = view(room.match, seat).to_dict()
        if room.turn is None:
            shown["turn"], shown["legal"], shown["why_not"] = None, [], {}
        return shown

    def _recent(self, seat: int | None) -> list[dict[str, Any]]:
        """The updates of the current deal so far as ``seat`` saw them (what table talk is
        made of), as far back as the history goes."""
        steps = list(self.history)
        for first in range(len(steps) - 1, -1, -1):
            events = steps[first].events
            starts = [i for i, event in enumerate(events) if isinstance(event, DealStarted)]
            if starts:  # from the deal's start (not the last card of the deal before it)
                steps[first] = replace(steps[first], events=events[starts[-1] :])
                break
        else:
            first = 0
        return [self._update(step, seat, current=False) for step in steps[first:]]

    # -- membership ----------------------------------------------------------------------

    def _connected(self) -> frozenset[str]:
        """The players with a connection that follows the room."""
        return frozenset(m.player_id for m in self.members)

    def _attend(self) -> None:
        """An open room's deadline: when it must look again at who follows it."""
        self.deadline = self.room.attendance(self._connected(), self.clock.now())

    def attach(self, peer: Peer, seat: int | None, since: int | None = None) -> None:
        """Add a member and bring it up to date: missed updates, or a snapshot."""
        self.members[peer] = seat
        peer.follow(self)
        if self.room.status == OPEN:
            self._attend()
        missed = None if since is None else self.history.since(since)
        if missed == []:  # nothing to send: but it follows from here
            peer.caught_up(self.room.id, self.room.version)
        elif missed is not None:
            for step in missed:
                current = step.version == self.room.version
                update = self._update(step, seat, current)
                if current:  # the last one says how the room stands now
                    update["room"] = self.summary()
                peer.deliver(self.room.id, step.version, encode(update))
        else:
            frame = encode(self.snapshot(seat, peer.player_id))
            peer.deliver(self.room.id, self.room.version, frame, snapshot=True)

    def detach(self, peer: Peer) -> None:
        self.members.pop(peer, None)
        peer.left(self.room.id)
        if self.room.status == OPEN:
            self._attend()  # from this very moment (often called from outside the actor:
            self.tell(self._reattend)  # its task sets its timer)

    async def _reattend(self) -> None:
        if self.room.status == OPEN:
            self._attend()

    def _follows(self, peer: Peer) -> bool:
        """Whether ``peer`` follows this room; one whose room just moved here (its
        re-attachment still on its way) is re-attached now, from the last version it saw."""
        if peer in self.members:
            return True
        since = peer.following(self.key)
        if since is not None:
            self.attach(peer, self.room.seat_of(peer.player_id), since)
        return since is not None

    async def _unseat(self, player: str, seat: int, entries: list[Entry]) -> None:
        """``player`` loses ``seat`` by ``entries``: its connections follow the room as
        spectators from the entries' own updates on (they never see that seat's view or
        legal actions again), then get a snapshot that shows them without a seat."""
        leaving = [m for m, s in self.members.items() if m.player_id == player and s == seat]
        for member in leaving:
            self.members[member] = None
        try:
            await self.commit_all(entries)
        except BaseException:  # not committed: the seat is still theirs
            for member in leaving:
                if self.members.get(member, seat) is None:
                    self.members[member] = seat
            raise
        for member in leaving:
            if member in self.members:
                frame = encode(self.snapshot(None, member.player_id))
                member.deliver(self.room.id, self.room.version, frame, snapshot=True)

    # -- commands (run inside the actor via ``call``) -----------------------------------

    async def take_seat(self, peer: Peer, seat: int) -> None:
        player = peer.player_id
        moved = self.room.seat_of(player)
        await self.commit_all(self.room.take_seat(player, seat))
        if moved is not None:  # the player's other connections see from the new seat too
            for member, member_seat in list(self.members.items()):
                if member is not peer and member.player_id == player and member_seat == moved:
                    self.attach(member, seat)
        self.attach(peer, seat)

    async def watch(self, peer: Peer) -> None:
        self.attach(peer, self.room.seat_of(peer.player_id))

    async def resume(self, peer: Peer, since: int) -> None:
        entries = self.room.resume(peer.player_id, self.clock.wall())
        self.detach(peer)  # asked for: everything after ``since``, even what it had before
        self.attach(peer, self.room.seat_of(peer.player_id), since)
        await self.commit_all(entries)

    async def rejoin(self, peer: Peer, since: int) -> None:
        """A member whose room moved to this node, or whose updates were lost on the way
        (it was a member before, so no invite): what it missed since ``since``."""
        self.attach(peer, self.room.seat_of(peer.player_id), since)

    async def leave(self, peer: Peer) -> None:
        if self.room.seat_of(peer.player_id) is not None:
            await self.commit_all(self.room.leave(peer.player_id))
        self.detach(peer)
        if peer.player_id == self.room.owner and peer.player_id not in self._connected():
            await self.commit_all(self.room.pass_owner(self._connected()))  # at once

    async def add_cpu(self, peer: Peer, seat: int, level: str) -> None:
        await self.commit_all(self.room.add_cpu(peer.player_id, seat, level))

    async def remove(self, peer: Peer, seat: int) -> None:
        removed = self.room.seats[seat].player
        entries = self.room.remove(peer.player_id, seat)
        if removed is None:
            await self.commit_all(entries)
        else:
            await self._unseat(removed, seat, entries)

    async def ready(self, peer: Peer, ready: bool) -> None:
        await self.commit_all(self.room.ready(peer.player_id, ready))

    async def act(self, peer: Peer, text: str, version: int | None, started: float) -> None:
        follows, now = self._follows(peer), self.clock.wall()
        entries = self.room.act(peer.player_id, text, version, follows=follows, now=now)
        await self.commit_all(entries, started)

    async def back(self, peer: Peer) -> None:
        follows, now = self._follows(peer), self.clock.wall()
        await self.commit_all(self.room.back(peer.player_id, follows=follows, now=now))

    async def continue_(self, peer: Peer) -> None:
        follows, now = self._follows(peer), self.clock.wall()
        await self.commit_all(self.room.continue_(peer.player_id, follows=follows, now=now))

    async def hint(self, peer: Peer) -> tuple[Decision, asyncio.Future[dict[str, Any]]]:
        """The search for ``peer``'s hint, started here and awaited by the caller (never
        in the actor, whose mailbox keeps going)."""
        decision = self.room.hint(peer.player_id, follows=self._follows(peer))
        return decision, self.ports.bots.advise(decision.view, decision.seed)

    async def chat(self, peer: Peer, text: str) -> None:
        self.room.chat(peer.player_id, follows=self._follows(peer))
        message = frame(
            p.ChatOut,
            room_id=self.room.id,
            player_id=peer.player_id,
            nickname=peer.nickname,
            text=text,
            at=self.clock.wall(),
        )
        self.chat_lines.append(message)
        for member in list(self.members):
            member.send(message)

    async def begin(self) -> None:
        """Start a table whose seats were filled when it was made (tournaments)."""
        await self.commit_all([])

    async def on_message(self, message: Message) -> None:
        if isinstance(message, ReplaceWithCpu):
            seat = self.room.seat_of(message.player)
            if seat is not None:
                await self._unseat(message.player, seat, self.room.replace_with_cpu(message.player))
