"""JSON in and out of the logs and records, and the checks of a log position."""

from __future__ import annotations

import json
from typing import Any

from .errors import StoreError

_ENCODE = json.JSONEncoder(separators=(",", ":")).encode  # json.dumps made one a call


def dumps(obj: Any, what: str) -> str:
    try:
        return _ENCODE(obj)
    except (TypeError, ValueError) as exc:
        raise StoreError(f"{what} is not JSON-serialisable: {exc}") from exc


def loads(text: str, what: str) -> Any:
    try:
        return json.loads(text)
    except ValueError as exc:
        raise StoreError(f"{what} is not valid JSON: {exc}") from exc


def check_append(room_id: str, version: Any, epoch: Any) -> None:
    """Refuse a log position or fencing epoch that no correct caller passes."""
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise StoreError(f"room {room_id!r}: log version must be an int >= 1, not {version!r}")
    if epoch is not None and (
        isinstance(epoch, bool) or not isinstance(epoch, int) or not 0 < epoch < 1 << 63
    ):
        raise StoreError(f"room {room_id!r}: fencing epoch must come from fence(), not {epoch!r}")
