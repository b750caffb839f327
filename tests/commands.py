"""What the tests read of the ``klaverjas`` command's output."""

from __future__ import annotations

import re

_SCHEDULED = re.compile(r"^scheduled \w+ tournament (t_[0-9a-f]+): starts ", re.MULTILINE)


def scheduled_id(out: str) -> str:
    """The id in ``klaverjas tournament schedule``'s line."""
    found = _SCHEDULED.search(out)
    assert found is not None, f"not the line of a scheduled tournament: {out!r}"
    return found.group(1)
