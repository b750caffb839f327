"""The tournament's state machine, without sockets: every transition and every refusal.

One table of cases (a tournament built from log entries, a command, the entries it writes
or the code it refuses with), then advancement, places, the live scores and the log codec.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass

import pytest

from server.core.levels import NAMES
from server.tournament.state import (
    CANCELLED,
    FINISHED,
    FORMATS,
    RUNNING,
    SCHEDULED,
    Tournament,
    TournamentError,
    cpu_entrant,
    is_cpu,
)
from server.tournament.tournament_entries import (
    Cancelled,
    Created,
    Entry,
    Finished,
    Left,
    Registered,
    Round,
    TableFinished,
    TableRoom,
    Unregistered,
    decode,
)

pytestmark = pytest.mark.tournament

START = 1_000.0
PLAYERS = [f"p{i}" for i in range(8)]


def quick(*entries: Entry, fill: bool = False, when_full: bool = False, repeat=None) -> Tournament:
    first = Tournament.created("quick", 0.0 if when_full else START, fill, when_full, repeat, 5)
    return Tournament.from_log("t1", [first, *entries])


def registered(n: int) -> list[Entry]:
    return [Registered(p) for p in PLAYERS[:n]]


def running(*more: Entry) -> Callable[[], Tournament]:
    """Eight players registered and round 1 seated (rooms r0 and r1)."""

    def make() -> Tournament:
        t = quick(*registered(8))
        for entry in t.start(START):
            t.apply(entry)
        t.apply(TableRoom(0, "r0"))
        t.apply(TableRoom(1, "r1"))
        for entry in more:
            t.apply(entry)
        return t

    return make


def seated(t: Tournament, table: int, seat: int) -> str:
    return t.current[table].seats[seat]


@dataclass(frozen=True)
class Case:
    name: str
    tournament: Callable[[], Tournament]
    command: Callable[[Tournament], list[Entry]]
    expect: list[Entry] | str | Callable[[Tournament], list[Entry]]


CASES = [
    # register
    Case("register", quick, lambda t: t.register("p0"), [Registered("p0")]),
    Case("register twice", lambda: quick(*registered(1)), lambda t: t.register("p0"),
         "already_registered"),
    Case("register when full", lambda: quick(*registered(8)), lambda t: t.register("p9"),
         "tournament_full"),
    Case("register once running", running(), lambda t: t.register("p9"), "registration_closed"),
    Case("register after abandoning", running(Left("p3", cpu_entrant(8))),
         lambda t: t.register("p3"), "abandoned"),
    Case("register when cancelled", lambda: quick(Cancelled("why")), lambda t: t.register("p0"),
         "registration_closed"),
    # unregister
    Case("unregister", lambda: quick(*registered(2)), lambda t: t.unregister("p1"),
         [Unregistered("p1")]),
    Case("unregister unregistered", quick, lambda t: t.unregister("p1"), "not_registered"),
    Case("unregister once running", running(), lambda t: t.unregister("p1"),
         "registration_closed"),
    # leave
    Case("leave before the start: unregistered", lambda: quick(*registered(2)),
         lambda t: t.leave("p1"), [Unregistered("p1")]),
    Case("leave before the start, unregistered", quick, lambda t: t.leave("p1"), "not_registered"),
    Case("leave while playing: a CPU takes over", running(), lambda t: t.leave("p3"),
         [Left("p3", cpu_entrant(8))]),
    Case("a second leaver gets the next CPU", running(Left("p3", cpu_entrant(8))),
         lambda t: t.leave("p4"), [Left("p4", cpu_entrant(9))]),
    Case("leave without playing", running(), lambda t: t.leave("p9"), "not_playing"),
    Case("leave when eliminated", running(), lambda t: (
        [t.apply(e) for e in t.table_finished("r0", 0, (1001, 500))],
        t.leave(seated(t, 0, 1)))[1], "not_playing"),
    Case("leave a finished tournament", running(), lambda t: (
        t.apply(Finished()), t.leave("p0"))[1], "not_playing"),
    # start
    Case("not due yet", lambda: quick(*registered(8)), lambda t: t.start(START - 1), []),
    Case("due, too few, no CPUs: cancelled", lambda: quick(*registered(3)),
         lambda t: t.start(START), [Cancelled("only 3 of 8 registered")]),
    Case("due, nobody, CPUs would fill: cancelled", lambda: quick(fill=True),
         lambda t: t.start(START), [Cancelled("nobody registered")]),
    Case("due, nobody, no CPUs: cancelled", quick,
         lambda t: t.start(START), [Cancelled("nobody registered")]),
    Case("due, too few, CPUs fill", lambda: quick(*registered(3), fill=True),
         lambda t: [type(e)(e.number, ()) for e in t.start(START)], [Round(1, ())]),  # type: ignore[attr-defined]
    Case("start when full: not yet", lambda: quick(*registered(7), when_full=True),
         lambda t: t.start(10**12), []),
    Case("start when full: full", lambda: quick(*registered(8), when_full=True),
         lambda t: [type(e)(e.number, ()) for e in t.start(0)], [Round(1, ())]),  # type: ignore[attr-defined]
    Case("start once running", running(), lambda t: t.start(10**12), []),
    # a table's room and its end
    Case("a table gets its room", lambda: running()(), lambda t: t.table_room(1, "r9"),
         [TableRoom(1, "r9")]),
    Case("a table finishes", running(), lambda t: t.table_finished("r1", 1, (700, 1010)),
         [TableFinished(1, 1, (700, 1010))]),
    Case("a table finishes twice: once", running(TableFinished(1, 1, (700, 1010))),
         lambda t: t.table_finished("r1", 1, (700, 1010)), []),
    Case("a room that is no table", running(), lambda t: t.table_finished("r7", 0, (1, 0)), []),
    # advance
    Case("advance mid-round", running(TableFinished(0, 0, (1001, 9))), lambda t: t.advance(), []),
    Case("advance before the start", lambda: quick(*registered(8)), lambda t: t.advance(), []),
    Case("the last round done: finished", running(
        TableFinished(0, 0, (1001, 9)), TableFinished(1, 1, (9, 1001)),
        Round(2, (("p0", "p1", "p2", "p3"),)), TableRoom(0, "r2"), TableFinished(0, 1, (5, 1001)),
    ), lambda t: t.advance(), [Finished()]),
]  # fmt: skip

# What each refusal says, word for word.
SAYS = {
    'register twice': 'you are already registered',
    'register when full': 'the tournament is full',
    'register once running': 'the tournament is running',
    'register after abandoning': 'you left this tournament and cannot rejoin it',
    'register when cancelled': 'the tournament is cancelled',
    'unregister unregistered': 'you are not registered',
    'unregister once running': 'the tournament has started: leave it',
    'leave before the start, unregistered': 'you are not registered',
    'leave without playing': 'you are not playing in this tournament',
    'leave when eliminated': 'you are not playing in this tournament',
    'leave a finished tournament': 'you are not playing in this tournament',
}  # fmt: skip


def state(t: Tournament) -> tuple:
    return (
        t.version, t.status, list(t.registered), list(t.left), dict(t.replaced),
        [[dataclasses.astuple(table) for table in tables] for tables in t.rounds],
    )  # fmt: skip


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_transition(case: Case) -> None:
    t = case.tournament()
    if isinstance(case.expect, str):
        with pytest.raises(TournamentError) as refused:
            case.command(t)
        assert (refused.value.code, refused.value.message) == (case.expect, SAYS[case.name])
        return
    before = state(t)
    entries = case.command(t)
    assert entries == (case.expect(t) if callable(case.expect) else case.expect)
    assert state(t) == before  # a transition only says what to write


@pytest.mark.parametrize("case", [c for c in CASES if isinstance(c.expect, str)],
                         ids=lambda c: c.name)  # fmt: skip
def test_a_refusal_changes_nothing(case: Case) -> None:
    t = case.tournament()
    probe = {"p0", "p1", "p3", "p9"}  # the players the cases refuse
    for player in probe:
        before = state(t)
        for command in (t.register, t.unregister, t.leave):
            try:
                command(player)
            except TournamentError:
                assert state(t) == before


def test_round_one_fills_with_cpus_and_seats_everyone_once() -> None:
    t = quick(*registered(3), fill=True)
    (entry,) = t.start(START)
    assert isinstance(entry, Round) and entry.number == 1
    seats = [e for table in entry.tables for e in table]
    assert len(entry.tables) == FORMATS["quick"].tables[0] == 2
    assert sorted(e for e in seats if not is_cpu(e)) == PLAYERS[:3]
    assert sorted(e for e in seats if is_cpu(e)) == sorted(cpu_entrant(i) for i in range(5))
    assert Tournament.from_log("t1", [*_log(t), entry]).status == RUNNING


def _log(t: Tournament) -> list[Entry]:
    first = Tournament.created(t.format, t.start_at, t.fill_with_cpu, t.start_when_full,
                               t.repeat, t.seed)  # fmt: skip
    return [first, *(Registered(p) for p in t.registered)]


@pytest.mark.parametrize("seed", range(40))
def test_partners_always_change_between_rounds(seed: int) -> None:
    """Whatever the seed: each round's teams are new pairs (always possible from four on)."""
    first = Tournament.created("classic", START, True, False, None, seed)
    t = Tournament.from_log("t1", [first, Registered("p0")])  # and fifteen CPUs
    for entry in t.start(START):
        t.apply(entry)
    while t.live:
        before = {frozenset(table.team(team)) for table in t.current for team in (0, 1)}
        for index in range(len(t.current)):
            t.apply(TableRoom(index, f"r{len(t.rounds)}{index}"))
            t.apply(TableFinished(index, (seed + index) % 2, (1001, 0)))
        step = t.advance()
        for entry in step:
            t.apply(entry)
        if t.live:
            after = {frozenset(table.team(team)) for table in t.current for team in (0, 1)}
            assert not before & after, (seed, len(t.rounds))
    assert len(t.rounds) == 3 and t.status == FINISHED


