"""The score sheet's fold, without a socket: every rule of the sheet as a table of cases
(one team's points, nat and its ties, pit, the dealer's rotation, edit, delete, undo,
redo, the end by target or number of deals, an extra deal on equal totals), the refusals
with their messages, and the log's round trip."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Rules
from engine.scoring import PIT_BONUS
from server.scoresheet import export
from server.scoresheet.sheet import MAX_ROEM, Draft, Sheet, SheetError, created
from server.scoresheet.sheet_entries import Created, DealEntered, DealInput, decode

pytestmark = pytest.mark.sheet

US, THEM = 0, 1


def new_sheet(first_dealer: int = 0, players: Any = None, **rules: Any) -> Sheet:
    created = Created(
        "p_ann", 1000.0, ("Us", "Them"), players, first_dealer,
        Rules.from_dict(rules or {"target": 1500}),
    )  # fmt: skip
    return Sheet.from_log("s_1", [created])


def run(sheet: Sheet, command: str, *args: Any, by: str = "p_ann") -> Sheet:
    """Apply a command at the sheet's current version, as a phone would."""
    for entry in getattr(sheet, command)(by, 2000.0 + sheet.version, sheet.version, *args):
        sheet.apply(entry)
    return sheet


def deal(playing: int, us: int | None = None, them: int | None = None, roem=(0, 0), pit=None):
    return Draft(playing, (us, them), roem, pit)


def scores(sheet: Sheet) -> list[tuple[int, int]]:
    return [tuple(d.result.score) for d in sheet.game.deals]  # type: ignore[misc]


def replayed(sheet: Sheet, log: list[Any]) -> Sheet:
    """The same sheet folded afresh from its entries as stored (JSON objects)."""
    return Sheet.from_log(sheet.id, [decode(e.to_dict()) for e in log])


# -- scoring a deal ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("draft", "score", "nat"),
    [
        (deal(US, us=92), (92, 70), False),  # the other side worked out: 162 - 92
        (deal(US, them=70), (92, 70), False),
        (deal(US, 92, 70), (92, 70), False),  # both given, adding up
        (deal(US, us=81), (0, 162), True),  # a tie is nat
        (deal(US, us=81, roem=(20, 0)), (101, 81), False),
        (deal(THEM, us=100, roem=(0, 50)), (100, 112), False),
        (deal(THEM, us=100, roem=(20, 50)), (232, 0), True),  # nat: 162 + all roem
        (deal(US, us=71, roem=(20, 0)), (0, 182), True),  # 71 + 20 == 91: nat
        (deal(US, us=162, roem=(40, 0), pit=US), (162 + 40 + PIT_BONUS, 0), False),
        (deal(THEM, us=162, roem=(20, 0), pit=US), (162 + 20 + PIT_BONUS, 0), True),
        (deal(US, us=162), (162, 0), False),  # every point, not every trick: no pit
    ],
)
def test_a_deal_is_scored_by_the_engine(draft: Draft, score: tuple[int, int], nat: bool) -> None:
    sheet = run(new_sheet(), "enter", draft)
    (scored,) = sheet.game.deals
    assert (tuple(scored.result.score), scored.result.nat) == (score, nat)
    assert sheet.game.totals == score


def test_the_pit_bonus_option() -> None:
    playing_only = new_sheet(target=1500, pit_bonus="playing")
    run(playing_only, "enter", deal(THEM, us=162, roem=(20, 0), pit=US))  # pit on the players
    assert scores(playing_only) == [(182, 0)]  # nat, but no bonus for the others
    run(playing_only, "enter", deal(THEM, them=162, pit=THEM))
    assert scores(playing_only)[-1] == (0, 162 + PIT_BONUS)


ROEM = f"roem must be a multiple of 10 from 0 to {MAX_ROEM}"


