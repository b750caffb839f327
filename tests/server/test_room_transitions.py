"""The room's state machine, without sockets: every transition and every refusal.

One table of cases, like h11's state table: a room built from log entries, a command,
and the entries it writes or the code it refuses with.  The timer's transition
(``expire``), what the room does by itself (``follow_up``), the fold and the log codec
are checked below the table.
"""

from __future__ import annotations

import dataclasses
import datetime
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

import pytest

from engine import Action, Rules, cards_of
from engine.events import DealStarted, MatchEnded
from engine.policies import Policy, RandomPolicy
from server.table.room import CLOSED, FINISHED, OPEN, PLAYING, Decision, Room, RoomError
from server.table.room_entries import (
    LEGACY_DAY,
    LEGACY_GRACE,
    Acted,
    Away,
    Closed,
    Created,
    Entry,
    Owned,
    Readied,
    Resumed,
    Seated,
    Seen,
    Started,
    decode,
)

pytestmark = pytest.mark.server


def acted(seat: int, action: str, by: str) -> Acted:
    """An act entry, its action in notation."""
    return Acted(seat, Action.parse(action), by)


OWNER = "p0"
FULL = [Seated(0, OWNER), Seated(1, "p1"), Seated(2, "p2"), Seated(3, "p3")]
READY = [Readied(s, True) for s in range(4)]
PLAYING_LOG = [*FULL, *READY, Started()]  # bidding: seat 1 (left of dealer 0) acts first


def build(*entries: Entry, rules: Rules | None = None, away_after: int = 2) -> Room:
    first = Created(OWNER, "table", rules or Rules(), 30, False, None, seed=7)
    return Room.from_log("r1", [first, *entries], away_after)


def playing(*more: Entry, rules: Rules | None = None) -> Callable[[], Room]:
    return lambda: build(*PLAYING_LOG, *more, rules=rules)


def with_trump(*more: Entry) -> Callable[[], Room]:
    """Seat 1 named hearts: it leads the first trick (then ``more``)."""
    return playing(acted(1, "trump:h", "player"), *more)


def legal(room: Room) -> str:
    assert room.match is not None
    return str(room.match.legal_actions()[0])


def held_by(room: Room, seat: int, legal: bool) -> str:
    """A card ``seat`` holds that it may (or may not) play now."""
    assert room.match is not None
    deal = room.match.deal
    allowed = deal.legal_mask() if deal.turn == seat else 0
    cards = [c for c in cards_of(deal.hands[seat]) if bool(allowed >> c & 1) == legal]
    assert cards, f"with this seed seat {seat} must hold such a card"
    return str(Action.play(cards[0]))


def solo() -> Room:
    """A solo game under way: OWNER in seat 0 beside three CPUs."""
    first = Created(
        OWNER, "solo", Rules(), 30, True, None, seed=7, seats=(OWNER, None, None, None),
        cpu_level="heuristic", mode="solo",
    )  # fmt: skip
    return Room.from_log("r1", [first, Started()])


def private(*more: Entry) -> Callable[[], Room]:
    """An open private room (invite code "c0de"), then ``more``."""
    first = Created(OWNER, "friends", Rules(), 30, True, "c0de", seed=7)
    return lambda: Room.from_log("r1", [first, *more])


CLOSES = 1_000.0  # ``closing``'s closing time (wall seconds)


def closing(*more: Entry) -> Callable[[], Room]:
    """A running match (seat 1 acts first) that closes unfinished at ``CLOSES``, then
    ``more``."""
    first = Created(OWNER, "daily", Rules(), 30, True, None, seed=7, closes_at=CLOSES)
    return lambda: Room.from_log("r1", [first, *PLAYING_LOG, *more])


def daily(*more: Entry) -> Callable[[], Room]:
    """A running match in the daily game's mode (seat 1 acts first), then ``more``."""
    first = Created(OWNER, "daily", Rules(), 30, True, None, seed=7, mode="daily", day="d")
    return lambda: Room.from_log("r1", [first, *PLAYING_LOG, *more])


def rated(*more: Entry) -> Callable[[], Room]:
    """A running rated match of four humans (seat 1 acts first), then ``more``."""
    first = Created(OWNER, "rated", Rules(), 30, False, None, seed=7, rated=True)
    return lambda: Room.from_log("r1", [first, *PLAYING_LOG, *more])


def cpu_at(seat: int) -> Callable[[], Room]:
    """A running match with a CPU (a strong one) in ``seat``."""
    seats = [Seated(seat, None, True, "strong") if s.seat == seat else s for s in FULL]
    return lambda: build(*seats, *READY, Started())


def at_tournament() -> Room:
    room = playing()()
    room.tournament = "t_1"
    return room


def due(room: Room) -> Decision:
    decision = room.decision_due()
    assert decision is not None
    return decision


def after_lead() -> Room:
    room = with_trump()()
    room.apply(acted(1, legal(room), "player"))
    return room


@dataclass(frozen=True)
class Case:
    name: str
    room: Callable[[], Room]
    command: Callable[[Room], list[Entry]]
    expect: list[Entry] | str | Callable[[Room], list[Entry]]  # entries, or a refusal's code


