"""What the cluster stored, read straight from PostgreSQL, checked against what clients saw.

A room's log (``room_log``) must hold versions 1..N without gaps; replaying it through the
server's own fold (:class:`server.table.room.Room`) must succeed (a card played twice, or
an action out of turn, cannot replay); its acts must be the finished match's record
(``matches``); and every ``act`` update any bot received must be the log's entry at that
version, present exactly once.
"""

from __future__ import annotations

import itertools
import json
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine import KlaverjasError, Match
from engine.views import view
from server.table.room import FINISHED, Room
from server.table.room_entries import decode
from tests.multinode.conftest import pg_rows

if TYPE_CHECKING:
    from tests.multinode.players import Bot, Table


async def log_entries(schema: str, key: str) -> list[dict[str, Any]]:
    """The durable log of a room or tournament; fails unless its versions are 1..N."""
    rows = await pg_rows(
        schema, "SELECT version, entry FROM room_log WHERE room_id = $1 ORDER BY version", key
    )
    versions = [row["version"] for row in rows]
    assert versions == list(range(1, len(versions) + 1)), (
        f"{key}: log versions are not contiguous from 1: {_ranges(versions)}"
    )
    return [json.loads(row["entry"]) for row in rows]


async def log_epochs(schema: str, key: str) -> list[int]:
    """The fencing epochs that wrote a room's (or tournament's) log, in the order they
    wrote it; fails unless every entry after the first (written as it was made) carries
    its epoch and they never go down: no writer that had lost the key wrote after its
    successor took it (``fence`` hands each epoch to one node)."""
    rows = await pg_rows(
        schema, "SELECT version, epoch FROM room_log WHERE room_id = $1 ORDER BY version", key
    )
    epochs = [row["epoch"] for row in rows[1:]]
    assert None not in epochs, f"{key}: entries written without an epoch: {rows}"
    spans = [(e, len(list(g))) for e, g in itertools.groupby(epochs)]
    assert epochs == sorted(epochs), f"{key}: an older epoch wrote after a newer one: {spans}"
    return [e for e, _ in spans]


async def match_record(schema: str, room_id: str) -> dict[str, Any] | None:
    rows = await pg_rows(schema, "SELECT record FROM matches WHERE id = $1", room_id)
    return json.loads(rows[0]["record"]) if rows else None


@dataclass
class StoredRoom:
    room_id: str
    entries: list[dict[str, Any]]  # entries[i] is version i + 1
    room: Room  # the log replayed
    record: dict[str, Any] | None
    acts: dict[int, tuple[int, int, str]] = field(default_factory=dict)  # v -> (deal, seat, act)

    @property
    def version(self) -> int:
        return len(self.entries)


async def stored_room(schema: str, room_id: str) -> StoredRoom:
    """Read a room's log and record, and replay the log (which must replay cleanly)."""
    entries = await log_entries(schema, room_id)
    assert entries and entries[0]["t"] == "created", f"{room_id}: log starts with {entries[:1]}"
    room = Room.from_log(room_id, [decode(entries[0])])
    stored = StoredRoom(room_id, entries, room, await match_record(schema, room_id))
    for version, entry in enumerate(entries[1:], 2):
        deal = room.match.deal_number if room.match is not None else -1
        try:
            room.apply(decode(entry))
        except (KlaverjasError, AssertionError, ValueError) as err:
            raise AssertionError(
                f"{room_id}: log entry v{version} {entry} does not replay: {err}"
            ) from err
        if entry["t"] == "act":
            stored.acts[version] = (deal, entry["seat"], entry["action"])
    return stored


def action_of(events: list[dict[str, Any]]) -> str | None:
    """The action an ``act`` update reports, in the log's notation."""
    for event in events:
        kind = event["type"]
        if kind == "card_played":
            return event["card"]
        if kind == "passed":
            return "pass"
        if kind == "trump_chosen":
            return f"trump:{event['suit']}"
        if kind == "roem_decided":
            return "take" if event["take"] else "leave"
    return None


def check_finished_match(stored: StoredRoom, bots: list[Bot]) -> int:
    """The log ends the match, the record is stored and agrees with the log, and every act
    update a bot received is in the log exactly once.  The number of acts received."""
    rid = stored.room_id
    assert stored.room.status == FINISHED, f"{rid}: the log leaves the room {stored.room.status}"
    assert stored.record is not None, f"{rid}: no row in matches"
    logged = [action for _, _, action in stored.acts.values()]
    assert stored.record["actions"] == logged, f"{rid}: the record's actions are not the log's"
    assert Match.from_record(stored.record).over, f"{rid}: the record does not end the match"
    return check_received_acts(stored, bots)


