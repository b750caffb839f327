"""Players' identities: who a token names, and their nicknames (unique by a case-folded
key once chosen)."""

from __future__ import annotations

from dataclasses import dataclass

from .database import Store
from .errors import Duplicate, StoreError
from .sql import Row, sql

_COLS = "id, nickname, token_hash, created_at"
_ADD = sql(f"INSERT INTO players ({_COLS}) VALUES ($1, $2, $3, $4)")
_BY_TOKEN_HASH = sql(f"SELECT {_COLS} FROM players WHERE token_hash = $1")
_PLAYER = sql(f"SELECT {_COLS} FROM players WHERE id = $1")
_CLAIM = sql("UPDATE players SET nickname = $1, nickname_key = $2 WHERE id = $3")
_CLAIMED = sql("SELECT 1 FROM players WHERE nickname_key = $1")


@dataclass(frozen=True, slots=True)
class PlayerRow:
    id: str
    nickname: str
    token_hash: bytes
    created_at: float


def _player(row: Row | None) -> PlayerRow | None:
    return None if row is None else PlayerRow(row[0], row[1], bytes(row[2]), row[3])


class IdentityStore(Store):
    async def add_player(self, player: PlayerRow) -> None:
        row = (player.id, player.nickname, bytes(player.token_hash), float(player.created_at))
        try:
            await self._execute(f"add player {player.id!r}", _ADD, *row)
        except Duplicate as exc:
            raise StoreError(f"cannot add player {player.id!r}: {exc}") from exc

    async def player_by_token_hash(self, token_hash: bytes) -> PlayerRow | None:
        row = await self._fetchrow("player by token hash", _BY_TOKEN_HASH, bytes(token_hash))
        return _player(row)

    async def player(self, player_id: str) -> PlayerRow | None:
        return _player(await self._fetchrow(f"player {player_id!r}", _PLAYER, player_id))

    async def claim_nickname(self, player_id: str, nickname: str, key: str) -> bool:
        """Give ``player_id`` the chosen ``nickname``, unique by ``key`` (its case-folded
        form); False, and nothing changed, if another player holds that key."""
        try:
            what = f"claim nickname for {player_id!r}"
            return await self._execute(what, _CLAIM, nickname, key, player_id) == 1
        except Duplicate:
            return False  # the key is another player's

    async def nickname_claimed(self, key: str) -> bool:
        """Whether any player holds the chosen nickname of this key."""
        return await self._fetchval("nickname claimed", _CLAIMED, key) is not None
