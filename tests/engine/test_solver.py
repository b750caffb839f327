"""The exact open-card solver: against brute force, against its own play, the compiled
search against the pure-Python reference, and purity."""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from dataclasses import dataclass, field

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import (
    LEAVE,
    TAKE,
    Action,
    Deal,
    Kind,
    Match,
    Phase,
    PitBonus,
    RoemMode,
    Rules,
    Variant,
    solver,
    solver_reference,
)
from engine.record import analyze, deal_record, match_deals
from engine.tables import STRENGTH
from tests.engine.helpers import klaverjas

pytestmark = pytest.mark.bots


# -- positions ---------------------------------------------------------------------------


def _act(deal: Deal, action: Action) -> None:
    if action.kind is Kind.PLAY:
        deal.play(action.value)
    else:
        deal.decide(action.kind is Kind.TAKE)


def position(seed: int, played: tuple[int, int]) -> Deal | None:
    """A random deal (random rules, trump and chooser) played to between ``played`` cards;
    sometimes it stops at a claim decision.  One seat's team sometimes plays its strongest
    cards and the other its weakest, so that pit is within reach.  None if it ended."""
    rng = random.Random(seed)
    rules = Rules(
        variant=rng.choice(list(Variant)),
        roem=rng.choice(list(RoemMode)),
        pit_bonus=rng.choice(list(PitBonus)),
    )
    deal = Deal.shuffled(rules, rng.randrange(1 << 30), 0, rng.randrange(4))
    deal.choose(rng.randrange(4), rng.randrange(4))
    stop = rng.randint(*played)
    strong = rng.choice([None, None, 0, 1])
    cards = 0
    while deal.phase is not Phase.DONE:
        if deal.phase is Phase.CLAIM:
            if cards >= stop - 3 and rng.random() < 0.7:
                return deal
            _act(deal, rng.choice([TAKE, LEAVE]))
            continue
        if cards >= stop:
            return deal
        actions = deal.legal_actions()
        if strong is not None and deal.trick:
            strength = STRENGTH[deal.trump * 4 + (deal.trick[0] >> 3)]
            actions.sort(key=lambda a: strength[a.value])
            action = actions[-1] if deal.turn & 1 == strong else actions[0]
        else:
            action = rng.choice(actions)
        _act(deal, action)
        cards += 1
    return None


def positions(seed: int, count: int, played: tuple[int, int]) -> list[Deal]:
    out, n = [], 0
    while len(out) < count:
        deal = position(seed * 1_000_003 + n, played)
        n += 1
        if deal is not None:
            out.append(deal)
    return out


# -- brute force: the engine's own Deal, copied at every node ---------------------------


def clone(deal: Deal) -> Deal:
    d = copy.copy(deal)
    d.hands, d.trick, d.tricks = list(deal.hands), list(deal.trick), list(deal.tricks)
    d.points, d.roem, d.won = list(deal.points), list(deal.roem), list(deal.won)
    d.actions = list(deal.actions)
    return d


@dataclass
class Seen:
    """What the brute force met at the ends of the deals it played out."""

    nat: int = 0
    ties: int = 0
    pit: int = 0
    kinds: set[str] = field(default_factory=set)


def brute(deal: Deal, seen: Seen) -> dict[Action, int]:
    """Every legal action's value for the mover's team by plain minimax over the rules."""
    team = deal.turn & 1
    out = {}
    for action in deal.legal_actions():
        d = clone(deal)
        _act(d, action)
        if d.result is not None:
            result = d.result
            p = d.chooser & 1
            seen.nat += result.nat
            seen.pit += result.pit is not None
            before = [result.card_points[t] + result.roem[t] for t in (0, 1)]
            seen.ties += before[p] == before[1 - p]
            out[action] = result.score[team] - result.score[1 - team]
        else:
            value = max(brute(d, seen).values())
            out[action] = value if d.turn & 1 == team else -value
    return out


def kind(deal: Deal) -> str:
    if deal.phase is Phase.CLAIM:
        return "claim"
    return "mid-trick" if deal.trick else "lead"


def test_solver_equals_brute_force_on_small_endgames() -> None:
    seen = Seen()
    nat_values = 0
    for deal in positions(1, 300, (20, 31)):  # at most 3 tricks left
        seen.kinds.add(kind(deal))
        expected = brute(deal, seen)
        assert solver.solve(deal) == expected
        assert solver_reference.solve(deal) == expected
        action, value = solver.best(deal)
        assert value == max(expected.values()) == solver.solve_value(deal)
        assert action == next(a for a, v in expected.items() if v == value), "first best"
        sign = 1 if deal.turn & 1 == deal.chooser & 1 else -1
        nat_values += any(sign * v < 0 for v in expected.values())  # the playing team's
    # the positions reach every case the scoring has
    assert seen.kinds == {"claim", "mid-trick", "lead"}
    assert seen.nat and seen.ties and seen.pit and nat_values


