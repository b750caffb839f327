"""The layers stay layers: no import cycle anywhere, between modules or between the
server's packages, and every package of the server imports only the layers below it
(imports made only for type checking, or inside a function, count too)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "server", "client", "commands")
# The server's packages from the bottom up: each may import its own modules and those of
# the layers below it, never a package beside it or above it (docs/architecture.md).
LAYERS: tuple[tuple[str, ...], ...] = (
    ("server.core",),  # errors, ids, clock, logs, settings, statuses: what everyone uses
    ("server.store", "server.wire"),  # the databases; the protocol's models
    ("server.runtime",),  # actors, routing, the fenced log, domain events, the CPU pool
    ("server.lobby",),  # identities, the lists of rooms and tournaments, presence
    ("server.table", "server.scoresheet"),  # rooms; score sheets
    ("server.tournament", "server.daily", "server.club"),  # features made of rooms or sheets
    ("server.players", "server.records"),  # profiles and ratings; records and reviews
    ("server.edge",),  # a connection's messages
    ("server.http", "server.cluster"),  # HTTP; several nodes over Redis
    ("server.app",),  # the process that composes them
)


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


def package_of(module: str) -> str | None:
    """The layered package ``module`` belongs to (None: not one of the server's)."""
    for layer in LAYERS:
        for package in layer:
            if module == package or module.startswith(package + "."):
                return package
    return None


def layer_of(package: str) -> int:
    return next(i for i, layer in enumerate(LAYERS) if package in layer)


def package_graph(modules: dict[str, set[str]]) -> dict[str, set[str]]:
    """Which layered package imports which (its own left out)."""
    found: dict[str, set[str]] = {}
    for name, targets in modules.items():
        source = package_of(name)
        if source is None:
            continue
        found.setdefault(source, set())
        for target in targets:
            other = package_of(target)
            if other is not None and other != source:
                found[source].add(other)
    return found


def test_the_graph_sees_imports_of_every_kind() -> None:
    g = graph()
    assert "server.runtime.router" in g["server.app"]  # a plain import at the top
    assert "server.runtime.peer" in g["server.runtime.router"]  # only for type checking
    assert "server.store.sqlite" in g["server.store.database"]  # an import inside a function
    assert cycle_from({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert cycle_from({"a": {"b"}, "b": set()}) is None
    packages = package_graph({"server.table.x": {"server.lobby.y", "server.table.z"}})
    assert packages == {"server.table": {"server.lobby"}}


def test_every_package_of_the_server_has_its_layer() -> None:
    packages = {p.name for p in (ROOT / "server").iterdir() if (p / "__init__.py").exists()}
    modules = {p.stem for p in (ROOT / "server").glob("*.py") if p.stem != "__init__"}
    layered = {package.removeprefix("server.") for layer in LAYERS for package in layer}
    assert packages | modules == layered, "a new package or top-level module needs its layer"


def test_packages_import_only_the_layers_below() -> None:
    upward = [
        f"{source} -> {target}"
        for source, targets in sorted(package_graph(graph()).items())
        for target in sorted(targets)
        if layer_of(target) >= layer_of(source)
    ]
    assert not upward, "imports of a package beside or above: " + ", ".join(upward)
    assert cycle_from(package_graph(graph())) is None


def test_there_is_no_import_cycle() -> None:
    assert cycle_from(graph()) is None


def test_the_engine_imports_nothing_of_the_server() -> None:
    for name, targets in graph().items():
        if name.startswith("engine"):
            assert all(t.startswith("engine") for t in targets), (name, targets)


def test_only_the_composition_root_names_the_daily_game() -> None:
    """A feature attaches through domain events and its own ports: outside ``server.daily``
    only ``server.app``, which wires the features, imports it."""
    naming = sorted(
        name
        for name, targets in graph().items()
        if name.startswith("server.")
        and package_of(name) != "server.daily"
        and name != "server.app"
        and any(package_of(t) == "server.daily" for t in targets)
    )
    assert not naming, "modules that import the daily game: " + ", ".join(naming)
