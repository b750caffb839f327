"""Clubs: founding them, finding one by a code, the actor kind, the messages a connection
sends them (attached by ``server.app`` as a feature's handlers), and the season's CSV.

A club has codes made like invite codes: the founding organiser's, one for each
co-organiser (revocable), and the view code (anyone with it may watch).  An organiser
makes the club's evenings (``evening_create`` with ``club``: the club makes it, and lists
it with its codes for its organisers); each evening tells the club as it changes.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from ..core.errors import room_unavailable
from ..core.ids import new_id, new_invite_code, normalize_code
from ..core.lru import Lru
from ..core.text import check_name
from ..runtime.router import CLUB, Ref
from ..store.clubs import ClubRow
from ..wire import protocol as p
from . import club_entries as entries
from .club import FOUNDER, ORGANISER, VIEW, Club, ClubError
from .club_actor import ClubActor

if TYPE_CHECKING:
    from ..runtime.features import Handler
    from ..runtime.peer import Peer
    from ..runtime.ports import Ports
    from ..scoresheet.sheets import Sheets
    from ..store.clubs import ClubStore
    from .evenings import Evenings

CODES_CACHED = 4096
NAME_LENGTH = 40  # a club's name, at most
Coded = Callable[[Any, Awaitable[Any]], Awaitable[Any]]  # a code's check, counted per address


class Clubs:
    name = CLUB

    def __init__(self, ports: Ports, store: ClubStore, evenings: Evenings, sheets: Sheets) -> None:
        self.ports = ports
        self.store = store
        self.evenings = evenings
        self.sheets = sheets
        self.codes: Lru[str, str] = Lru(CODES_CACHED)  # a live code -> its club's id
        evenings.roster = self.read  # a club's evening checks its members in by the roster

    async def create(self, peer: Peer, m: p.ClubCreate) -> None:
        """A new club, followed by its founder, who gets its codes."""
        wall = self.ports.clock.wall()
        row = ClubRow(new_id("k"), new_invite_code(), new_invite_code(), wall)
        name = check_name(m.name, "the club's name", NAME_LENGTH)
        founder = peer.nickname or "organiser"
        first = entries.ClubCreated(
            peer.player_id, wall, name, founder, row.organiser_code, row.view_code
        )
        await self.store.add_club(row, first.to_dict())
        epoch = await self.ports.router.own(Ref(CLUB, row.id))
        actor = self._launch(Club.from_log(row.id, [first]), epoch)
        await actor.call(lambda: _open(actor, peer, FOUNDER))

    async def find(self, code: str) -> str:
        """The club one of whose codes is ``code`` (a revoked co-organiser's opens none)."""
        code = normalize_code(code)
        found = self.codes.get(code)
        if found is None:
            found = await self.store.club_by_code(code)
            if found is None:
                raise p.ProtocolError("bad_club_code", "no club has that code")
            self.codes[code] = found
        return found

    async def read(self, club_id: str) -> Club:
        """The club as its log in the store has it (for its evenings' check-ins, and the
        season's CSV)."""
        log = [entries.decode(e.entry) for e in await self.store.log(club_id)]
        return Club.from_log(club_id, log)

    async def season_csv(self, code: str) -> str:
        """The season's standing as CSV, for either kind of code."""
        club = await self.read(await self.find(code))
        club.role_of(normalize_code(code))
        standing, _ = club.standing()
        return standing.to_csv()

    # -- the actor kind ------------------------------------------------------------------

    async def live(self) -> list[str]:
        return []  # loaded when asked for

    async def load(self, key: str, epoch: int | None) -> ClubActor | None:
        if await self.store.club(key) is None:
            return None
        actor = self._launch(await self.read(key), epoch)
        actor.tell(actor.catch_up_all)  # before any command: what it was not told
        return actor

    def _launch(self, club: Club, epoch: int | None) -> ClubActor:
        actor = ClubActor(club, self.evenings.replay, self.sheets.replay_all, self.ports)
        actor.epoch = epoch
        self.ports.router.hold(actor)
        return actor

    async def handle(self, actor: ClubActor, peer: Peer, m: Any) -> None:
        code = normalize_code(m.club if isinstance(m, p.EveningCreate) else m.code)
        revoked: list[str] = []  # the codes a revocation takes back

        async def run() -> None:
            role, who = actor.club.role_of(code)
            match m:
                case p.ClubOpen():
                    actor.open(peer, who or VIEW)
                case p.ClubLeave():
                    actor.detach(peer)
                case _ if role != ORGANISER:
                    raise ClubError("organisers_only", "only the club's organisers do that")
                case p.EveningCreate():
                    await self._evening(actor, peer, m)
                case _:
                    await actor.change(self._command(peer.player_id, who or "", m, revoked))

        await actor.call(run)
        for taken in revoked:
            self.codes.pop(taken, None)
            await self.store.drop_code(taken)

    async def absent(self, key: str, peer: Peer, m: Any) -> None:
        actor = await self.ports.router.adopt(Ref(CLUB, key))
        if actor is None:
            raise room_unavailable()
        await self.handle(actor, peer, m)  # type: ignore[arg-type]

    def rejoin(self, actor: ClubActor, peer: Peer, since: int) -> None:
        actor.tell(lambda: _rejoin(actor, peer))

    async def ended(self, key: str, peer: Peer, since: int) -> bool:
        return False  # a club never ends for its followers

    # -- commands ------------------------------------------------------------------------

    async def _evening(self, actor: ClubActor, peer: Peer, m: p.EveningCreate) -> None:
        """An evening of the club: made (its organiser follows it), then listed."""
        actor.club.room_for_evening()
        row = await self.evenings.create(peer, m, club=actor.key)
        evening = actor.evenings[row.id] = await self.evenings.replay(row.id)
        when = datetime.fromtimestamp(evening.created.at, UTC).date()
        codes = (row.organiser_code, row.view_code)
        wall, name = self.ports.clock.wall(), evening.created.name
        await actor.commit(actor.club.add_evening(peer.player_id, wall, row.id, name, when, codes))
        actor.publish()

    def _command(self, by: str, who: str, m: Any, revoked: list[str]) -> Any:
        """The club's transition ``m`` names, as an async step of the actor (an added
        organiser's code opens the club before its entry is written)."""
        at, v = self.ports.clock.wall(), m.version

        async def step(c: Club) -> list[entries.Entry]:
            match m:
                case p.ClubOrganiserAdd():
                    code = new_invite_code()
                    added = c.add_organiser(by, at, v, m.name, code, who)
                    await self.store.add_code(c.id, code)
                    return added
                case p.ClubOrganiserRevoke():
                    taken = c.revoke_organiser(by, at, v, m.organiser)
                    revoked.append(c.organisers[m.organiser].code)
                    return taken
                case p.ClubMemberAdd():
                    return c.add_member(by, at, v, m.name, m.player)
                case p.ClubMemberRename():
                    return c.rename_member(by, at, v, m.member, m.name)
                case p.ClubMemberRemove():
                    return c.remove_member(by, at, v, m.member)
                case p.ClubSeason():
                    rule = m.model_dump(exclude={"type", "ref", "code", "version", "prizes"})
                    return c.set_season(by, at, v, rule, m.prizes.model_dump())
            raise TypeError(f"not a club command: {type(m).__name__}")  # pragma: no cover

        return step


async def _open(actor: ClubActor, peer: Peer, who: str) -> None:
    actor.open(peer, who)


async def _rejoin(actor: ClubActor, peer: Peer) -> None:
    actor.rejoin(peer)


def handlers(
    clubs: Clubs, coded: Coded, evening_handlers: dict[type, Handler]
) -> dict[type, Handler]:
    """The club's client messages, by class, and the club evening's (``evening_handlers``),
    whose ``evening_create`` with a ``club`` the club runs (``coded`` counts a wrong code
    against the connection's address, as for invite, sheet and evening codes)."""
    router = clubs.ports.router

    async def create(peer: Peer, m: p.ClubCreate) -> None:
        await clubs.create(peer, m)

    async def routed(peer: Peer, m: Any, code: str) -> None:
        club_id = await clubs.find(code)
        await router.run(Ref(CLUB, club_id), peer, m)

    async def command(peer: Peer, m: Any) -> None:
        await coded(peer, routed(peer, m, m.code))

    async def evening_create(peer: Peer, m: p.EveningCreate) -> None:
        if m.club is None:
            await evening_handlers[p.EveningCreate](peer, m)
        else:
            await coded(peer, routed(peer, m, m.club))

    routes: dict[type, Handler] = {
        **evening_handlers,
        p.EveningCreate: evening_create,
        p.ClubCreate: create,  # type: ignore[dict-item]
    }
    for kind in (p.ClubOpen, p.ClubLeave, *p.CLUB_COMMANDS):
        routes[kind] = command  # type: ignore[assignment]
    return routes
