"""A hidden-information audit over whole matches.

Four human clients and spectators keep every frame they receive.  The true hands at every
moment come from the server's stored record, replayed by the engine; no frame a seat
receives may name a card that was then in another seat's hand, and no frame a spectator
receives may name any unplayed card (the turned-up card in ``turned`` mode is public).
"""

from __future__ import annotations

import asyncio
import copy
import random
import re
from bisect import bisect_right
from dataclasses import dataclass
from typing import Any

import pytest

from client import GameClient
from engine import Action, Deal, Match, Rules, card_str, cards_of
from tests.server.conftest import Harness

pytestmark = pytest.mark.server

CARDS = [r + s for s in "cdhs" for r in "789TJQKA"]
_SPELLINGS = {c: c for c in CARDS} | {"10" + s: "T" + s for s in "cdhs"}
_WORD = re.compile(r"[A-Za-z0-9]+")
OPAQUE_KEYS = {"token"}  # the client's own random secret, not game information


# -- the truth: hands at every moment, from the stored record ----------------------------


@dataclass(frozen=True)
class Moment:
    hands: tuple[frozenset[str], ...]  # each seat's unplayed cards
    turned: str | None  # public in ``turned`` mode

    def hidden_from(self, seat: int | None) -> set[str]:
        cards = set().union(*(h for s, h in enumerate(self.hands) if s != seat))
        return cards - {self.turned}


def moment(deal: Deal) -> Moment:
    hands = tuple(frozenset(card_str(c) for c in cards_of(h)) for h in deal.hands)
    return Moment(hands, card_str(deal.turned) if deal.turned is not None else None)


@dataclass
class Truth:
    """``before[k]`` is the moment after ``k`` actions, in the deal the k-th action was
    played in (the finished deal, for its last card); ``after[k]`` is the same moment in the
    deal being played after it (a new deal once one ended)."""

    before: list[Moment]
    after: list[Moment]
    dealt: list[tuple[frozenset[str], ...]]  # each deal's four hands as dealt
    act_versions: list[int]  # the room version of each action

    def at(self, version: int) -> tuple[Moment, Moment]:
        k = bisect_right(self.act_versions, version)
        return self.before[k], self.after[k]


def truth(record: dict[str, Any], act_versions: list[int]) -> Truth:
    match = Match(Rules.from_dict(record["rules"]), record["seed"], record["first_dealer"])
    first = moment(match.deal)
    before, after, dealt = [first], [first], [first.hands]
    for text in record["actions"]:
        deal = match.deal
        match.apply(match.deal.turn, Action.parse(text))
        before.append(moment(deal))
        after.append(moment(match.deal))
        if match.deal is not deal:
            dealt.append(after[-1].hands)
    assert match.over
    assert len(act_versions) == len(record["actions"])
    return Truth(before, after, dealt, act_versions)


# -- the audit -------------------------------------------------------------------------


def mentioned(value: Any, key: str = "") -> set[str]:
    """Every card named anywhere in the strings (keys included) of a JSON value."""
    if key in OPAQUE_KEYS:
        return set()
    if isinstance(value, str):
        return {_SPELLINGS[w] for w in _WORD.findall(value) if w in _SPELLINGS}
    if isinstance(value, dict):
        found: set[str] = set()
        for k, v in value.items():
            found |= mentioned(k) | mentioned(v, k)
        return found
    if isinstance(value, list):
        return set().union(*(mentioned(v) for v in value)) if value else set()
    return set()


def audit(frames: list[dict[str, Any]], seat: int | None, t: Truth) -> list[str]:
    """Each frame naming a card hidden from ``seat`` (None: a spectator) when it was sent."""
    leaks: list[str] = []
    latest = 0  # a frame is sent no earlier than the newest version already received
    for n, frame in enumerate(frames):
        version = frame.get("version")
        if isinstance(version, int):
            latest = max(latest, version)
        _, new = t.at(latest)
        found: set[str] = set()
        if frame.get("type") == "update":
            rest = {k: v for k, v in frame.items() if k != "events"}
            found |= mentioned(rest) & new.hidden_from(seat)
            # events tell of their own version (a resume replays older ones); those before
            # a new deal's deal_started belong to the deal that just ended
            old, now_new = t.at(version)
            now = old
            for event in frame.get("events", []):
                if event.get("type") == "deal_started":
                    now = now_new
                found |= mentioned(event) & now.hidden_from(seat)
        else:
            found = mentioned(frame) & new.hidden_from(seat)
        if found:
            leaks.append(f"seat {seat} frame {n} ({frame.get('type')}): {sorted(found)}")
    return leaks


# -- playing a match with mischief -------------------------------------------------------


@dataclass
class Game:
    room_id: str
    players: list[GameClient]
    spectators: list[GameClient]


async def keeper(harness: Harness, nickname: str) -> GameClient:
    client = await harness.client()
    client.keep = True
    assert (await client.hello(nickname))["type"] == "welcome"
    return client