@pytest.mark.parametrize(
    ("draft", "message"),
    [
        (deal(US), "enter the card points of one team (0-162)"),
        (deal(US, us=163), "Us's points must be 0 to 162, not 163"),
        (deal(US, them=-1), "Them's points must be 0 to 162, not -1"),
        (deal(US, 90, 80), "the points add up to 162 (the last trick's 10 included), not 170"),
        (deal(US, us=90, roem=(25, 0)), f"Us's {ROEM}, not 25"),
        (deal(US, us=90, roem=(0, -20)), f"Them's {ROEM}, not -20"),
        (deal(US, us=90, roem=(0, MAX_ROEM + 10)), f"Them's {ROEM}, not {MAX_ROEM + 10}"),
        (deal(US, us=150, pit=US), "a pit is every trick: Us then has 162 points, not 150"),
        (deal(US, us=162, roem=(0, 20), pit=US),
         "Them took no trick in a pit, so they have no roem, not 20"),
    ],
)  # fmt: skip
def test_impossible_deals_are_refused_and_change_nothing(draft: Draft, message: str) -> None:
    sheet = new_sheet()
    before = sheet.summary()
    with pytest.raises(SheetError) as refused:
        run(sheet, "enter", draft)
    assert (refused.value.code, refused.value.message) == ("invalid_deal", message)
    assert sheet.summary() == before and sheet.version == 1


# -- the dealer -----------------------------------------------------------------------------


def test_the_dealer_rotates_clockwise_and_a_correction_rotates_on_from_there() -> None:
    sheet = new_sheet(first_dealer=3, players=("Ann", "Bob", "Cas", "Dee"))
    assert (sheet.dealer, sheet.summary()["leader"]) == (3, 0)
    for _ in range(3):
        run(sheet, "enter", deal(US, us=100))
    assert [d.dealer for d in sheet.game.deals] == [3, 0, 1]
    assert sheet.dealer == 2
    run(sheet, "set_dealer", 0)  # they noticed Ann deals now
    assert (sheet.dealer, sheet.summary()["leader"]) == (0, 1)
    assert sheet.history[-1]["text"] == "Dealer corrected: Ann deals next"
    run(sheet, "enter", deal(US, us=100))
    assert [d.dealer for d in sheet.game.deals] == [3, 0, 1, 0] and sheet.dealer == 1
    with pytest.raises(SheetError, match="Bob deals next already"):
        run(sheet, "set_dealer", 1)


def test_seats_are_named_after_their_team_without_player_names() -> None:
    assert new_sheet().summary()["seats"] == ["Us 1", "Them 1", "Us 2", "Them 2"]


# -- edit, delete, undo, redo --------------------------------------------------------------


def test_edit_and_delete_rescore_the_running_totals() -> None:
    sheet = new_sheet()
    for us in (100, 60, 120):
        run(sheet, "enter", deal(US, us=us))
    first, second, third = (d.id for d in sheet.game.deals)
    assert [d.totals for d in sheet.game.deals] == [(100, 62), (100, 224), (220, 266)]
    run(sheet, "edit", second, deal(US, us=90, roem=(20, 0)))
    assert [d.totals for d in sheet.game.deals] == [(100, 62), (210, 134), (330, 176)]
    assert sheet.game.deals[1].edited and sheet.game.deals[1].id == second
    assert sheet.history[-1]["text"] == "Deal 2 corrected: Us 110, Them 72"
    run(sheet, "delete", first)
    assert [(d.number, d.id) for d in sheet.game.deals] == [(1, second), (2, third)]
    assert [d.dealer for d in sheet.game.deals] == [0, 1]  # as if it never happened
    assert sheet.history[-1]["text"] == "Deal 1 deleted (Us 100, Them 62)"
    with pytest.raises(SheetError) as refused:
        run(sheet, "edit", first, deal(US, us=100))
    assert (refused.value.code, refused.value.message) == (
        "no_such_deal",
        f"the sheet has no deal {first}",
    )


def test_undo_and_redo_any_change_again_and_again() -> None:
    sheet = new_sheet()
    run(sheet, "enter", deal(US, us=100))
    run(sheet, "enter", deal(THEM, us=60))
    deal_id = sheet.game.deals[0].id
    run(sheet, "edit", deal_id, deal(US, us=120))
    run(sheet, "delete", sheet.game.deals[1].id)
    states = []
    summary = sheet.summary()
    assert summary["undo"] == "Deal 2 deleted (Us 60, Them 102)" and summary["redo"] is None
    for _ in range(4):  # back to the empty sheet, one change at a time
        states.append(scores(sheet))
        run(sheet, "undo")
    assert scores(sheet) == [] and sheet.summary()["undo"] is None
    assert sheet.summary()["redo"] == "Deal 1: Us 100, Them 62"
    with pytest.raises(SheetError, match="there is no change to undo"):
        run(sheet, "undo")
    for state in reversed(states):
        run(sheet, "redo")
        assert scores(sheet) == state
    with pytest.raises(SheetError, match="there is no undone change to redo"):
        run(sheet, "redo")
    run(sheet, "undo")
    run(sheet, "enter", deal(US, us=82))  # a new change forgets what was undone
    assert sheet.summary()["redo"] is None
    assert [h["text"] for h in sheet.history[-3:]] == [
        "Redone: Deal 2 deleted (Us 60, Them 102)",
        "Undone: Deal 2 deleted (Us 60, Them 102)",
        "Deal 3: Us 82, Them 80",
    ]
    assert scores(sheet) == [(120, 42), (60, 102), (82, 80)]