def test_claim_decisions_equal_brute_force() -> None:
    """Take or leave in the last three tricks, the last trick's included (its 10 is not
    scored until the decision): both values exact, for both teams of the winner."""
    rng = random.Random(6)
    seen, last = Seen(), 0
    for number in range(400):
        rules = Rules(
            variant=rng.choice(list(Variant)),
            roem=RoemMode.CLAIM,
            pit_bonus=rng.choice(list(PitBonus)),
        )
        deal = Deal.shuffled(rules, 77, number, number & 3)
        deal.choose(rng.randrange(4), rng.randrange(4))
        while deal.phase is not Phase.DONE:
            if deal.phase is Phase.CLAIM and len(deal.tricks) >= 6:
                expected = brute(deal, seen)
                assert solver.solve(deal) == expected == solver_reference.solve(deal)
                assert solver.best(deal)[1] == max(expected.values())
                last += len(deal.tricks) == 8
            _act(deal, rng.choice(deal.legal_actions()))
    assert last >= 10 and seen.nat and seen.ties


@given(st.integers(0, 1 << 30), st.integers(20, 31))
def test_solver_equals_brute_force_property(seed: int, played: int) -> None:
    deal = position(seed, (played, played))
    if deal is not None:
        assert solver.solve(deal) == brute(deal, Seen())


# -- the solver's own play --------------------------------------------------------------


@pytest.mark.parametrize("seed", range(6))
def test_a_deal_played_by_the_solver_scores_its_value(seed: int) -> None:
    """From the first lead (or a few cards in), every seat plays ``best``; the value of each
    position stays the final score difference, from the mover's team's side."""
    deal = position(seed, (0, 4) if seed < 3 else (8, 12))
    assert deal is not None
    p = deal.chooser & 1
    assert len(deal.actions) <= (5 if seed < 3 else 13)
    first = solver.solve_value(deal) * (1 if deal.turn & 1 == p else -1)
    while deal.phase is not Phase.DONE:
        action, value = solver.best(deal)
        assert value * (1 if deal.turn & 1 == p else -1) == first
        _act(deal, action)
    assert deal.result is not None
    score = deal.result.score
    assert score[p] - score[1 - p] == first


# -- the compiled solver against the reference ------------------------------------------


def test_compiled_solver_equals_the_reference_on_10000_positions() -> None:
    """Random positions with one to four tricks left (about 20 s): every action's value."""
    checked = 0
    for deal in positions(2, 10_000, (16, 31)):
        assert solver.solve(deal) == solver_reference.solve(deal), deal.actions
        checked += 1
    assert checked == 10_000


def test_best_is_the_first_of_the_best_values() -> None:
    for deal in positions(3, 300, (12, 28)):
        values = solver.solve(deal)
        action, value = solver.best(deal)
        assert value == max(values.values()) == solver.solve_value(deal)
        assert action == next(a for a, v in values.items() if v == value)