def check_received_acts(stored: StoredRoom, bots: list[Bot]) -> int:
    rid = stored.room_id
    copies = Counter(stored.acts.values())
    received: dict[int, tuple[int, str]] = {}
    for bot in bots:
        for frame in bot.seen(rid):
            if frame["type"] != "update" or frame["kind"] != "act":
                continue
            version, got = frame["version"], (frame["seat"], action_of(frame["events"]))
            logged = stored.entries[version - 1] if version <= stored.version else None
            assert version in stored.acts, (
                f"{rid}: {bot.nickname} received act v{version} {got}; the log's is {logged}"
            )
            deal, seat, action = stored.acts[version]
            assert (seat, action) == got, (
                f"{rid}: {bot.nickname} received v{version} {got}; the log has {(seat, action)}"
            )
            # a card is played once a deal (a pass and a trump once too; take and leave,
            # once a trick: the version tells those apart)
            once = action not in ("take", "leave")
            assert not once or copies[(deal, seat, action)] == 1, (
                f"{rid}: act {(deal, seat, action)} is in the log {copies[(deal, seat, action)]}x"
            )
            assert received.setdefault(version, got) == got, f"{rid}: bots disagree on v{version}"
    return len(received)


NOT_CARDS = frozenset({"pass", "take", "leave", "trump:c", "trump:d", "trump:h", "trump:s"})


def seat_hands(stored: StoredRoom) -> dict[int, list[list[str]]]:
    """Each seat's hand after each version of the room, by replaying its log once more."""
    room = Room.from_log(stored.room_id, [decode(stored.entries[0])])
    hands = {1: [[], [], [], []]}
    for version, entry in enumerate(stored.entries[1:], 2):
        room.apply(decode(entry))
        match = room.match
        hands[version] = [
            [] if match is None else list(view(match, seat).to_dict()["hand"]) for seat in range(4)
        ]
    return hands


def check_hands(stored: StoredRoom, bots: list[Bot]) -> int:
    """Every snapshot and update of the room any bot received shows it its own seat's hand
    at that version, exactly (a snapshot's view, its recent updates, each deal_started),
    ``legal`` names no card outside it, and a spectator is shown no hand at all.  The
    frames checked."""
    hands = seat_hands(stored)
    checked = 0

    def cards(where: str, version: int, seat: int | None, hand: Any, legal: Any) -> None:
        if seat is None:
            assert not hand and not legal, f"{where}: a spectator was shown {hand} {legal}"
            return
        mine = hands[version][seat]
        if hand is not None:
            assert hand == mine, f"{where}: seat {seat} was shown {hand} at v{version}, held {mine}"
        extra = set(legal or ()) - set(mine) - NOT_CARDS
        assert not extra, f"{where}: legal {legal} at v{version} names cards of others {extra}"

    def update(where: str, frame: dict[str, Any], seat: int | None) -> None:
        version = frame["version"]
        for event in frame["events"]:
            if event["type"] == "deal_started":
                cards(where, version, seat, event["hand"], None)
        cards(where, version, seat, None, frame.get("legal"))

    for bot in bots:
        seat = bot.table(stored.room_id).seat
        for frame in bot.seen(stored.room_id):
            where = f"{stored.room_id} {bot.nickname} {frame['type']} v{frame.get('version')}"
            if frame["type"] == "snapshot":
                seen = frame.get("view") or {}
                cards(where, frame["version"], frame["seat"], seen.get("hand"), seen.get("legal"))
                for recent in frame.get("recent", []):
                    update(where + " recent", recent, frame["seat"])
            elif frame["type"] == "update":
                update(where, frame, seat)
            else:
                continue
            checked += 1
    return checked


def version_problems(bot: Bot, room_id: str) -> list[str]:
    """Where the versions a bot saw for a room did not go up by exactly one (a snapshot may
    replace what it knew, but never with an older version)."""
    out: list[str] = []
    last: int | None = None
    for node_id, client in bot.connections:
        for frame in client.seen:
            if frame.get("room_id") != room_id or frame["type"] not in ("snapshot", "update"):
                continue
            version = frame["version"]
            if frame["type"] == "snapshot":
                if last is not None and version < last:
                    out.append(f"{bot.nickname}: snapshot v{version} after v{last} ({node_id})")
            elif last is not None and version != last + 1:
                out.append(f"{bot.nickname}: update v{version} after v{last} ({node_id})")
            last = version
    return out


def check_table_end(table: Table) -> None:
    """Every bot at the table ended at the same version with the same winner, saw its
    versions go up one by one, and met no refusal that a correct cluster does not give."""
    ends = {(bot.nickname, bot.table(table.room_id).version) for bot in table.bots}
    assert len({version for _, version in ends}) == 1, f"the bots ended apart: {sorted(ends)}"
    assert len({view.winner for view in table.views()}) == 1
    assert not table.problems(), table.problems()
    gaps = [gap for bot in table.bots for gap in version_problems(bot, table.room_id)]
    assert not gaps, gaps


def hidden_cards(frame: Any, path: str = "") -> list[str]:
    """Where a frame carries cards a spectator must not see (a non-empty hand or legal)."""
    found: list[str] = []
    if isinstance(frame, dict):
        for key, value in frame.items():
            if key in ("hand", "hands", "legal") and value:
                found.append(f"{path}.{key}={value}")
            found.extend(hidden_cards(value, f"{path}.{key}"))
    elif isinstance(frame, list):
        for index, value in enumerate(frame):
            found.extend(hidden_cards(value, f"{path}[{index}]"))
    return found


def _ranges(versions: list[int]) -> str:
    if not versions:
        return "none"
    spans, start = [], versions[0]
    for a, b in itertools.pairwise(versions):
        if b != a + 1:
            spans.append(f"{start}..{a}")
            start = b
    spans.append(f"{start}..{versions[-1]}")
    return ", ".join(spans)
