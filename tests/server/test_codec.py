"""One codec for every log entry and message (server.core.tagged): what is written is the
same, byte for byte, as what the hand-written codecs wrote before (so the logs in databases
still read), every kind reads back as written, old forms still read, and what is not a
record of the family is refused."""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from typing import Any, ClassVar

import pytest

from engine import Action, Rules
from server.cluster import envelope as E
from server.core import tagged
from server.runtime import actor_messages as M
from server.runtime.router import Ref
from server.scoresheet import sheet_entries as S
from server.table import room_entries as R
from server.tournament import tournament_entries as T

pytestmark = pytest.mark.server

dumps = json.JSONEncoder(separators=(",", ":")).encode  # as the store writes them
rules = Rules(variant="rotterdam", end="deals", end_value=16)
deal = S.DealInput(0, (100, 62), (20, 0))
ref = Ref("room", "r_1")

# Each entry beside the text the hand-written codecs stored for it (before issue 34 item 6).
ROOM = [
    (R.Created("p0", "Cafe", rules, 20, True, "ABCDE12345", 99),
     '{"t":"created","owner":"p0","name":"Cafe","rules":{"variant":"rotterdam","trump_mode":"bidding","roem":"auto","pit_bonus":"any","end":"deals","end_value":16},"move_seconds":20,"private":true,"invite_code":"ABCDE12345","seed":99}'),
    (R.Created("system", "t", Rules(), 30, False, None, 5, "t_1", ("a", None, "b", "c")),
     '{"t":"created","owner":"system","name":"t","rules":{"variant":"amsterdam","trump_mode":"bidding","roem":"auto","pit_bonus":"any","end":"target","end_value":1500},"move_seconds":30,"private":false,"invite_code":null,"seed":5,"tournament":"t_1","seats":["a",null,"b","c"],"cpu_level":"heuristic"}'),
    (R.Created("system", "t", Rules(), 30, False, None, 5, "t_1", ("a", None, "b", "c"), "strong"),
     '{"t":"created","owner":"system","name":"t","rules":{"variant":"amsterdam","trump_mode":"bidding","roem":"auto","pit_bonus":"any","end":"target","end_value":1500},"move_seconds":30,"private":false,"invite_code":null,"seed":5,"tournament":"t_1","seats":["a",null,"b","c"],"cpu_level":"strong"}'),
    (R.Created("p1", "Solo", Rules(), 30, True, None, 8, None, ("p1", None, None, None),
               "strong", "solo", None, False, (None, "Ann", "Bob", "Cas")),
     '{"t":"created","owner":"p1","name":"Solo","rules":{"variant":"amsterdam","trump_mode":"bidding","roem":"auto","pit_bonus":"any","end":"target","end_value":1500},"move_seconds":30,"private":true,"invite_code":null,"seed":8,"seats":["p1",null,null,null],"cpu_level":"strong","mode":"solo","cpu_names":[null,"Ann","Bob","Cas"]}'),
    (R.Created("p1", "Day", Rules(), 30, True, None, 8, None, ("p1", None, None, None),
               "heuristic", "daily", "2026-03-01", False, None, 1772416800.0),
     '{"t":"created","owner":"p1","name":"Day","rules":{"variant":"amsterdam","trump_mode":"bidding","roem":"auto","pit_bonus":"any","end":"target","end_value":1500},"move_seconds":30,"private":true,"invite_code":null,"seed":8,"seats":["p1",null,null,null],"cpu_level":"heuristic","mode":"daily","day":"2026-03-01","closes_at":1772416800.0}'),
    (R.Created("p1", "Rated", Rules(), 30, False, None, 8, rated=True),
     '{"t":"created","owner":"p1","name":"Rated","rules":{"variant":"amsterdam","trump_mode":"bidding","roem":"auto","pit_bonus":"any","end":"target","end_value":1500},"move_seconds":30,"private":false,"invite_code":null,"seed":8,"rated":true}'),
    (R.Seated(1, "p1"),
     '{"t":"seat","seat":1,"player":"p1","cpu":false}'),
    (R.Seated(2, None, True, "random"),
     '{"t":"seat","seat":2,"player":null,"cpu":true,"level":"random"}'),
    (R.Seated(3, None),
     '{"t":"seat","seat":3,"player":null,"cpu":false}'),
    (R.Readied(0, True),
     '{"t":"ready","seat":0,"ready":true}'),
    (R.Readied(1, False),
     '{"t":"ready","seat":1,"ready":false}'),
    (R.Started(),
     '{"t":"start"}'),
    (R.Acted(1, Action.parse("Jh"), "timeout"),
     '{"t":"act","seat":1,"action":"Jh","by":"timeout"}'),
    (R.Acted(0, Action.parse("trump:h"), "player"),
     '{"t":"act","seat":0,"action":"trump:h","by":"player"}'),
    (R.Acted(2, Action.parse("pass"), "cpu"),
     '{"t":"act","seat":2,"action":"pass","by":"cpu"}'),
    (R.Away(2, True),
     '{"t":"away","seat":2,"away":true}'),
    (R.Away(2, False),
     '{"t":"away","seat":2,"away":false}'),
    (R.Closed(),
     '{"t":"closed"}'),
    (R.Seen(3),
     '{"t":"seen","seat":3}'),
    (R.Resumed(),
     '{"t":"resumed"}'),
    (R.Owned("p2"),
     '{"t":"owner","player":"p2"}'),
]  # fmt: skip
SHEET = [
    (S.Created("p1", 1.5, ("Us", "Them"), ("a", "b", "c", "d"), 3, Rules()),
     '{"t":"created","by":"p1","at":1.5,"teams":["Us","Them"],"players":["a","b","c","d"],"first_dealer":3,"rules":{"variant":"amsterdam","trump_mode":"bidding","roem":"auto","pit_bonus":"any","end":"target","end_value":1500}}'),
    (S.Created("p1", 2.0, ("Us", "Them"), None, 0, rules),
     '{"t":"created","by":"p1","at":2.0,"teams":["Us","Them"],"players":null,"first_dealer":0,"rules":{"variant":"rotterdam","trump_mode":"bidding","roem":"auto","pit_bonus":"any","end":"deals","end_value":16}}'),
    (S.Created("p1", 2.0, ("Wij", "Zij"), ("a", "b", "c", "d"), 0, rules, "v_1",
               S.EveningTable("Vrijdag", "VIEW123456", 2, 3)),
     '{"t":"created","by":"p1","at":2.0,"teams":["Wij","Zij"],"players":["a","b","c","d"],"first_dealer":0,"rules":{"variant":"rotterdam","trump_mode":"bidding","roem":"auto","pit_bonus":"any","end":"deals","end_value":16},"evening":"v_1","table":{"name":"Vrijdag","view_code":"VIEW123456","round":2,"table":3}}'),
    (S.DealEntered("p1", 3.0, deal),
     '{"t":"deal","by":"p1","at":3.0,"deal":{"playing":0,"points":[100,62],"roem":[20,0],"pit":null}}'),
    (S.DealEntered("p1", 3.0, S.DealInput(1, (0, 162), (0, 40), 1)),
     '{"t":"deal","by":"p1","at":3.0,"deal":{"playing":1,"points":[0,162],"roem":[0,40],"pit":1}}'),
    (S.DealEdited("p2", 4.0, 2, deal),
     '{"t":"edit","by":"p2","at":4.0,"deal_id":2,"deal":{"playing":0,"points":[100,62],"roem":[20,0],"pit":null}}'),
    (S.DealDeleted("p2", 5.0, 2),
     '{"t":"delete","by":"p2","at":5.0,"deal_id":2}'),
    (S.DealerSet("p1", 6.0, 2),
     '{"t":"dealer","by":"p1","at":6.0,"seat":2}'),
    (S.Continued("p1", 7.0),
     '{"t":"continue","by":"p1","at":7.0}'),
    (S.NewGame("p1", 8.0),
     '{"t":"new_game","by":"p1","at":8.0}'),
    (S.Undone("p1", 9.0),
     '{"t":"undo","by":"p1","at":9.0}'),
    (S.Redone("p1", 10.0),
     '{"t":"redo","by":"p1","at":10.0}'),
]  # fmt: skip
TOURNAMENT = [
    (T.Created("quick", 0.0, True, True, None, 42),
     '{"t":"created","format":"quick","start_at":0.0,"fill_with_cpu":true,"start_when_full":true,"repeat":null,"seed":42,"auto":false}'),
    (T.Created("sixteen", 1.7e9, False, False, "daily", 43, True),
     '{"t":"created","format":"sixteen","start_at":1700000000.0,"fill_with_cpu":false,"start_when_full":false,"repeat":"daily","seed":43,"auto":true}'),
    (T.Registered("p1"),
     '{"t":"registered","player":"p1"}'),
    (T.Unregistered("p1"),
     '{"t":"unregistered","player":"p1"}'),
    (T.Cancelled("too few"),
     '{"t":"cancelled","reason":"too few"}'),
    (T.Round(1, (("a", "b", "c", "d"), ("e", "f", "g", "h")), 12.5),
     '{"t":"round","number":1,"tables":[["a","b","c","d"],["e","f","g","h"]],"at":12.5}'),
    (T.Round(2, (("a", "b", "c", "d"),)),
     '{"t":"round","number":2,"tables":[["a","b","c","d"]],"at":null}'),
    (T.TableRoom(0, "r_1"),
     '{"t":"table_room","table":0,"room_id":"r_1"}'),
    (T.TableFinished(0, 1, (1001, 850)),
     '{"t":"table_finished","table":0,"winner":1,"totals":[1001,850]}'),
    (T.Left("p1", "cpu_1"),
     '{"t":"left","player":"p1","cpu":"cpu_1"}'),
    (T.Finished(),
     '{"t":"finished"}'),
]  # fmt: skip
MESSAGES = [
    (M.TableProgress("r_1", (10, 20)),
     '{"v":1,"m":{"@":"table_progress","room_id":"r_1","totals":[10,20]}}'),
    (M.TableFinished("r_1", 0, (1001, 800)),
     '{"v":1,"m":{"@":"table_finished","room_id":"r_1","winner":0,"totals":[1001,800]}}'),
    (M.ReplaceWithCpu("p1"),
     '{"v":1,"m":{"@":"replace_with_cpu","player":"p1"}}'),
    (E.Forward("n1", "c1", "p1", "Ann", ref, '{"type":"act"}', None),
     '{"v":1,"m":{"@":"forward","origin":"n1","conn":"c1","player":"p1","nickname":"Ann","to":{"@":"ref","kind":"room","key":"r_1"},"command":"{\\"type\\":\\"act\\"}","since":null}}'),
    (E.Rejoin("n1", "c1", "p1", "Ann", ref, 4),
     '{"v":1,"m":{"@":"rejoin","origin":"n1","conn":"c1","player":"p1","nickname":"Ann","to":{"@":"ref","kind":"room","key":"r_1"},"since":4}}'),
    (E.Batch((E.Frame("c1", "{}"), E.Update("c1", "r_1", 3, "{}", True), E.Left("c1", "k"),
             E.Close("c1", 1008, "x"), E.Outcome("c1", None, "{}", None, 1.5))),
     '{"v":1,"m":{"@":"batch","items":[{"@":"frame","conn":"c1","text":"{}"},{"@":"update","conn":"c1","room_id":"r_1","version":3,"text":"{}","snapshot":true},{"@":"left","conn":"c1","key":"k"},{"@":"close","conn":"c1","code":1008,"reason":"x"},{"@":"outcome","conn":"c1","code":null,"text":"{}","ref":null,"retry_after":1.5}]}}'),
    (E.Following("c1", "r_1", 3),
     '{"v":1,"m":{"@":"following","conn":"c1","room_id":"r_1","version":3}}'),
    (E.Tell(ref, M.TableFinished("r_1", 0, (1001, 800))),
     '{"v":1,"m":{"@":"tell","to":{"@":"ref","kind":"room","key":"r_1"},"message":{"@":"table_finished","room_id":"r_1","winner":0,"totals":[1001,800]}}}'),
    (E.Owner("k", "n2"),
     '{"v":1,"m":{"@":"owner","key":"k","node":"n2"}}'),
    (E.Released((ref, Ref("tournament", "t_1"))),
     '{"v":1,"m":{"@":"released","refs":[{"@":"ref","kind":"room","key":"r_1"},{"@":"ref","kind":"tournament","key":"t_1"}]}}'),
    (E.Gone("n1", "c1"),
     '{"v":1,"m":{"@":"gone","node":"n1","conn":"c1"}}'),
    (E.RoomListed({"id": "r_1", "seats": [1, None]}),
     '{"v":1,"m":{"@":"room_listed","summary":{"id":"r_1","seats":[1,null]}}}'),
    (E.TournamentListed({"id": "t_1"}),
     '{"v":1,"m":{"@":"tournament_listed","summary":{"id":"t_1"}}}'),
    (E.ToPlayers("n1", ("p1", "p2"), "{}"),
     '{"v":1,"m":{"@":"to_players","origin":"n1","players":["p1","p2"],"frame":"{}"}}'),
]  # fmt: skip
LOGS = [(R.decode, e, text) for e, text in ROOM] + [
    (S.decode, e, text) for e, text in SHEET
] + [(T.decode, e, text) for e, text in TOURNAMENT]  # fmt: skip


