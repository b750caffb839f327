"""Profiles and ratings over real websockets and HTTP: a rated match changes its four
players' ratings exactly once (a restart that replays it, the same ending published again),
CPUs are never rated, an abandon scores a loss, the board's order and its minimum of
matches, profile counters against the match's own record, tournament places."""

from __future__ import annotations

import json
from typing import Any

import pytest

from client import GameClient
from engine import Match, Rules
from engine.rules import PitBonus
from engine.scoring import PIT_BONUS
from server.players.ratings import MU, SIGMA, conservative, rate_match
from server.runtime.domain_events import MatchEnded, TournamentEnded
from server.store.players import BOARD_MIN_MATCHES
from server.table.room import Room
from server.table.room_entries import Created, Seated, Started
from tests.matches import ending, won_by
from tests.server.conftest import Harness, play_until, running_harness, sync
from tests.server.test_daily import http

pytestmark = [pytest.mark.server, pytest.mark.daily]

ONE_DEAL = {"deals": 1}


async def profile(client: GameClient, player_id: str | None = None, **query: Any) -> dict:
    message = {"type": "get_profile", **query}
    if player_id is not None:
        message["player_id"] = player_id
    reply = await client.request(message, "profile")
    assert reply["type"] == "profile", reply
    return reply


async def finish(players: list[GameClient], room_id: str) -> None:
    await play_until(players, room_id, lambda: all(p.tables[room_id].over for p in players))
    for player in players:
        await sync(player)


def expected(record: dict[str, Any], seat: int) -> dict[str, int]:
    """A seat's counters worked out afresh from the stored record."""
    match = Match.from_record(record)
    team = seat % 2
    out = {"deals": 0, "points": 0, "chooser_deals": 0, "nat": 0, "pits": 0, "roem": 0}
    for deal in match.sheet:
        r = deal.result
        out["deals"] += 1
        out["points"] += r.score[team]
        out["chooser_deals"] += deal.chooser == seat
        out["nat"] += deal.chooser == seat and r.nat
        out["pits"] += r.pit == team
        bonus = r.pit == team and (
            match.rules.pit_bonus is PitBonus.ANY or deal.chooser % 2 == team
        )
        out["roem"] += r.roem[team] - PIT_BONUS * bonus
    return out


# -- rated matches -------------------------------------------------------------------------


async def test_a_rated_match_rates_its_players_once(harness: Harness) -> None:
    ended: list[MatchEnded] = []
    assert harness.server is not None
    harness.server.events.subscribe(MatchEnded, ended.append)
    room_id, players = await harness.table("ann", "bob", "cas", "dee", rules={"deals": 2})
    room = players[0].tables[room_id].room
    assert room["rated"] is True and room["hints"] is False  # a public room, four humans
    await finish(players, room_id)
    record = (await players[0].request({"type": "get_record", "match_id": room_id}, "record"))[
        "record"
    ]
    winner = Match.from_record(record).winner
    before = {}
    for seat, player in enumerate(players):
        mine = await profile(player)
        assert mine["matches"] == 1 and mine["wins"] == (seat % 2 == winner)
        assert {k: mine[k] for k in expected(record, seat)} == expected(record, seat)
        # two deals, or three when the totals were equal after two
        per_deal = mine["points"] / mine["deals"]
        assert mine["points_per_deal"] == pytest.approx(per_deal, abs=0.05)
        rating = mine["rating"]
        assert rating["matches"] == 1 and rating["rank"] is None  # not on the board yet
        assert (rating["mu"] > MU) == (seat % 2 == winner)
        (line,) = mine["history"]
        assert (
            line["match_id"] == room_id
            and line["rated"]
            and line["record"] == (f"/matches/{room_id}")
        )
        assert line["won"] == (seat % 2 == winner) and line["abandoned"] is False
        assert [h["match_id"] for h in mine["rating_history"]] == [room_id]
        before[player.player_id] = mine
    # the same ending again (another node, a replay) changes nothing
    (event,) = ended
    assert event.rated and event.starters == tuple(p.player_id for p in players)
    await harness.server.events.publish(event)
    # a restart that finds the room unsettled replays it and publishes its ending again
    store = (await harness.stores()).rooms
    await store.set_room_status(room_id, "playing")
    await harness.restart()
    assert (await store.room(room_id)).status == "finished"  # type: ignore[union-attr]
    anyone = await harness.client("eve")
    for player in players:
        assert await profile(anyone, player.player_id) == {
            **before[player.player_id],
            "type": "profile",
        }


