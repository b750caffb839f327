"""Uniformly random among the legal actions."""

from __future__ import annotations

import random

from ..actions import Action
from ..views import View


class RandomPolicy:
    name = "random"

    def act(self, view: View, rng: random.Random) -> Action:
        return view.legal[int(rng.random() * len(view.legal))]
