"""A room driven by random sequences of every client message that concerns it, from several
clients, legal and illegal (a Hypothesis stateful machine over a real server).

Four players and a spectator, each a real websocket client, send ``take_seat``, ``add_cpu``,
``remove_seat``, ``ready``, ``act`` (a legal action of the seat on turn, or anything at all),
``chat``, ``leave_room``, ``watch``, ``back``, ``continue``, ``resume``, ``hint``; they drop
their connection and come back with their token; the injected clock jumps (turn timers,
the pause between deals, an abandoned room, an owner who is gone).  After every step:

* the room its actor holds equals a replay of its durable log (``Room.from_log``), read
  inside the actor so that nothing is half committed; once the actor has ended, the log
  replays to its end and the stored status agrees;
* every frame any client received shows its own seat's cards only: each ``hand`` is
  exactly the receiving seat's hand at that version in the replay (none for a spectator),
  and ``legal`` and a hint's advice name only those cards;
* each client's view of the room (``TableState``) holds its seat's hand at its version;
* every error code is one ``client_protocol.md`` documents, and no connection was closed
  but by the test.

CI runs a few short examples; ``HYPOTHESIS_PROFILE=soak`` runs many long ones.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    rule,
    run_state_machine_as_test,
)

from client import GameClient
from engine.views import view
from server.core.errors import Refused
from server.table.room import Room
from server.table.room_entries import decode
from tests.server.conftest import Harness, running_harness, settle
from tests.server.protocol_codes import documented_error_codes

pytestmark = pytest.mark.server

PLAYERS = 4  # clients 0-3 may sit; client 4 only watches (it may try to sit, too)
CARDS = [r + s for s in "cdhs" for r in "789TJQKA"]
ACTIONS = ["pass", "take", "leave", "trump:c", "trump:d", "trump:h", "trump:s", "10h", "jh", "Zz",
           "", "trump:x", *CARDS]  # fmt: skip
NOT_CARDS = {"pass", "take", "leave", "trump:c", "trump:d", "trump:h", "trump:s"}
SETTINGS = {"strikes": 100_000, "deal_pause": 8.0, "bot_budget": 1}
DOCUMENTED = documented_error_codes()


def machine_settings() -> settings:
    """A few short runs, the same each time; ``HYPOTHESIS_PROFILE=soak``: many long ones.
    Never shrunk: a failure prints its steps at once, and its replay would not be exact
    (the server's timing decides what each step meets)."""
    if os.environ.get("HYPOTHESIS_PROFILE") == "soak":
        return settings(max_examples=300, stateful_step_count=150, deadline=None,
                        phases=[Phase.explicit, Phase.generate],
                        suppress_health_check=list(HealthCheck))  # fmt: skip
    return settings(max_examples=8, stateful_step_count=35, deadline=None, derandomize=True,
                    phases=[Phase.explicit, Phase.generate],
                    suppress_health_check=list(HealthCheck))  # fmt: skip


def fingerprint(room: Room) -> tuple[Any, ...]:
    """Everything a room's rules read, to compare the live room with its replay."""
    seats = [(s.player, s.cpu, s.level, s.ready, s.away, s.timeouts) for s in room.seats]
    record = room.match.to_record() if room.match is not None else None
    return (room.version, room.status, room.owner, seats, record, room.waiting, room.starters,
            dict(room.left_at))  # fmt: skip


class Player:
    """One identity: its connections (the latest is live) and what was audited of each."""

    def __init__(self, client: GameClient) -> None:
        self.clients = [client]
        self.audited = [0]  # per connection: frames of ``seen`` audited so far
        self.seat: int | None = None  # the seat its frames are projected for (the latest)

    @property
    def client(self) -> GameClient:
        return self.clients[-1]


class RoomMachine(RuleBasedStateMachine):
    def __init__(self, loop: asyncio.AbstractEventLoop, h: Harness) -> None:
        super().__init__()
        self.loop, self.h = loop, h
        self.players: list[Player] = []
        self.room_id = ""
        self.invite: str | None = None
        self.replay: Room | None = None  # the log folded in, version by version
        self.hands: dict[int, list[list[str]]] = {}  # version -> each seat's hand then
        self.seated: dict[int, tuple[str | None, ...]] = {}  # version -> who sat where
        self.closed_by_us: set[int] = set()  # ids of connections the test closed
        self.live = True  # the room followed now has not ended

    def run(self, coro: Any) -> Any:
        return self.loop.run_until_complete(asyncio.wait_for(coro, 60))

    # -- set-up ------------------------------------------------------------------------

    OPTIONS = {
        "seat": st.sampled_from([0, 1, None]),
        "private": st.booleans(),
        "deals": st.sampled_from([1, 1, 2]),
        "trump_mode": st.sampled_from(["bidding", "dealer", "forced", "turned"]),
        "roem": st.sampled_from(["auto", "claim"]),
    }

    @initialize(**OPTIONS)
    def create(self, seat: int | None, private: bool, deals: int, trump_mode: str, roem: str):
        self.run(self._connect())
        self.run(self._create(0, seat, private, {"deals": deals, "trump_mode": trump_mode,
                                                 "roem": roem}))  # fmt: skip

    @rule(who=st.integers(0, PLAYERS), **OPTIONS)
    def create_again(self, who: int, seat: int | None, private: bool, deals: int,
                     trump_mode: str, roem: str) -> None:  # fmt: skip
        """Once the room has ended, another, made by anyone, is followed from now on."""
        if self.live:
            return
        self.run(self._create(who, seat, private, {"deals": deals, "trump_mode": trump_mode,
                                                   "roem": roem}))  # fmt: skip

    async def _connect(self) -> None:
        for n in range(PLAYERS + 1):
            client = await self.h.client(f"m{n}")
            client.keep = True
            self.players.append(Player(client))

    async def _create(self, who: int, seat: int | None, private: bool, rules: dict[str, Any]):
        await settle([p.client for p in self.players])
        for player in self.players:  # what came before the new room was audited already
            player.audited[-1] = len(player.client.seen)
            player.seat = None
        created = await self.players[who].client.request(
            {"type": "create_room", "seat": seat, "private": private, "rules": rules,
             "move_seconds": 10}, "snapshot",
        )  # fmt: skip
        assert created["type"] == "snapshot", created
        self.room_id, self.invite = created["room_id"], created["invite_code"]
        self.replay, self.hands, self.seated, self.live = None, {}, {}, True
        self.players[who].seat = seat

    @rule(picks=st.lists(st.integers(0, 2**16), min_size=4, max_size=4))
    def fill_and_ready(self, picks: list[int]) -> None:
        """Every empty seat taken (by a player who sits nowhere, or a CPU of the owner's),
        then every seated player ready: what makes a match start.  (No rule has a
        precondition: what is enabled would depend on the server's timing, and Hypothesis
        replays its draws; a rule that does not apply does nothing.)"""
        if not self.live or self.replay is None or self.replay.status != "open":
            return
        seats = list(self.seated[self.replay.version])
        for seat, holder in enumerate(seats):
            if holder is not None or self.replay.seats[seat].cpu:
                continue
            free = [w for w in range(PLAYERS) if self.players[w].client.player_id not in seats]
            choices = [*free, None]
            who = choices[picks[seat] % len(choices)]
            if who is None:
                owner = self._who(self.replay.owner)
                if owner is not None:
                    self.send(owner, {"type": "add_cpu", "room_id": self.room_id, "seat": seat,
                                      "level": "random"})  # fmt: skip
                continue
            seats[seat] = self.players[who].client.player_id
            self.send(who, {"type": "take_seat", "seat": seat, **self.where()})
        for who, player in enumerate(self.players):
            if player.client.player_id in seats:
                self.send(who, {"type": "ready", "room_id": self.room_id})

    def _who(self, player_id: str) -> int | None:
        for who, player in enumerate(self.players):
            if player.client.player_id == player_id:
                return who
        return None

    def where(self) -> dict[str, Any]:
        return {"invite_code": self.invite} if self.invite else {"room_id": self.room_id}

    def send(self, who: int, message: dict[str, Any]) -> None:
        self.run(self.players[who].client.send(message))

    # -- the rules: every message about a room -------------------------------------------

    @rule(who=st.integers(0, PLAYERS), seat=st.integers(0, 3))
    def take_seat(self, who: int, seat: int) -> None:
        self.send(who, {"type": "take_seat", "seat": seat, **self.where()})

    @rule(who=st.integers(0, PLAYERS))
    def watch(self, who: int) -> None:
        self.send(who, {"type": "watch", **self.where()})

    @rule(who=st.integers(0, PLAYERS), seat=st.integers(0, 3),
          level=st.sampled_from(["random", "heuristic"]))  # fmt: skip
    def add_cpu(self, who: int, seat: int, level: str) -> None:
        self.send(who, {"type": "add_cpu", "room_id": self.room_id, "seat": seat, "level": level})

    @rule(who=st.integers(0, PLAYERS), seat=st.integers(0, 3))
    def remove_seat(self, who: int, seat: int) -> None:
        self.send(who, {"type": "remove_seat", "room_id": self.room_id, "seat": seat})

    @rule(who=st.integers(0, PLAYERS), ready=st.sampled_from([True, True, True, False]))
    def ready(self, who: int, ready: bool) -> None:
        self.send(who, {"type": "ready", "room_id": self.room_id, "ready": ready})

    def on_turn(self) -> list[int]:
        out = []
        for who, player in enumerate(self.players):
            table = player.client.tables.get(self.room_id)
            if table and table.seat is not None and table.turn == table.seat and table.legal:
                out.append(who)
        return out

    @rule(pick=st.integers(0, 2**16), stale=st.sampled_from([False, False, False, True]))
    def act_legal(self, pick: int, stale: bool) -> None:
        turns = self.on_turn()
        if not turns:
            return
        who = turns[pick % len(turns)]
        table = self.players[who].client.tables[self.room_id]
        action = table.legal[pick % len(table.legal)]
        version = table.version - (1 if stale else 0)
        self.send(who, {"type": "act", "room_id": self.room_id, "action": action,
                        "version": version})  # fmt: skip

    @rule(picks=st.lists(st.integers(0, 2**16), min_size=1, max_size=16))
    def play_on(self, picks: list[int]) -> None:
        """Several legal actions in a row, each by the player on turn once it is its turn
        (CPUs in between), every player continuing when a deal ends.  (Choices are drawn
        before: what is legal depends on the server, and Hypothesis replays its draws.)"""
        if self.live and self.replay is not None and self.replay.status == "playing":
            self.run(self._play_on(picks))

    async def _play_on(self, picks: list[int]) -> None:
        for pick in picks:
            for _ in range(50):
                await settle([p.client for p in self.players])
                if self.on_turn():
                    break
                for player in self.players:
                    table = player.client.tables.get(self.room_id)
                    if table and (table.room.get("pause") or {}).get("waiting"):
                        await player.client.send({"type": "continue", "room_id": self.room_id})
                await asyncio.sleep(0.01)
            else:
                return  # nobody's turn comes (the match ended, or a CPU thinks long)
            turns = self.on_turn()
            who = turns[pick % len(turns)]
            table = self.players[who].client.tables[self.room_id]
            action = table.legal[pick % len(table.legal)]
            await self.players[who].client.send(
                {"type": "act", "room_id": self.room_id, "action": action}
            )

    @rule(who=st.integers(0, PLAYERS), action=st.sampled_from(ACTIONS),
          version=st.none() | st.integers(0, 80))  # fmt: skip
    def act_anything(self, who: int, action: str, version: int | None) -> None:
        message: dict[str, Any] = {"type": "act", "room_id": self.room_id, "action": action}
        if version is not None:
            message["version"] = version
        self.send(who, message)

    @rule(who=st.integers(0, PLAYERS), text=st.sampled_from(["hi", "gl hf", "\u202egg", " "]))
    def chat(self, who: int, text: str) -> None:
        self.send(who, {"type": "chat", "room_id": self.room_id, "text": text})

    @rule(who=st.integers(0, PLAYERS))
    def leave(self, who: int) -> None:
        self.send(who, {"type": "leave_room", "room_id": self.room_id})

    @rule(who=st.integers(0, PLAYERS), kind=st.sampled_from(["back", "continue", "hint"]))
    def simple(self, who: int, kind: str) -> None:
        self.send(who, {"type": kind, "room_id": self.room_id})

    @rule(who=st.integers(0, PLAYERS), behind=st.sampled_from([0, 1, 3, 50, None]))
    def resume(self, who: int, behind: int | None) -> None:
        table = self.players[who].client.tables.get(self.room_id)
        known = table.version if table else 0
        version = 0 if behind is None else max(0, known - behind)
        self.send(who, {"type": "resume", "room_id": self.room_id, "version": version})

    @rule(who=st.integers(0, PLAYERS))
    def reconnect(self, who: int) -> None:
        """The connection drops; the player comes back with its token and resumes."""
        self.run(self._reconnect(who))

    async def _reconnect(self, who: int) -> None:
        player = self.players[who]
        old = player.client
        self.closed_by_us.add(id(old))
        await old.close()
        client = await self.h.client()
        client.keep = True
        welcome = await client.hello(token=old.token)
        assert welcome["type"] == "welcome" and welcome["player_id"] == old.player_id, welcome
        player.clients.append(client)
        player.audited.append(0)
        table = old.tables.get(self.room_id)
        await client.send({"type": "resume", "room_id": self.room_id,
                           "version": table.version if table else 0})  # fmt: skip

    @rule(seconds=st.sampled_from([1.0, 8.0, 11.0, 40.0, 130.0]))
    def time_passes(self, seconds: float) -> None:
        self.h.advance(seconds)

    # -- after every step ----------------------------------------------------------------

    @invariant()
    def the_room_is_its_log_and_nobody_sees_another_hand(self) -> None:
        if self.room_id:
            self.run(self._check())

    async def _check(self) -> None:
        clients = [p.client for p in self.players if p.client.ws.close_code is None]
        await settle(clients)
        entries, live = await self._read()
        replayed = Room.from_log(self.room_id, entries, self.h.settings.away_after, pauses=True)
        if live is not None:
            assert fingerprint(replayed) == live, "the room differs from a replay of its log"
        else:
            assert not replayed.live, f"the actor ended with the room {replayed.status}"
            store = (await self.h.stores()).rooms
            row = await store.room(self.room_id)
            assert row is not None and row.status == replayed.status, (row, replayed.status)
        self._fold(entries)
        self.live = replayed.live
        event(f"status {replayed.status}")
        if replayed.match is not None:
            event(f"actions >= {len(replayed.match.actions) // 10 * 10}")
        for player in self.players:
            for index, client in enumerate(player.clients):
                self._audit(player, index, client)
        for player in self.players:
            self._check_table(player)

    async def _read(self) -> tuple[list[Any], tuple[Any, ...] | None]:
        """The log, and the live room's fingerprint, at one moment (inside the actor)."""
        server = self.h.server
        assert server is not None
        actor = server.router.actors.get(self.room_id)
        if actor is not None:

            async def inside() -> tuple[list[Any], tuple[Any, ...]]:
                log = await server.stores.logs.log(self.room_id)
                return [decode(e.entry) for e in log], fingerprint(actor.room)  # type: ignore[attr-defined]

            with contextlib.suppress(Refused):
                return await actor.call(inside)
        log = await server.stores.logs.log(self.room_id)
        return [decode(e.entry) for e in log], None

    def _fold(self, entries: list[Any]) -> None:
        """The replay, version by version: each seat's hand and who sat where after it."""
        if self.replay is None:
            self.replay = Room.from_log(self.room_id, entries[:1], pauses=True)
            self._note(self.replay)
        for entry in entries[self.replay.version :]:
            self.replay.apply(entry)
            self._note(self.replay)

    def _note(self, room: Room) -> None:
        match = room.match
        self.hands[room.version] = [
            [] if match is None else list(view(match, seat).to_dict()["hand"]) for seat in range(4)
        ]
        self.seated[room.version] = tuple(s.player for s in room.seats)

    def _audit(self, player: Player, index: int, client: GameClient) -> None:
        """The frames a connection received since the last step: documented errors only,
        and its own hand only."""
        frames = client.seen
        at = player.audited[index]
        while at < len(frames):
            frame = frames[at]
            if frame.get("room_id") == self.room_id and frame.get("version", 0) > max(self.hands):
                break  # committed after the log was read: next time
            self._frame(player, frame)
            at += 1
        player.audited[index] = at
        if id(client) not in self.closed_by_us:
            assert client.ws.close_code is None, f"closed: {client.ws.close_code}"

    def _frame(self, player: Player, frame: dict[str, Any]) -> None:
        if frame["type"] == "error":
            assert frame["code"] in DOCUMENTED, frame
            return
        if frame.get("room_id") != self.room_id:
            return
        if frame["type"] == "snapshot":
            player.seat = frame["seat"]
            view_ = frame.get("view") or {}
            self._cards(
                frame["version"], player.seat, view_.get("hand", []), view_.get("legal", [])
            )
            for update in frame.get("recent", []):
                self._update(update, player.seat)
        elif frame["type"] == "update":
            room = frame.get("room")
            if room is not None:  # a seat taken, emptied, moved: whose projection now
                mine = [
                    i
                    for i, s in enumerate(room["seats"])
                    if s["player_id"] == player.client.player_id
                ]
                if frame["kind"] == "seat" and player.seat is not None and player.seat not in mine:
                    player.seat = mine[0] if mine else None
            self._update(frame, player.seat)
        elif frame["type"] == "hint":
            hand = set(self.hands[frame["version"]][frame["seat"]]) | NOT_CARDS
            assert frame["seat"] == player.seat and frame["action"] in hand, frame
            assert set(frame["values"]) <= hand, frame

    def _update(self, frame: dict[str, Any], seat: int | None) -> None:
        version = frame["version"]
        for happened in frame["events"]:
            if happened["type"] == "deal_started":
                self._cards(version, seat, happened["hand"], [])
        self._cards(version, seat, None, frame.get("legal", []))

    def _cards(self, version: int, seat: int | None, hand: list[str] | None, legal: list[str]):
        if seat is None:
            assert not hand and not legal, (version, hand, legal)
            return
        mine = self.hands[version][seat]
        if hand is not None:
            assert hand == mine, f"v{version} seat {seat} was shown {hand}, holds {mine}"
        assert set(legal) <= set(mine) | NOT_CARDS, f"v{version} legal {legal}, holds {mine}"

    def _check_table(self, player: Player) -> None:
        table = player.client.tables.get(self.room_id)
        if table is None or table.seat is None or table.version not in self.seated:
            return
        if self.seated[table.version][table.seat] == player.client.player_id:
            mine = self.hands[table.version][table.seat]
            assert sorted(table.hand) == sorted(mine), (table.version, table.hand, mine)

    def teardown(self) -> None:
        for player in self.players:
            for client in player.clients:
                self.run(client.close())
                self.h.clients.remove(client)  # (and what it kept, with it)


def test_a_room_is_its_log_and_shows_each_seat_its_own_hand(tmp_path: Path) -> None:
    loop = asyncio.new_event_loop()
    stack = contextlib.AsyncExitStack()
    try:
        h = loop.run_until_complete(
            stack.enter_async_context(running_harness(tmp_path, **SETTINGS))
        )
        run_state_machine_as_test(lambda: RoomMachine(loop, h), settings=machine_settings())
    finally:
        loop.run_until_complete(stack.aclose())
        loop.close()
