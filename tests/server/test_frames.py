"""A frame's text: the seat on turn gets the spectators' update with its legal actions added
to the encoded text (``with_legal``), which must be exactly what encoding it whole gives."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from server.runtime.peer import encode, with_legal

SCALARS = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text()
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)
UPDATES = st.dictionaries(st.text().filter(lambda k: k != "legal"), VALUES, max_size=6)


@given(UPDATES, st.lists(st.text(max_size=8), max_size=8))
def test_legal_added_to_the_text_is_the_whole_encoded(update: dict[str, Any], legal: list[str]):
    text = with_legal(encode(update), legal)
    assert text == encode({**update, "legal": legal})
    assert json.loads(text) == {**update, "legal": legal}
