"""The layers stay layers: no import cycles anywhere (imports made only for type checking
count too), and the rooms, tournaments and lobby never reach up into the process that
composes them."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "server", "client", "commands")
DOMAIN = ("server.table", "server.tournament", "server.lobby")
COMPOSERS = ("server.app", "server.edge.session")


def modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def imported(name: str, path: Path, known: dict[str, Path]) -> Iterator[str]:
    """Every module of ours that ``name`` imports, wherever the import statement is."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            targets = [f"{base}.{alias.name}" for alias in node.names] + [base]
        else:
            continue
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                yield target
                parent = target.rpartition(".")[0]  # importing a module runs its packages
                while parent:
                    if parent in known and parent != name and not name.startswith(parent + "."):
                        yield parent
                    parent = parent.rpartition(".")[0]


def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: set(imported(name, path, known)) for name, path in known.items()}


def cycle_from(graph: dict[str, set[str]]) -> list[str] | None:
    """Some import cycle, as a path that ends where it starts; None when there is none."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        path.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state and (found := visit(start)):
            return found
    return None


def test_the_graph_sees_imports_of_every_kind() -> None:
    g = graph()
    assert "server.router" in g["server.app"]  # a plain import at the top
    assert "server.peer" in g["server.router"]  # an import only for type checking
    assert "server.store.sqlite" in g["server.store.factory"]  # an import inside a function
    assert cycle_from({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert cycle_from({"a": {"b"}, "b": set()}) is None


def test_there_is_no_import_cycle() -> None:
    assert cycle_from(graph()) is None


@pytest.mark.parametrize("package", DOMAIN)
def test_the_domain_does_not_import_the_process_around_it(package: str) -> None:
    g = graph()
    for name, targets in g.items():
        if name == package or name.startswith(package + "."):
            assert not targets & set(COMPOSERS), f"{name} imports {targets & set(COMPOSERS)}"


def test_the_engine_imports_nothing_of_the_server() -> None:
    for name, targets in graph().items():
        if name.startswith("engine"):
            assert all(t.startswith("engine") for t in targets), (name, targets)