def test_every_change_is_in_the_history_with_who_and_when() -> None:
    sheet = new_sheet()
    run(sheet, "enter", deal(US, us=100), by="p_bob")
    run(sheet, "undo", by="p_cas")
    assert [(h["version"], h["kind"], h["by"], h["at"]) for h in sheet.history] == [
        (2, "deal", "p_bob", 2001.0), (3, "undo", "p_cas", 2002.0),
    ]  # fmt: skip


def test_a_change_made_on_an_older_version_is_refused_not_merged() -> None:
    sheet = new_sheet()
    run(sheet, "enter", deal(US, us=100))
    seen = sheet.version
    run(sheet, "enter", deal(US, us=90))  # another phone, meanwhile
    with pytest.raises(SheetError) as refused:
        sheet.edit("p_bob", 0.0, seen, sheet.game.deals[0].id, deal(US, us=10))
    assert refused.value.code == "stale_version"
    assert refused.value.message == (
        "the sheet changed since you looked (you saw version 2, it is at 3 now): check it "
        "and send your change again"
    )
    for command, args in [("enter", (deal(US, us=1),)), ("undo", ()), ("set_dealer", (3,))]:
        with pytest.raises(SheetError) as stale:
            getattr(sheet, command)("p_bob", 0.0, seen, *args)
        assert stale.value.code == "stale_version"


# -- the end -----------------------------------------------------------------------------


def test_the_team_that_reaches_the_target_wins_and_the_game_takes_no_more_deals() -> None:
    sheet = new_sheet(target=500)
    for _ in range(3):
        run(sheet, "enter", deal(US, us=90))  # 90 - 72 a deal
    assert sheet.game.totals == (270, 216) and not sheet.summary()["game"]["over"]
    for _ in range(2):
        run(sheet, "enter", deal(THEM, us=60, roem=(0, 100)))  # 60 - 202
    game = sheet.summary()["game"]
    assert (game["totals"], game["over"], game["winner"]) == ([390, 620], True, THEM)
    with pytest.raises(SheetError) as refused:
        run(sheet, "enter", deal(US, us=90))
    assert (refused.value.code, refused.value.message) == (
        "game_ended", "game 1 is over: continue it, or start a new game",
    )  # fmt: skip
    run(sheet, "undo")
    game = sheet.summary()["game"]
    assert (game["totals"], game["over"], game["winner"]) == ([330, 418], False, None)


def test_both_over_the_target_in_one_deal_the_higher_total_wins() -> None:
    sheet = new_sheet(target=300)
    run(sheet, "enter", deal(US, us=100, roem=(100, 100)))  # 200 - 162
    assert not sheet.summary()["game"]["over"]
    run(sheet, "enter", deal(US, us=120, roem=(100, 100)))  # 220 - 142: 420 - 304
    game = sheet.summary()["game"]
    assert (game["totals"], game["over"], game["winner"]) == ([420, 304], True, US)


def test_equal_totals_at_the_end_play_an_extra_deal() -> None:
    sheet = new_sheet(deals=2)
    run(sheet, "enter", deal(US, us=100))  # 100 - 62
    run(sheet, "enter", deal(THEM, us=62))  # 62 - 100
    game = sheet.summary()["game"]
    assert (game["totals"], game["over"], game["extra_deal"]) == ([162, 162], False, True)
    run(sheet, "enter", deal(US, us=90))
    game = sheet.summary()["game"]
    assert (game["over"], game["winner"], game["extra_deal"]) == (True, US, False)


def test_a_sixteen_deal_game_ends_after_sixteen_deals() -> None:
    sheet = new_sheet(deals=16)
    for number in range(16):
        assert not sheet.summary()["game"]["over"]
        run(sheet, "enter", deal(number % 2, us=100))
    game = sheet.summary()["game"]
    assert game["over"] and len(game["deals"]) == 16 and game["end_value"] == 16


