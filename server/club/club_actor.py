"""One task per club: the only writer of its log.

The :class:`~server.club.club.Club` decides; the actor makes each entry durable, folds it
in, and sends every phone and screen that follows the club the club as it stands: its
organisers, members, evenings, season rule and season standing.  Each follower follows as
an organiser (its role is that organiser's id: what its code opened) or as a watcher
(:data:`VIEW`); an organiser revoked while following watches from then on.

The club's evenings tell it when they change (:class:`EveningChanged`): the actor reads the
evening's new log entries, links its new entrants to members (a walk-in becomes one), and
once the evening is over counts each member's evening total from the evening's standing,
worked out from its tables' sheets as the evening does.  Loaded again (after a rest, a
restart or a move), it reads every evening of the club before anything else, and counts
each that is over and not counted yet; a correction to a counted evening's sheet reaches it
as a message (the evening loads the club to tell it).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from ..core.logs import log
from ..runtime.actor_messages import EveningChanged, Message
from ..runtime.followed import FollowedActor
from ..runtime.peer import encode
from ..runtime.router import CLUB
from ..wire import protocol as p
from ..wire.frames import frame
from .club import ORGANISER, VIEW, Club
from .club_entries import Entry

if TYPE_CHECKING:
    from ..runtime.peer import Peer
    from ..runtime.ports import Ports
    from ..scoresheet.sheet import Sheet
    from .evening import Evening

IDLE_SECONDS = 900.0  # a club nobody follows stays loaded this long

Command = Callable[[Club], Awaitable[list[Entry]]]  # a transition, with what it needs
ReadEvening = Callable[[str, "Evening | None"], Awaitable["Evening"]]
ReadSheets = Callable[[list[str]], Awaitable[dict[str, "Sheet"]]]


class ClubActor(FollowedActor):
    kind = CLUB
    idle_seconds = IDLE_SECONDS

    def __init__(
        self, club: Club, read_evening: ReadEvening, read_sheets: ReadSheets, ports: Ports
    ) -> None:
        super().__init__(ports.clock, f"club {club.id}", log.bind(club_id=club.id))
        self.club = club
        self.evenings: dict[str, Evening] = {}  # each evening of the club, as its log has it
        self.read_evening = read_evening  # an evening's log, read (on from a copy)
        self.read_sheets = read_sheets  # sheets' logs, read at once
        self.ports = ports

    @property
    def key(self) -> str:
        return self.club.id

    async def on_message(self, message: Message) -> None:
        if isinstance(message, EveningChanged) and message.evening_id in self.club.evenings:
            await self.catch_up(message.evening_id, recount=True)
            self.publish()

    # -- its evenings --------------------------------------------------------------------

    async def catch_up_all(self) -> None:
        """Every evening of the club read, the new entrants linked, and those over counted
        (what the club was not told while it rested)."""
        for evening_id, known in list(self.club.evenings.items()):
            await self.catch_up(evening_id, recount=known.totals is None)
        self.publish()

    async def catch_up(self, evening_id: str, recount: bool) -> None:
        """``evening_id``'s new entries read: its new entrants become members, and once it
        is over (``recount``: again) each member's evening total counts."""
        evening = await self.read_evening(evening_id, self.evenings.get(evening_id))
        self.evenings[evening_id] = evening
        at = self.ports.clock.wall()
        entrants = [(e.id, e.member, e.members or (e.name,)) for e in evening.entrants.values()]
        await self.commit(self.club.join(at, evening_id, entrants))
        if evening.over and recount:
            ids = [s for r in evening.rounds for s in r.sheets]
            sheets = await self.read_sheets(ids)
            totals = {row.player: row.total for row in evening.standing(sheets).rows}
            await self.commit(self.club.count(at, evening_id, totals))

    def states(self) -> dict[str, dict[str, Any]]:
        """Each evening's progress: ``open`` (no round drawn), ``playing`` or ``over``; its
        rounds, the rounds drawn and its entrants."""
        shown = {}
        for evening_id, e in self.evenings.items():
            state = "over" if e.over else "playing" if e.rounds else "open"
            shown[evening_id] = {"state": state, "rounds": e.created.rounds,
                                 "drawn": len(e.rounds), "entrants": len(e.entrants)}  # fmt: skip
        return shown

    # -- following -----------------------------------------------------------------------

    def open(self, peer: Peer, who: str) -> None:
        """``peer`` follows the club as the organiser ``who`` (or :data:`VIEW`)."""
        self.attach(peer, who)
        peer.deliver(self.key, self.club.version, encode(self.snapshot(who)), snapshot=True)

    def rejoin(self, peer: Peer) -> None:
        """A follower whose club moved here: the club as it stands, as it saw it."""
        self.open(peer, self.members.get(peer, VIEW))

    def publish(self) -> None:
        """Every follower gets the club as it stands (the standing worked out once, one
        encoding an organiser); a revoked organiser's followers watch from now on."""
        sent: dict[str, str] = {}
        standing = self.club.standing_dict() if self.members else {}
        for member, who in list(self.members.items()):
            if who != VIEW and who not in self.club.organisers:
                self.members[member] = who = VIEW
            if who not in sent:
                sent[who] = encode(self.snapshot(who, standing))
            member.deliver(self.key, self.club.version, sent[who], snapshot=True)

    def snapshot(self, who: str, standing: dict[str, Any] | None = None) -> dict[str, Any]:
        club = self.club
        organiser = None if who == VIEW else who
        codes = {"view": club.created.view_code}
        if organiser is not None:
            codes["organiser"] = club.organisers[organiser].code
        return frame(
            p.ClubOut,
            club_id=self.key,
            version=club.version,
            role=VIEW if organiser is None else ORGANISER,
            organiser=organiser,
            codes=codes,
            **club.summary(organiser, self.states()),
            standing=club.standing_dict() if standing is None else standing,
        )

    # -- changing ------------------------------------------------------------------------

    async def commit(self, entries: list[Entry]) -> None:
        """Each entry durable, then folded in."""
        for entry in entries:
            await self.ports.journal.append(
                self.key, self.club.version + 1, entry.to_dict(), self.epoch
            )
            self.club.apply(entry)

    async def change(self, command: Command) -> None:
        """Run a transition and commit what it says, then tell every follower."""
        await self.commit(await command(self.club))
        self.publish()