def test_a_solve_past_its_limit_answers_none_and_leaves_nothing_behind() -> None:
    """``solve_within`` answers as ``solve`` within its limit of nodes and None past it;
    an abandoned solve changes no later one (values and nodes as in a fresh process)."""
    for deal in positions(6, 20, (4, 12)):
        values = solver.solve(deal)
        nodes = solver.last_nodes()
        assert solver.solve_within(deal, nodes) == values and solver.last_nodes() == nodes
        for limit in (1, nodes // 2, nodes - 1):
            assert solver.solve_within(deal, limit) is None
            assert limit < solver.last_nodes() < limit + 1000  # it stops where it is
            assert solver.solve(deal) == values and solver.last_nodes() == nodes
    (deal,) = positions(6, 1, (4, 12))
    with pytest.raises(ValueError, match="at least one node"):
        solver.solve_within(deal, 0)
    with pytest.raises(ValueError, match="negative limit"):
        solver._solver.solve(*solver.position(deal), 0, -1)


# -- purity -------------------------------------------------------------------------------


def snapshot(deal: Deal) -> tuple:
    return tuple(
        repr(getattr(deal, name)) for name in Deal.__slots__ if name not in ("rules", "_strength")
    )


@pytest.mark.parametrize("played", [(0, 0), (5, 7), (16, 20), (28, 31)])
def test_solving_does_not_modify_the_deal(played: tuple[int, int]) -> None:
    for deal in positions(4, 3, played):
        before = snapshot(deal)
        solver.solve(deal)
        solver.best(deal)
        solver.solve_value(deal)
        if len(deal.tricks) >= 4:
            solver_reference.solve(deal)
        assert snapshot(deal) == before


def test_a_finished_or_unchosen_deal_is_refused() -> None:
    deal = Deal.shuffled(Rules(), 1)
    with pytest.raises(ValueError, match="phase trump"):
        solver.solve(deal)
    with pytest.raises(ValueError, match="phase trump"):
        solver_reference.solve(deal)


def test_an_inconsistent_position_is_refused() -> None:
    """The search trusts its hands, so the compiled solver checks them first."""
    (deal,) = positions(5, 1, (6, 6))
    moved = clone(deal)
    card = moved.hands[0] & -moved.hands[0]
    moved.hands[0] ^= card
    moved.hands[1] |= card
    with pytest.raises(ValueError, match="inconsistent position"):
        solver.solve(moved)
    doubled = clone(deal)
    doubled.hands[2] |= doubled.hands[3] & -doubled.hands[3]
    with pytest.raises(ValueError, match="inconsistent position"):
        solver.best(doubled)


@pytest.mark.parametrize(
    ("index", "value"),
    [(5, 4), (5, 256), (6, 9), (6, 264), (7, 4), (7, -1), (8, 4), (11, 2), (13, 2001)],
    ids=["leader 4", "leader 256", "done 9", "done 264", "flags 4", "flags -1", "trump 4",
         "playing 2", "margin 2001"],
)  # fmt: skip
def test_a_field_out_of_range_is_refused(index: int, value: int) -> None:
    """Each field is checked whole (not a byte of it) before the search reads it."""
    (deal,) = positions(5, 1, (6, 6))
    args = list(solver.position(deal))
    args[index] = value
    with pytest.raises(ValueError, match="position out of range"):
        solver._solver.solve(*args, 0)


def test_without_the_compiled_module_the_import_names_make_install() -> None:
    code = (
        "import sys; sys.modules['engine._solver'] = None\n"
        "try:\n    import engine.solver\nexcept ImportError as e:\n    print(e)\n"
        "import engine.solver_reference"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "make install" in out.stdout


# -- klaverjas analyze --solve ------------------------------------------------------------


def _check_reviews(answer: dict, record: dict) -> None:
    """One review per play (and per claim), each consistent with its legal set, the card
    played and the deal's score: the last card's value is the final difference."""
    plays, solve = record["plays"], answer["solve"]
    assert len(solve) == len(plays) == 32
    for legal, played, entry in zip(answer["legal"], plays, solve, strict=True):
        values = entry["values"]
        assert sorted(values) == sorted(legal)
        assert entry["lost"] == max(values.values()) - values[played] >= 0
    last = answer["tricks"][-1]
    mover = (last["leader"] + 3) & 1
    score = answer["result"]["score"]
    if record.get("roem") != "claim" or not last["roem"]:
        assert solve[-1]["values"][plays[-1]] == score[mover] - score[1 - mover]
    if record.get("roem") == "claim":
        claims = answer["solve_claims"]
        assert len(claims) == len(record["claims"])
        for decision, entry in zip(record["claims"], claims, strict=True):
            assert set(entry["values"]) == {"take", "leave"}
            assert entry["lost"] == max(entry["values"].values()) - entry["values"][decision]
    else:
        assert "solve_claims" not in answer


def test_analyze_solve_reviews_every_play() -> None:
    out = klaverjas(
        "selfplay", "--deals", "2", "--seed", "11", "--policy", "heuristic", "--out", "-"
    )
    assert out.returncode == 0, out.stderr
    records = [json.loads(line) for line in out.stdout.splitlines()]
    rng = random.Random(5)
    deal = Deal.shuffled(Rules(roem="claim", pit_bonus="playing"), 3)
    deal.choose(2, 1)
    while deal.phase is not Phase.DONE:  # a claim-mode deal, solver against random
        action = solver.best(deal)[0] if deal.turn & 1 else rng.choice(deal.legal_actions())
        _act(deal, action)
    records.append(deal_record(deal))
    answered = klaverjas("analyze", "--solve", stdin="".join(json.dumps(r) + "\n" for r in records))
    assert answered.returncode == 0, answered.stderr
    answers = [json.loads(line) for line in answered.stdout.splitlines()]
    assert len(answers) == 3
    for answer, record in zip(answers, records, strict=True):
        _check_reviews(answer, record)
    plain = klaverjas("analyze", stdin=json.dumps(records[0]) + "\n")
    assert "solve" not in json.loads(plain.stdout)


def test_analyze_solve_reviews_a_finished_match() -> None:
    match = Match(Rules(end="deals", end_value=2, roem="claim"), 9)
    rng = random.Random(9)
    while not match.over:
        actions = match.legal_actions()
        match.apply(match.turn, actions[int(rng.random() * len(actions))])
    answer = analyze(json.loads(json.dumps(match.to_record())), solve=True)
    deals = match_deals(match.to_record())
    assert len(answer["deals"]) == len(deals) == 2
    for analyzed, record in zip(answer["deals"], deals, strict=True):
        _check_reviews(analyzed, record)
