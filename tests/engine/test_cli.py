"""The ``klaverjas selfplay`` and ``analyze`` commands, run as processes."""

from __future__ import annotations

import json
from itertools import chain

import pytest

from tests.conftest import load_cases
from tests.engine.helpers import klaverjas

pytestmark = pytest.mark.engine


@pytest.mark.parametrize("policy", ["random", "heuristic"])
@pytest.mark.parametrize("variant", ["amsterdam", "rotterdam"])
def test_selfplay_records_replay_through_analyze(policy: str, variant: str) -> None:
    args = ["selfplay", "--deals", "12", "--seed", "7", "--variant", variant, "--policy", policy]
    out = klaverjas(*args, "--out", "-")
    assert out.returncode == 0, out.stderr
    records = [json.loads(line) for line in out.stdout.splitlines()]
    assert len(records) == 12
    for number, record in enumerate(records):
        assert record["variant"] == variant and record["dealer"] == number % 4
        assert len(record["plays"]) == 32 and len(record["tricks"]) == 8
        assert sorted(chain.from_iterable(record["hands"])) == sorted(record["plays"])
    again = klaverjas(*args, "--out", "-")
    assert again.stdout == out.stdout, "same seed, same deals"
    analyzed = klaverjas("analyze", "-", stdin=out.stdout)
    assert analyzed.returncode == 0, analyzed.stderr
    for record, answer in zip(records, map(json.loads, analyzed.stdout.splitlines()), strict=True):
        assert answer["tricks"] == record["tricks"]
        assert answer["result"] == record["result"]
        assert all(
            play in legal for play, legal in zip(record["plays"], answer["legal"], strict=True)
        )


def test_selfplay_summary() -> None:
    out = klaverjas("selfplay", "--deals", "200", "--seed", "1")
    assert out.returncode == 0, out.stderr
    for label in ("deals/second", "nat", "pit", "average roem"):
        assert label in out.stdout


def test_analyze_reports_an_illegal_play_and_goes_on(tmp_path) -> None:
    good = load_cases("deals.json")[0]
    bad = dict(good, plays=list(good["plays"]))
    bad["plays"][1] = bad["plays"][5]  # seat 2 cannot hold seat 0's later card
    lines = [json.dumps(bad), "{not json", json.dumps(good), json.dumps({"variant": "x"})]
    path = tmp_path / "deals.jsonl"
    path.write_text("\n".join(lines) + "\n")
    out = klaverjas("analyze", str(path))
    assert out.returncode == 1
    answers = [json.loads(line) for line in out.stdout.splitlines()]
    assert len(answers) == 4
    assert answers[0]["error"]["index"] == 1
    assert answers[0]["error"]["card"] == bad["plays"][1]
    assert "not in your hand" in answers[0]["error"]["reason"]
    assert "malformed JSON" in answers[1]["error"]["reason"]
    assert answers[2]["result"] == good["result"]
    assert "error" in answers[3]


def test_analyze_names_an_illegal_but_held_card() -> None:
    deal = load_cases("deals.json")[0]
    bad = dict(deal, plays=list(deal["plays"]))
    seat_hand = next(h for h in deal["hands"] if deal["plays"][1] in h)  # the second player's hand
    illegal = next(c for c in seat_hand if c not in deal["legal"][1])
    bad["plays"][1] = illegal
    out = klaverjas("analyze", "-", stdin=json.dumps(bad) + "\n")
    answer = json.loads(out.stdout)
    assert out.returncode == 1
    assert answer == {"error": {"index": 1, "card": illegal, "reason": answer["error"]["reason"]}}
    assert answer["error"]["reason"].startswith(f"{illegal} is not legal: must")
