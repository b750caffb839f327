"""The ``klaverjas selfplay`` and ``analyze`` commands, run as processes."""

from __future__ import annotations

import argparse
import json
import os
import pty
import subprocess
import sys
from itertools import chain
from pathlib import Path

import pytest

from commands import build_parser
from tests.conftest import load_cases
from tests.engine.helpers import ROOT, klaverjas

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


# -- mistakes in the command line: one clear line, a non-zero exit, never a traceback -------


def one_line_error(out: subprocess.CompletedProcess[str], *words: str) -> str:
    assert out.returncode == 2, (out.returncode, out.stderr)
    assert out.stdout == "" and "Traceback" not in out.stderr, out.stderr
    (line,) = out.stderr.splitlines()
    assert line.startswith("klaverjas ") and "error:" in line, line
    for word in words:
        assert word in line, (word, line)
    return line


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--deals", "-5", "--seed", "1"], ["--deals", "at least 1, not -5"]),
        (["--deals", "0", "--seed", "1"], ["--deals", "at least 1, not 0"]),
        (["--deals", "many", "--seed", "1"], ["--deals", "'many' is not a whole number"]),
        (["--deals", "2", "--seed", "x"], ["--seed", "not a whole number"]),
        (["--deals", "2", "--seed", "1", "--budget", "0"], ["--budget", "at least 1"]),
        (["--deals", "2", "--seed", "1", "--policies", "strong"], ["--policies", "A,B"]),
        (["--deals", "2", "--seed", "1", "--out", "/no/such/folder/deals.jsonl"],
         ["cannot write", "/no/such/folder does not exist"]),
        (["--deals", "2", "--seed", "1", "--out", "."], ["cannot write .: is a directory"]),
        (["--seed", "1"], ["--deals"]),
    ],
)  # fmt: skip
def test_selfplay_refuses_what_it_cannot_do(args: list[str], words: list[str]) -> None:
    one_line_error(klaverjas("selfplay", *args), *words)


def test_analyze_refuses_a_missing_file(tmp_path: Path) -> None:
    missing = tmp_path / "nothing.jsonl"
    one_line_error(klaverjas("analyze", str(missing)), f"cannot read {missing}", "no such file")


def test_analyze_refuses_a_file_that_is_not_text(tmp_path: Path) -> None:
    binary = tmp_path / "deals.jsonl"
    binary.write_bytes(b"\xff\xfe\x00\x81 not a deal record\n")
    one_line_error(klaverjas("analyze", str(binary)), f"cannot read {binary}", "not text")


def test_analyze_without_a_file_on_a_terminal_says_what_it_needs() -> None:
    """Standard input a terminal: it does not wait there silently (a pipe is read)."""
    main, side = pty.openpty()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "commands", "analyze"], stdin=side, cwd=ROOT,
            capture_output=True, text=True, timeout=30,
        )  # fmt: skip
    finally:
        os.close(main)
        os.close(side)
    one_line_error(done, "give a file of deal records", "- for standard input")
    piped = klaverjas("analyze", stdin=json.dumps(load_cases("deals.json")[0]) + "\n")
    assert piped.returncode == 0 and len(piped.stdout.splitlines()) == 1, piped.stderr


def test_every_command_and_flag_explains_itself_in_plain_text() -> None:
    parser = build_parser()
    assert "``" not in parser.description and ":mod:" not in parser.description
    assert "http://127.0.0.1:8765/" in parser.description
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    seen = 0
    for sub in commands.choices.values():
        nested = [a for a in sub._actions if isinstance(a, argparse._SubParsersAction)]
        for command in [sub, *(p for n in nested for p in n.choices.values())]:
            for action in command._actions:
                if isinstance(action, argparse._HelpAction | argparse._SubParsersAction):
                    continue
                assert action.help, f"{command.prog} {action.dest} has no help"
                assert "``" not in action.help, action.help
                seen += 1
    assert seen >= 15
    shown = klaverjas("--help")
    assert shown.returncode == 0 and "``" not in shown.stdout and ":mod:" not in shown.stdout