CASES = [
    # take_seat
    Case("take a free seat", build, lambda r: r.take_seat("p1", 1), [Seated(1, "p1")]),
    Case("move to another seat", lambda: build(Seated(1, "p1")), lambda r: r.take_seat("p1", 2),
         [Seated(1, None), Seated(2, "p1")]),
    Case("take one's own seat again", lambda: build(Seated(1, "p1")),
         lambda r: r.take_seat("p1", 1), "already_seated"),
    Case("take a player's seat", lambda: build(Seated(1, "p1")), lambda r: r.take_seat("p2", 1),
         "seat_taken"),
    Case("take a CPU's seat", lambda: build(Seated(1, None, True)), lambda r: r.take_seat("p2", 1),
         "seat_taken"),
    Case("take a seat once playing", playing(), lambda r: r.take_seat("p9", 0), "room_started"),
    # leave
    Case("leave without a seat", build, lambda r: r.leave("p1"), "not_seated"),
    Case("leave while another player stays", lambda: build(Seated(0, OWNER), Seated(1, "p1")),
         lambda r: r.leave("p1"), [Seated(1, None)]),
    Case("the owner's seat passes to the next player clockwise",
         lambda: build(Seated(0, OWNER), Seated(1, "p1"), Seated(2, "p2")),
         lambda r: r.leave(OWNER), [Seated(0, None), Owned("p1")]),
    Case("the owner's seat passes on clockwise past the last seat",
         lambda: build(Seated(3, OWNER), Seated(0, "p4"), Seated(1, "p1")),
         lambda r: r.leave(OWNER), [Seated(3, None), Owned("p4")]),
    Case("the last player leaves: closed", lambda: build(Seated(1, "p1"), Seated(2, None, True)),
         lambda r: r.leave("p1"), [Seated(1, None), Closed()]),
    Case("leave a running match", playing(), lambda r: r.leave("p1"), "match_running"),
    Case("the player of a solo game resigns it", solo, lambda r: r.leave(OWNER), [Closed()]),
    Case("a stranger leaves a solo game", solo, lambda r: r.leave("p9"), "not_seated"),
    # add_cpu
    Case("the owner adds a CPU", build, lambda r: r.add_cpu(OWNER, 3),
         [Seated(3, None, True, "strong")]),
    Case("another adds a CPU", build, lambda r: r.add_cpu("p1", 3), "not_owner"),
    Case("a CPU on a taken seat", lambda: build(Seated(3, "p3")), lambda r: r.add_cpu(OWNER, 3),
         "seat_taken"),
    Case("a CPU once playing", playing(), lambda r: r.add_cpu(OWNER, 3), "room_started"),
    # remove
    Case("the owner removes a player", lambda: build(Seated(2, "p2")),
         lambda r: r.remove(OWNER, 2), [Seated(2, None)]),
    Case("the owner removes a CPU", lambda: build(Seated(2, None, True)),
         lambda r: r.remove(OWNER, 2), [Seated(2, None)]),
    Case("another removes", lambda: build(Seated(2, "p2")), lambda r: r.remove("p1", 2),
         "not_owner"),
    Case("remove an empty seat", build, lambda r: r.remove(OWNER, 2), "seat_empty"),
    Case("the owner removes itself", lambda: build(Seated(0, OWNER)), lambda r: r.remove(OWNER, 0),
         "cannot_remove_self"),
    Case("remove once playing", playing(), lambda r: r.remove(OWNER, 2), "room_started"),
    # ready
    Case("ready", lambda: build(Seated(1, "p1")), lambda r: r.ready("p1", True),
         [Readied(1, True)]),
    Case("not ready", lambda: build(Seated(1, "p1"), Readied(1, True)),
         lambda r: r.ready("p1", False), [Readied(1, False)]),
    Case("ready again", lambda: build(Seated(1, "p1"), Readied(1, True)),
         lambda r: r.ready("p1", True), []),  # nothing changes: nothing is written
    Case("ready without a seat", build, lambda r: r.ready("p1", True), "not_seated"),
    Case("ready once playing", playing(), lambda r: r.ready("p1", True), "room_started"),
    # act
    Case("act before the match", lambda: build(Seated(1, "p1")),
         lambda r: r.act("p1", "pass", None), "not_playing"),
    Case("act without a seat", playing(), lambda r: r.act("p9", "pass", None), "not_seated"),
    Case("act at a stale version", playing(), lambda r: r.act("p1", "pass", r.version - 1),
         "stale_version"),
    Case("act at the table's version", playing(), lambda r: r.act("p1", "pass", r.version),
         [acted(1, "pass", "player")]),
    Case("act in bad notation", playing(), lambda r: r.act("p1", "zz", None), "bad_notation"),
    Case("act out of turn", playing(), lambda r: r.act("p2", "pass", None), "not_your_turn"),
    Case("a card while trump is chosen", playing(), lambda r: r.act("p1", "Jh", None),
         "wrong_phase"),
    Case("pass when a suit must be named", playing(rules=Rules(trump_mode="forced")),
         lambda r: r.act("p1", "pass", None), "illegal_action"),
    Case("a card not in the hand", with_trump(), lambda r: r.act("p1", held_by(r, 2, False), None),
         "card_not_in_hand"),
    Case("a card the rules forbid", after_lead, lambda r: r.act("p2", held_by(r, 2, False), None),
         "illegal_card"),
    Case("a card the rules allow", after_lead, lambda r: r.act("p2", held_by(r, 2, True), None),
         lambda r: [acted(2, held_by(r, 2, True), "player")]),
    Case("act while away: back first", playing(Away(1, True)), lambda r: r.act("p1", "pass", None),
         [Away(1, False), acted(1, "pass", "player")]),
    Case("act in the pause between deals", lambda: paused_room(),
         lambda r: r.act("p1", "pass", None), "deal_pause"),
    # back and resume
    Case("back without a seat", playing(), lambda r: r.back("p9"), "not_seated"),
    Case("back when not away", playing(), lambda r: r.back("p1"), []),
    Case("back when away", playing(Away(2, True)), lambda r: r.back("p2"), [Away(2, False)]),
    Case("resume a seat that is away", playing(Away(2, True)), lambda r: r.resume("p2"),
         [Away(2, False)]),
    Case("resume a seat that is not away", playing(), lambda r: r.resume("p2"), []),
    Case("resume as a spectator", playing(), lambda r: r.resume("p9"), []),
    # who may come in and command: the actor says whether the connection follows the room
    Case("a stranger comes into a solo game", solo, lambda r: r.admit("p9", True) or [],
         "solo_game"),
    Case("its player comes back to a solo game", solo, lambda r: r.admit(OWNER, False) or [],
         []),
    Case("a private room without its invite", private(), lambda r: r.admit("p9", False) or [],
         "invite_required"),
    Case("a private room with its invite", private(), lambda r: r.admit("p9", True) or [], []),
    Case("a public room without an invite", build, lambda r: r.admit("p9", False) or [], []),
    Case("act without following", playing(),
         lambda r: r.act("p1", "pass", None, follows=False), "not_a_member"),
    Case("back without following", playing(Away(1, True)),
         lambda r: r.back("p1", follows=False), "not_a_member"),
    Case("continue without following", playing(), lambda r: r.continue_("p1", follows=False),
         "not_a_member"),
    Case("chat without following", playing(), lambda r: r.chat("p9", follows=False) or [],
         "not_a_member"),
    Case("chat while following", playing(), lambda r: r.chat("p9") or [], []),
    Case("a stranger resumes a private room", private(Seated(1, "p1")),
         lambda r: r.resume("p9"), "not_a_member"),
    Case("its player resumes a private room", private(Seated(1, "p1")),
         lambda r: r.resume("p1"), []),
    # the closing time (the daily game's: its day's games close)
    Case("act before the closing time", closing(),
         lambda r: r.act("p1", "pass", None, now=CLOSES - 1), [acted(1, "pass", "player")]),
    Case("a command that gives no time never closes the room", closing(),
         lambda r: r.act("p1", "pass", None), [acted(1, "pass", "player")]),
    Case("act at the closing time", closing(),
         lambda r: r.act("p1", "pass", None, now=CLOSES), [Closed()]),
    Case("back after the closing time", closing(Away(1, True)),
         lambda r: r.back("p1", now=CLOSES + 1), [Closed()]),
    Case("continue after the closing time", closing(),
         lambda r: r.continue_("p2", now=CLOSES + 1), [Closed()]),
    Case("resume after the closing time", closing(), lambda r: r.resume("p1", CLOSES + 1),
         [Closed()]),
    Case("a stranger acts after the closing time", closing(),
         lambda r: r.act("p9", "pass", None, follows=False, now=CLOSES + 1), "not_a_member"),
    Case("close before the closing time", closing(), lambda r: r.close(CLOSES - 1), []),
    Case("close at the closing time", closing(), lambda r: r.close(CLOSES), [Closed()]),
    Case("close a closed room", closing(Closed()), lambda r: r.close(CLOSES), []),
    Case("close a room without a closing time", playing(), lambda r: r.close(1e12), []),
    # replace_with_cpu (a tournament player abandoned)
    Case("a player is replaced", playing(), lambda r: r.replace_with_cpu("p2"),
         [Seated(2, None, True, "strong")]),
    Case("nobody to replace", playing(), lambda r: r.replace_with_cpu("p9"), []),
]  # fmt: skip

