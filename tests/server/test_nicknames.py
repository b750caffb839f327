"""Choosing a nickname: validated, unique among chosen nicknames whatever their case, kept
across reconnects and shown on the boards."""

from __future__ import annotations

import pytest

from server.lobby.identity import check_nickname, nickname_key
from server.wire.protocol import ProtocolError
from tests.server.conftest import Harness

pytestmark = [pytest.mark.server, pytest.mark.daily]


async def rename(client, nickname: str) -> dict:
    return await client.request({"type": "set_nickname", "nickname": nickname}, "nickname")


async def test_a_chosen_nickname_is_yours_alone(harness: Harness) -> None:
    anna, bob = await harness.client("anna"), await harness.client("bob")
    done = await rename(anna, "  Anna de Vries ")
    assert done == {"type": "nickname", "player_id": anna.player_id, "nickname": "Anna de Vries"}
    taken = await rename(bob, "ANNA DE VRIES")
    assert taken["code"] == "nickname_taken"
    # a new guest cannot say hello with it either; another nickname is fine
    guest = await harness.client()
    welcome = await guest.request({"type": "hello", "nickname": "anna de vries"}, "welcome")
    assert welcome["code"] == "nickname_taken"
    assert (await rename(bob, "Bob"))["nickname"] == "Bob"
    # changing again frees the old one; the name stays across a reconnect
    assert (await rename(anna, "Anna"))["nickname"] == "Anna"
    assert (await rename(bob, "Anna de Vries"))["nickname"] == "Anna de Vries"
    await harness.client(token=anna.token)
    store = (await harness.stores()).identities
    assert (await store.player(anna.player_id)).nickname == "Anna"


async def test_bad_nicknames_are_refused_and_change_nothing(harness: Harness) -> None:
    anna = await harness.client("anna")
    for bad in ("a", "x" * 25, "two  spaces", "Anna (CPU, strong)", "1234", "tab\there"):
        error = await rename(anna, bad)
        assert error["code"] == "bad_nickname", (bad, error)
    error = await anna.request({"type": "set_nickname", "nickname": 42}, "nickname")
    assert error["code"] == "invalid_field"
    store = (await harness.stores()).identities
    assert (await store.player(anna.player_id)).nickname == "anna"


def test_nickname_rules() -> None:
    assert check_nickname(" Zoë ") == "Zoë" and check_nickname("O'Neil-2") == "O'Neil-2"
    fullwidth = "\uff21\uff4e\uff4e\uff41"
    assert nickname_key("ANNA") == nickname_key("anna") == nickname_key(fullwidth)
    for bad in ("", "é", "a__(", "--"):
        with pytest.raises(ProtocolError):
            check_nickname(bad)