def test_winners_advance_with_new_partners() -> None:
    t = running()()
    for entry in [*t.table_finished("r0", 0, (1001, 9)), *t.table_finished("r1", 1, (9, 1001))]:
        t.apply(entry)
    winners = sorted([*t.current[0].team(0), *t.current[1].team(1)])
    (entry,) = t.advance()
    assert isinstance(entry, Round) and entry.number == 2
    (table,) = entry.tables
    assert sorted(table) == winners
    old = {frozenset(t.current[0].team(0)), frozenset(t.current[1].team(1))}
    new = {frozenset((table[0], table[2])), frozenset((table[1], table[3]))}
    assert not old & new, "partners are reshuffled between rounds"
    assert t.advance() == [entry]  # the same seating from the same seed (a replay agrees)


def test_places_and_prizes() -> None:
    t = running()()
    for entry in [
        *t.table_finished("r0", 0, (1001, 9)), *t.table_finished("r1", 1, (9, 1001)),
    ]:  # fmt: skip
        t.apply(entry)
    out0, out1 = t.current[0].team(1), t.current[1].team(0)
    for entry in t.advance():
        t.apply(entry)
    t.apply(TableRoom(0, "r2"))
    t.apply(TableFinished(0, 1, (500, 1001)))
    assert t.places() == []  # not finished yet
    t.apply(Finished())
    final = t.current[0]
    places = {p["entrant"]: (p["place"], p.get("prize")) for p in t.places()}
    assert {e: places[e] for e in final.team(1)} == {e: (1, "grand") for e in final.team(1)}
    assert {e: places[e] for e in final.team(0)} == {e: (2, "second") for e in final.team(0)}
    assert {e: places[e][0] for e in [*out0, *out1]} == {e: 3 for e in [*out0, *out1]}
    assert t.status == FINISHED and not t.live