# Issue 11 (strong CPU players): CPU levels, decisions searched outside the fold, hints.
BOT_CASES = [
    # add_cpu at a level
    Case("the owner adds an easy CPU", build, lambda r: r.add_cpu(OWNER, 3, "heuristic"),
         [Seated(3, None, True, "heuristic")]),
    # expire (the decision due, answered by a search)
    Case("a CPU's decision", cpu_at(1), lambda r: r.expire(due(r), "pass"),
         [acted(1, "pass", "cpu")]),
    Case("an away seat's decision", playing(Away(1, True)), lambda r: r.expire(due(r), "pass"),
         [acted(1, "pass", "cpu")]),
    Case("a timeout's decision", playing(), lambda r: r.expire(due(r), "pass"),
         [acted(1, "pass", "timeout")]),
    Case("a decision of an earlier version", playing(),
         lambda r: r.expire(dataclasses.replace(due(r), version=r.version - 1), "pass"), []),
    Case("a decision for another seat", playing(),
         lambda r: r.expire(dataclasses.replace(due(r), seat=2), "pass"), []),
    Case("a decision that is not legal", playing(), lambda r: r.expire(due(r), "Jh"),
         "wrong_phase"),
    # time_out (the daily game: nobody plays a player's moves)
    Case("a daily player's time runs out", daily(), lambda r: r.time_out(), [Away(1, True)]),
    Case("an away daily player's time runs out", daily(Away(1, True)), lambda r: r.time_out(),
         []),
    Case("a time out where the server plays the move", playing(), lambda r: r.time_out(), []),
    Case("a time out of a CPU", cpu_at(1), lambda r: r.time_out(), []),
    # hint (refusals; what it advises on is below)
    Case("a hint at a tournament table", at_tournament, lambda r: r.hint("p1"),
         "hints_not_allowed"),
    Case("a hint in the daily game", daily(), lambda r: r.hint("p1"), "hints_not_allowed"),
    Case("a hint in a rated match", rated(), lambda r: r.hint("p1"), "hints_not_allowed"),
    Case("a hint before the match", lambda: build(Seated(1, "p1")), lambda r: r.hint("p1"),
         "not_playing"),
    Case("a hint once the room closed mid-match", closing(Closed()), lambda r: r.hint("p1"),
         "not_playing"),
    Case("a hint without a seat", playing(), lambda r: r.hint("p9"), "not_seated"),
    Case("a hint out of turn", playing(), lambda r: r.hint("p2"), "not_your_turn"),
    Case("a hint without following", playing(), lambda r: r.hint("p1", follows=False),
         "not_a_member"),
]  # fmt: skip

# What each refusal says, word for word: the message a player reads.
SAYS = {
    "take one's own seat again": 'you sit in seat 1 already',
    "take a player's seat": 'seat 1 is taken',
    "take a CPU's seat": 'seat 1 is taken',
    'take a seat once playing': 'the room is playing; seats are fixed',
    'leave without a seat': 'you have no seat in this room',
    'leave a running match': 'the match is running; your seat stays yours',
    'a stranger leaves a solo game': 'you have no seat in this room',
    'another adds a CPU': "only the room's owner may do that",
    'a CPU on a taken seat': 'seat 3 is taken',
    'a CPU once playing': 'the room is playing; seats are fixed',
    'another removes': "only the room's owner may do that",
    'remove an empty seat': 'seat 2 is empty',
    'the owner removes itself': 'leave the room instead of removing yourself',
    'remove once playing': 'the room is playing; seats are fixed',
    'ready without a seat': 'you have no seat in this room',
    'ready once playing': 'the room is playing; seats are fixed',
    'act before the match': 'no match is being played (the room is open)',
    'act without a seat': 'you have no seat at this table',
    'act at a stale version': 'the table is at version 10, not 9',
    'act in bad notation': "unknown action 'zz'",
    'act out of turn': "it is seat 1's turn, not seat 2's",
    'a card while trump is chosen': 'cards are not being played now (phase trump)',
    'pass when a suit must be named': 'you must name trump: passing is not allowed now',
    'a card not in the hand': '8c is not in your hand',
    'a card the rules forbid': 'Td is not legal: must follow clubs',
    'act in the pause between deals': "the next deal starts once everyone has seen the last "
    "one's result (continue), or in a few seconds",
    'back without a seat': 'you have no seat in this room',
    'a stranger comes into a solo game': "this is another player's game against CPUs: only "
    "they may play or watch it",
    'a private room without its invite': 'this room is private: use its invite code',
    'act without following': "join, watch or resume room 'r1' first",
    'back without following': "join, watch or resume room 'r1' first",
    'continue without following': "join, watch or resume room 'r1' first",
    'chat without following': "join, watch or resume room 'r1' first",
    'a stranger resumes a private room': 'resume a private room only where you have a seat',
    'a stranger acts after the closing time': "join, watch or resume room 'r1' first",
    'a hint without following': "join, watch or resume room 'r1' first",
    'a decision that is not legal': 'cards are not being played now (phase trump)',
    'a hint at a tournament table': 'no hints at a tournament table',
    'a hint in the daily game': 'no hints in the daily game',
    'a hint in a rated match': 'no hints in a rated match',
    'a hint before the match': 'no match is being played (the room is open)',
    'a hint once the room closed mid-match': 'no match is being played (the room is closed)',
    'a hint without a seat': 'you have no seat at this table',
    'a hint out of turn': "it is seat 1's turn, not yours",
}  # fmt: skip


def state(room: Room) -> tuple:
    seats = [dataclasses.astuple(s) for s in room.seats]
    match = room.match.actions[:] if room.match is not None else None
    return room.version, room.status, seats, match


