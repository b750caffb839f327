"""Mutation testing with mutmut: each target's mutants against that target's tests only.

The targets are ``[tool.klaverjas.mutation.*]`` in ``pyproject.toml``: the tests that
may kill a target's mutants, and its parts (a label and the files it covers), which are
reported apart.  The settings every target shares are ``[tool.mutmut]`` there.  mutmut
reads its settings from the ``pyproject.toml`` of the folder it runs in and runs one
test selection per run, so each target runs in ``.mutation/<target>/``: links to the
source and tests, and a ``pyproject.toml`` that adds the target's files and tests to
``[tool.mutmut]``.  mutmut records which tests reach each function, and runs each
mutant against those tests only.

Usage::

    python bench/mutation.py                  # every target, from scratch
    python bench/mutation.py engine           # one target
    python bench/mutation.py engine --again 'engine.deal.*'  # re-test these, keep the rest
    python bench/mutation.py engine --retest  # after adding tests: re-test all not killed
    python bench/mutation.py engine --retest 'engine.deal.*'  # ... only these of them
    python bench/mutation.py room --resume    # go on after an interruption
    python bench/mutation.py --report --show  # the last results, with each survivor's diff

A mutant is *killed* when a test fails, *survived* when every test passes, *timeout*
when its tests outrun ``(their measured time + timeout_constant) * timeout_multiplier``
seconds (or twice that in CPU time: the hard limit ends it with SIGKILL), and *no tests*
when no selected test reaches its function.  The score is killed / total; timeouts are
counted and named apart, never as killed.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from collections import Counter
from dataclasses import dataclass
from fnmatch import fnmatch
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / ".mutation"
# The project's packages (copied beside the mutants, mutated or not) and its tests.
PACKAGES = sorted(
    p.name for p in ROOT.iterdir() if (p / "__init__.py").is_file() and p.name != "tests"
)
LINKED = (*PACKAGES, "tests")  # what each work folder links to
DOCUMENTS = ("client_protocol.md",)  # files the tests read (the protocol's code tables)
MUTMUT = Path(sys.executable).parent / "mutmut"

# mutmut's exit codes per mutant (mutmut/stats.py), in the four outcomes reported here.
# -9 is SIGKILL, which mutmut sends one CPU second after the soft CPU limit.
OUTCOME = {1: "killed", 3: "killed", 0: "survived", 33: "no tests", 5: "no tests", None: "not run"}
OUTCOME |= {code: "timeout" for code in (24, -24, 152, 255, 36, -9)}
COLUMNS = ("killed", "survived", "timeout", "no tests", "other")


@dataclass(frozen=True)
class Target:
    name: str
    tests: list[str]
    parts: dict[str, list[str]]  # label -> globs of the files it covers
    root: Path = WORK  # where its work folder is

    @property
    def globs(self) -> list[str]:
        return [glob for globs in self.parts.values() for glob in globs]

    @property
    def work(self) -> Path:
        return self.root / self.name


def load_targets() -> dict[str, Target]:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    table = data["tool"]["klaverjas"]["mutation"]
    return {name: Target(name, t["tests"], t["parts"]) for name, t in table.items()}


def mutmut_section(target: Target) -> str:
    """``[tool.mutmut]`` of the repository plus this target's files and tests."""
    shared = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"].get("mutmut", {})
    settings = {
        **shared,
        "source_paths": PACKAGES,
        "only_mutate": target.globs,
        "pytest_add_cli_args_test_selection": target.tests,
        "also_copy": list(DOCUMENTS),
    }
    # JSON strings, numbers, booleans and lists of them are valid TOML values.
    return "[tool.mutmut]\n" + "".join(f"{k} = {json.dumps(v)}\n" for k, v in settings.items())


def prepare(target: Target, fresh: bool) -> None:
    """The target's work folder: links to the tree and its own ``pyproject.toml``."""
    if fresh and target.work.exists():
        shutil.rmtree(target.work)
    target.work.mkdir(parents=True, exist_ok=True)
    for name in (*LINKED, *DOCUMENTS):
        link = target.work / name
        if not link.is_symlink():
            link.symlink_to(ROOT / name, target_is_directory=name in LINKED)
    text = (ROOT / "pyproject.toml").read_text()
    text = re.sub(r"(?ms)^\[tool\.mutmut\]\n.*?(?=^\[|\Z)", "", text)
    (target.work / "pyproject.toml").write_text(text.rstrip() + "\n\n" + mutmut_section(target))


def run(target: Target, again: list[str], children: int) -> float:
    """Run mutmut for ``target``; its wall time in seconds."""
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    command = [str(MUTMUT), "run", "--max-children", str(children), *again]
    start = time.monotonic()
    done = subprocess.run(command, cwd=target.work, env=env)
    elapsed = time.monotonic() - start
    if done.returncode != 0:
        sys.exit(f"mutmut failed for {target.name} (exit {done.returncode})")
    return elapsed


def results(target: Target) -> dict[str, dict[str, str]]:
    """Per mutated file, each mutant's outcome, from mutmut's ``.meta`` files."""
    found: dict[str, dict[str, str]] = {}
    mutants = target.work / "mutants"
    for meta in sorted(mutants.rglob("*.py.meta")):
        path = str(meta.relative_to(mutants))[: -len(".meta")]
        if not any(fnmatch(path, glob) for glob in target.globs):
            continue
        codes = json.loads(meta.read_text())["exit_code_by_key"]
        found[path] = {k: OUTCOME.get(c, "other") for k, c in codes.items()}
    return found