def test_continue_and_new_game_and_their_undo() -> None:
    sheet = new_sheet(deals=1)
    with pytest.raises(SheetError, match="game 1 is not over yet"):
        run(sheet, "continue_")
    with pytest.raises(SheetError, match="game 1 has no deals yet"):
        run(sheet, "new_game")
    run(sheet, "enter", deal(US, us=100))
    run(sheet, "continue_")
    game = sheet.summary()["game"]
    assert (game["over"], game["end_value"], game["continued"]) == (False, 2, 1)
    assert sheet.history[-1]["text"] == "Game 1 played on to 2"
    run(sheet, "enter", deal(US, us=100))
    run(sheet, "new_game")
    summary = sheet.summary()
    assert summary["game"]["number"] == 2 and summary["game"]["deals"] == []
    (first,) = summary["games"]
    assert [d["totals"] for d in first["deals"]] == [[100, 62], [200, 124]]
    assert (first["number"], first["totals"], first["end_deal"], first["winner"]) == (
        1, [200, 124], 2, US,
    )  # fmt: skip
    assert sheet.dealer == 2  # the rotation goes on into the new game
    run(sheet, "undo")  # a new game started by mistake
    assert sheet.summary()["game"]["number"] == 1 and sheet.summary()["games"] == []


def test_undo_and_redo_across_a_continue_and_a_new_game() -> None:
    sheet = new_sheet(deals=1)
    run(sheet, "enter", deal(US, us=100))
    states = [sheet.summary()]
    for command, args in [("continue_", ()), ("enter", (deal(THEM, us=60),)), ("new_game", ()),
                          ("enter", (deal(US, us=90),))]:  # fmt: skip
        run(sheet, command, *args)
        states.append(sheet.summary())
    assert [s["game"]["number"] for s in states] == [1, 1, 1, 2, 2]
    assert sheet.dealer == 3 and states[-1]["games"][0]["totals"] == [160, 164]

    def shown(summary: dict[str, Any]) -> dict[str, Any]:
        words = ("version", "undo", "redo", "undo_what", "redo_what")
        return {k: v for k, v in summary.items() if k not in words}

    for state in reversed(states[:-1]):  # back past the new game and the continue
        run(sheet, "undo")
        assert shown(sheet.summary()) == shown(state)
    game = sheet.summary()["game"]
    assert (game["over"], game["continued"], game["end_value"], sheet.dealer) == (True, 0, 1, 1)
    for state in states[1:]:  # and forward again
        run(sheet, "redo")
        assert shown(sheet.summary()) == shown(state)
    assert sheet.summary()["redo"] is None


def test_a_deal_of_an_earlier_game_is_corrected_or_deleted_in_its_game() -> None:
    sheet = new_sheet(deals=2)
    run(sheet, "enter", deal(US, us=100))  # 100 - 62
    run(sheet, "enter", deal(US, us=90))  # 190 - 134: Us won game 1
    first, second = (d.id for d in sheet.game.deals)
    run(sheet, "new_game")
    run(sheet, "enter", deal(THEM, us=50))  # 50 - 112
    game_two = sheet.summary()["game"]
    run(sheet, "edit", first, deal(THEM, us=40))  # it was Them, with 122
    assert sheet.history[-1]["text"] == "Game 1, deal 1 corrected: Us 40, Them 122"
    (old,) = sheet.summary()["games"]
    assert [d["totals"] for d in old["deals"]] == [[40, 122], [130, 194]]
    assert (old["totals"], old["end_deal"], old["winner"]) == ([130, 194], 2, THEM)
    assert old["deals"][0]["edited"] and old["deals"][0]["id"] == first
    assert sheet.summary()["game"] == game_two  # the game being played is untouched
    run(sheet, "delete", second)
    assert sheet.history[-1]["text"] == "Game 1, deal 2 deleted (Us 90, Them 72)"
    (old,) = sheet.summary()["games"]
    assert (len(old["deals"]), old["totals"], old["end_deal"], old["winner"]) == (
        1, [40, 122], None, None,
    )  # fmt: skip
    # a deleted deal never happened: the dealers rotate on as if it was never dealt
    assert [d["dealer"] for d in sheet.summary()["game"]["deals"]] == [1]
    run(sheet, "undo")
    run(sheet, "undo")
    (old,) = sheet.summary()["games"]
    assert (old["totals"], old["winner"]) == ([190, 134], US)
    assert sheet.summary()["game"] == game_two