@pytest.mark.parametrize(("decode", "entry", "stored"), LOGS, ids=lambda v: type(v).__name__)
def test_an_entry_is_written_as_before_and_reads_back(decode: Any, entry: Any, stored: str) -> None:
    assert dumps(entry.to_dict()) == stored
    assert decode(json.loads(stored)) == entry
    assert type(entry).from_dict(json.loads(stored)) == entry


@pytest.mark.parametrize(("msg", "sent"), MESSAGES, ids=lambda v: type(v).__name__)
def test_a_message_is_sent_as_before_and_reads_back(msg: Any, sent: str) -> None:
    assert E.encode(msg) == sent
    assert E.decode(sent) == msg


@pytest.mark.parametrize(
    ("codec", "examples"),
    [(R.LOG, ROOM), (S.LOG, SHEET), (T.LOG, TOURNAMENT)],
    ids=["room", "sheet", "tournament"],
)
def test_every_kind_of_entry_has_an_example(codec: tagged.Codec, examples: list[Any]) -> None:
    assert set(codec.types.values()) == {type(entry) for entry, _ in examples}


# -- old forms ---------------------------------------------------------------------------

OLD_CREATED = {
    "t": "created", "owner": "system", "name": "t", "rules": Rules().to_dict(),
    "move_seconds": 30, "private": False, "invite_code": None, "seed": 1,
}  # fmt: skip