def test_a_cpu_takes_no_prize_and_names_the_player_it_replaced() -> None:
    t = running()()
    leaver = seated(t, 0, 0)
    t.apply(t.leave(leaver)[0])
    assert leaver in t.left and leaver not in t.entrants()
    cpu = t.replaced[leaver]
    assert t.current[0].seats[0] == cpu and t.current[0].players[0] is None
    for entry in [*t.table_finished("r0", 0, (1001, 9)), *t.table_finished("r1", 0, (1001, 9))]:
        t.apply(entry)
    for entry in t.advance():
        t.apply(entry)
    t.apply(TableRoom(0, "r2"))
    final = t.current[0]
    winner = 0 if cpu in final.team(0) else 1
    t.apply(TableFinished(0, winner, (1001, 0)))
    t.apply(Finished())
    (row,) = [p for p in t.places() if p["entrant"] == cpu]
    assert row["prize"] == ("grand" if row["place"] == 1 else "second")  # the place's label
    assert row["left"] == leaver


def test_live_scores_of_running_tables_only() -> None:
    t = running(TableFinished(0, 0, (1001, 9)))()
    assert t.progress("r1", (120, 42)) and t.current[1].totals == [120, 42]
    assert not t.progress("r0", (1, 1)) and t.current[0].totals == [1001, 9]
    assert not t.progress("r9", (1, 1))


