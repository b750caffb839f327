"""The error and close codes, as ``client_protocol.md`` tables them and as the code makes them.

The document side reads the tables of §7 (error codes), §8 (close codes) and §11's
"Tournament error codes".  The code side reads the source with :mod:`ast`: the first
argument of every refusal (a ``Refused`` or ``Unavailable`` subclass, ``.refused``), the ``code``
and ``closed_code`` of every class, and the ``(code, reason)`` of every ``.close(...)``.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "client_protocol.md"
SOURCES = ("server", "engine")
REFUSAL_BASES = {"Refused", "Unavailable"}  # their classes take the code as first argument

_CODE = re.compile(r"`([a-z_]+)`")
_CLOSE_ROW = re.compile(r"^\|\s*`(\d{4})`\s*\|([^|]*)\|", re.MULTILINE)


# -- the document --------------------------------------------------------------------------


def doc_text() -> str:
    assert DOC.is_file(), f"{DOC} is missing"
    return DOC.read_text(encoding="utf-8")


def section(text: str, heading: str) -> str:
    """From the line ``heading`` to the next heading of the same or a higher level."""
    level = heading.split(" ", 1)[0]
    start = text.index(f"\n{heading}\n")
    ends = [
        m.start() for m in re.finditer(r"\n(#+) ", text[start + 1 :]) if len(m[1]) <= len(level)
    ]
    return text[start : start + 1 + ends[0]] if ends else text[start:]


def table_first_cells(text: str) -> list[str]:
    """The first cell of every body row of every table in ``text``."""
    cells = []
    for line in text.splitlines():
        if line.startswith("|") and not re.match(r"^\|\s*-", line):
            cells.append(line.split("|")[1].strip())
    return cells


def _codes_of(text: str) -> set[str]:
    cells = table_first_cells(text)
    return {code for cell in cells if cell != "code" for code in _CODE.findall(cell)}


def documented_error_codes() -> set[str]:
    """The codes in the first column of the error tables (§7 and the tournament table)."""
    text = doc_text()
    return _codes_of(section(text, "## 7 Error codes")) | _codes_of(
        section(text, "### Tournament error codes")
    )


def documented_closes() -> set[tuple[int, str | None]]:
    """``(code, reason)`` for every row of §8's table; the reason is None when the table
    gives none in backticks (the WebSocket layer's own)."""
    rows = set()
    for code, reason in _CLOSE_ROW.findall(section(doc_text(), "## 8 Close codes")):
        quoted = re.fullmatch(r"\s*`([^`]+)`\s*", reason)
        rows.add((int(code), quoted[1] if quoted else None))
    return rows


# -- the code ------------------------------------------------------------------------------


def _modules() -> list[ast.Module]:
    return [
        ast.parse(path.read_text(encoding="utf-8"), str(path))
        for top in SOURCES
        for path in sorted((ROOT / top).rglob("*.py"))
    ]


def _constants(module: ast.Module) -> dict[str, object]:
    """The module's top-level ``NAME = <literal>`` assignments."""
    out: dict[str, object] = {}
    for node in module.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    out[target.id] = node.value.value
    return out


def _name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _refusal_classes(modules: list[ast.Module]) -> set[str]:
    """``Refused`` and every class derived from it, by name, across the sources."""
    bases = {
        node.name: {_name(b) for b in node.bases}
        for module in modules
        for node in ast.walk(module)
        if isinstance(node, ast.ClassDef)
    }
    found = set(REFUSAL_BASES)
    while grown := {c for c, bs in bases.items() if c not in found and bs & found}:
        found |= grown
    return found


def _instantiated(modules: list[ast.Module]) -> set[str]:
    """The names that are called somewhere (a class among them is instantiated)."""
    return {
        name
        for module in modules
        for node in ast.walk(module)
        if isinstance(node, ast.Call) and (name := _name(node.func)) is not None
    }


def raised_error_codes() -> set[str]:
    """Every error code the server or the engine can put in an ``error`` frame.

    A class's ``code`` counts only if the class itself is instantiated somewhere: the
    default of an abstract base (``KlaverjasError.code``, ``Actor.closed_code``) is not sent.
    A ``.error(...)`` call counts only with a code and a message (not ``log.error(event)``).
    """
    modules = _modules()
    refusals = _refusal_classes(modules)
    called = _instantiated(modules)
    codes: set[str] = set()
    for module in modules:
        constants = _constants(module)

        def literal(node: ast.expr, constants: dict[str, object] = constants) -> str | None:
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                return node.value
            value = constants.get(node.id) if isinstance(node, ast.Name) else None
            return value if isinstance(value, str) else None

        for node in ast.walk(module):
            if isinstance(node, ast.Call):
                name = _name(node.func)
                position = 0 if name in refusals else None
                position = 0 if name == "refused" and len(node.args) >= 2 else position
                if position is not None and len(node.args) > position:
                    code = literal(node.args[position])
                    if code is not None:
                        codes.add(code)
            elif isinstance(node, ast.ClassDef) and node.name in called:
                for item in node.body:
                    if (
                        isinstance(item, ast.Assign)
                        and any(_name(t) in ("code", "closed_code") for t in item.targets)
                        and (code := literal(item.value)) is not None
                    ):
                        codes.add(code)
    return codes


def server_closes() -> set[tuple[int, str]]:
    """``(code, reason)`` of every ``.close(CODE, "reason")`` in the server."""
    modules = _modules()
    numbers: dict[str, int] = {}
    for module in modules:
        numbers |= {
            k: v
            for k, v in _constants(module).items()
            if k.startswith("CLOSE_") and isinstance(v, int)
        }
    closes = set()
    for module in modules:
        for node in ast.walk(module):
            if isinstance(node, ast.Call) and _name(node.func) == "close" and len(node.args) == 2:
                code, reason = node.args
                number = numbers.get(code.id) if isinstance(code, ast.Name) else None
                if isinstance(reason, ast.Constant) and isinstance(reason.value, str) and number:
                    closes.add((number, reason.value))
    return closes
