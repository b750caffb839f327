"""What the server sends: every frame is built here from its model in ``protocol.py``, the
models the published JSON Schema is generated from.

A frame stays a plain dict, so the hot path (an update to each of four players) pays one
call. With checking on (``KLAVERJAS_CHECK_FRAMES``, which the tests set) each frame is also
encoded and validated, strictly, against its model as it is built: a frame that does not
match the schema we publish is a bug, raised where it was made.
"""

from __future__ import annotations

from typing import Any, get_args

from pydantic import BaseModel
from pydantic_core import to_json

from .protocol import SERVER_MODELS

TAGS: dict[type[BaseModel], str] = {
    model: get_args(model.model_fields["type"].annotation)[0] for model in SERVER_MODELS
}
_checking = False


def check_frames(on: bool) -> None:
    """Validate every frame built from now on against its model (or stop)."""
    global _checking
    _checking = on


def frame(model: type[BaseModel], /, **fields: Any) -> dict[str, Any]:
    """A frame of ``model``: its type and ``fields``."""
    message = {"type": TAGS[model], **fields}
    if _checking:
        model.model_validate_json(to_json(message))
    return message
