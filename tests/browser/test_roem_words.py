"""The page names roem from the server's breakdown (``roem_parts``), never from rules of its own.

The engine's real events of a seeded claim-mode deal (with stuk inside a run, and a roem
left) go through the page's own reducer (``state.js``) in Chromium: each roem announcement
says what the parts say, and the finished tricks end as the engine's view shows them.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import Match, Rules
from engine.events import RoemDecided, TrickTaken
from engine.views import project, view
from tests.browser.ui import Tab

pytestmark = pytest.mark.browser

SEAT = 0
REDUCE = """async (frames) => {
  const state = await import('/web/state.js');
  let model = state.newRoom('r');
  for (const frame of frames) {
    const { model: next, resume } = state.applyFrame(model, frame, null);
    if (resume !== null) throw new Error(`gap before version ${frame.version}`);
    model = next;
  }
  return { notes: model.log.map((n) => n.text), tricks: model.view.tricks };
}"""


def _words(parts: dict[str, int], roem: int) -> str:
    """How the page is to name a trick's roem (the wording, not the rules)."""
    if parts["run"] and parts["stuk"]:
        return f"roem {parts['run']} and stuk ({roem})"
    if parts["run"]:
        return f"roem {parts['run']}"
    if parts["four"]:
        return f"four of a kind ({roem})"
    return f"stuk ({roem})"


def _frames(seed: int) -> tuple[Match, list[dict[str, Any]], list[dict[str, Any]], list[int]]:
    """A one-deal claim-mode match played at random, as seat 0's frames; the trick_taken
    events with roem, and the numbers of the tricks whose roem was left."""
    match = Match(Rules(roem="claim", end="deals", end_value=1), seed)
    room = {"id": "r", "status": "running", "seats": [None] * 4}
    frames = [{"type": "snapshot", "version": 1, "room": room, "seat": SEAT}]
    frames[0]["view"] = view(match, SEAT).to_dict()
    rng, with_roem, left = random.Random(seed), [], []
    while not match.over:
        legal = match.legal_actions()
        events = match.apply(match.turn, legal[int(rng.random() * len(legal))])
        sent = [project(e, SEAT) for e in events]
        with_roem += [s for e, s in zip(events, sent, strict=True) if isinstance(e, TrickTaken)]
        if any(isinstance(e, RoemDecided) and not e.take for e in events):
            left.append(len(match.deal.tricks))
        legal_now = [str(a) for a in match.legal_actions()] if match.turn == SEAT else []
        frames.append(
            {"type": "update", "version": len(frames) + 1, "kind": "act", "events": sent}
            | {"turn": match.turn, "legal": legal_now}
        )
    return match, frames, [t for t in with_roem if t["roem"]], left


def _deal_with_stuk_in_a_run_and_a_left_roem() -> tuple[Match, list, list, list[int]]:
    for seed in range(1000):
        match, frames, tricks, left = _frames(seed)
        if left and any(t["roem_parts"]["run"] and t["roem_parts"]["stuk"] for t in tricks):
            return match, frames, tricks, left
    pytest.fail("no claim-mode deal with stuk inside a run and a left roem in 1000 seeds")


async def test_roem_is_named_from_its_parts(open_tab) -> None:
    match, frames, tricks, left = _deal_with_stuk_in_a_run_and_a_left_roem()
    tab: Tab = await open_tab()
    seen = await tab.page.evaluate(REDUCE, frames)
    for trick in tricks:
        words = _words(trick["roem_parts"], trick["roem"])
        announced = [n for n in seen["notes"] if f"has {words}: take it or leave it?" in n]
        assert announced, (words, seen["notes"])
    assert seen["tricks"] == view(match, SEAT).to_dict()["tricks"]
    none = {"run": 0, "four": 0, "stuk": 0}
    assert all(seen["tricks"][n - 1]["roem_parts"] == none for n in left)
    tab.assert_clean()
