"""``KLAVERJAS_ROUTE``: the path of a node that clients are told, or a refusal to start."""

from __future__ import annotations

import pytest

from server.cluster.node import route
from server.runtime.router import Route

pytestmark = pytest.mark.server


def test_a_route_is_the_template_with_the_node_id() -> None:
    assert route("/n/{node}/", "node-2") == Route("node-2", "/n/node-2/")
    assert route("", "node-2") is None  # off


@pytest.mark.parametrize(
    ("template", "node"),
    [("n/{node}/", "a"), ("/n/", "a"), ("/{node}/{node}/", "a"), ("/n/{node}/", "a b"),
     ("/n/{node}/", "a?x"), ("https://x/{node}/", "a")],
)  # fmt: skip
def test_a_route_that_is_no_plain_path_is_refused(template: str, node: str) -> None:
    with pytest.raises(ValueError, match="KLAVERJAS_ROUTE"):
        route(template, node)
