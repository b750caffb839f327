"""Score sheets: making them, finding one by the code of its link, and the actor kind.

A sheet has two secret codes, made like invite codes: the edit code for the people at the
table and the view code for onlookers.  Every command names its sheet by a code; a change
needs the edit code.  Sheets have no timers, so none is loaded at start: the first command
for one loads it (:meth:`Sheets.absent`), wherever its log is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine import NotationError, Rules

from ..core.errors import room_unavailable
from ..core.ids import new_id, new_invite_code, normalize_code
from ..core.lru import Lru
from ..runtime.router import SHEET, Ref
from ..store.sheets import SheetRow
from ..wire import protocol as p
from . import sheet_entries as entries
from .sheet import Draft, Sheet, SheetError, created
from .sheet_actor import SheetActor

if TYPE_CHECKING:
    from ..lobby import Identity
    from ..runtime.peer import Peer
    from ..runtime.ports import Ports
    from ..store.sheets import SheetStore


CODES_CACHED = 4096  # the codes looked up lately, kept (an older one is looked up again)


class Sheets:
    name = SHEET

    def __init__(self, ports: Ports, store: SheetStore, identity: Identity) -> None:
        self.ports = ports
        self.store = store
        self.identity = identity
        self.codes: Lru[str, tuple[str, str]] = Lru(CODES_CACHED)  # -> (id, edit | view)

    async def create(self, peer: Peer, m: p.SheetCreate) -> None:
        """A new sheet, followed by its creator, who gets both codes."""
        if m.target is not None and m.deals is not None:
            raise p.ProtocolError("invalid_field", "give a target or a number of deals, not both")
        end = {"deals": m.deals} if m.deals is not None else {"target": m.target or 1500}
        try:
            rules = Rules.from_dict({**end, "pit_bonus": m.pit_bonus})
        except NotationError as err:  # pragma: no cover - the protocol's ranges are the engine's
            raise p.ProtocolError("invalid_field", str(err)) from None
        wall = self.ports.clock.wall()
        first = created(peer.player_id, wall, m.teams, m.players, m.first_dealer, rules)
        row = SheetRow(new_id("s"), new_invite_code(), new_invite_code(), wall)
        await self.store.add_sheet(row, first.to_dict())
        epoch = await self.ports.router.own(Ref(SHEET, row.id))
        actor = self._launch(Sheet.from_log(row.id, [first]), epoch)
        codes = {"edit": row.edit_code, "view": row.view_code}
        await actor.call(lambda: self._open(actor, peer, codes))

    async def make(
        self, sheet_id: str, by: str, players: tuple[str, ...], rules: Rules, evening: str,
        table: entries.EveningTable | None = None,
    ) -> SheetRow:  # fmt: skip
        """A club evening's table: a sheet with its four players (seat 0 deals first) that
        tells the evening of every change and shows where it sits (``table``); loaded
        when a phone opens it."""
        wall = self.ports.clock.wall()
        first = created(by, wall, None, players, 0, rules, evening, table)
        row = SheetRow(sheet_id, new_invite_code(), new_invite_code(), wall)
        await self.store.add_sheet(row, first.to_dict())
        return row

    async def rows(self, sheet_ids: list[str]) -> dict[str, SheetRow]:
        """The rows (and codes) of these sheets, read at once."""
        return {row.id: row for row in await self.store.sheets(sheet_ids)}

    async def replay_all(self, sheet_ids: list[str]) -> dict[str, Sheet]:
        """These sheets as their logs hold them, read at once (a club evening's tables)."""
        logs = await self.store.logs(sheet_ids)
        return {
            key: Sheet.from_log(key, [entries.decode(e.entry) for e in log])
            for key, log in logs.items()
        }

    async def replay(self, key: str, after: Sheet | None = None) -> Sheet:
        """The sheet as its log holds it (``after``: that copy, brought up to date)."""
        if after is None:
            return await self._replay(key)
        for e in await self.store.log(key, after.version):
            after.apply(entries.decode(e.entry))
        return after

    async def _open(self, actor: SheetActor, peer: Peer, codes: dict[str, str]) -> None:
        actor.open(peer, codes)

    def _launch(self, sheet: Sheet, epoch: int | None) -> SheetActor:
        actor = SheetActor(sheet, self.ports)
        actor.epoch = epoch
        self.ports.router.hold(actor)
        return actor

    async def find(self, code: str) -> tuple[str, str]:
        """The sheet a link's code opens, and whether it may change it (``edit``)."""
        code = normalize_code(code)
        found = self.codes.get(code)
        if found is None:
            row = await self.store.sheet_by_code(code)
            if row is None:
                raise p.ProtocolError("bad_sheet_code", "no score sheet has that code")
            found = (row.id, "edit" if code == row.edit_code else "view")
            self.codes[code] = found
        return found

    async def read(self, code: str) -> Sheet:
        """The sheet a code opens, as its log in the store has it (for the exports)."""
        sheet_id, _ = await self.find(code)
        return await self._replay(sheet_id)

    async def _replay(self, key: str) -> Sheet:
        log = [entries.decode(e.entry) for e in await self.store.log(key)]
        return Sheet.from_log(key, log)

    # -- the actor kind ------------------------------------------------------------------

    async def live(self) -> list[str]:
        return []  # loaded when asked for

    async def load(self, key: str, epoch: int | None) -> SheetActor | None:
        if await self.store.sheet(key) is None:
            return None
        sheet = await self._replay(key)
        for by in [sheet.created.by, *(item["by"] for item in sheet.history)]:
            await self.identity.nickname(by)
        return self._launch(sheet, epoch)

    async def handle(self, actor: SheetActor, peer: Peer, m: Any) -> None:
        sheet_id, role = await self.find(m.code)
        if sheet_id != actor.key:  # pragma: no cover - the session routed it by this code
            raise p.ProtocolError("bad_sheet_code", "no score sheet has that code")
        match m:
            case p.SheetOpen():
                row = await self.store.sheet(sheet_id)
                assert row is not None
                codes = {"view": row.view_code}
                if role == "edit":
                    codes["edit"] = row.edit_code
                await actor.call(lambda: self._open(actor, peer, codes))
            case p.SheetLeave():
                await actor.call(lambda: self._leave(actor, peer))
            case _ if role != "edit":
                raise SheetError(
                    "read_only", "this link only shows the sheet: ask the table for its edit link"
                )
            case _:
                command = _transition(m, peer.player_id, self.ports.clock.wall())
                await actor.call(lambda: actor.change(peer, command, m.ref))

    async def _leave(self, actor: SheetActor, peer: Peer) -> None:
        actor.detach(peer)

    async def absent(self, key: str, peer: Peer, m: Any) -> None:
        """Not loaded anywhere: load it here (its last node may still hold its lease for
        a moment: then try again shortly)."""
        actor = await self.ports.router.adopt(Ref(SHEET, key))
        if actor is None:
            raise room_unavailable()
        await self.handle(actor, peer, m)

    def rejoin(self, actor: SheetActor, peer: Peer, since: int) -> None:
        actor.tell(lambda: actor.rejoin(peer, since))

    async def ended(self, key: str, peer: Peer, since: int) -> bool:
        return False  # a sheet never ends: a phone opens it again


def _draft(m: p.SheetDeal) -> Draft:
    return Draft(m.playing, (m.points[0], m.points[1]), (m.roem[0], m.roem[1]), m.pit)


def _transition(m: Any, by: str, at: float) -> Any:
    """The sheet's transition a change names, made by ``by`` at ``at`` on ``m.version``."""
    v = m.version
    match m:
        case p.SheetEdit():
            return lambda s: s.edit(by, at, v, m.deal_id, _draft(m))
        case p.SheetDeal():
            return lambda s: s.enter(by, at, v, _draft(m))
        case p.SheetDelete():
            return lambda s: s.delete(by, at, v, m.deal_id)
        case p.SheetDealer():
            return lambda s: s.set_dealer(by, at, v, m.seat)
        case p.SheetUndo():
            return lambda s: s.undo(by, at, v)
        case p.SheetRedo():
            return lambda s: s.redo(by, at, v)
        case p.SheetContinue():
            return lambda s: s.continue_(by, at, v)
        case p.SheetNewGame():
            return lambda s: s.new_game(by, at, v)
    raise TypeError(f"not a sheet change: {type(m).__name__}")