def test_a_correction_that_ends_a_game_earlier_waits_for_the_later_deals_to_go() -> None:
    sheet = new_sheet(target=500)
    for _ in range(4):
        run(sheet, "enter", deal(US, us=100))  # 100 - 62 a deal: 400 - 248
    second, third, fourth = (d.id for d in sheet.game.deals[1:])
    before = sheet.summary()
    with pytest.raises(SheetError) as refused:  # Us would reach 500 with deal 2
        run(sheet, "edit", second, deal(US, us=162, roem=(300, 0)))
    assert (refused.value.code, refused.value.message) == (
        "deals_after_end",
        "with this correction game 1 ends with deal 2 (Us 562, Them 62), but deals 3-4 come "
        "after that: delete them first (the last first), then make the correction again",
    )
    assert sheet.summary() == before
    run(sheet, "delete", fourth)
    with pytest.raises(SheetError, match="but deal 3 comes after that: delete it first"):
        run(sheet, "edit", second, deal(US, us=162, roem=(300, 0)))
    run(sheet, "delete", third)
    run(sheet, "edit", second, deal(US, us=162, roem=(300, 0)))
    game = sheet.summary()["game"]
    assert (game["totals"], game["over"], game["end_deal"], game["winner"]) == (
        [562, 62], True, 2, US,
    )  # fmt: skip


def test_an_extra_deal_on_equal_totals_at_the_target_and_a_deletion_that_ends_it_sooner() -> None:
    sheet = new_sheet(target=300)
    run(sheet, "enter", deal(THEM, us=62, roem=(0, 100)))  # 62 - 200
    run(sheet, "enter", deal(US, us=150, roem=(200, 200)))  # 350 - 212: 412 - 412
    game = sheet.summary()["game"]
    assert (game["totals"], game["over"], game["extra_deal"], game["winner"]) == (
        [412, 412], False, True, None,
    )  # fmt: skip
    run(sheet, "enter", deal(THEM, us=100))  # 100 - 62: 512 - 474, Us win
    game = sheet.summary()["game"]
    assert (game["over"], game["extra_deal"], game["end_deal"], game["winner"]) == (
        True, False, 3, US,
    )  # fmt: skip
    # without deal 1, deal 2 alone ends the game (350 - 212): deal 3 would come after it
    with pytest.raises(SheetError) as refused:
        run(sheet, "delete", sheet.game.deals[0].id)
    assert (refused.value.code, refused.value.message) == (
        "deals_after_end",
        "with this deletion game 1 ends with deal 1 (Us 350, Them 212), but deal 2 comes "
        "after that: delete it first (the last first), then make the deletion again",
    )  # numbered as they would be


def test_a_log_from_before_the_rule_ends_the_game_where_it_ended() -> None:
    """A log written when later deals could stay after a correction: the game ended with
    the first deal that ended it, and the side that reached the target first won."""
    sheet = new_sheet(target=300)
    entries = [
        DealEntered("p_ann", 1.0, DealInput(US, (162, 0), (200, 0))),  # 362 - 0: Us win
        DealEntered("p_ann", 2.0, DealInput(THEM, (0, 162), (0, 500))),  # 362 - 662
    ]
    old = Sheet.from_log(sheet.id, [sheet.created, *entries])
    game = old.summary()["game"]
    assert (game["totals"], game["over"], game["end_deal"], game["winner"]) == (
        [362, 662], True, 1, US,
    )  # fmt: skip
    page = export.to_html(old)
    assert "Us won" in page and "Them won" not in page and "after the end" in page
    with pytest.raises(SheetError, match="game 1 is over"):
        run(old, "enter", deal(US, us=100))
    run(old, "edit", old.game.deals[1].id, deal(THEM, them=100))  # the late deal itself
    run(old, "delete", old.game.deals[1].id)
    assert old.summary()["game"]["totals"] == [362, 0]