def test_unhosted_tables_and_where_a_player_plays() -> None:
    t = quick(*registered(8))
    assert t.unhosted() == []
    for entry in t.start(START):
        t.apply(entry)
    assert t.unhosted() == [0, 1]
    t.apply(TableRoom(0, "r0"))
    assert t.unhosted() == [1]
    player = seated(t, 0, 2)
    assert t.playing_at(player) == "r0"
    t.apply(TableFinished(0, 0, (1001, 0)))
    assert t.playing_at(player) is None and t.playing_at("p9") is None


@pytest.mark.parametrize(("repeat", "status", "now", "expect"), [
    (None, RUNNING, START, None), ("daily", SCHEDULED, START, None),
    ("daily", RUNNING, START, START + 86400), ("hourly", RUNNING, START, START + 3600),
    ("hourly", CANCELLED, START, START + 3600),
    # a server down for hours: the next start after now, not the missed ones
    ("hourly", RUNNING, START + 3 * 3600 + 5, START + 4 * 3600),
    ("hourly", RUNNING, START + 3600, START + 2 * 3600),
    ("daily", CANCELLED, START + 86400 * 2.5, START + 86400 * 3),
    # a clock a second behind the one that started it: still a period on, not this one again
    ("hourly", RUNNING, START - 1, START + 3600),
])  # fmt: skip
def test_the_next_of_a_series_starts_a_period_later(repeat, status, now, expect) -> None:
    t = quick(*(registered(0 if status == CANCELLED else 8)), repeat=repeat)
    if status != SCHEDULED:
        for entry in t.start(START):
            t.apply(entry)
    assert t.status == status
    assert t.next_start(now) == expect


def test_the_next_of_a_series_counts_periods_from_its_own_start() -> None:
    """A series that starts at half past (an epoch time, not a multiple of its period):
    the next start is on its own half hours, the first still to come."""
    start = 1_733_409_000.0  # Thu, Dec 5 2024, 14:30 UTC
    first = Tournament.created("quick", start, True, False, "hourly", 5)
    t = Tournament.from_log("t1", [first, Registered("p0")])
    for entry in t.start(start):
        t.apply(entry)
    assert t.status == RUNNING
    assert t.next_start(start + 2 * 3600 + 10) == start + 3 * 3600
    assert t.next_start(start + 1800) == start + 3600


def test_the_seating_follows_from_the_seed_alone() -> None:
    """A tournament's draw depends on nothing but its recorded seed and the round (the
    same tables in every process and on every node): seed 5's Quick, round 1 and final."""
    t = quick(*registered(8))
    (first,) = t.start(START)
    assert first == Round(1, (("p1", "p6", "p2", "p0"), ("p7", "p5", "p3", "p4")), START)
    t.apply(first)
    for index in (0, 1):
        t.apply(TableRoom(index, f"r{index}"))
        t.apply(TableFinished(index, index, (1001, 9) if index == 0 else (9, 1001)))
    assert t.advance() == [Round(2, (("p2", "p1", "p4", "p5"),))]  # p1 p2 and p4 p5 split