async def test_cpus_are_never_rated(harness: Harness) -> None:
    room_id, players = await harness.table("ann", "bob", "cas", cpu=[3], rules=ONE_DEAL)
    room = players[0].tables[room_id].room
    assert room["rated"] is True and room["hints"] is True  # a CPU: not a rated match
    await finish(players, room_id)
    for player in players:
        mine = await profile(player)
        assert mine["rating"] is None and mine["rating_history"] == []
        assert mine["matches"] == 1 and mine["history"][0]["rated"] is False
        assert mine["history"][0]["rating_change"] is None


async def test_which_rooms_are_rated(harness: Harness) -> None:
    ann = await harness.client("ann")
    rooms = []
    for extra in ({}, {"private": True}, {"private": True, "rated": True}, {"rated": False}):
        snap = await ann.request({"type": "create_room", "seat": None, **extra}, "snapshot")
        rooms.append(snap["room"]["rated"])
    assert rooms == [True, False, True, False]
    solo = await ann.request({"type": "new_game", "rules": ONE_DEAL}, "snapshot")
    assert solo["room"]["rated"] is False and solo["room"]["hints"] is True
    refused = await ann.request({"type": "create_room", "rated": 1}, "error")
    assert refused["code"] == "invalid_field"
    # four humans in a rated room: no hints
    room_id, players = await harness.table("p1", "p2", "p3", "p4", rules=ONE_DEAL)
    table = players[0].tables[room_id]
    on_turn = next(p for p in players if p.tables[room_id].seat == table.turn)
    error = await on_turn.request({"type": "hint", "room_id": room_id}, "error")
    assert error["code"] == "hints_not_allowed" and "rated" in error["message"]


def test_a_room_remembers_its_starters_and_who_left() -> None:
    seats = ("a", "b", "c", "d")
    first = Created("system", "t", Rules(), 30, False, None, 7, "t_1", seats, rated=True)
    room = Room.from_log("r1", [first, Started()])
    assert room.starters == seats and room.rated_match
    assert room.match is not None
    room.apply(Seated(2, None, cpu=True, level="strong"))  # c left its tournament
    assert room.starters == seats and room.left_at == {2: 0} and room.rated_match
    unrated = Room.from_log("r2", [Created("o", "t", Rules(), 30, False, None, 7), Started()])
    assert not unrated.rated_match
    old = Created.from_dict({k: v for k, v in first.to_dict().items() if k != "rated"})
    assert old.rated is False  # a log from before ratings


def test_an_abandon_is_a_loss_and_ratings_are_symmetric() -> None:
    start = {p: (MU, SIGMA) for p in "abcd"}
    plain = rate_match(list("abcd"), 0, frozenset(), start)
    assert plain["a"] == plain["c"] and plain["b"] == plain["d"]
    assert plain["a"][0] > MU > plain["b"][0]
    assert plain["a"][0] - MU == pytest.approx(MU - plain["b"][0])
    left = rate_match(list("abcd"), 0, frozenset({"a"}), start)
    assert left["c"] == plain["c"] and left["b"] == plain["b"]  # the others as played
    assert left["a"] == rate_match(list("abcd"), 1, frozenset(), start)["a"]  # a lost
    assert left["a"][0] < MU
    lost = rate_match(list("abcd"), 1, frozenset({"a"}), start)
    assert lost == rate_match(list("abcd"), 1, frozenset(), start)  # lost anyway
    assert conservative(MU, SIGMA) == pytest.approx(0.0)


async def test_an_abandoned_match_scores_a_loss(harness: Harness) -> None:
    """A tournament table where ann left: a CPU finished her seat and her team won."""
    clients = [await harness.client(n) for n in ("ann", "bob", "cas", "dee")]
    ids = tuple(c.player_id for c in clients)
    assert harness.server is not None
    match = won_by(0, deals=2)
    totals = (match.totals[0], match.totals[1])
    event = MatchEnded(
        "r_left", "t_1", **ending(match), players=(None, *ids[1:]), rated=True, starters=ids,
        abandoned=frozenset({ids[0]}), left_at=(1, None, None, None),
    )  # fmt: skip
    await harness.server.events.publish(event)
    await harness.server.events.publish(event)  # once
    ann, cas = await profile(clients[0]), await profile(clients[2])
    first = match.sheet[0].result.score[0]  # her part: the deal before she left
    assert (ann["wins"], ann["deals"], ann["points"]) == (0, 1, first)
    assert (cas["deals"], cas["points"]) == (2, totals[0])
    assert ann["history"][0]["abandoned"] is True and ann["history"][0]["won"] is False
    assert ann["rating"]["mu"] < MU < cas["rating"]["mu"]
    assert cas["wins"] == 1 and cas["history"][0]["abandoned"] is False
    assert ann["rating"]["matches"] == cas["rating"]["matches"] == 1