async def setup(harness: Harness, rules: dict[str, Any]) -> Game:
    players = [await keeper(harness, n) for n in ("ann", "bob", "cas", "dee")]
    created = await players[0].request({"type": "create_room", "rules": rules}, "snapshot")
    room_id = created["room_id"]
    spectator = await keeper(harness, "sam")
    assert (await spectator.request({"type": "watch", "room_id": room_id}, "snapshot"))[
        "view"
    ] is None
    for seat, player in enumerate(players[1:], start=1):
        reply = await player.request(
            {"type": "take_seat", "room_id": room_id, "seat": seat}, "snapshot"
        )
        assert reply["type"] == "snapshot", reply
    for player in players:
        await player.send({"type": "ready", "room_id": room_id})
    await spectator.next("update", kind="start")
    return Game(room_id, players, [spectator])


async def play(harness: Harness, game: Game, rng: random.Random) -> dict[str, int]:
    """Play random legal actions to the end, with refused plays, resumes, a late spectator
    and chat along the way; how many of each mischief was done."""
    room_id, players = game.room_id, game.players
    done = dict.fromkeys(("acted", "illegal", "played_card", "out_of_turn", "resume", "chat"), 0)
    async with asyncio.timeout(20):
        while not all(c.tables[room_id].over for c in [*players, *game.spectators]):
            await step(harness, game, rng, done)
    return done


async def step(harness: Harness, game: Game, rng: random.Random, done: dict[str, int]) -> None:
    """Each seat on turn acts once (after some refused tries); then wait a moment."""
    room_id, players = game.room_id, game.players
    moved = False
    for player in players:
        state = player.tables[room_id]
        if not (state.legal and state.turn == state.seat):
            continue
        legal, state.legal = state.legal, []
        unplayable = [c for c in state.hand if c not in legal]
        if legal[0] in CARDS and unplayable and rng.random() < 0.4:
            await act(player, room_id, rng.choice(unplayable))  # illegal_card
            done["illegal"] += 1
        if state.trick and rng.random() < 0.2:
            await act(player, room_id, state.trick[0])  # a public card: card_not_in_hand
            done["played_card"] += 1
        if rng.random() < 0.1:
            other = players[(state.seat + 1) % 4]
            hand = other.tables[room_id].hand
            if hand:  # its own card, out of turn
                await act(other, room_id, hand[0])
                done["out_of_turn"] += 1
        await act(player, room_id, rng.choice(legal))
        done["acted"] += 1
        moved = True
        if done["acted"] in (9, 30, 50):
            done["resume"] += await mischief(harness, game, rng, done["acted"])
            done["chat"] += 1
    await asyncio.sleep(0 if moved else 0.002)


async def act(client: GameClient, room_id: str, action: str) -> None:
    await client.send({"type": "act", "room_id": room_id, "action": action})


async def mischief(harness: Harness, game: Game, rng: random.Random, acted: int) -> int:
    """Snapshots mid-deal (resume from 0, resume from a recent version, a new watcher)."""
    room_id = game.room_id
    someone = rng.choice(game.players)
    await someone.send({"type": "resume", "room_id": room_id, "version": 0})
    await game.spectators[0].send({"type": "resume", "room_id": room_id, "version": 0})
    other = rng.choice(game.players)
    since = max(0, other.tables[room_id].version - 3)
    await other.send({"type": "resume", "room_id": room_id, "version": since})
    await someone.send({"type": "chat", "room_id": room_id, "text": f"move {acted} done"})
    await game.spectators[0].send({"type": "chat", "room_id": room_id, "text": "nice"})
    if acted == 30:
        late = await keeper(harness, "liz")
        assert (await late.request({"type": "watch", "room_id": room_id}, "snapshot"))[
            "seat"
        ] is None
        game.spectators.append(late)
    return 3


def act_versions(frames: list[dict[str, Any]]) -> list[int]:
    return sorted({f["version"] for f in frames if f["type"] == "update" and f["kind"] == "act"})


async def fetch_record(client: GameClient, match_id: str) -> dict[str, Any]:
    """The stored record: there on the first request once ``match_ended`` was seen (the
    server stores it before it announces the end)."""
    reply = await client.request({"type": "get_record", "match_id": match_id}, "record")
    assert reply["type"] == "record", reply
    return reply["record"]


RULES = {
    "bidding": {"deals": 2},
    "turned": {"deals": 2, "trump_mode": "turned"},
    "claim": {"deals": 2, "roem": "claim"},
    "rotterdam_forced_claim": {"deals": 2, "preset": "rotterdam", "trump_mode": "forced"}
    | {"roem": "claim"},
    "tournament_turned_claim": {"deals": 3, "preset": "tournament", "trump_mode": "turned"}
    | {"roem": "claim"},
}