@pytest.mark.parametrize(
    "case",
    [*CASES, *(pytest.param(c, marks=pytest.mark.bots) for c in BOT_CASES)],
    ids=[c.name for c in (*CASES, *BOT_CASES)],
)
def test_transition(case: Case) -> None:
    room = case.room()
    if isinstance(case.expect, str):
        before = state(room)
        with pytest.raises(RoomError) as refused:
            case.command(room)
        assert (refused.value.code, refused.value.message) == (case.expect, SAYS[case.name])
        assert state(room) == before  # a refusal changes nothing
        return
    expect = case.expect(room) if callable(case.expect) else case.expect
    before = room.version
    entries = case.command(room)
    assert entries == expect
    assert room.version == before  # a transition only says what to write
    for entry in entries:
        room.apply(entry)
    assert room.version == before + len(entries)


# -- attendance: an open room nobody follows closes, an owner gone hands it over -------------

WAIT = 120.0  # ``abandon_after``'s default


def test_an_open_room_none_of_its_players_follows_closes_after_the_wait() -> None:
    room = build(Seated(1, "p1"))
    assert room.attendance(frozenset({"p9"}), 10.0) == 10.0 + WAIT  # a spectator is nobody
    assert room.attendance(frozenset(), 50.0) == 10.0 + WAIT  # still alone since 10
    assert room.abandon(10.0 + WAIT - 1) == []
    assert room.abandon(10.0 + WAIT) == [Closed()]
    assert room.attendance(frozenset({"p1"}), 60.0) != 60.0 + WAIT  # a player came back
    assert room.alone_since is None and room.abandon(1e9) == []


def test_an_empty_open_room_counts_anyone_who_follows_it() -> None:
    room = build()
    assert room.attendance(frozenset({"p9"}), 0.0) is None  # its owner is gone: nobody heirs
    assert room.attendance(frozenset(), 5.0) == 5.0 + WAIT
    assert room.abandon(5.0 + WAIT) == [Closed()]


def test_an_owner_gone_for_the_wait_hands_the_room_to_the_next_player_clockwise() -> None:
    room = build(Seated(0, OWNER), Seated(1, "p1"), Seated(3, "p3"))
    assert room.attendance(frozenset({OWNER, "p1", "p3"}), 0.0) is None
    assert room.attendance(frozenset({"p1", "p3"}), 30.0) == 30.0 + WAIT
    assert room.pass_owner(frozenset({"p1", "p3"}), 30.0 + WAIT - 1) == []
    assert room.pass_owner(frozenset({"p3"}), 30.0 + WAIT) == [Owned("p3")]  # p1 went too
    assert room.pass_owner(frozenset({"p1", "p3"}), 30.0 + WAIT) == [Owned("p1")]
    assert room.attendance(frozenset(), 40.0) == 40.0 + WAIT  # nobody at all: alone from 40
    assert room.attendance(frozenset({OWNER, "p1"}), 50.0) is None  # the owner is back
    assert room.pass_owner(frozenset({"p1"}), 1e9) == []


def test_an_owner_who_leaves_without_a_seat_hands_the_room_over_at_once() -> None:
    room = build(Seated(2, "p2"), Seated(3, "p3"))
    assert room.pass_owner(frozenset({"p2", "p3"})) == [Owned("p2")]  # from seat 0 on
    assert room.pass_owner(frozenset()) == []  # nobody seated follows it
    assert playing()().pass_owner(frozenset({"p1"})) == []  # only an open room's
    assert playing()().attendance(frozenset(), 0.0) is None and playing()().abandon(1e9) == []


# -- expire: the decision due ran out of time, or is a CPU's ---------------------------------


def expire(room: Room, policy: Policy | None = None) -> list[Entry]:
    """What the actor does at a deadline: ``policy`` (random) decides the decision due, as
    a worker would, and the room writes it."""
    decision = room.decision_due()
    if decision is None:
        return []
    rng = random.Random(decision.seed)
    return room.expire(decision, str((policy or RandomPolicy()).act(decision.view, rng)))


def test_nothing_expires_outside_a_match() -> None:
    assert build(Seated(1, "p1")).decision_due() is None
    assert expire(build(Seated(1, "p1"))) == []


def test_a_cpu_decides_a_legal_action() -> None:
    room = build(Seated(0, OWNER), Seated(1, None, True), *FULL[2:], *READY, Started())
    assert room.match is not None
    legal = {str(a) for a in room.match.legal_actions()}
    (entry,) = expire(room)
    assert isinstance(entry, Acted) and (entry.seat, entry.by) == (1, "cpu")
    assert str(entry.action) in legal


def test_an_expired_decision_is_the_same_on_every_replay() -> None:
    """Seeded by the room's seed and the match's count of actions: a replay (or another
    node) decides alike, and entries that are no play (away, back, a pause) change nothing."""
    decisions = {str(expire(playing()())) for _ in range(5)}
    assert len(decisions) == 1
    later = playing(acted(1, "pass", "player"), acted(2, "pass", "player"))()
    assert later.turn == 3 and expire(later)[0].seat == 3  # type: ignore[union-attr]
    assert later.decision_due().seed == "7/2"  # type: ignore[union-attr]
    later.apply(Away(3, True))
    later.apply(Away(3, False))
    assert later.decision_due().seed == "7/2"  # type: ignore[union-attr]


def test_timeouts_in_a_row_mark_the_seat_away() -> None:
    room = playing()()
    (first,) = expire(room)
    assert (first.seat, first.by) == (1, "timeout")  # type: ignore[union-attr]
    # seat 1 passes on a timeout, the others pass: all four passed, seat 1 must name trump
    for entry in (acted(1, "pass", "timeout"), *(acted(s, "pass", "player") for s in (2, 3, 0))):
        room.apply(entry)
    assert room.turn == 1 and room.seats[1].timeouts == 1
    timed_out, away = expire(room)
    assert (timed_out.seat, timed_out.by) == (1, "timeout") and away == Away(1, True)  # type: ignore[union-attr]


def test_away_after_is_a_setting() -> None:
    room = build(*PLAYING_LOG, away_after=1)
    assert [type(e) for e in expire(room)] == [Acted, Away]


def test_a_timeout_plays_a_legal_action_and_a_finished_room_waits_for_nothing() -> None:
    room = playing()()
    assert room.match is not None
    legal = {str(a) for a in room.match.legal_actions()}
    (timed_out,) = expire(build(*PLAYING_LOG, away_after=9))
    assert str(timed_out.action) in legal  # type: ignore[union-attr]
    room = build(*FULL, *READY, Started(), rules=Rules(end="deals", end_value=1))
    while room.status == PLAYING:
        assert room.match is not None
        room.apply(acted(room.turn, str(room.match.legal_actions()[0]), "player"))  # type: ignore[arg-type]
    assert expire(room) == [] and room.waiting_on() is None
    with pytest.raises(RoomError) as refused:  # the match is over: nothing more to play
        room.act("p1", "pass", None)
    assert (refused.value.code, refused.value.message) == (
        "not_playing",
        "no match is being played (the room is finished)",
    )
    assert room.match is not None and room.summary({})["totals"] == list(room.match.totals)
    assert sum(room.match.totals) >= 162  # a deal was scored