def test_a_sheet_of_four_players_names_its_teams_after_them() -> None:
    made = created("p_ann", 1.0, None, ("Ann", "Bob", "Cas", "Dee"), 0, Rules())
    assert made.teams == ("Ann & Cas", "Bob & Dee")
    sheet = Sheet.from_log("s_1", [made])
    run(sheet, "enter", deal(US, us=100))
    assert sheet.history[-1]["text"] == "Deal 1: Ann & Cas 100, Bob & Dee 62"
    assert sheet.summary()["seats"] == ["Ann", "Bob", "Cas", "Dee"]
    with pytest.raises(SheetError) as refused:
        created("p_ann", 1.0, None, None, 0, Rules())
    assert refused.value.code == "invalid_field"
    with pytest.raises(SheetError) as same:
        created("p_ann", 1.0, None, ("Ann", "Ann", "Bob", "Bob"), 0, Rules())
    assert (same.value.code, same.value.message) == (
        "bad_name", "the two teams need different names, not 'Ann & Bob' twice",
    )  # fmt: skip


# -- statistics and the log ------------------------------------------------------------------


def test_statistics_per_team() -> None:
    sheet = new_sheet()
    run(sheet, "enter", deal(US, us=100, roem=(20, 0)))  # 120 - 62
    run(sheet, "enter", deal(US, us=70))  # nat: 0 - 162
    run(sheet, "enter", deal(THEM, them=162, roem=(0, 50), pit=THEM))  # 0 - 312
    us, them = sheet.summary()["stats"]
    assert us == {"playing": 2, "nat": 1, "pits": 0, "roem": 20, "average": 40.0}
    assert them == {"playing": 1, "nat": 0, "pits": 1, "roem": 50, "average": 178.7}


def test_the_log_round_trips_and_a_replay_is_the_same_sheet() -> None:
    sheet = new_sheet(players=("Ann", "Bob", "Cas", "Dee"), deals=3, pit_bonus="playing")
    log: list[Any] = [sheet.created]

    def step(command: str, *args: Any) -> None:
        entries = getattr(sheet, command)("p_ann", 3.0, sheet.version, *args)
        for entry in entries:
            sheet.apply(entry)
        log.extend(entries)

    step("enter", deal(US, us=100, roem=(20, 0)))
    step("enter", deal(THEM, them=162, pit=THEM))
    step("edit", sheet.game.deals[0].id, deal(US, us=90))
    step("set_dealer", 0)
    step("enter", deal(US, 81, 81))
    step("delete", sheet.game.deals[1].id)
    step("undo")
    step("redo")
    step("enter", deal(THEM, us=40, roem=(0, 50)))
    step("continue_")
    step("new_game")
    again = replayed(sheet, log)
    assert again.summary() == sheet.summary() and again.history == sheet.history
    assert again.version == len(log) and again.created.rules == sheet.created.rules


# -- a property: adding at the end is what working everything out again gives ------------

COMMANDS = st.sampled_from(["enter", "enter", "enter", "edit", "delete", "set_dealer",
                            "continue_", "new_game", "undo", "redo"])  # fmt: skip


@settings(max_examples=150)
@given(st.lists(st.tuples(COMMANDS, st.integers(0, 162), st.integers(0, 3)), max_size=40))
def test_any_sequence_of_changes_folds_as_worked_out_afresh(steps) -> None:
    sheet = new_sheet(target=600)  # corrections of deals of any game, on top of the rest
    log: list[Any] = [sheet.created]
    for command, points, pick in steps:
        deals = [d for game in sheet.games for d in game.deals]  # of any game
        args: tuple[Any, ...] = {
            "enter": (deal(pick % 2, us=points),),
            "edit": (deals[pick % len(deals)].id, deal(pick % 2, them=points)) if deals else None,
            "delete": (deals[pick % len(deals)].id,) if deals else None,
            "set_dealer": (pick,),
        }.get(command, ())  # type: ignore[assignment]
        if args is None:
            continue
        try:
            entries = getattr(sheet, command)("p_ann", 1.0, sheet.version, *args)
        except SheetError:
            continue  # refused: nothing changed (checked by the summary below)
        for entry in entries:
            sheet.apply(entry)
        log.extend(entries)
    shown = sheet.summary()
    fresh = Sheet.from_log(sheet.id, [sheet.created])
    fresh.changes, fresh.undone = list(sheet.changes), list(sheet.undone)
    fresh.version = sheet.version
    fresh._derive()
    assert fresh.summary() == shown
    assert replayed(sheet, log).summary() == shown
    for game in sheet.games:
        total = [0, 0]
        for d in game.deals:
            total = [total[0] + d.result.score[0], total[1] + d.result.score[1]]
            assert list(d.totals) == total
        assert game.late == 0  # nothing after a game's end, whatever was corrected