def test_round_one_says_when_the_tournament_started() -> None:
    t = quick(*registered(8))
    assert t.summary()["started_at"] is None
    (entry,) = t.start(START + 7)
    assert isinstance(entry, Round) and entry.at == START + 7
    t.apply(entry)
    assert t.started_at == START + 7 and t.summary()["started_at"] == START + 7
    # read back from its stored form; a log from before ``at`` starts at an unknown time
    assert decode(entry.to_dict()) == entry
    old = {k: v for k, v in entry.to_dict().items() if k != "at"}
    again = quick(*registered(8), decode(old))
    assert again.status == RUNNING and again.started_at is None


def test_a_cancelled_tournament_says_why() -> None:
    t = quick(*registered(2))
    for entry in t.start(START):
        t.apply(entry)
    assert (t.status, t.reason, t.live) == (CANCELLED, "only 2 of 8 registered", False)
    assert t.summary()["reason"] == "only 2 of 8 registered"


@pytest.mark.parametrize("auto", [False, True])
def test_a_tournament_reads_back_its_seed_and_whose_schedule_made_it(auto: bool) -> None:
    """``auto``: made by the server's own schedule (its series goes on only while the
    server is still configured so); the seed draws every seating."""
    first = Tournament.created("quick", START, True, False, "hourly", 42, auto)
    assert first == Created("quick", START, True, False, "hourly", 42, auto)
    t = Tournament.from_log("t1", [first])
    assert (t.seed, t.auto) == (42, auto) and t.auto is auto


def test_a_tournament_is_not_the_servers_own_unless_said() -> None:
    first = Tournament.created("quick", START, False, False, None, 42)
    assert first == Created("quick", START, False, False, None, 42, False)
    assert Tournament.from_log("t1", [first]).auto is False


def test_bad_formats_and_repeats_are_refused() -> None:
    with pytest.raises(TournamentError) as bad:
        Tournament.created("marathon", 0, False, False, None, 1)
    assert bad.value.code == "bad_format"
    with pytest.raises(TournamentError) as bad:
        Tournament.created("quick", 0, False, False, "weekly", 1)
    assert bad.value.code == "bad_repeat"


def test_the_fold_refuses_an_entry_out_of_place() -> None:
    with pytest.raises(ValueError, match="unexpected"):
        quick().apply(Created("quick", 0, False, False, None, 1))
    with pytest.raises(ValueError, match="created"):
        Tournament.from_log("t1", [Registered("p0")])


EVERY_ENTRY: list[Entry] = [
    Created("classic", 123.5, True, False, "daily", 77), Registered("p1"), Unregistered("p1"),
    Cancelled("only 1 of 16 registered"), Round(2, (("a", "b", "c", "cpu:3"),)),
    TableRoom(1, "r_x"), TableFinished(0, 1, (900, 1010)), Left("p2", "cpu:17"), Finished(),
]  # fmt: skip


@pytest.mark.parametrize("entry", EVERY_ENTRY, ids=lambda e: type(e).__name__)
def test_every_entry_reads_back_as_written(entry: Entry) -> None:
    stored = entry.to_dict()
    assert stored["t"] == entry.tag
    assert decode(stored) == entry


def test_an_unknown_entry_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown tournament entry"):
        decode({"t": "bribe"})


def classic_played(final_winner: int) -> tuple[Tournament, list[Entry]]:
    """A Classic played to its end (round 1's tables won by team i % 2, round 2's by team
    1 - i % 2, the final by ``final_winner``), and its whole log."""
    first = Tournament.created("classic", START, True, False, None, 8)
    log: list[Entry] = [first, Registered("p0")]
    t = Tournament.from_log("t2", log)

    def write(*entries: Entry) -> None:
        for entry in entries:
            t.apply(entry)
            log.append(entry)

    write(*t.start(START))
    winners = [lambda i: i % 2, lambda i: 1 - i % 2, lambda i: final_winner]
    for number in range(3):
        for index in range(len(t.current)):
            write(TableRoom(index, f"r{number}{index}"))
            write(TableFinished(index, winners[number](index), (1001, 500)))
        write(*t.advance())
    return t, log