def test_a_seat_that_is_away_is_played_by_the_cpu() -> None:
    (entry,) = expire(playing(Away(1, True))())
    assert (entry.seat, entry.by) == (1, "cpu")  # type: ignore[union-attr]


def test_the_daily_game_waits_for_its_player_and_plays_only_its_cpus() -> None:
    """Nobody plays a daily player's move: no decision is due for it, and once it is away
    nothing is due at all (no timer) until it acts or comes back; its CPUs still play."""
    room = daily()()
    assert room.decision_due() is None and room.waiting_on() == (1, False)
    room.apply(Away(1, True))
    assert room.decision_due() is None and room.waiting_on() is None
    room.apply(Away(1, False))
    assert room.waiting_on() == (1, False)
    cpu = Created(OWNER, "daily", Rules(), 30, True, None, seed=7, seats=(OWNER, None, None,
                  None), cpu_level="strong", mode="daily", day="d")  # fmt: skip
    solo_daily = Room.from_log("r1", [cpu, Started()])
    assert solo_daily.turn == 1 and solo_daily.waiting_on() == (1, True)
    assert due(solo_daily).level == "strong"


def test_a_move_made_for_a_player_is_remembered() -> None:
    """``stood_in``: the seats whose player had a move made for them (a timeout, or the
    server playing an away seat), whatever the mode; not a CPU's own moves."""
    room = playing(acted(1, "pass", "timeout"), acted(2, "pass", "player"))()
    assert room.stood_in == {1}
    room = cpu_at(1)()
    room.apply(acted(1, "pass", "cpu"))
    assert room.stood_in == set()


def test_waiting_on_names_the_seat_and_who_decides() -> None:
    assert build().waiting_on() is None
    assert playing()().waiting_on() == (1, False)
    assert playing(Away(1, True))().waiting_on() == (1, True)


@pytest.mark.bots
def test_a_cpu_decides_at_its_level_and_the_server_takes_over_with_strong() -> None:
    levels = [Seated(0, None, True, "random"), Seated(1, None, True, "heuristic"),
              Seated(2, None, True, "strong"), Seated(3, "p3")]  # fmt: skip
    room = build(*levels, Readied(3, True), Started())
    seen = {}
    for _ in range(8):  # bounded: a fold that does not move on fails here, never hangs
        if room.status != PLAYING or len(seen) == 4:
            break
        decision = due(room)
        seen[decision.seat] = decision.level
        assert decision.view.seat == decision.seat and decision.view.legal  # its own view
        room.apply(acted(decision.seat, str(decision.view.legal[0]), "cpu"))
    assert seen == {0: "random", 1: "heuristic", 2: "strong", 3: "strong"}  # 3: a timeout


@pytest.mark.bots
def test_a_hint_advises_on_the_players_own_decision() -> None:
    room = playing()()
    hint = room.hint("p1")
    assert hint == due(room)  # what the server would play there: strong, same seed
    assert (hint.seat, hint.level, hint.version, hint.seed) == (1, "strong", 10, "7/0")
    assert hint.view.seat == 1 and hint.view.hand  # seat 1's own cards, nobody else's


@pytest.mark.bots
def test_cpus_have_a_name_per_seat_that_a_replay_keeps() -> None:
    room = build(*(Seated(s, None, True, "strong") for s in range(3)), Seated(3, None, True))
    names = [s["nickname"] for s in room.summary({})["seats"]]
    assert names == ["Hanna (CPU, strong)", "Ilse (CPU, strong)", "Joost (CPU, strong)",
                     "Kees (CPU, heuristic)"]  # fmt: skip
    assert [s["nickname"] for s in build(*room_log(room)).summary({})["seats"]] == names
    assert [s["cpu_name"] for s in room.summary({})["seats"]] == ["Hanna", "Ilse", "Joost", "Kees"]
    other = Room.from_log("r2", [Created(OWNER, "t", Rules(), 30, False, None, seed=8),
                                 Seated(0, None, True, "strong")])  # fmt: skip
    assert other.summary({})["seats"][0]["nickname"] == "Ilse (CPU, strong)"  # seed picks


@pytest.mark.bots
def test_a_cpu_seated_with_a_name_keeps_it_until_a_player_takes_its_seat() -> None:
    """``cpu_names`` (a tournament's CPU entrant, a rematch's CPU): the name of the CPU in
    that seat before and during the match; once a player started in the seat, a CPU that
    takes it over later has the room's own name for the seat."""
    names = (None, "Bram (CPU, strong)", None, None)
    table = Created("system", "t", Rules(), 30, False, None, 7, "t1", ("a", None, "b", "c"),
                    "strong", cpu_names=names)  # fmt: skip
    room = Room.from_log("r1", [table])
    assert room.cpu_nickname(1) == "Bram (CPU, strong)"
    assert room.summary({})["seats"][1]["cpu_name"] == "Bram"
    room.apply(Started())
    assert room.cpu_nickname(1) == "Bram (CPU, strong)"  # a CPU started in its seat
    again = Created(OWNER, "again", Rules(), 30, True, None, seed=7, cpu_names=names)
    room = Room.from_log("r1", [again, Seated(0, OWNER), Seated(1, None, True, "strong"),
                                Seated(2, "p2"), Seated(3, "p3")])  # fmt: skip
    assert room.cpu_nickname(1) == "Bram (CPU, strong)"
    for entry in (*room.remove(OWNER, 1), Seated(1, "p1"), *READY, Started()):
        room.apply(entry)
    for entry in room.replace_with_cpu("p1"):  # p1 started in seat 1: not Bram's seat now
        room.apply(entry)
    assert room.cpu_nickname(1) == "Ilse (CPU, strong)"  # the room's name for seat 1
    assert room.summary({})["seats"][1]["nickname"] == "Ilse (CPU, strong)"


def room_log(room: Room) -> list[Entry]:
    return [Seated(i, s.player, s.cpu, s.level) for i, s in enumerate(room.seats)]


@pytest.mark.bots
def test_a_tournament_tables_cpus_are_strong_and_old_ones_heuristic() -> None:
    first = Created("system", "t", Rules(), 30, False, None, 7, "t1", ("a", None, "b", None),
                    cpu_level="strong")  # fmt: skip
    assert [s.level for s in Room.from_log("r1", [first]).seats] == [None, "strong", None, "strong"]
    stored = first.to_dict()
    del stored["cpu_level"]  # a table opened before CPUs had levels
    assert [s.level for s in Room.from_log("r1", [decode(stored)]).seats][1] == "heuristic"


