"""Identities without sign-up: a player id, a secret resume token stored hashed, and a
nickname, given at the first hello (a guest's, not checked against others) or chosen later
(``set_nickname``: validated, and unique among chosen nicknames whatever their case)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import MutableMapping

from ..core.ids import hash_token, new_id, new_token
from ..core.text import check_name
from ..store.identities import IdentityStore, PlayerRow
from ..wire.protocol import ProtocolError

NICKNAME_LENGTH = (2, 24)
NICKNAMES_CACHED = 100_000  # players whose nicknames a server keeps at hand (seated: in use)
_NICKNAME = re.compile(r"^[\w'.-]+( [\w'.-]+)*$")  # words of letters, digits, _ ' . -


def nickname_key(nickname: str) -> str:
    """What makes two nicknames the same: case and compatibility forms folded."""
    return unicodedata.normalize("NFKC", nickname).casefold()


def check_nickname(text: str) -> str:
    """``text`` as a nickname to choose, or ``bad_nickname`` saying which rule it breaks."""
    nickname = unicodedata.normalize("NFC", text.strip())
    least, most = NICKNAME_LENGTH
    if not least <= len(nickname) <= most:
        raise ProtocolError("bad_nickname", f"a nickname has {least} to {most} characters")
    if not _NICKNAME.match(nickname):
        raise ProtocolError(
            "bad_nickname",
            "a nickname is letters, digits and _ ' . - in words with single spaces between",
        )
    if not any(c.isalpha() for c in nickname):
        raise ProtocolError("bad_nickname", "a nickname needs at least one letter")
    return nickname


class Identity:
    def __init__(
        self, store: IdentityStore, nicknames: MutableMapping[str, str], wall: object
    ) -> None:
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
        nickname = check_name(nickname, "a nickname", NICKNAME_LENGTH[1], "bad_nickname")
        if await self.store.nickname_claimed(nickname_key(nickname)):
            raise ProtocolError("nickname_taken", f"{nickname!r} is another player's")
        token = new_token()
        player = PlayerRow(new_id("p"), nickname, hash_token(token), self._wall())  # type: ignore[operator]
        await self.store.add_player(player)
        self.nicknames[player.id] = player.nickname
        return player, token

    async def nickname(self, player_id: str) -> str | None:
        if player_id not in self.nicknames:
            player = await self.store.player(player_id)
            if player is not None:
                self.nicknames[player_id] = player.nickname
        return self.nicknames.get(player_id)

    async def rename(self, player_id: str, text: str) -> str:
        """Give ``player_id`` the chosen nickname ``text``: the nickname it now has."""
        nickname = check_nickname(text)
        if not await self.store.claim_nickname(player_id, nickname, nickname_key(nickname)):
            raise ProtocolError("nickname_taken", f"{nickname!r} is another player's")
        self.nicknames[player_id] = nickname
        return nickname