@pytest.mark.parametrize("rules", list(RULES.values()), ids=list(RULES))
async def test_no_frame_reveals_a_hidden_card(harness: Harness, rules: dict[str, Any]) -> None:
    rng = random.Random(f"audit-{sorted(rules.items())}")
    game = await setup(harness, rules)
    done = await play(harness, game, rng)
    assert done["illegal"] > 0 and done["played_card"] > 0 and done["resume"] > 0, done
    room_id, players, spectators = game.room_id, game.players, game.spectators
    for client in [*players, *spectators]:  # every frame sent is now in ``seen``
        await client.send({"type": "ping", "ref": "settle"})
        await client.next("pong", timeout=5, ref="settle")
    record = await fetch_record(players[0], room_id)

    # every member saw the same actions at the same versions
    versions = act_versions(spectators[0].seen)
    for player in players:
        assert act_versions(player.seen) == versions
    t = truth(record, versions)

    # the audit's truth agrees with what each seat was dealt
    for seat, player in enumerate(players):
        hands = {
            f["version"]: frozenset(e["hand"])
            for f in player.seen
            if f["type"] == "update"
            for e in f["events"]
            if e["type"] == "deal_started"
        }  # by version: a resume may replay an update
        assert [hands[v] for v in sorted(hands)] == [d[seat] for d in t.dealt]

    # what the mischief produced is in the audited frames
    seen = [f for p in players for f in p.seen]
    codes = {f["code"] for f in seen if f["type"] == "error"}
    assert {"illegal_card", "card_not_in_hand"} <= codes, codes
    assert any(f["type"] == "snapshot" and f["view"] and f["view"]["hand"] for f in seen)
    assert sum(f["type"] == "snapshot" and bool(f["view"]) for f in spectators[0].seen) >= 3
    assert len(spectators) == 2 and spectators[1].seen[0]["type"] == "welcome"

    # the audit itself
    for seat, player in enumerate(players):
        assert audit(player.seen, seat, t) == []
    for spectator in spectators:
        assert audit(spectator.seen, None, t) == []
        for f in spectator.seen:
            if f["type"] == "snapshot" and f["view"]:
                assert f["view"]["hand"] == [] and f["view"]["legal"] == []
            for e in f.get("events", []):
                assert e.get("hand", []) == []
        assert not any(f["type"] == "update" and f.get("legal") for f in spectator.seen)

    # ... and it can fail: the same frames, doctored, are flagged
    assert_audit_catches(players, spectators[0], t, rules)


def assert_audit_catches(
    players: list[GameClient], spectator: GameClient, t: Truth, rules: dict[str, Any]
) -> None:
    frames = players[0].seen
    start = next(i for i, f in enumerate(frames) if f["type"] == "update" and f["kind"] == "start")
    _, deal0 = t.at(frames[start]["version"])
    secret = sorted(deal0.hands[1] - {deal0.turned})[0]  # a card of seat 1, hidden from seat 0

    chat = {"type": "chat", "room_id": "r", "nickname": "bob", "text": f"I hold {secret}!"}
    assert audit([*frames[: start + 1], chat], 0, t) == [
        f"seat 0 frame {start + 1} (chat): ['{secret}']"
    ]
    error = {"type": "error", "code": "illegal_card", "message": f"{secret} is not legal"}
    assert audit([*frames[: start + 1], error], 0, t) != []
    ten = sorted(c for c in deal0.hands[1] - {deal0.turned} if c[0] == "T")
    if ten:  # the input spelling of a ten counts too
        spelled = dict(chat, text=f"10{ten[0][1]} here")
        assert audit([*frames[: start + 1], spelled], 0, t) != []

    # a deal_started carrying another seat's hand
    doctored = copy.deepcopy(frames[start])
    for event in doctored["events"]:
        if event["type"] == "deal_started":
            event["hand"] = sorted(deal0.hands[2])
    assert audit([*frames[:start], doctored], 0, t) != []
    # the true frame passes, so the difference is the leak
    assert audit(frames[: start + 1], 0, t) == []

    # a spectator's snapshot showing a seat's hand mid-match
    snaps = [i for i, f in enumerate(spectator.seen) if f["type"] == "snapshot" and f["view"]]
    i = snaps[-1]
    snap = copy.deepcopy(spectator.seen[i])
    _, now = t.at(snap["version"])
    hand = sorted(now.hands[3] - {now.turned})
    assert hand, "the snapshot was taken mid-deal"
    snap["view"]["hand"] = hand
    assert audit([*spectator.seen[:i], snap], None, t) != []
    # the turned card is public: naming it alone is no leak
    if rules.get("trump_mode") == "turned":
        assert now.turned is not None
        public = dict(chat, text=f"turned {now.turned}")
        assert audit([*spectator.seen[: i + 1], public], None, t) == []
    # a card played earlier in the deal is public too
    snap_trick = spectator.seen[i]["view"]["tricks"]
    if snap_trick:
        played = snap_trick[0]["cards"][0]
        assert audit([*spectator.seen[: i + 1], dict(chat, text=played)], None, t) == []