# -- follow_up: what the room does by itself ----------------------------------------------


@pytest.mark.parametrize(
    ("entries", "starts"),
    [
        ([], False),
        (FULL[:3], False),
        (FULL, False),  # nobody ready
        ([*FULL, *READY[:3]], False),
        ([*FULL, *READY], True),
        ([*FULL[:3], Seated(3, None, True), *READY[:3]], True),  # a CPU is always ready
        (PLAYING_LOG, False),  # already started
    ],
    ids=["empty", "three seated", "four not ready", "three ready", "all ready", "a CPU",
         "playing"],
)  # fmt: skip
def test_the_room_starts_itself_once_full_and_ready(entries: list[Entry], starts: bool) -> None:
    assert build(*entries).follow_up() == (Started() if starts else None)


def test_a_tournament_table_is_seated_and_ready_from_its_first_entry() -> None:
    first = Created("system", "t", Rules(), 30, False, None, 7, "t1", ("a", None, "b", None))
    room = Room.from_log("r1", [first])
    assert [(s.player, s.cpu, s.ready) for s in room.seats] == [
        ("a", False, True), (None, True, True), ("b", False, True), (None, True, True),
    ]  # fmt: skip
    assert room.follow_up() == Started()


# -- the fold ------------------------------------------------------------------------------


def test_an_emptied_seat_asks_everyone_to_confirm_again() -> None:
    room = build(*FULL, *READY[:3])
    room.apply(Seated(3, None, True))  # a CPU sits: readiness stays
    assert [s.ready for s in room.seats] == [True, True, True, False]
    room.apply(Seated(2, None))
    assert [s.ready for s in room.seats] == [False, False, False, False]


def test_an_act_entry_plays_its_action_and_the_turn_moves_on() -> None:
    room = playing()()
    room.apply(acted(1, "pass", "player"))
    assert room.match is not None and [str(a) for a in room.match.actions] == ["pass"]
    assert room.turn == 2 and room.decision_due().seat == 2  # type: ignore[union-attr]


def test_a_players_seat_has_no_level_and_a_cpus_has_its_own() -> None:
    room = build(Seated(1, "p1"), Seated(2, None, True, "random"), Seated(3, None, True))
    assert [(s.player, s.cpu, s.level) for s in room.seats] == [
        (None, False, None), ("p1", False, None), (None, True, "random"),
        (None, True, "heuristic"),  # a CPU seated before levels
    ]  # fmt: skip


def test_the_start_remembers_who_started_in_each_seat() -> None:
    """``starters``: the players seated at the start, by seat (None: a CPU); a seat taken
    over later does not change them."""
    room = build(Seated(0, OWNER), Seated(1, None, True, "strong"), Seated(2, "p2"),
                 Seated(3, "p3"), *(Readied(s, True) for s in (0, 2, 3)))  # fmt: skip
    assert room.starters is None
    room.apply(Started())
    assert room.starters == (OWNER, None, "p2", "p3")
    room.apply(Seated(2, None, True, "strong"))
    assert room.starters == (OWNER, None, "p2", "p3")


def test_timeouts_count_in_a_row() -> None:
    room = playing()()
    room.apply(acted(1, "pass", "timeout"))
    room.apply(acted(2, "pass", "timeout"))
    assert [s.timeouts for s in room.seats] == [0, 1, 1, 0]
    room.apply(acted(3, "pass", "cpu"))  # a CPU's move leaves the count alone
    room.apply(acted(0, "pass", "player"))
    assert [s.timeouts for s in room.seats] == [0, 1, 1, 0]
    room.apply(acted(1, "trump:h", "player"))  # the player's own move resets it
    assert room.seats[1].timeouts == 0
    for seat, by in ((1, "player"), (2, "timeout")):  # seat 1 leads; seat 2 times out again
        room.apply(acted(seat, legal(room), by))
    assert room.seats[2].timeouts == 2
    room.apply(Away(2, True))  # away: the count stands
    assert (room.seats[2].away, room.seats[2].timeouts) == (True, 2)
    room.apply(Away(2, False))  # back: a fresh start
    assert (room.seats[2].away, room.seats[2].timeouts) == (False, 0)


def test_start_deals_and_a_finished_match_finishes_the_room() -> None:
    room = build(*FULL, *READY, rules=Rules(end="deals", end_value=1))
    events = room.apply(Started())
    assert room.status == PLAYING and [type(e) for e in events] == [DealStarted]
    ended = []
    while room.status == PLAYING:
        assert room.match is not None
        ended += room.apply(acted(room.turn, str(room.match.legal_actions()[0]), "player"))  # type: ignore[arg-type]
    assert room.status == FINISHED and room.turn is None
    assert any(isinstance(e, MatchEnded) for e in ended)


def test_closed_closes_and_an_entry_out_of_place_is_refused() -> None:
    room = build(Seated(1, "p1"))
    room.apply(Closed())
    assert room.status == CLOSED and not room.live
    with pytest.raises(ValueError, match="unexpected"):
        build().apply(Created(OWNER, "again", Rules(), 30, False, None, 1))
    with pytest.raises(ValueError, match="created"):
        Room.from_log("r1", [Seated(0, OWNER)])


def test_the_summary_shows_seats_never_cards() -> None:
    room = build(
        Seated(0, OWNER), Seated(1, None, True, "strong"), Seated(2, "p2"), Seated(3, "p3"),
        Readied(0, True), Readied(2, True), Readied(3, True), Started(), Away(2, True),
    )  # fmt: skip
    room.tournament = "t_9"
    assert room.summary({OWNER: "Ann", "p2": "Cas"}) == {
        "id": "r1", "name": "table", "owner": OWNER, "owner_nickname": "Ann", "private": False,
        "tournament": "t_9",
        "mode": "casual", "day": None, "status": PLAYING, "rules": Rules().to_dict(),
        "move_seconds": 30,
        "seats": [
            {"player_id": OWNER, "nickname": "Ann", "cpu": False, "level": None, "cpu_name": None,
             "ready": True, "away": False},
            {"player_id": None, "nickname": "Ilse (CPU, strong)", "cpu": True, "level": "strong",
             "cpu_name": "Ilse", "ready": True, "away": False},
            {"player_id": "p2", "nickname": "Cas", "cpu": False, "level": None, "cpu_name": None,
             "ready": True, "away": True},
            {"player_id": "p3", "nickname": None, "cpu": False, "level": None, "cpu_name": None,
             "ready": True, "away": False},
        ],
        "totals": [0, 0], "hints": False, "rated": False, "pause": None,
    }  # fmt: skip
    assert build().summary({})["hints"] is True  # a casual room
    assert build(Seated(1, "p1")).summary({})["seats"][1] == {
        "player_id": "p1", "nickname": None, "cpu": False, "level": None, "cpu_name": None,
        "ready": False, "away": False,
    }  # fmt: skip
    assert build().summary({})["totals"] == [0, 0] and build().status == OPEN


