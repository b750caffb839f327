"""Guest identities: a nickname, a player id, and a secret resume token stored hashed."""

from __future__ import annotations

from ..ids import hash_token, new_id, new_token
from ..protocol import ProtocolError
from ..store.base import PlayerRow, Store


class Identity:
    def __init__(self, store: Store, nicknames: dict[str, str], wall: object) -> None:
        self.store = store
        self.nicknames = nicknames
        self._wall = wall

    async def hello(self, nickname: str | None, token: str | None) -> tuple[PlayerRow, str | None]:
        """The player a token names, or a new one; the new token, when one was made."""
        if token is not None:
            player = await self.store.player_by_token_hash(hash_token(token))
            if player is None:
                raise ProtocolError("bad_token", "unknown token: say hello with a nickname instead")
            self.nicknames[player.id] = player.nickname
            return player, None
        if nickname is None or not nickname.strip():
            raise ProtocolError("invalid_field", "nickname: a new player needs a nickname")
        token = new_token()
        player = PlayerRow(new_id("p"), nickname.strip(), hash_token(token), self._wall())  # type: ignore[operator]
        await self.store.add_player(player)
        self.nicknames[player.id] = player.nickname
        return player, token

    async def nickname(self, player_id: str) -> str | None:
        if player_id not in self.nicknames:
            player = await self.store.player(player_id)
            if player is not None:
                self.nicknames[player_id] = player.nickname
        return self.nicknames.get(player_id)