@pytest.mark.parametrize("final_winner", [0, 1])
def test_places_of_a_classic_round_by_round(final_winner: int) -> None:
    t, _ = classic_played(final_winner)
    assert t.status == FINISHED
    final = t.current[0]
    expect = {e: {"entrant": e, "place": 1, "prize": "grand"} for e in final.team(final_winner)}
    expect |= {e: {"entrant": e, "place": 2, "prize": "second"}
               for e in final.team(1 - final_winner)}  # fmt: skip
    assert any(is_cpu(e) for e in final.seats)  # CPUs among them: the labels all the same
    for number, place in ((2, 3), (1, 4)):  # knocked out in round 2: third; in round 1: fourth
        for table in t.rounds[number - 1]:
            for e in table.team(1 - (table.winner or 0)):
                expect[e] = {"entrant": e, "place": place, "eliminated_in": number}
    assert sorted(t.places(), key=lambda p: p["entrant"]) == sorted(
        expect.values(), key=lambda p: p["entrant"]
    )
    assert len(t.places()) == 16


def test_the_summary_of_a_tournament_in_full() -> None:
    t = running(TableFinished(0, 1, (600, 1005)))()
    t.apply(t.leave(seated(t, 1, 0))[0])
    names = {p: p.upper() for p in PLAYERS}
    summary = t.summary(names)

    def show(e: str) -> dict:
        if not is_cpu(e):
            return {"id": e, "nickname": e.upper(), "cpu": False}
        name = NAMES[int(e[4:]) % len(NAMES)]  # in parts too, for a client's own words
        nickname = f"{name} (CPU, strong)"
        return {"id": e, "nickname": nickname, "cpu": True, "cpu_name": name, "level": "strong"}

    assert summary == {
        "id": "t1", "format": "quick", "status": RUNNING, "start_at": START, "started_at": START,
        "start_when_full": False, "fill_with_cpu": False, "repeat": None, "size": 8,
        "round_count": 2, "registered": [show(p) for p in PLAYERS],
        "rounds": [[
            {"room_id": "r0", "name": "Quick tournament, round 1, table 1",
             "format": "quick", "round": 1, "table": 1,
             "seats": [show(e) for e in t.rounds[0][0].seats], "winner": 1, "totals": [600, 1005]},
            {"room_id": "r1", "name": "Quick tournament, round 1, table 2",
             "format": "quick", "round": 1, "table": 2,
             "seats": [show(e) for e in t.rounds[0][1].seats], "winner": None, "totals": [0, 0]},
        ]],
        "places": [], "reason": None, "version": t.version,
    }  # fmt: skip
    assert show(cpu_entrant(8)) in summary["rounds"][0][1]["seats"]  # who took over
    assert show(cpu_entrant(8))["nickname"] == "Ilse (CPU, strong)"  # a name of its own
    assert show(cpu_entrant(8))["cpu_name"] == "Ilse"
    when_full = quick(when_full=True).summary()
    assert (when_full["start_at"], when_full["start_when_full"]) == (None, True)
    assert when_full["registered"] == [] and when_full["rounds"] == []


def test_every_entry_folds_in_and_a_replay_agrees() -> None:
    t, log = classic_played(0)
    # created, one registered, three rounds, a room and a result for each of 4 + 2 + 1
    # tables, finished
    assert t.version == len(log) == 1 + 1 + 3 + 2 * 7 + 1
    replayed = Tournament.from_log("t2", log)
    assert replayed.summary() == t.summary() and replayed.places() == t.places()
    assert quick().entrants() == [] and quick(*registered(3)).entrants() == PLAYERS[:3]
    u = quick(*registered(3), Unregistered("p1"))
    assert u.registered == ["p0", "p2"] and u.version == 5


def test_refusals_in_creating_and_decoding_say_what() -> None:
    with pytest.raises(TournamentError, match="format must be classic or quick, not 'x'"):
        Tournament.created("x", 0, False, False, None, 1)
    with pytest.raises(TournamentError, match="repeat must be hourly or daily, not 'weekly'"):
        Tournament.created("quick", 0, False, False, "weekly", 1)
    with pytest.raises(ValueError, match="unknown tournament entry 'bribe'"):
        decode({"t": "bribe"})
