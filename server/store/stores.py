"""Every feature's store over one database: what ``server/app.py`` hands out, each feature
taking only its own."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .clubs import ClubStore
from .daily import DailyStore
from .database import Database, open_database
from .evenings import EveningStore
from .identities import IdentityStore
from .logs import LogStore
from .players import PlayerStore
from .rooms import RoomStore
from .sheets import SheetStore
from .tournaments import TournamentStore

if TYPE_CHECKING:
    from server.core.config import Settings


@dataclass(frozen=True, slots=True)
class Stores:
    database: Database
    logs: LogStore  # appends and fencing (the journal, the cluster), and any log read
    rooms: RoomStore  # rooms, their match records, rematches
    tournaments: TournamentStore
    sheets: SheetStore
    identities: IdentityStore  # players' tokens and nicknames
    daily: DailyStore
    players: PlayerStore  # profiles and ratings
    evenings: EveningStore  # club evenings
    clubs: ClubStore  # clubs: members, organisers, seasons

    @classmethod
    def on(cls, database: Database) -> Stores:
        return cls(
            database, LogStore(database), RoomStore(database), TournamentStore(database),
            SheetStore(database), IdentityStore(database), DailyStore(database),
            PlayerStore(database), EveningStore(database), ClubStore(database),
        )  # fmt: skip

    async def open(self) -> None:
        """Connect and apply pending migrations."""
        await self.database.open()

    async def close(self) -> None:
        """Finish pending writes and release the connection; idempotent."""
        await self.database.close()


def open_stores(settings: Settings) -> Stores:
    """The configured database's stores, not yet opened (``await stores.open()``)."""
    return Stores.on(open_database(settings))
