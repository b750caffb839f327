"""The club evening's draw (issue 35, item 3): no repeated partner over every room from 4 to
200 players and 3 to 6 rounds (and every round count up to N - 1 for N <= 20), sit-outs
that rotate, the same after a late arrival or a leaver (the few exceptions proved by an
exhaustive search written here, apart from the draw's own), never-partners, the
organiser's swap, the pairs movement, determinism, and the fairness report against
hand-computed cases.

Found (and asserted below): every (N, R) of the grid, N = 2, 3 (mod 4) included, has a
draw without a repeated partner whose sit-outs rotate; so has every N <= 20 with R <= N - 1.
After a change between rounds the only rooms without a repeat-free rest are those where 5
players become 4 in a 4-round evening (four players have three partnerships in all)."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from functools import cache
from itertools import combinations, pairwise

import pytest

from server.club.draw import (
    PairRound,
    PairTable,
    Round,
    Table,
    draw_individual,
    draw_pairs,
    fairness,
    pairs_fairness,
    swap,
)

pytestmark = pytest.mark.club

NAMES = [f"p{i:03d}" for i in range(210)]
SEED = 35


def people(n: int) -> list[str]:
    return NAMES[:n]


# -- what every draw must be, stated apart from the draw ----------------------------------


def at_tables(r: Round) -> set[str]:
    return {p for t in r.tables for p in t.seats}


def partnerships(rounds: Sequence[Round]) -> Counter[frozenset[str]]:
    return Counter(
        frozenset(team) for r in rounds for t in r.tables for team in (t.seats[::2], t.seats[1::2])
    )


def repeats(rounds: Sequence[Round]) -> int:
    """Partnerships beyond each two's first."""
    return sum(n - 1 for n in partnerships(rounds).values())


