"""A frame's text: the seat on turn gets the spectators' update with its legal actions (and
why its other cards are refused) added to the encoded text (``with_fields``), which must be
exactly what encoding it whole gives."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from server.runtime.peer import encode, with_fields

SCALARS = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text()
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)
ADDED = ("legal", "why_not")
UPDATES = st.dictionaries(st.text().filter(lambda k: k not in ADDED), VALUES, max_size=6)
FIELDS = st.dictionaries(st.sampled_from(ADDED), VALUES, max_size=2)


@given(UPDATES, FIELDS)
def test_fields_added_to_the_text_are_the_whole_encoded(
    update: dict[str, Any], fields: dict[str, Any]
) -> None:
    text = with_fields(encode(update), fields)
    assert text == encode({**update, **fields})
    assert json.loads(text) == {**update, **fields}