async def test_a_player_away_at_the_end_abandoned_the_match(harness: Harness) -> None:
    """Ann stops playing: her timeouts mark her seat away, the server plays it to the end
    of the rated match, and the match counts as her loss whatever her team scored."""
    rules = {"deals": 1, "trump_mode": "dealer"}
    room_id, players = await harness.table("ann", "bob", "cas", "dee", rules=rules)
    ann, others = players[0], players[1:]
    table = ann.tables[room_id]

    def her_turn() -> bool:
        return table.turn == 0 and not table.room["seats"][0]["away"]

    while not table.over:
        if her_turn():
            version = table.version
            harness.advance(31)  # her move timer runs out
            while table.version == version:
                await ann.next("update")
        else:
            await play_until(others, room_id, lambda: table.over or her_turn())
    await sync(ann)
    for player in others:
        await sync(player)
    mine = await profile(ann)
    (line,) = mine["history"]
    assert (line["abandoned"], line["won"], line["rated"]) == (True, False, True)
    assert mine["wins"] == 0 and mine["rating"]["mu"] < MU
    winner = table.winner
    assert winner is not None
    for seat, player in enumerate(others, start=1):
        (theirs,) = (await profile(player))["history"]
        assert theirs["abandoned"] is False and theirs["won"] == (seat % 2 == winner)


# -- the board and profiles over HTTP ------------------------------------------------------


async def test_the_rating_board(harness: Harness) -> None:
    clients = [await harness.client(n) for n in ("ann", "bob", "cas", "dee", "eve")]
    ids = tuple(c.player_id for c in clients)
    assert harness.server is not None
    # ann (eve once) and cas beat bob and dee again and again: ann has one match too few
    for n in range(BOARD_MIN_MATCHES):
        four = ids[:4] if n else (ids[4], *ids[1:4])
        event = MatchEnded(
            f"r_{n}", None, **ending(won_by(0)), players=four, rated=True, starters=four
        )
        await harness.server.events.publish(event)
    board = await clients[1].request({"type": "rating_board", "ref": "b"}, "rating_board")
    assert board["ref"] == "b" and board["min_matches"] == BOARD_MIN_MATCHES
    assert board["players"] == 3 and board["offset"] == 0
    names = [row["nickname"] for row in board["rows"]]
    assert names[0] == "cas" and sorted(names[1:]) == ["bob", "dee"]  # ann: 9 matches
    assert [row["rank"] for row in board["rows"]] == [1, 2, 3]
    ratings = [row["rating"] for row in board["rows"]]
    assert ratings == sorted(ratings, reverse=True)
    mine = board["you"]
    assert mine is not None and mine["player_id"] == ids[1] and mine["rank"] in (2, 3)
    eve = await clients[4].request({"type": "rating_board", "limit": 1}, "rating_board")
    assert eve["you"]["rank"] is None and eve["you"]["matches"] == 1 and len(eve["rows"]) == 1

    status, body, headers = await http(harness, "/leaderboard/rating?offset=1&limit=2")
    assert status == 200 and headers["Cache-Control"] == "public, max-age=30"
    assert json.loads(body)["rows"] == board["rows"][1:3]
    assert json.loads(body)["you"] is None
    status, body, headers = await http(harness, "/leaderboard/rating", clients[1].token)
    assert status == 200 and json.loads(body)["you"] == mine
    assert headers["Cache-Control"].startswith("private")
    status, body, headers = await http(harness, f"/players/{ids[0]}?limit=3")
    shown = await profile(clients[3], ids[0], limit=3)
    assert status == 200 and headers["Cache-Control"] == "public, max-age=30"
    assert {**json.loads(body), "type": "profile"} == shown
    assert len(shown["history"]) == 3 and shown["matches"] == BOARD_MIN_MATCHES - 1


