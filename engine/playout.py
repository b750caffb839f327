"""Playing deals out: uniformly random on the fast path, or with any policy via views."""

from __future__ import annotations

import random
from collections.abc import Sequence

from .deal import Deal, Phase
from .policies.base import Policy
from .views import deal_view


def random_playout(deal: Deal, rng: random.Random) -> Deal:
    """Finish ``deal`` with actions drawn uniformly from the legal ones.

    The hot path of benchmarks and search: masks only, no views, no events.
    """
    rand = rng.random
    while deal.phase is Phase.TRUMP:
        choices = deal.trump_choices()
        choice = choices[int(rand() * len(choices))]
        if choice.value < 0:
            deal.pass_()
        else:
            deal.choose(choice.value, deal.turn)
    play, legal_mask, playing = deal.play, deal.legal_mask, Phase.PLAY
    while True:
        while deal.phase is playing:
            mask = legal_mask()
            k = int(rand() * mask.bit_count())
            while k:
                mask &= mask - 1
                k -= 1
            play((mask & -mask).bit_length() - 1)
        if deal.phase is not Phase.CLAIM:
            return deal
        deal.decide(rand() < 0.5)


def policy_playout(deal: Deal, policies: Sequence[Policy], rng: random.Random) -> Deal:
    """Finish ``deal`` with ``policies[seat]`` acting for each seat from its own view."""
    while deal.phase is not Phase.DONE:
        seat = deal.turn
        deal.apply(seat, policies[seat].act(deal_view(deal, seat), rng))
    return deal
