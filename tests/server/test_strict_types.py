"""Every field of every client message, with every JSON type it does not take, is refused
(``invalid_field`` naming the field), never converted: generated from the models' JSON
Schema, not listed by hand.  Nested objects (a room's ``rules``) and the items of arrays (a
sheet's ``points``) are walked too.  A valid message of each type is built from the same
schema, so the test also shows that each type is accepted with every field well typed."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from server.wire import protocol as p

pytestmark = pytest.mark.server

# One value of each JSON type (a float that is not a whole number: 2.0 would be an integer
# to JSON Schema, and pydantic's strict mode refuses it for an int all the same).
SAMPLES: dict[str, Any] = {
    "string": "x", "integer": 1, "number": 2.5, "boolean": True, "null": None,
    "array": [], "object": {},
}  # fmt: skip


def resolve(schema: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    ref = schema.get("$ref")
    return defs[ref.rsplit("/", 1)[1]] if ref else schema


def options(schema: dict[str, Any], defs: dict[str, Any]) -> list[dict[str, Any]]:
    """The alternatives a field's schema allows (``anyOf``), each resolved."""
    schema = resolve(schema, defs)
    return [resolve(s, defs) for s in schema.get("anyOf", [schema])]


def json_types(schema: dict[str, Any], defs: dict[str, Any]) -> set[str]:
    """The JSON types a field takes (for an integer, not the others numbers: 2.5 is
    refused, and so is 2.0 by pydantic's strict mode)."""
    return {o.get("type", "object") for o in options(schema, defs)}


def valid(schema: dict[str, Any], defs: dict[str, Any]) -> Any:
    """A value the field takes."""
    option = next(o for o in options(schema, defs) if o.get("type") != "null")
    if "const" in option:
        return option["const"]
    if "enum" in option:
        return option["enum"][0]
    kind = option.get("type", "object")
    if kind == "string":
        return "x" * max(option.get("minLength", 1), 4 if option.get("minLength") else 1)
    if kind == "integer":
        return option.get("minimum", 0) if option.get("minimum", 0) >= 0 else 0
    if kind == "boolean":
        return True
    if kind == "array":
        return [valid(option["items"], defs) for _ in range(option.get("minItems", 0))]
    return {name: valid(sub, defs) for name, sub in option.get("properties", {}).items()
            if name in option.get("required", [])}  # fmt: skip


def wrong_values(schema: dict[str, Any], defs: dict[str, Any]) -> Iterator[tuple[str, Any]]:
    """For each JSON type the field does not take, a value of that type."""
    taken = json_types(schema, defs)
    for kind, value in SAMPLES.items():
        if kind not in taken:
            yield kind, value


def fields(
    schema: dict[str, Any], defs: dict[str, Any], path: tuple[str | int, ...] = ()
) -> Iterator[tuple[tuple[str | int, ...], dict[str, Any]]]:
    """Every field of an object schema, nested objects' and array items' too, by path."""
    for name, sub in schema.get("properties", {}).items():
        if name == "type":
            continue
        yield (*path, name), sub
        for option in options(sub, defs):
            if "properties" in option:
                yield from fields(option, defs, (*path, name))
            elif option.get("type") == "array" and option.get("minItems", 0) > 0:
                yield (*path, name, 0), option["items"]


def message(model: type[p._Msg]) -> tuple[dict[str, Any], dict[str, Any]]:
    schema = model.model_json_schema()
    defs = schema.get("$defs", {})
    base = {name: valid(sub, defs) for name, sub in schema["properties"].items()
            if name in schema.get("required", [])}  # fmt: skip
    return base, schema


def put(base: dict[str, Any], path: tuple[str | int, ...], value: Any, schema, defs) -> dict:
    """``base`` with the field at ``path`` set to ``value`` (its parents made as needed)."""
    out = json.loads(json.dumps(base))
    node: Any = out
    sub = schema
    for step in path[:-1]:
        if isinstance(step, int):
            node = node[step]
            continue
        field = resolve(sub, defs)["properties"][step]
        holder = next(o for o in options(field, defs) if o.get("type") != "null")
        if step not in node or node[step] is None:
            node[step] = valid(field, defs)
        node, sub = node[step], holder
    node[path[-1]] = value
    return out


CASES = []
for model in p.CLIENT_MODELS:
    base, schema = message(model)
    defs = schema.get("$defs", {})
    for path, field in fields(schema, defs):
        for kind, value in wrong_values(field, defs):
            CASES.append((model, path, kind, value))


def case_id(case: tuple) -> str:
    model, path, kind, _ = case
    return f"{model.model_fields['type'].annotation.__args__[0]}.{'.'.join(map(str, path))}:{kind}"


def test_every_type_is_accepted_well_typed() -> None:
    for model in p.CLIENT_MODELS:
        base, _ = message(model)
        parsed = p.parse(json.dumps(base))
        assert type(parsed) is model, base


def test_the_cases_cover_every_message_and_field() -> None:
    assert {m for m, *_ in CASES} == set(p.CLIENT_MODELS)  # every one has ``ref`` at least
    assert len(CASES) > 600


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_a_wrong_json_type_is_refused_never_converted(case: tuple) -> None:
    model, path, _, value = case
    base, schema = message(model)
    frame = put(base, path, value, schema, schema.get("$defs", {}))
    with pytest.raises(p.ProtocolError) as refused:
        p.parse(json.dumps(frame))
    assert refused.value.code == "invalid_field", refused.value.message
    where = ".".join(str(step) for step in path)
    assert refused.value.message.startswith(where), (where, refused.value.message)
