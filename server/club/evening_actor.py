"""One task per club evening: the only writer of its log.

The :class:`~server.club.evening.Evening` decides; the actor makes each entry durable,
folds it in, and sends every phone and screen that follows the evening the evening as it
stands: its entrants, the open round's tables with their sheets' codes and live totals,
the standing worked out from the tables' sheets, and how fair the draws were.  A table's
sheet tells the evening when it changes (:class:`SheetChanged`); the actor reads that
sheet's new entries from its log and sends the new standing.  A club's evening tells its
club of each change (:class:`EveningChanged`), and of each correction once it is over: the
club counts its standing in the season.  An evening nobody follows
for :data:`IDLE_SECONDS` lets its task end (:class:`~server.runtime.followed.FollowedActor`);
the next phone to open it loads it again, its sheets read afresh.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from ..core.errors import Unavailable
from ..core.logs import log
from ..runtime.actor_messages import EveningChanged, Message, SheetChanged
from ..runtime.followed import FollowedActor
from ..runtime.peer import encode
from ..runtime.router import CLUB, EVENING, Ref
from ..store.errors import StoreError
from ..wire import protocol as p
from ..wire.frames import frame
from .evening import Evening
from .evening_entries import Entry

if TYPE_CHECKING:
    from ..runtime.peer import Peer
    from ..runtime.ports import Ports
    from ..scoresheet.sheet import Sheet
    from ..store.sheets import SheetRow

IDLE_SECONDS = 900.0  # an evening nobody follows stays loaded this long
ORGANISER, VIEW = "organiser", "view"

Command = Callable[[Evening], Awaitable[list[Entry]]]  # a transition, with what it needs


class EveningActor(FollowedActor):
    kind = EVENING
    idle_seconds = IDLE_SECONDS

    def __init__(
        self,
        evening: Evening,
        codes: dict[str, str],
        sheets: dict[str, Sheet],
        rows: dict[str, SheetRow],
        read: Callable[[str, Sheet | None], Awaitable[Sheet]],
        ports: Ports,
    ) -> None:
        super().__init__(ports.clock, f"evening {evening.id}", log.bind(evening_id=evening.id))
        self.evening = evening
        self.codes = codes  # organiser and view
        self.sheets = sheets  # each table's sheet, as its log holds it
        self.rows = rows  # each table's codes
        self.read = read  # a sheet's log, read (on from a copy)
        self.ports = ports
        self._publishing = False  # a publish is queued behind the messages in hand
        self._drawn: tuple[int, dict[str, Any], dict[str, Any]] | None = None  # by version

    @property
    def key(self) -> str:
        return self.evening.id

    async def on_message(self, message: Message) -> None:
        if isinstance(message, SheetChanged) and message.sheet_id in self.rows:
            key = message.sheet_id
            self.sheets[key] = await self.read(key, self.sheets.get(key))
            if not self._publishing:  # one publish for the changes queued together
                self._publishing = True
                self.tell(self._publish_queued)

    async def _publish_queued(self) -> None:
        self._publishing = False
        self.publish()
        if self.evening.over:  # a correction after the evening: its club counts it again
            await self.tell_club()

    # -- following -----------------------------------------------------------------------

    def open(self, peer: Peer, role: str) -> None:
        """``peer`` follows the evening, with the role its code gives it."""
        self.attach(peer, role)
        peer.deliver(self.key, self.evening.version, encode(self.snapshot(role)), snapshot=True)

    def rejoin(self, peer: Peer) -> None:
        """A follower whose evening moved here: the evening as it stands, as it saw it."""
        self.open(peer, self.members.get(peer, VIEW))

    def publish(self) -> None:
        """Every follower gets the evening as it stands (the standing worked out once,
        one encoding a role)."""
        sent: dict[str, str] = {}
        standing = self._standing() if self.members else {}
        for member, role in list(self.members.items()):
            if role not in sent:
                sent[role] = encode(self.snapshot(role, standing))
            member.deliver(self.key, self.evening.version, sent[role], snapshot=True)

    def snapshot(self, role: str, standing: dict[str, Any] | None = None) -> dict[str, Any]:
        evening = self.evening
        organiser = role == ORGANISER
        codes = dict(self.codes) if organiser else {"view": self.codes["view"]}
        summary, fairness = self._draws()
        return frame(
            p.EveningOut,
            evening_id=self.key,
            version=evening.version,
            role=role,
            codes=codes,
            evening=summary,
            tables=self._tables(organiser),
            standing=self._standing() if standing is None else standing,
            fairness=fairness,
        )

    def _standing(self) -> dict[str, Any]:
        return self.evening.standing(self.sheets).to_dict(scores=False)

    def _draws(self) -> tuple[dict[str, Any], dict[str, Any]]:
        """The evening's summary and its draws' fairness: they change only with its
        version (a sheet's deal changes neither)."""
        version = self.evening.version
        if self._drawn is None or self._drawn[0] != version:
            self._drawn = (version, self.evening.summary(), self.evening.fairness().to_dict())
        return self._drawn[1], self._drawn[2]

    def _tables(self, organiser: bool) -> list[dict[str, Any]]:
        """The latest round's tables: who sits where, the sheet's codes (its edit code, the
        table's code, to organisers: their screen shows it), and its game so far."""
        if not self.evening.rounds:
            return []
        current = self.evening.rounds[-1]
        shown = []
        for number, (seats, sheet_id) in enumerate(
            zip(current.tables, current.sheets, strict=True)
        ):
            row = self.rows.get(sheet_id)
            sheet = self.sheets.get(sheet_id)
            game = sheet.games[0] if sheet is not None else None
            table: dict[str, Any] = {
                "table": number + 1,
                "round": current.number,
                "entrants": list(seats),
                "sheet_id": sheet_id,
                "view_code": row.view_code if row is not None else None,
                "deals": len(game.deals) if game is not None else 0,
                "totals": list(game.totals) if game is not None and game.deals else None,
                "finished": bool(sheet is not None and game is not None and game.deals
                                 and sheet.over(game)),
            }  # fmt: skip
            if organiser:
                table["code"] = row.edit_code if row is not None else None
            shown.append(table)
        return shown

    # -- changing ------------------------------------------------------------------------

    def started(self) -> set[int]:
        """The open round's tables at which a deal was entered."""
        current = self.evening.open_round
        if current is None:
            return set()
        return {
            i for i, sheet_id in enumerate(current.sheets)
            if (sheet := self.sheets.get(sheet_id)) is not None and sheet.version > 1
        }  # fmt: skip

    async def change(self, command: Command) -> None:
        """Run a transition and commit what it says, then tell every follower."""
        for entry in await command(self.evening):
            await self.ports.journal.append(
                self.key, self.evening.version + 1, entry.to_dict(), self.epoch
            )
            self.evening.apply(entry)
        self.publish()
        await self.tell_club()

    async def tell_club(self) -> None:
        """The evening's club, if it has one, hears that it changed; once the evening is
        over (its result counts) the club is loaded to hear it, wherever it runs."""
        club = self.evening.created.club
        if club is None:
            return
        ref = Ref(CLUB, club)
        try:
            if self.evening.over:
                await self.ports.router.adopt(ref)
            await self.ports.router.tell(ref, EveningChanged(self.key))
        except (Unavailable, StoreError) as err:  # the club reads it when it loads next
            self.log.warning("club_not_told", club_id=club, error=str(err))