@pytest.mark.parametrize("database", ["sqlite"])
async def test_bad_profile_and_board_queries(harness: Harness) -> None:
    ann = await harness.client("ann")
    for bad in ({"player_id": "x" * 41}, {"limit": 0}, {"offset": "1"}, {"limit": 101}):
        error = await ann.request({"type": "get_profile", **bad}, "error")
        assert error["code"] == "invalid_field", (bad, error)
    error = await ann.request({"type": "get_profile", "player_id": "p_none"}, "error")
    assert error["code"] == "no_such_player"
    for path in ("?limit=0", "?offset=-1", "?what=1", "?limit=1&limit=2"):
        for page in ("/leaderboard/rating", f"/players/{ann.player_id}"):
            status, body, _ = await http(harness, page + path)
            assert status == 400 and json.loads(body)["error"] == "invalid_field", path
    status, body, _ = await http(harness, "/players/p_none")
    assert status == 404 and json.loads(body)["error"] == "no_such_player"
    status, _, _ = await http(harness, "/leaderboard/rating", "x" * 20)
    assert status == 400


async def test_tournament_places(harness: Harness) -> None:
    ann, bob = await harness.client("ann"), await harness.client("bob")
    assert harness.server is not None
    places = ((ann.player_id, 1, "grand"), (bob.player_id, 3, None))
    for _ in range(2):  # published again after a restart: once
        await harness.server.events.publish(TournamentEnded("t_1", places))
    await harness.server.events.publish(TournamentEnded("t_2", ((ann.player_id, 2, "second"),)))
    mine = (await profile(ann))["tournaments"]
    assert mine["played"] == 2 and mine["places"] == {"1": 1, "2": 1}
    assert [(t["tournament_id"], t["place"], t["prize"]) for t in mine["recent"]] == [
        ("t_2", 2, "second"), ("t_1", 1, "grand"),
    ]  # fmt: skip
    assert (await profile(ann, bob.player_id))["tournaments"]["places"] == {"3": 1}


async def test_a_daily_game_counts_and_hides_its_record_until_the_day_is_over(
    tmp_path: Any, database: str
) -> None:
    async with running_harness(tmp_path, database, daily_deals=1) as h:
        anna = await h.client("anna")
        snap = await anna.request({"type": "daily_start"}, "snapshot")
        room_id = snap["room_id"]
        await finish([anna], room_id)
        mine = await profile(anna)
        (line,) = mine["history"]
        assert (line["mode"], line["rated"], line["record"]) == ("daily", False, None)
        assert mine["matches"] == 1 and mine["rating"] is None
        h.advance(86_400)
        (line,) = (await profile(anna))["history"]
        assert line["record"] == f"/matches/{room_id}"


async def test_a_daily_result_is_its_players_alone_until_its_day_is_revealed(
    tmp_path: Any, database: str
) -> None:
    """Others see a daily game's line without its result, and the counters without it (no
    difference of two profiles gives the result away), over the websocket and HTTP; its
    player sees it all; everyone once the day's games have closed (2 hours after midnight)."""
    async with running_harness(tmp_path, database, daily_deals=1) as h:
        anna, bob = await h.client("anna"), await h.client("bob")
        snap = await anna.request({"type": "daily_start"}, "snapshot")
        await finish([anna], snap["room_id"])
        mine = await profile(anna)
        (line,) = mine["history"]
        assert line["score"][0] > 0 or line["score"][1] > 0
        assert mine["deals"] == 1 and mine["wins"] == int(line["won"])
        hidden = {"won": None, "abandoned": None, "score": None}
        counters = ("wins", "deals", "points", "chooser_deals", "nat", "pits", "roem")

        def shown_to_others(theirs: dict[str, Any]) -> None:
            (seen,) = theirs["history"]
            assert seen == {**line, **hidden}
            assert theirs["matches"] == 1  # its line is listed
            assert [theirs[k] for k in counters] == [0] * len(counters)
            assert theirs["points_per_deal"] is None

        shown_to_others(await profile(bob, anna.player_id))
        for token in (None, bob.token):
            status, body, headers = await http(h, f"/players/{anna.player_id}", token)
            assert status == 200
            shown_to_others(json.loads(body))
        status, body, headers = await http(h, f"/players/{anna.player_id}", anna.token)
        own = json.loads(body)  # all of it (its points may be 0: a deal gone nat or pit)
        assert own["history"] == [line] and own["deals"] == 1 and own["points"] == mine["points"]
        assert headers["Cache-Control"] == "private, max-age=30"

        h.advance(86_400 - h.clock.wall() % 86_400 + 3600)  # 01:00: the day still closing
        shown_to_others(await profile(bob, anna.player_id))
        h.advance(3600)  # 02:00: revealed
        theirs = await profile(bob, anna.player_id)
        assert theirs == await profile(anna)
        assert theirs["history"][0]["score"] == line["score"]