def check_shape(rounds: Sequence[Round], present: Sequence[str], first: int) -> None:
    """Everyone present once a round, N mod 4 sitting out, tables numbered 1..T."""
    for number, r in enumerate(rounds, first):
        assert r.number == number
        assert sorted(r.players) == sorted(present)
        assert len(r.sitting_out) == len(present) % 4
        assert [t.number for t in r.tables] == list(range(1, len(present) // 4 + 1))


def rotates(rounds: Sequence[Round]) -> bool:
    """Each round's sit-outs are among those who missed the fewest rounds so far (a round
    missed: sat out or not yet there); and among those present all evening the sit-outs
    differ by at most one after every round."""
    missed: dict[str, int] = {}
    always = set.intersection(*(set(r.players) for r in rounds))
    for k, r in enumerate(rounds):
        for p in r.players:
            missed.setdefault(p, k)
        playing = at_tables(r)
        if r.sitting_out and max(missed[p] for p in r.sitting_out) > min(
            missed[p] for p in playing
        ):
            return False
        for p in r.sitting_out:
            missed[p] += 1
        counts = [missed[p] for p in always]
        if max(counts) - min(counts) > 1:
            return False
    return True


def continuation_exists(present: Sequence[str], left: int, played: Sequence[Round]) -> bool:
    """Exhaustively: can ``left`` more rounds for ``present`` follow ``played`` with no
    repeated partner and sit-outs that rotate (the rule of :func:`rotates`)?"""
    everyone = sorted(present)
    n, sit = len(everyone), len(everyone) % 4
    index = {p: i for i, p in enumerate(everyone)}
    used = frozenset(
        frozenset((index[a], index[b]))
        for a, b in (tuple(pair) for pair in partnerships(played))
        if a in index and b in index
    )
    start = tuple(sum(p not in at_tables(r) for r in played) for p in everyone)

    def matchings(players: list[int], used: frozenset) -> Iterator[frozenset]:
        if not players:
            yield frozenset()
            return
        x, rest = players[0], players[1:]
        for y in rest:
            if frozenset((x, y)) not in used:
                for m in matchings([z for z in rest if z != y], used):
                    yield m | {frozenset((x, y))}

    @cache
    def search(left: int, used: frozenset, missed: tuple[int, ...]) -> bool:
        if left == 0:
            return True
        for out in combinations(range(n), sit):
            playing = [p for p in range(n) if p not in out]
            if out and max(missed[p] for p in out) > min(missed[p] for p in playing):
                continue
            after = tuple(m + (p in out) for p, m in enumerate(missed))
            if any(search(left - 1, used | m, after) for m in matchings(playing, used)):
                return True
        return False

    return search(left, used, start)


# -- the grid: fresh evenings -------------------------------------------------------------


@pytest.mark.parametrize("n", range(4, 201))
def test_no_repeated_partner_and_sit_outs_rotate(n: int) -> None:
    for rounds in range(3, min(6, n - 1) + 1):
        drawn = draw_individual(people(n), rounds, SEED)
        check_shape(drawn, people(n), 1)
        assert repeats(drawn) == 0, (n, rounds)
        assert rotates(drawn), (n, rounds)
        report = fairness(drawn)
        assert report.sit_out_spread <= 1
        if n > 20:  # measured: from 21 players on nobody meets an opponent twice either
            assert report.opponent_repeats == 0, (n, rounds)


@pytest.mark.parametrize("n", range(4, 21))
def test_small_rooms_have_no_repeat_up_to_n_minus_1_rounds(n: int) -> None:
    for rounds in range(7, n):  # 3..6 are in the grid above
        drawn = draw_individual(people(n), rounds, SEED)
        check_shape(drawn, people(n), 1)
        assert repeats(drawn) == 0, (n, rounds)
        assert rotates(drawn), (n, rounds)


def test_four_players_with_more_rounds_than_partnerships_repeat_the_fewest() -> None:
    drawn = draw_individual(people(4), 5, SEED)  # 3 partnerships of two: 10 pairs, 6 pairs
    assert repeats(drawn) == 4  # every round after the third repeats both its pairs
    assert max(partnerships(drawn).values()) == 2  # spread, not one pair three times


@pytest.mark.parametrize("rounds", [4, 5, 6])
def test_eight_players_meet_opponents_again_no_more_than_they_must(rounds: int) -> None:
    # each meets 2 opponents a round among 7 others: 2R - 7 meetings again at least, and
    # each meeting again is two players'
    report = fairness(draw_individual(people(8), rounds, SEED))
    assert report.opponent_repeats == 8 * (2 * rounds - 7) // 2


def test_every_player_sits_out_once_before_anyone_twice() -> None:
    drawn = draw_individual(people(7), 6, SEED)  # 3 out a round: 18 sit-outs over 7 players
    outs = [set(r.sitting_out) for r in drawn]
    assert outs[0] | outs[1] | outs[2] == set(people(7))
    assert Counter(p for out in outs for p in out).most_common()[-1][1] == 2  # 18 = 4*3 + 3*2


# -- changes between rounds ---------------------------------------------------------------


def changes(n: int, rounds: int, every_leaver: bool) -> Iterator[tuple[str, int, list[str]]]:
    """(what, rounds played, who is present from then on) for the changes tested."""
    fresh = draw_individual(people(n), rounds, SEED)
    for k in (1, 2):
        if k >= rounds:
            continue
        yield "late", k, [*people(n), "late"]
        yield "two late", k, [*people(n), "late", "later"]
        last = fresh[k - 1]
        leavers = people(n) if every_leaver else [last.tables[0].seats[0], *last.sitting_out[:1]]
        for leaver in leavers:
            if n > 4:
                yield f"{leaver} leaves", k, [p for p in people(n) if p != leaver]


def check_change(n: int, rounds: int, every_leaver: bool) -> list[tuple]:
    """Re-draws after each change; the repeats found, each proved unavoidable."""
    fresh = draw_individual(people(n), rounds, SEED)
    unavoidable = []
    for what, k, present in changes(n, rounds, every_leaver):
        rest = draw_individual(present, rounds, SEED, fresh[:k])
        check_shape(rest, present, k + 1)
        evening = fresh[:k] + rest
        assert rotates(evening), (n, rounds, what, k)
        if repeats(evening):
            assert not continuation_exists(present, rounds - k, fresh[:k]), (n, rounds, what, k)
            unavoidable.append((n, rounds, k, what))
    return unavoidable


@pytest.mark.parametrize("n", range(4, 10))
def test_every_leaver_and_late_arrival_in_small_rooms(n: int) -> None:
    found = [c for rounds in range(3, min(6, n - 1) + 1) for c in check_change(n, rounds, True)]
    if n != 5:
        assert found == []
    else:  # 5 players become 4: three partnerships in all, used up by a 4-round evening
        assert found and all(rounds == 4 for _, rounds, _, _ in found)


@pytest.mark.parametrize("n", [*range(10, 41), *range(41, 201, 11)])
def test_late_arrivals_and_leavers_keep_the_guarantees(n: int) -> None:
    for rounds in range(3, 7):
        assert check_change(n, rounds, False) == []


def test_a_late_arrival_sits_out_after_those_who_played_every_round() -> None:
    fresh = draw_individual(people(9), 5, SEED)  # one sits out a round
    rest = draw_individual([*people(9), "late"], 5, SEED, fresh[:1])  # 10: two out a round
    sat_out = set(fresh[0].sitting_out)
    outs = [p for r in rest for p in r.sitting_out]
    assert "late" not in outs  # 8 sit-out places left before round 5 is over: 8 never sat out
    assert not sat_out & set(outs)
    assert len(outs) == len(set(outs)) == 8


def test_a_swap_in_a_played_round_is_taken_into_account() -> None:
    fresh = draw_individual(people(16), 5, SEED)
    one, two = fresh[0].tables[0].seats[0], fresh[0].tables[1].seats[1]
    first = swap(fresh[0], one, two)
    rest = draw_individual(people(16), 5, SEED, [first])
    assert rest != fresh[1:]
    assert repeats([first, *rest]) == 0


def test_drawing_round_by_round_gives_the_rounds_drawn_at_once() -> None:
    for n in (8, 23, 50):
        fresh = draw_individual(people(n), 5, SEED)
        for k in range(1, 5):
            assert draw_individual(people(n), 5, SEED, fresh[:k]) == fresh[k:]
        assert draw_individual(people(n), 5, SEED, fresh) == ()


# -- never partners, swap, determinism ----------------------------------------------------


@pytest.mark.parametrize("n", [8, 9, 10, 11, 12, 16, 20, 27, 40, 101])
def test_never_partners_are_kept_apart(n: int) -> None:
    never = [frozenset(people(n)[i : i + 2]) for i in range(0, 6, 2)]
    for rounds in range(3, min(6, n - 1) + 1):
        drawn = draw_individual(people(n), rounds, SEED, never_partners=never)
        assert not set(partnerships(drawn)) & set(never), (n, rounds)
        assert repeats(drawn) == 0 and rotates(drawn)


def test_never_partners_win_over_a_repeat_when_both_cannot_be_had() -> None:
    never = [frozenset(people(2))]  # 4 players, 3 rounds: all three partnerships needed
    drawn = draw_individual(people(4), 3, SEED, never_partners=never)
    assert frozenset(people(2)) not in partnerships(drawn)
    assert repeats(drawn) == 2  # one round's two partnerships again


def test_swap_moves_two_players_or_one_sitting_out() -> None:
    r = Round(3, (Table(1, ("a", "b", "c", "d")), Table(2, ("e", "f", "g", "h"))), ("i",))
    assert swap(r, "a", "h") == Round(
        3, (Table(1, ("h", "b", "c", "d")), Table(2, ("e", "f", "g", "a"))), ("i",)
    )
    assert swap(r, "i", "c") == Round(
        3, (Table(1, ("a", "b", "i", "d")), Table(2, ("e", "f", "g", "h"))), ("c",)
    )
    with pytest.raises(ValueError, match="'z' is not in round 3"):
        swap(r, "a", "z")


def test_the_same_arguments_give_the_same_draw_and_seeds_differ() -> None:
    players = people(40)
    drawn = draw_individual(players, 4, 7)
    shuffled = random.Random(1).sample(players, len(players))
    assert draw_individual(shuffled, 4, 7) == drawn  # who is here, not in which order
    assert len({draw_individual(players, 4, seed) for seed in range(10)}) == 10
    late = [*players, "late"]
    assert draw_individual(late, 4, 7, drawn[:1]) == draw_individual(late, 4, 7, drawn[:1])


def test_the_first_dealer_is_spread() -> None:
    drawn = draw_individual(people(16), 6, SEED)  # 24 first deals over 16 players
    firsts = Counter(t.seats[0] for r in drawn for t in r.tables)
    assert len(firsts) == 16 and max(firsts.values()) == 2


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((people(3), 3, 1), "at least 4"),
        ((["a", "b", "c", "a"], 3, 1), "'a' is named twice"),
        ((people(8), 3, 1, [Round(2, (), ())]), "numbered 1, 2"),
        ((people(8), 1, 1, [Round(1, (), ()), Round(2, (), ())]), "2 rounds are played"),
        ((people(8), 3, 1, (), [frozenset(["p000"])]), "two players each"),
    ],
)
def test_bad_arguments_are_refused(args: tuple, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        draw_individual(*args)


# -- pairs ----------------------------------------------------------------------------------


def pair_names(n: int) -> list[str]:
    return [f"pair{i}" for i in range(1, n + 1)]


def meetings(rounds: Sequence[PairRound]) -> Counter[frozenset[str]]:
    return Counter(frozenset((t.ns, t.ew)) for r in rounds for t in r.tables)


def test_the_movement_odd_pairs_move_up_even_pairs_stay() -> None:
    pairs = pair_names(10)  # 5 tables
    drawn = draw_pairs(pairs, 5, SEED)
    first = drawn[0]
    assert [(t.number, t.ns, t.ew) for t in first.tables] == [
        (t, f"pair{2 * t}", f"pair{2 * t - 1}") for t in range(1, 6)
    ]
    for before, after in pairwise(drawn):
        table = {p: t.number for t in before.tables for p in (t.ns, t.ew)}
        moved = {p: t.number for t in after.tables for p in (t.ns, t.ew)}
        for p in pairs:
            number = int(p[4:])
            expected = table[p] if number % 2 == 0 else table[p] % 5 + 1
            assert moved[p] == expected
    assert max(meetings(drawn).values()) == 1


def test_an_odd_number_of_pairs_sits_one_out_in_turn() -> None:
    drawn = draw_pairs(pair_names(9), 5, SEED)  # 4 tables and a phantom pair
    outs = [r.sitting_out for r in drawn]
    assert all(len(o) == 1 for o in outs) and len({o[0] for o in outs}) == 5
    assert all(len(r.tables) == 4 for r in drawn)
    assert max(meetings(drawn).values()) == 1
    report = pairs_fairness(drawn)
    assert report.opponent_repeats == 0 and report.sit_out_spread == 1


@pytest.mark.parametrize(("count", "rounds"), [(4, 3), (6, 5), (5, 5), (7, 6), (8, 6)])
def test_more_rounds_than_tables_play_a_round_robin(count: int, rounds: int) -> None:
    drawn = draw_pairs(pair_names(count), rounds, SEED)  # the movement would repeat
    assert max(meetings(drawn).values()) == 1
    outs = Counter(p for r in drawn for p in r.sitting_out)
    assert max(outs.values(), default=0) <= 1
    assert all(sorted(r.players) == sorted(pair_names(count)) for r in drawn)


def test_two_pairs_can_only_meet_again() -> None:
    drawn = draw_pairs(pair_names(2), 3, SEED)
    assert pairs_fairness(drawn).repeated_opponents == (("pair1", "pair2", 3),)


@pytest.mark.parametrize("count", [6, 9, 12, 21])
def test_pairs_coming_late_or_leaving_get_a_fresh_rest(count: int) -> None:
    pairs = pair_names(count)
    fresh = draw_pairs(pairs, 5, SEED)
    for k in (1, 2):
        for present in ([*pairs, "late"], pairs[1:]):
            rest = draw_pairs(present, 5, SEED, fresh[:k])
            assert [r.number for r in rest] == list(range(k + 1, 6))
            assert all(sorted(r.players) == sorted(present) for r in rest)
            assert max(meetings(fresh[:k] + rest).values()) == 1, (count, k, len(present))
            assert all("late" not in r.sitting_out for r in rest)  # others have missed less


def test_a_pairs_evening_drawn_round_by_round_is_the_movement() -> None:
    fresh = draw_pairs(pair_names(8), 4, SEED)
    assert draw_pairs(pair_names(8), 4, SEED, fresh[:2]) == fresh[2:]


# -- the fairness report, by hand ---------------------------------------------------------


def test_fairness_of_nine_players_over_three_rounds_by_hand() -> None:
    # partners sit opposite: seats 0 and 2, seats 1 and 3
    rounds = [
        Round(1, (Table(1, ("a", "b", "c", "d")), Table(2, ("e", "f", "g", "h"))), ("i",)),
        Round(2, (Table(1, ("c", "e", "a", "g")), Table(2, ("b", "h", "i", "f"))), ("d",)),
        Round(3, (Table(1, ("a", "b", "d", "c")), Table(2, ("i", "f", "g", "h"))), ("e",)),
    ]
    report = fairness(rounds)
    # a-c partner in rounds 1 and 2, e-g in 1 and 2, f-h in all three
    assert report.repeated_partners == (("a", "c", 2), ("e", "g", 2), ("f", "h", 3))
    assert report.partner_repeats == 4
    # opponents: round 1 ab ad bc cd ef eh fg gh; round 2 ce cg ae ag bh bf hi fi;
    # round 3 ab ac bd cd fi hi fg gh
    assert report.repeated_opponents == (
        ("a", "b", 2), ("c", "d", 2), ("f", "g", 2), ("f", "i", 2), ("g", "h", 2), ("h", "i", 2),
    )  # fmt: skip
    assert report.opponent_repeats == 6
    assert dict(report.sit_outs) == {p: int(p in "ide") for p in "abcdefghi"}
    assert report.sit_out_spread == 1
    assert json.loads(json.dumps(report.to_dict())) == {
        "repeated_partners": [
            {"players": ["a", "c"], "rounds": 2},
            {"players": ["e", "g"], "rounds": 2},
            {"players": ["f", "h"], "rounds": 3},
        ],
        "partner_repeats": 4,
        "repeated_opponents": [
            {"players": list(two), "rounds": 2} for two in ("ab", "cd", "fg", "fi", "gh", "hi")
        ],
        "opponent_repeats": 6,
        "sit_outs": {p: int(p in "ide") for p in "abcdefghi"},
        "sit_out_spread": 1,
    }


def test_fairness_spread_counts_only_those_present_all_evening() -> None:
    rounds = [
        Round(1, (Table(1, ("a", "b", "c", "e")),), ("d", "f")),
        Round(2, (Table(1, ("a", "b", "c", "f")),), ("d", "e")),
        Round(3, (Table(1, ("a", "e", "b", "f")),), ("c",)),  # d has left
    ]
    report = fairness(rounds)
    assert dict(report.sit_outs) == {"a": 0, "b": 0, "c": 1, "d": 2, "e": 1, "f": 1}
    assert report.sit_out_spread == 1  # a, b, c, e and f were there all evening: 0 to 1
    assert report.repeated_partners == (("a", "c", 2),)  # rounds 1 and 2


def test_pairs_fairness_by_hand() -> None:
    rounds = [
        PairRound(1, (PairTable(1, "A", "B"), PairTable(2, "C", "D")), ("E",)),
        PairRound(2, (PairTable(1, "A", "C"), PairTable(2, "B", "E")), ("D",)),
        PairRound(3, (PairTable(1, "B", "A"), PairTable(2, "C", "E")), ("D",)),
    ]
    report = pairs_fairness(rounds)
    assert report.repeated_partners == ()
    assert report.repeated_opponents == (("A", "B", 2),)
    assert dict(report.sit_outs) == {"A": 0, "B": 0, "C": 0, "D": 2, "E": 1}
    assert report.sit_out_spread == 2
