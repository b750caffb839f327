"""Typed messages between actors, and the codec that carries any message over the wire.

A message is a frozen dataclass registered under a short tag with :func:`message`.
:func:`to_wire` and :func:`from_wire` turn it into JSON-ready data and back, messages
nested in fields and tuples included, so one node can hand another a message without
either naming a method.  An unknown tag is a :class:`WireError`, never a guess.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

WIRE_VERSION = 1  # bumped when a message's fields change incompatibly
TAG = "@"  # the key that names a message's type (no summary or frame uses it)
_TYPES: dict[str, type] = {}
T = TypeVar("T")


class WireError(ValueError):
    """Data that is not a message this node knows."""


def message(tag: str) -> Callable[[type[T]], type[T]]:
    """Register a frozen dataclass as a wire message named ``tag``."""

    def register(cls: type[T]) -> type[T]:
        if tag in _TYPES:
            raise ValueError(f"message tag {tag!r} is taken by {_TYPES[tag].__name__}")
        if not dataclasses.is_dataclass(cls) or not cls.__dataclass_params__.frozen:  # type: ignore[attr-defined]
            raise TypeError(f"{cls.__name__} must be a frozen dataclass")
        _TYPES[tag] = cls
        cls.tag = tag  # type: ignore[attr-defined]
        return cls

    return register


def to_wire(msg: Any) -> dict[str, Any]:
    """A registered message as JSON-ready data: ``{"@": tag, field: value, ...}``."""
    out: dict[str, Any] = {TAG: msg.tag}
    for f in dataclasses.fields(msg):
        out[f.name] = _encode(getattr(msg, f.name))
    return out


def from_wire(data: Any) -> Any:
    """The message that :func:`to_wire` made ``data`` from."""
    if not isinstance(data, dict) or not isinstance(data.get(TAG), str):
        raise WireError(f"not a message: {str(data)[:80]}")
    cls = _TYPES.get(data[TAG])
    if cls is None:
        raise WireError(f"unknown message {data[TAG]!r}")
    names = [f.name for f in dataclasses.fields(cls)]
    if set(data) != {TAG, *names}:
        raise WireError(f"malformed {data[TAG]!r} message: fields {sorted(data)}")
    return cls(**{name: _decode(data[name]) for name in names})


def _encode(value: Any) -> Any:
    if hasattr(value, "tag") and dataclasses.is_dataclass(value):
        return to_wire(value)
    if isinstance(value, tuple | list):
        return [_encode(v) for v in value]
    return value


def _decode(value: Any) -> Any:
    if isinstance(value, dict) and TAG in value:
        return from_wire(value)
    if isinstance(value, list):
        return tuple(_decode(v) for v in value)
    return value


# -- what actors tell each other -----------------------------------------------------------


@message("table_progress")
@dataclass(frozen=True, slots=True)
class TableProgress:
    """A tournament table finished a deal: its running totals (to the tournament)."""

    room_id: str
    totals: tuple[int, int]


@message("table_finished")
@dataclass(frozen=True, slots=True)
class TableFinished:
    """A tournament table's match ended (to the tournament; idempotent)."""

    room_id: str
    winner: int
    totals: tuple[int, int]


@message("replace_with_cpu")
@dataclass(frozen=True, slots=True)
class ReplaceWithCpu:
    """A player abandoned its tournament: a CPU takes its seat at this table."""

    player: str


Message = TableProgress | TableFinished | ReplaceWithCpu