def test_a_replayed_room_keeps_what_it_was_made_with() -> None:
    rules = Rules(variant="rotterdam", roem="claim", end="deals", end_value=3)
    first = Created(
        "p7", "Cafe", rules, 45, True, "CODE123456", 99, "t_3", ("p7", None, "p8", None)
    )
    room = Room.from_log("r_x", [first])
    made = (
        room.id, room.owner, room.name, room.rules, room.move_seconds, room.private,
        room.invite_code, room.seed, room.tournament, room.version, room.away_after,
    )  # fmt: skip
    assert made == ("r_x", "p7", "Cafe", rules, 45, True, "CODE123456", 99, "t_3", 1, 2)
    assert Room.from_log("r_x", [first], away_after=5).away_after == 5
    assert build(*PLAYING_LOG).version == 1 + len(PLAYING_LOG)


def test_a_replayed_room_keeps_its_kind_its_rating_its_cpus_names_and_its_wait() -> None:
    daily_game = Created(OWNER, "Daily", Rules(), 30, True, None, seed=7,
                         seats=(OWNER, None, None, None), cpu_level="strong", mode="daily",
                         day="2026-03-14", closes_at=5_000.0)  # fmt: skip
    room = Room.from_log("r_d", [daily_game], abandon_after=30.0)
    assert (room.mode, room.day, room.closes_at, room.abandon_after) == (
        "daily", "2026-03-14", 5_000.0, 30.0,
    )  # fmt: skip
    assert (room.summary({})["mode"], room.summary({})["day"]) == ("daily", "2026-03-14")
    assert room.attendance(frozenset(), 100.0) == 130.0  # the server's wait, not the default
    names = (None, "Bram (CPU, strong)", None, None)
    rematch = Created(OWNER, "again", Rules(), 30, True, None, seed=7, rated=True,
                      cpu_names=names)  # fmt: skip
    room = Room.from_log("r_r", [rematch])
    assert (room.rated, room.cpu_names, room.summary({})["rated"]) == (True, names, True)
    assert Room.from_log("r_r", [rematch]).abandon_after == 120.0  # the default wait


# -- the log's codec -----------------------------------------------------------------------

EVERY_ENTRY: list[Entry] = [
    Created(OWNER, "t", Rules(variant="rotterdam", end="deals", end_value=16), 20, True,
            "ABCDE12345", 99),
    Created("system", "t", Rules(), 30, False, None, 5, "t_1", ("a", None, "b", "c")),
    Created("system", "t", Rules(), 30, False, None, 5, "t_1", ("a", None, "b", "c"), "strong"),
    Seated(1, "p1"), Seated(2, None, True), Seated(2, None, True, "random"), Seated(3, None),
    Readied(0, True), Started(),
    acted(1, "Jh", "timeout"), Away(2, True), Closed(),
]  # fmt: skip


@pytest.mark.parametrize("entry", EVERY_ENTRY, ids=lambda e: type(e).__name__)
def test_every_entry_reads_back_as_written(entry: Entry) -> None:
    stored = entry.to_dict()
    assert stored["t"] == entry.tag
    assert decode(stored) == entry


def test_logs_written_before_typed_entries_still_replay() -> None:
    old = {
        "t": "created", "owner": "system", "name": "t", "rules": Rules().to_dict(),
        "move_seconds": 30, "private": False, "invite_code": None, "seed": 1,
        "tournament": "t_1", "seats": ["p_a", "cpu:3", "p_b", "cpu:4"],
    }  # fmt: skip
    assert decode(old).seats == ("p_a", None, "p_b", None)  # type: ignore[union-attr]


@pytest.mark.bots
def test_a_cpu_seated_before_levels_reads_back_as_heuristic() -> None:
    assert decode({"t": "seat", "seat": 2, "player": None, "cpu": True}) == Seated(
        2, None, True, "heuristic"
    )
    assert decode({"t": "seat", "seat": 2, "player": "p2", "cpu": False}) == Seated(2, "p2")