def line(label: str, outcomes: Counter[str]) -> str:
    total = sum(outcomes.values())
    score = f"{100 * outcomes['killed'] / total:5.1f}%" if total else "    -"
    counts = "".join(f"{outcomes[c]:>10}" for c in COLUMNS[:-1])
    counts += f"{total - sum(outcomes[c] for c in COLUMNS[:-1]):>10}"
    return f"{label:<34}{outcomes['killed']:>6}/{total:<6}{score}{counts}"


def report(target: Target, show: bool) -> dict[str, dict[str, int]]:
    """Print the target's table (and the mutants not killed); its figures per part."""
    by_file = results(target)
    print(f"\n== {target.name}: mutants of {', '.join(target.globs)} against")
    print(f"   {' '.join(target.tests)}")
    print(f"{'':<34}{'killed/total':<13}{'score':<6}" + "".join(f"{c:>10}" for c in COLUMNS))
    figures: dict[str, dict[str, int]] = {}
    for label, globs in target.parts.items():
        files = [p for p in by_file if any(fnmatch(p, g) for g in globs)]
        total: Counter[str] = Counter()
        for path in files:
            total.update(by_file[path].values())
        print(line(label, total))
        figures[label] = dict(total) | {"total": sum(total.values())}
        if len(files) > 1:
            for path in (p for p in files if by_file[p]):
                print(line(f"  {path}", Counter(by_file[path].values())))
                figures[path] = dict(Counter(by_file[path].values()))
    for path, outcomes in by_file.items():
        for name, outcome in sorted(outcomes.items()):
            if outcome != "killed":
                print(f"  {outcome:<9} {name}")
                if show:
                    print("    " + diff(target, path, name).replace("\n", "\n    "))
    return figures


def diff(target: Target, path: str, name: str) -> str:
    """The change mutant ``name`` of ``path`` makes, as a unified diff."""
    from mutmut.mutation.diff_apply import get_diff_for_mutant

    here = Path.cwd()
    os.chdir(target.work)  # mutmut reads its files relative to the folder it ran in
    try:
        lines = get_diff_for_mutant(name, path=path).splitlines()
    finally:
        os.chdir(here)
    return "\n".join(lines[2:])  # without the ---/+++ header


def smoke(children: int) -> None:
    """A real run over one small module (``engine/cards.py`` against its tests), in a
    temporary folder, so prepare, mutmut, the outcomes and the report are all exercised in
    seconds and ``.mutation/`` is left alone; fails unless some mutant was killed."""
    with tempfile.TemporaryDirectory(prefix="klaverjas-mutation-") as folder:
        target = Target(
            "smoke",
            ["tests/engine/test_cards_and_errors.py"],
            {"engine/cards.py": ["engine/cards.py"]},
            Path(folder),
        )
        prepare(target, fresh=True)
        seconds = run(target, [], children)
        figures = report(target, show=False)["engine/cards.py"]
    killed, total = figures.get("killed", 0), figures["total"]
    print(json.dumps({"bench": "mutation", "killed": killed, "mutants": total,
                      "seconds": round(seconds, 1)}))  # fmt: skip
    if not killed:
        sys.exit("mutation smoke: no mutant was killed")


def main() -> None:
    targets = load_targets()
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("targets", nargs="*", metavar="TARGET", help=", ".join(targets))
    parser.add_argument(
        "--again",
        nargs="+",
        default=[],
        metavar="GLOB",
        help="re-test only these mutants (e.g. 'engine.deal.*'), keep the rest",
    )
    parser.add_argument(
        "--retest",
        nargs="*",
        metavar="GLOB",
        help="re-test every mutant the last run did not kill (after adding tests); "
        "with globs, only those of them that match",
    )
    parser.add_argument(
        "--resume", action="store_true", help="go on with an interrupted run, keep its results"
    )
    parser.add_argument("--report", action="store_true", help="only print the last results")
    parser.add_argument("--show", action="store_true", help="print each survivor's diff")
    parser.add_argument("--children", type=int, default=2, help="mutants run at once")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    parser.add_argument(
        "--smoke", action="store_true", help="a few seconds' run of one small module (CI)"
    )
    args = parser.parse_args()
    if args.smoke:
        return smoke(args.children)
    unknown = set(args.targets) - set(targets)
    if unknown:
        parser.error(f"unknown target {sorted(unknown)[0]!r}; choose from {', '.join(targets)}")
    chosen = [targets[name] for name in args.targets or targets]
    figures = {}
    for target in chosen:
        again = list(args.again)
        if args.retest is not None:
            globs = args.retest or ["*"]
            again += [
                name
                for outcomes in results(target).values()
                for name, outcome in outcomes.items()
                if outcome != "killed" and any(fnmatch(name, g) for g in globs)
            ]
        if not args.report and (again or not (args.again or args.retest is not None)):
            prepare(target, fresh=not (again or args.resume))
            seconds = run(target, again, args.children)
            # A changed function gets new mutants, under names the list may not hold.
            unrun = [n for o in results(target).values() for n, r in o.items() if r == "not run"]
            if again and unrun:
                seconds += run(target, unrun, args.children)
            print(f"\n{target.name}: {seconds:.0f} s wall time")
        figures[target.name] = report(target, args.show)
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()
