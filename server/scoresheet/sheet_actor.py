"""One task per score sheet: the only writer of its log.

The :class:`~server.sheet.sheet.Sheet` decides; the actor makes each entry durable, folds
it in, then sends every phone that follows the sheet the new version (its full summary and
the change in words), so phones that enter at the same moment are put in one order here
and the later one's change, made on a version that is gone, is refused.  A phone that
comes back from a version gets the updates after it while the sheet's
:class:`~server.runtime.history.History` keeps them, else the sheet whole.  A sheet nobody
follows for :data:`IDLE_SECONDS` lets its task end
(:class:`~server.runtime.followed.FollowedActor`); the next phone to open it loads it
again from its log.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..core.logs import log
from ..runtime.actor_messages import SheetChanged
from ..runtime.followed import FollowedActor
from ..runtime.history import History
from ..runtime.peer import encode
from ..runtime.router import EVENING, SHEET, Ref
from ..wire import protocol as p
from ..wire.frames import frame
from .sheet import Sheet
from .sheet_entries import Entry

if TYPE_CHECKING:
    from ..runtime.peer import Peer
    from ..runtime.ports import Ports

IDLE_SECONDS = 600.0  # a sheet nobody follows stays loaded this long

Command = Callable[[Sheet], list[Entry]]  # a transition of the sheet, bound to its arguments


class SheetActor(FollowedActor):
    kind = SHEET
    idle_seconds = IDLE_SECONDS

    def __init__(self, sheet: Sheet, ports: Ports) -> None:
        super().__init__(ports.clock, f"sheet {sheet.id}", log.bind(sheet_id=sheet.id))
        self.sheet = sheet
        self.ports = ports
        self.changes: History[dict[str, Any]] = History(ports.settings.history, 1)
        for line in sheet.history:  # a line a version after its creation (version 1)
            self.changes.append(line["version"], line)

    @property
    def key(self) -> str:
        return self.sheet.id

    # -- following -----------------------------------------------------------------------

    def open(self, peer: Peer, codes: dict[str, str]) -> None:
        """``peer`` follows the sheet: a snapshot, with the codes its link gives it."""
        role = "edit" if "edit" in codes else "view"
        self.attach(peer, role)
        sheet = frame(p.SheetOut, sheet_id=self.key, version=self.sheet.version, role=role,
                      codes=codes, sheet=self.summary(), history=self.history())  # fmt: skip
        peer.deliver(self.key, self.sheet.version, encode(sheet), snapshot=True)

    async def rejoin(self, peer: Peer, since: int) -> None:
        """A follower whose sheet moved here, or whose updates were lost on the way (it
        keeps the codes it had): the changes after ``since``, each with the sheet as it
        stands now, while they are kept; else the sheet as it stands, history and all."""
        self.attach(peer, self.members.get(peer, "view"))
        missed, summary = self.changes.since(since), self.summary()
        if missed is None:
            whole = self._update(None, self.sheet.version, summary)
            peer.deliver(self.key, self.sheet.version, encode(whole))
            return
        for line in missed:
            frame = encode(self._update(line, line["version"], summary))
            peer.deliver(self.key, line["version"], frame)

    # -- changing ------------------------------------------------------------------------

    async def change(self, peer: Peer, command: Command, ref: str | None) -> None:
        """Run a transition made by ``peer``'s player (who follows the sheet from now on),
        and commit what it says; ``peer``'s copy of the update carries its ``ref``."""
        if peer not in self.members:
            self.attach(peer, "edit")
        for entry in command(self.sheet):
            await self.commit(entry, peer, ref)

    async def commit(self, entry: Entry, by: Peer, ref: str | None) -> None:
        """Durable first, then folded in, then sent to every follower."""
        sheet = self.sheet
        await self.ports.journal.append(sheet.id, sheet.version + 1, entry.to_dict(), self.epoch)
        sheet.apply(entry)
        line = sheet.history[-1]
        self.changes.append(sheet.version, line)
        update = self._update(line, sheet.version, self.summary())
        frame = encode(update)
        for member in list(self.members):
            if member is by and ref is not None:
                member.deliver(sheet.id, sheet.version, encode({**update, "ref": ref}))
            else:
                member.deliver(sheet.id, sheet.version, frame)
        if sheet.created.evening is not None:  # a club evening's table: its standing moves
            await self.ports.router.tell(
                Ref(EVENING, sheet.created.evening), SheetChanged(sheet.id)
            )

    def _update(
        self, change: dict[str, Any] | None, version: int, summary: dict[str, Any]
    ) -> dict[str, Any]:
        """Version ``version``: its change in words, or (``None``) the whole history; and
        the sheet's ``summary``."""
        said = {"history": self.history()} if change is None else {"change": self._named(change)}
        return frame(p.SheetUpdateOut, sheet_id=self.key, version=version, sheet=summary, **said)

    def summary(self) -> dict[str, Any]:
        return self.sheet.summary(self.ports.names)

    def history(self) -> list[dict[str, Any]]:
        return [self._named(item) for item in self.sheet.history]

    def _named(self, item: dict[str, Any]) -> dict[str, Any]:
        return {**item, "by": self.ports.names.get(item["by"], item["by"])}
