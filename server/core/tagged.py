"""Tagged records: frozen dataclasses kept or sent as JSON objects, and read back.

A family of records (a room's log entries, a score sheet's, a tournament's, the messages
between actors and nodes) is one :class:`Codec`.  Each kind is a frozen dataclass with its
own tag; ``codec.encode(record)`` is ``{key: tag, field: value, ...}``, the fields in their
declared order, and ``codec.decode(data)`` the record again.  A record that subclasses
:class:`Record` also has ``to_dict()`` and ``from_dict()``.

Tuples are written as lists and read back as tuples, and a record of the family inside a
field (a message inside a message) is written with its tag and read back.  What a field
needs beyond that it says with :func:`field`: hooks for a value that is not JSON (rules,
an action), when it is left out (at its default, or when a test of the record says so),
and what an object that lacks it means (a log written before the field existed).

Reading is strict: an unknown tag, an unknown field or a missing one is the codec's error,
never a guess.  The two functions of each kind are generated once, when it is registered,
as :mod:`dataclasses` generates ``__init__``, so a record costs what a dict literal costs.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, Self, TypeVar

T = TypeVar("T")
_SPEC = "tagged"  # the key of a field's Spec in its metadata
_SCALARS = frozenset({"int", "str", "bool", "float", "None"})  # written as they are


@dataclasses.dataclass(frozen=True, slots=True)
class Spec:
    """How one field is written and read (see :func:`field`)."""

    encode: Callable[[Any], Any] | None = None
    decode: Callable[[Any], Any] | None = None
    omit: bool | Callable[[Any], bool] = False
    missing: Callable[[dict[str, Any]], Any] | None = None


def field(
    default: Any = dataclasses.MISSING,
    *,
    encode: Callable[[Any], Any] | None = None,
    decode: Callable[[Any], Any] | None = None,
    omit: bool | Callable[[Any], bool] = False,
    missing: Callable[[dict[str, Any]], Any] | None = None,
) -> Any:
    """A dataclass field that says how it is kept: ``encode``/``decode`` turn its value
    into JSON and back; ``omit`` leaves it out at its default (True) or when it holds for
    the record (a function of the record); ``missing`` is its value, worked out from the
    whole stored object, when that object lacks it (else its default)."""
    spec = Spec(encode, decode, omit, missing)
    return dataclasses.field(default=default, metadata={_SPEC: spec})


class Record:
    """A base for records that offer their codec's form as methods (set by
    :meth:`Codec.record`)."""

    __slots__ = ()

    def to_dict(self) -> dict[str, Any]:
        raise TypeError(f"{type(self).__name__} is registered with no codec")

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
        raise TypeError(f"{cls.__name__} is registered with no codec")


class Codec:
    """One family of records, told apart by the tag under ``key``; ``what`` names a
    record in errors, which are ``error``s."""

    def __init__(self, key: str, what: str, error: type[ValueError] = ValueError) -> None:
        self.key, self.what, self.error = key, what, error
        self.types: dict[str, type] = {}  # tag -> kind
        self._encoders: dict[type, Callable[[Any], dict[str, Any]]] = {}
        self._decoders: dict[str, Callable[[dict[str, Any]], Any]] = {}

    def record(self, cls: type[T], tag: str | None = None) -> type[T]:
        """Register a frozen dataclass under ``tag`` (by default its ``tag`` class
        attribute; a kind without one is written untagged, as a value inside another)."""
        if not dataclasses.is_dataclass(cls) or not cls.__dataclass_params__.frozen:  # type: ignore[attr-defined]
            raise TypeError(f"{cls.__name__} must be a frozen dataclass")
        tag = getattr(cls, "tag", None) if tag is None else tag
        if tag is not None and tag in self.types:
            raise ValueError(f"{self.what} tag {tag!r} is taken by {self.types[tag].__name__}")
        if tag is not None:
            cls.tag = tag  # type: ignore[attr-defined]
        encode, decode = self._generate(cls, tag)
        self._encoders[cls] = encode
        if tag is not None:
            self.types[tag], self._decoders[tag] = cls, decode
        if issubclass(cls, Record):
            cls.to_dict = encode  # type: ignore[assignment,method-assign]
            cls.from_dict = staticmethod(decode)  # type: ignore[assignment,method-assign]
        return cls

    def encode(self, record: Any) -> dict[str, Any]:
        """A registered record as JSON-ready data."""
        encoder = self._encoders.get(type(record))
        if encoder is None:
            raise TypeError(f"{type(record).__name__} is not a registered {self.what}")
        return encoder(record)

    def decode(self, data: Any) -> Any:
        """The record that :meth:`encode` made ``data`` from."""
        if type(data) is not dict:
            raise self.error(f"not a {self.what}: {str(data)[:80]}")
        tag = data.get(self.key)
        decoder = self._decoders.get(tag) if isinstance(tag, str) else None
        if decoder is None:
            raise self.error(f"unknown {self.what} {tag!r}")
        return decoder(data)

    def _out(self, value: Any) -> Any:
        """A value of no declared simple type, written: records of the family tagged,
        tuples as lists, anything else as it is."""
        encoder = self._encoders.get(type(value))
        if encoder is not None:
            return encoder(value)
        if isinstance(value, tuple | list):
            return [self._out(v) for v in value]
        return value

    def _in(self, value: Any) -> Any:
        """The inverse of :meth:`_out`: tagged objects as records, lists as tuples."""
        if type(value) is dict and self.key in value:
            return self.decode(value)
        if isinstance(value, list):
            return tuple(self._in(v) for v in value)
        return value

    def _generate(
        self, cls: type, tag: str | None
    ) -> tuple[Callable[..., Any], Callable[..., Any]]:
        """The kind's encoder and decoder, as generated source (one dict literal, one call)."""
        scope: dict[str, Any] = {"cls": cls, "out_": self._out, "in_": self._in, "_shape": _shape}
        fields = dataclasses.fields(cls)
        known = {f.name for f in fields} | ({self.key} if tag is not None else set())
        scope["KNOWN"], scope["error"] = frozenset(known), self.error
        scope["MALFORMED"] = f"malformed {self.what} {tag or cls.__name__!r}: "
        literal = [f"{self.key!r}: {tag!r}"] if tag is not None else []
        later: list[str] = []  # statements once a field may be left out: the order holds
        args = []
        for f in fields:
            if not f.init or f.kw_only:
                raise TypeError(f"{cls.__name__}.{f.name}: every field is a positional one")
            spec = f.metadata.get(_SPEC, Spec())
            name, has_default = f.name, f.default is not dataclasses.MISSING
            if f.default_factory is not dataclasses.MISSING:
                raise TypeError(f"{cls.__name__}.{name}: a default factory is not supported")
            scope[f"default_{name}"] = f.default
            plain = _scalar(f.type)
            written = f"r.{name}" if plain else f"out_(r.{name})"
            read = f"d[{name!r}]" if plain else f"in_(d[{name!r}])"
            if spec.encode is not None:
                scope[f"enc_{name}"], written = spec.encode, f"enc_{name}(r.{name})"
            if spec.decode is not None:
                scope[f"dec_{name}"], read = spec.decode, f"dec_{name}(d[{name!r}])"
            if spec.omit is False and not later:
                literal.append(f"{name!r}: {written}")
            elif spec.omit is False:
                later.append(f"    out[{name!r}] = {written}")
            else:
                if spec.omit is True:
                    if not has_default:
                        raise TypeError(f"{cls.__name__}.{name}: omitted at which default?")
                    keep = f"r.{name} is not None" if f.default is None else (
                        f"r.{name} != default_{name}"
                    )  # fmt: skip
                else:
                    scope[f"omit_{name}"] = spec.omit
                    keep = f"not omit_{name}(r)"
                later.append(f"    if {keep}:\n        out[{name!r}] = {written}")
            if spec.missing is not None:
                scope[f"missing_{name}"] = spec.missing
                read = f"({read} if {name!r} in d else missing_{name}(d))"
            elif has_default and read == f"d[{name!r}]":
                read = f"d.get({name!r}, default_{name})"
            elif has_default:
                read = f"({read} if {name!r} in d else default_{name})"
            args.append(read)
        written_all = f"{{{', '.join(literal)}}}"
        encoder = ["    return " + written_all] if not later else [
            f"    out = {written_all}", *later, "    return out",
        ]  # fmt: skip
        source = "\n".join([
            "def encode(r):",
            *encoder,
            "def decode(d):",
            "    try:",
            "        if d.keys() <= KNOWN:",
            f"            return cls({', '.join(args)})",
            "    except (KeyError, AttributeError):",  # a field missing; not an object
            "        pass",
            "    raise error(MALFORMED + _shape(d))",
        ])  # fmt: skip
        exec(compile(source, f"<tagged {cls.__qualname__}>", "exec"), scope)
        encode, decode = scope["encode"], scope["decode"]
        encode.__qualname__ = f"{cls.__qualname__}.to_dict"
        decode.__qualname__ = f"{cls.__qualname__}.from_dict"
        return encode, decode


def _scalar(annotation: Any) -> bool:
    """Whether a field's declared type is JSON as it is (int, str, bool, float, None)."""
    text = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", None)
    text = text or str(annotation)
    return all(part.strip() in _SCALARS for part in text.split("|"))


def _shape(data: Any) -> str:
    """What a malformed object holds, for its error: its fields, or its start."""
    return f"fields {sorted(map(str, data))}" if type(data) is dict else str(data)[:80]