def test_a_daily_game_logged_before_rooms_kept_their_closing_time_closes_after_its_day(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A ``created`` entry without ``closes_at``: a daily game closes at the end of its day
    (midnight UTC, whatever the server's own time zone) and two hours' grace; any other
    room, or a daily one without a day, has no closing time."""
    old = Created(OWNER, "daily", Rules(), 30, True, None, seed=7,
                  seats=(OWNER, None, None, None), mode="daily", day="2026-03-14")  # fmt: skip
    stored = old.to_dict()
    assert "closes_at" not in stored
    midnight = datetime.datetime(2026, 3, 14, tzinfo=datetime.UTC).timestamp()
    closes = midnight + LEGACY_DAY + LEGACY_GRACE
    assert closes == datetime.datetime(2026, 3, 15, 2, tzinfo=datetime.UTC).timestamp()
    monkeypatch.setenv("TZ", "IST-5:30")  # a server 5.5 hours east of UTC
    time.tzset()
    try:
        assert decode(stored).closes_at == closes  # type: ignore[union-attr]
    finally:
        monkeypatch.undo()
        time.tzset()
    room = Room.from_log("r1", [decode(stored), Started()])
    assert room.close(closes - 1) == [] and room.close(closes) == [Closed()]
    assert decode({**stored, "closes_at": 5_000.0}).closes_at == 5_000.0  # type: ignore[union-attr]
    no_day = dataclasses.replace(old, day=None).to_dict()
    assert decode(no_day).closes_at is None  # type: ignore[union-attr]
    for mode in ("casual", "solo"):
        other = dataclasses.replace(old, mode=mode, day=None).to_dict()
        assert decode(other).closes_at is None  # type: ignore[union-attr]


def test_an_unknown_entry_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown log entry"):
        decode({"t": "teleport"})


# -- the pause between deals ------------------------------------------------------------------


def paused_room(seats: list[Entry] | None = None, *more: Entry) -> Room:
    """A room that pauses between deals, played to the end of its first deal (of two);
    ``more`` just after its start."""
    first = Created(OWNER, "table", Rules.from_dict({"deals": 2}), 30, False, None, seed=7)
    log = [first, *(seats or FULL), *READY, Started(), *more]
    room = Room.from_log("r1", log, pauses=True)
    assert room.match is not None
    while room.match.deal_number == 0:
        room.apply(acted(room.match.turn, str(room.match.legal_actions()[0]), "player"))  # type: ignore[arg-type]
    return room


def test_after_a_deal_the_room_waits_until_every_player_has_seen_it() -> None:
    room = paused_room()
    assert room.waiting == {0, 1, 2, 3} and room.turn is None and room.decision_due() is None
    assert room.summary({})["pause"] == {"waiting": [0, 1, 2, 3]}
    assert room.match is not None and room.match.turn is not None  # the next deal is dealt
    with pytest.raises(RoomError) as refused:
        room.act("p1", legal(room), None)
    assert refused.value.code == "deal_pause"
    assert room.continue_("p1") == [Seen(1)]
    room.apply(Seen(1))
    assert room.continue_("p1") == []  # seen once is enough
    for seat in (0, 2):
        room.apply(room.continue_(f"p{seat}")[0])
    assert room.follow_up() is None and room.waiting == {3}
    room.apply(Seen(3))
    assert room.follow_up() == Resumed()
    room.apply(Resumed())
    assert room.waiting is None and room.turn == room.match.turn and room.decision_due()
    assert room.summary({})["pause"] is None and room.continue_("p0") == []


def test_the_pause_ends_when_its_time_runs_out_and_waits_for_no_cpu_nor_away_seat() -> None:
    with_cpu = [Seated(3, None, True, "strong") if s.seat == 3 else s for s in FULL]
    room = paused_room(with_cpu)
    assert room.waiting == {0, 1, 2}
    room.apply(Away(2, True))  # who goes away cannot say it has seen it
    assert room.waiting == {0, 1}
    assert room.end_pause() == [Resumed()]
    room.apply(Resumed())
    assert room.end_pause() == [] and room.waiting is None
    cpus = [Seated(s, None, True, "random") for s in range(4)]
    assert paused_room(cpus).waiting is None  # nobody to wait for: no pause
    unpaused = build(*PLAYING_LOG, rules=Rules.from_dict({"deals": 2}))
    assert unpaused.pauses is False


def test_the_pause_does_not_wait_for_a_seat_away_as_the_deal_ends() -> None:
    room = paused_room(None, Away(2, True))
    assert room.seats[2].away and room.waiting == {0, 1, 3}


def test_the_pause_no_longer_waits_for_a_seat_a_cpu_takes_over() -> None:
    room = paused_room()
    for entry in room.replace_with_cpu("p2"):
        room.apply(entry)
    assert room.waiting == {0, 1, 3}
    for seat in (0, 1, 3):
        room.apply(Seen(seat))
    assert room.follow_up() == Resumed()


def test_a_seat_lost_during_the_match_keeps_how_many_deals_its_starter_played() -> None:
    """``left_at``: the deals done when a starter lost its seat to a CPU (its first loss);
    nothing for a seat changed before the start or once the room is no longer playing."""
    room = paused_room()
    assert room.left_at == {}
    room.apply(Seated(2, None, True, "strong"))
    assert room.left_at == {2: 1}  # one deal of two was done
    room.apply(Seated(2, None, True, "strong"))
    assert room.left_at == {2: 1}
    before = build(Seated(1, "p1"))
    before.apply(Seated(1, None, True, "strong"))
    assert before.left_at == {}
    closed = closing(Closed())()  # closed mid-match: it has a match, but plays no more
    closed.apply(Seated(2, None, True, "strong"))
    assert closed.left_at == {}


def test_a_log_written_without_pauses_plays_through_them_and_cpus_decide_alike() -> None:
    room = paused_room()
    seed = f"{room.seed}/{len(room.match.actions)}"  # type: ignore[union-attr]
    room.apply(Seen(0))
    room.apply(Resumed())
    assert room.decision_due().seed == seed  # type: ignore[union-attr]
    # the same deal played by a log without pauses: an act ends the pause
    again = paused_room()
    assert again.waiting is not None
    again.apply(acted(again.match.turn, legal(again), "player"))  # type: ignore[union-attr, arg-type]
    assert again.waiting is None
    for entry in (Seen(2), Resumed()):
        assert decode(entry.to_dict()) == entry


def test_an_owner_who_leaves_passes_the_room_to_the_next_player_clockwise() -> None:
    room = build(Seated(0, OWNER), Seated(2, "p2"), Seated(3, "p3"))
    for entry in room.leave(OWNER):
        room.apply(entry)
    assert room.owner == "p2" and room.summary({})["owner"] == "p2"
    assert room.add_cpu("p2", 1) == [Seated(1, None, cpu=True, level="strong")]
    with pytest.raises(RoomError, match="owner"):
        room.add_cpu(OWNER, 1)
    room.apply(Seated(0, "p0b"))  # someone sits in the seat left: p2 stays the owner
    assert room.owner == "p2"
    moved = build(Seated(1, OWNER), Seated(3, "p3"))
    for entry in moved.take_seat(OWNER, 2):  # a move keeps the room the mover's
        moved.apply(entry)
    assert moved.owner == OWNER
    alone = build(Seated(0, OWNER))
    for entry in alone.leave(OWNER):
        alone.apply(entry)
    assert alone.status == CLOSED and alone.owner == OWNER
    log = [Created(OWNER, "table", Rules(), 30, False, None, 7), Seated(0, OWNER),
           Seated(2, "p2"), *build(Seated(0, OWNER), Seated(2, "p2")).leave(OWNER)]  # fmt: skip
    assert log[-1] == Owned("p2") and decode(log[-1].to_dict()) == log[-1]
    assert Room.from_log(room.id, log).owner == "p2"  # a replay agrees


def test_an_owner_who_is_gone_passes_the_room_to_a_player_who_is_there() -> None:
    """``pass_owner``: the next player seated clockwise from the owner's seat (from seat 0
    when it holds none) among those connected; nothing if none is, or once it started."""
    seated = build(Seated(1, OWNER), Seated(3, "p3"), Seated(0, "p4"))
    assert seated.pass_owner(frozenset({"p4", "p3"})) == [Owned("p3")]
    assert seated.pass_owner(frozenset({"p4", OWNER})) == [Owned("p4")]
    assert seated.pass_owner(frozenset({OWNER})) == []
    watching = build(Seated(2, "p2"), Seated(3, "p3"))  # the owner never sat
    assert watching.pass_owner(frozenset({"p2", "p3"})) == [Owned("p2")]
    assert watching.pass_owner(frozenset({"p3", "sam"})) == [Owned("p3")]
    assert watching.pass_owner(frozenset({"sam"})) == []  # a spectator never owns it
    full = build(Seated(0, OWNER), Seated(1, "p1"), Seated(2, "p2"), Seated(3, "p3"))
    for index in range(4):  # (the owner is a player like any other: it never passes to itself)
        full.apply(Readied(index, True))
    full.apply(Started())
    assert full.pass_owner(frozenset({"p1"})) == []
