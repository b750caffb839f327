"""Club evenings: making them, finding one by the code of its link, the actor kind, and
the messages a connection sends them (attached by ``server.app`` as a feature's handlers).

An evening has two secret codes, made like invite codes: the organiser code (check-in,
draws, swaps, closing rounds; the screen on the wall shows the tables' codes from it) and
the view code (the players' phones, anyone watching).  Each table of a round is a score
sheet the evening makes, with its four players, that tells the evening of every change.
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from engine import NotationError, Rules

from ..core.errors import room_unavailable
from ..core.ids import new_id, new_invite_code, normalize_code
from ..core.lru import Lru
from ..core.text import check_name
from ..runtime.router import EVENING, Ref
from ..scoresheet.sheet_entries import EveningTable
from ..store.evenings import EveningRow
from ..wire import protocol as p
from . import draw
from . import evening_entries as entries
from .club import MAX_MEMBERS
from .evening import NAME_LENGTH as ENTRANT_NAME
from .evening import Evening, EveningError
from .evening_actor import ORGANISER, VIEW, EveningActor

if TYPE_CHECKING:
    from ..runtime.features import Handler
    from ..runtime.peer import Peer
    from ..runtime.ports import Ports
    from ..scoresheet.sheets import Sheets
    from ..store.evenings import EveningStore
    from .club import Club

CODES_CACHED = 4096
NAME_LENGTH = 40  # an evening's name, at most
Coded = Callable[[Any, Awaitable[Any]], Awaitable[Any]]  # a code's check, counted per address


class Evenings:
    name = EVENING

    def __init__(self, ports: Ports, store: EveningStore, sheets: Sheets) -> None:
        self.ports = ports
        self.store = store
        self.sheets = sheets
        self.codes: Lru[str, tuple[str, str]] = Lru(CODES_CACHED)  # -> (id, role)
        # A club's roster as its log has it, for its evenings' check-ins (set by the clubs).
        self.roster: Callable[[str], Awaitable[Club]] | None = None

    async def create(self, peer: Peer, m: p.EveningCreate, club: str | None = None) -> EveningRow:
        """A new evening (of ``club``, if given), followed by its organiser, who gets both
        codes."""
        if m.target is not None and m.deals is not None:
            raise p.ProtocolError("invalid_field", "give a target or a number of deals, not both")
        end = {"deals": m.deals} if m.deals is not None else (
            {"target": m.target} if m.target is not None else {"deals": 16}
        )  # fmt: skip
        try:
            rules = Rules.from_dict({**end, "variant": m.variant, "pit_bonus": m.pit_bonus})
        except NotationError as err:  # pragma: no cover - the protocol's ranges are the engine's
            raise p.ProtocolError("invalid_field", str(err)) from None
        wall = self.ports.clock.wall()
        sit_out = m.sit_out.model_dump() if m.sit_out is not None else None
        prizes = m.prizes.model_dump() if m.prizes is not None else None
        seed = secrets.randbits(48)  # kept in the log: every draw follows from it
        first = entries.Created(
            peer.player_id, wall, _name(m.name), rules, m.format, m.rounds, sit_out, prizes, seed,
            club,
        )  # fmt: skip
        row = EveningRow(new_id("v"), new_invite_code(), new_invite_code(), wall)
        await self.store.add_evening(row, first.to_dict())
        epoch = await self.ports.router.own(Ref(EVENING, row.id))
        evening = Evening.from_log(row.id, [first])
        actor = self._launch(self._actor(evening, row, {}, {}), epoch)
        await actor.call(lambda: self._open(actor, peer, ORGANISER))
        return row

    async def find(self, code: str) -> tuple[str, str]:
        """The evening a link's code opens, and whether it runs it (``organiser``)."""
        code = normalize_code(code)
        found = self.codes.get(code)
        if found is None:
            row = await self.store.evening_by_code(code)
            if row is None:
                raise p.ProtocolError("bad_evening_code", "no club evening has that code")
            found = (row.id, ORGANISER if code == row.organiser_code else VIEW)
            self.codes[code] = found
        return found

    async def read(self, code: str) -> dict[str, Any]:
        """The ``evening`` frame a follower with ``code`` gets, as the evening's log and its
        tables' sheets in the store have it (for the printable pages, on any server)."""
        evening_id, role = await self.find(code)
        actor = await self._replay(evening_id)
        if actor is None:  # pragma: no cover - a code's evening is stored with it
            raise p.ProtocolError("bad_evening_code", "no club evening has that code")
        return actor.snapshot(role)  # an actor never started: what it would send

    # -- the actor kind ------------------------------------------------------------------

    async def live(self) -> list[str]:
        return []  # loaded when asked for

    async def load(self, key: str, epoch: int | None) -> EveningActor | None:
        actor = await self._replay(key)
        return None if actor is None else self._launch(actor, epoch)

    async def _replay(self, key: str) -> EveningActor | None:
        """The evening's actor as its log and its tables' sheets have it, not running."""
        row = await self.store.evening(key)
        if row is None:
            return None
        evening = await self.replay(key)
        ids = [s for r in evening.rounds for s in r.sheets]
        rows = await self.sheets.rows(ids)
        sheets = await self.sheets.replay_all(ids)
        return self._actor(evening, row, sheets, rows)

    async def replay(self, key: str, after: Evening | None = None) -> Evening:
        """The evening as its log holds it (``after``: that copy, brought up to date)."""
        if after is None:
            log = [entries.decode(e.entry) for e in await self.store.log(key)]
            return Evening.from_log(key, log)
        for e in await self.store.log(key, after.version):
            after.apply(entries.decode(e.entry))
        return after

    def _actor(self, evening: Evening, row: EveningRow, sheets: dict, rows: dict) -> EveningActor:
        codes = {"organiser": row.organiser_code, "view": row.view_code}
        return EveningActor(evening, codes, sheets, rows, self.sheets.replay, self.ports)

    def _launch(self, actor: EveningActor, epoch: int | None) -> EveningActor:
        actor.epoch = epoch
        self.ports.router.hold(actor)
        return actor

    async def handle(self, actor: EveningActor, peer: Peer, m: Any) -> None:
        evening_id, role = await self.find(m.code)
        if evening_id != actor.key:  # pragma: no cover - routed by this code
            raise p.ProtocolError("bad_evening_code", "no club evening has that code")
        match m:
            case p.EveningOpen():
                await actor.call(lambda: self._open(actor, peer, role))
            case p.EveningLeave():
                await actor.call(lambda: self._leave(actor, peer))
            case _ if role != ORGANISER:
                raise EveningError(
                    "organisers_only", "only the evening's organisers do that: ask them"
                )
            case _:
                command = self._command(actor, peer.player_id, m)
                await actor.call(lambda: actor.change(command))

    async def _open(self, actor: EveningActor, peer: Peer, role: str) -> None:
        actor.open(peer, role)

    async def _leave(self, actor: EveningActor, peer: Peer) -> None:
        actor.detach(peer)

    async def absent(self, key: str, peer: Peer, m: Any) -> None:
        actor = await self.ports.router.adopt(Ref(EVENING, key))
        if actor is None:
            raise room_unavailable()
        await self.handle(actor, peer, m)  # type: ignore[arg-type]

    def rejoin(self, actor: EveningActor, peer: Peer, since: int) -> None:
        actor.tell(lambda: _rejoin(actor, peer))

    async def ended(self, key: str, peer: Peer, since: int) -> bool:
        return False  # an evening never ends for its followers: its results stay

    # -- commands ------------------------------------------------------------------------

    def _command(self, actor: EveningActor, by: str, m: Any) -> Any:
        """The evening's transition ``m`` names, as an async step of the actor (a draw or
        a swap makes its tables' sheets before its entry is written)."""
        at, v = self.ports.clock.wall(), m.version

        async def step(e: Evening) -> list[entries.Entry]:
            match m:
                case p.EveningCheckIn():
                    name, member = await self._who(e, m)
                    return e.check_in(by, at, v, name, m.members, member)
                case p.EveningWithdraw():
                    return e.withdraw(by, at, v, m.entrant)
                case p.EveningDraw():
                    ids = [new_id("s") for _ in range(len(e.present()) // 2 + 1)]
                    drawn = e.draw(by, at, v, ids)
                    (entry,) = drawn
                    assert isinstance(entry, entries.Drawn)
                    tables = zip(entry.tables, entry.sheets, strict=True)
                    for number, (seats, sheet_id) in enumerate(tables, 1):
                        await self._table(actor, by, seats, sheet_id, entry.round, number)
                    return drawn
                case p.EveningSwap():
                    ids = [new_id("s"), new_id("s")]
                    swapped = e.swap(by, at, v, m.a, m.b, actor.started(), ids)
                    (entry,) = swapped
                    assert isinstance(entry, entries.Swapped)
                    current = e.open_round
                    assert current is not None
                    tables = zip(current.tables, entry.sheets, strict=True)
                    for number, (seats, sheet_id) in enumerate(tables, 1):
                        if sheet_id not in current.sheets:  # a table either of them moved
                            moved = draw.exchanged(seats, m.a, m.b)
                            await self._table(actor, by, moved, sheet_id, current.number, number)
                    return swapped
                case p.EveningUndoDraw():
                    return e.undo_draw(by, at, v, actor.started())
                case p.EveningClose():
                    return e.close(by, at, v)
                case p.EveningPenalty():
                    return e.penalise(by, at, v, m.entrant, m.points, m.round)
            raise TypeError(f"not an evening command: {type(m).__name__}")  # pragma: no cover

        return step

    async def _who(self, e: Evening, m: p.EveningCheckIn) -> tuple[str, str | None]:
        """Who checks in: a name, or at a club's evening a member of the club (named by
        ``member``, or by a name a member has: the member's spelling; a walk-in's name
        makes a new member, if the club has room)."""
        if (m.name is None) == (m.member is None):
            raise p.ProtocolError("invalid_field", "give a name or a member, one of them")
        club = e.created.club
        if club is None or self.roster is None:
            if m.member is not None:
                raise EveningError("not_a_club_evening", "only a club's evening has members")
            return str(m.name), None
        roster = await self.roster(club)
        if m.member is not None:
            member = roster.members.get(m.member)
            if member is None:
                raise EveningError("no_such_member", f"the club has no member {m.member!r}")
            return member.name, member.id
        name = _entrant_name(str(m.name))
        member = None if e.pairs else roster.member_named(name)
        if member is not None:
            return member.name, member.id
        new = [n for n in (m.members or [name]) if roster.member_named(n) is None]
        if len(roster.members) + len(new) > MAX_MEMBERS:
            raise EveningError("club_full", f"a club has at most {MAX_MEMBERS} members")
        return name, None

    async def _table(
        self, actor: EveningActor, by: str, seats: tuple[str, ...], sheet_id: str,
        round_: int, number: int,
    ) -> None:  # fmt: skip
        """Table ``number``'s score sheet in round ``round_``, its players named as the
        evening knows them, the evening named on it (its view link leads to the standing)."""
        evening = actor.evening
        names = [evening.entrants[s] for s in seats]
        if evening.pairs:
            ns, ew = names
            players = (ns.members[0], ew.members[0], ns.members[1], ew.members[1])
        else:
            players = tuple(n.name for n in names)
        where = EveningTable(evening.created.name, actor.codes["view"], round_, number)
        rules = evening.created.rules
        row = await self.sheets.make(sheet_id, by, players, rules, actor.key, where)
        actor.rows[sheet_id] = row
        actor.sheets[sheet_id] = await self.sheets.replay(sheet_id)


async def _rejoin(actor: EveningActor, peer: Peer) -> None:
    actor.rejoin(peer)


def _name(text: str) -> str:
    return check_name(text, "the evening's name", NAME_LENGTH)


def _entrant_name(text: str) -> str:
    return check_name(text, "a name", ENTRANT_NAME)


def handlers(evenings: Evenings, coded: Coded) -> dict[type, Handler]:
    """The club evening's client messages, by class (``coded`` counts a wrong code against
    the connection's address, as for invite and sheet codes)."""

    async def create(peer: Peer, m: p.EveningCreate) -> None:
        await evenings.create(peer, m)

    async def routed(peer: Peer, m: Any) -> None:
        evening_id, _ = await coded(peer, evenings.find(m.code))
        await evenings.ports.router.run(Ref(EVENING, evening_id), peer, m)

    routes: dict[type, Handler] = {p.EveningCreate: create}  # type: ignore[dict-item]
    for kind in (p.EveningOpen, p.EveningLeave, *p.EVENING_COMMANDS):
        routes[kind] = routed  # type: ignore[assignment]
    return routes