def test_a_room_log_from_before_typed_entries_reads() -> None:
    tournament = {**OLD_CREATED, "tournament": "t_1", "seats": ["p_a", "cpu:3", "p_b", "cpu:4"]}
    first = R.decode(tournament)
    assert first == R.Created(
        "system", "t", Rules(), 30, False, None, 1, "t_1", ("p_a", None, "p_b", None)
    )
    assert first.cpu_level == "heuristic" and first.rated is False and first.closes_at is None
    assert R.decode({**OLD_CREATED, "tournament": "t_1", "seats": []}).seats == ()  # type: ignore[union-attr]
    assert R.decode({"t": "seat", "seat": 2, "player": None, "cpu": True}) == R.Seated(
        2, None, True, "heuristic"
    )  # a CPU seated before CPUs had levels
    assert R.decode({"t": "seat", "seat": 2, "player": "p2", "cpu": False}) == R.Seated(2, "p2")


def test_a_daily_room_from_before_rooms_kept_their_closing_time_closes_after_its_day() -> None:
    old = {**OLD_CREATED, "seats": ["p1", None, None, None], "cpu_level": "strong"}
    daily = R.decode({**old, "mode": "daily", "day": "2026-03-01"})
    assert daily.closes_at == 1772416800.0  # type: ignore[union-attr]  # 2 March, 02:00 UTC
    assert R.decode({**old, "mode": "solo"}).closes_at is None  # type: ignore[union-attr]
    kept = R.decode({**old, "mode": "daily", "day": "2026-03-01", "closes_at": 5.0})
    assert kept.closes_at == 5.0  # type: ignore[union-attr]


def test_a_tournament_log_from_before_automatic_tournaments_and_round_times_reads() -> None:
    old = {"t": "created", "format": "quick", "start_at": 0, "fill_with_cpu": True,
           "start_when_full": True, "repeat": None, "seed": 4}  # fmt: skip
    assert T.decode(old) == T.Created("quick", 0, True, True, None, 4, auto=False)
    assert T.decode({"t": "round", "number": 1, "tables": [["a", "b", "c", "d"]]}) == T.Round(
        1, (("a", "b", "c", "d"),), None
    )


# -- what is refused ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("decode", "data", "message"),
    [
        (R.decode, {"t": "teleport"}, "unknown log entry 'teleport'"),
        (R.decode, {"seat": 1}, "unknown log entry None"),
        (R.decode, ["act", 1, "Jh"], "not a log entry"),
        (R.decode, {"t": "act", "seat": 1, "action": "Jh"}, "malformed log entry 'act'"),
        (R.decode, {"t": "act", "seat": 1, "action": "Jh", "by": "cpu", "x": 1}, "malformed"),
        (R.decode, {"t": "act", "seat": 1, "action": "Zz", "by": "cpu"}, "unknown action"),
        (S.decode, {"t": "bribe"}, "unknown sheet log entry 'bribe'"),
        (S.decode, {"t": "deal", "by": "p", "at": 1, "deal": {"playing": 0}}, "malformed"),
        (S.decode, {"t": "deal", "by": "p", "at": 1, "deal": [0, [1, 2]]}, "malformed"),
        (T.decode, {"t": "bribe"}, "unknown tournament entry 'bribe'"),
        (T.decode, {"t": 7}, "unknown tournament entry 7"),
    ],
)
def test_what_is_no_entry_is_refused_by_name(decode: Any, data: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        decode(data)


# -- the helper itself -------------------------------------------------------------------

FAMILY = tagged.Codec("k", "thing")


@FAMILY.record
@dataclass(frozen=True, slots=True)
class Inner(tagged.Record):
    a: int
    b: tuple[int, ...] = ()


@FAMILY.record
@dataclass(frozen=True, slots=True)
class Outer(tagged.Record):
    tag: ClassVar[str] = "outer"
    inner: Inner = tagged.field(encode=Inner.to_dict, decode=Inner.from_dict)
    note: str | None = tagged.field(None, omit=True)
    extra: Any = None  # anything: a record of the family in it is written tagged
    loud: bool = tagged.field(False, omit=lambda o: o.note is None, missing=lambda d: "note" in d)


def test_fields_are_written_in_order_left_out_as_they_say_and_read_back() -> None:
    plain = Outer(Inner(1))
    assert plain.to_dict() == {"k": "outer", "inner": {"a": 1, "b": []}, "extra": None}
    full = Outer(Inner(2, (3, 4)), "hi", (Outer(Inner(5)), [6]), True)
    written = full.to_dict()
    assert list(written) == ["k", "inner", "note", "extra", "loud"]
    assert written["extra"] == [{"k": "outer", "inner": {"a": 5, "b": []}, "extra": None}, [6]]
    back = FAMILY.decode(json.loads(json.dumps(written)))
    assert back == Outer(Inner(2, (3, 4)), "hi", (Outer(Inner(5)), (6,)), True)
    assert FAMILY.decode({"k": "outer", "inner": {"a": 1}, "note": "x"}).loud is True  # missing
    assert "Inner" not in FAMILY.types.values() and FAMILY.types == {"outer": Outer}


def test_only_frozen_dataclasses_with_a_free_tag_and_plain_fields_are_records() -> None:
    with pytest.raises(TypeError, match="frozen"):
        FAMILY.record(dataclasses.make_dataclass("Loose", [("a", int)]))
    with pytest.raises(ValueError, match="thing tag 'outer' is taken by Outer"):
        FAMILY.record(dataclasses.make_dataclass("Again", [], frozen=True), "outer")
    with pytest.raises(TypeError, match="default factory"):
        FAMILY.record(
            dataclasses.make_dataclass(
                "Listy", [("a", list, dataclasses.field(default_factory=list))], frozen=True
            ),
            "listy",
        )
    with pytest.raises(TypeError, match="not a registered thing"):
        FAMILY.encode(object())
