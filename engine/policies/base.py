"""The interface every CPU player implements."""

from __future__ import annotations

import random
from typing import Protocol

from ..actions import Action
from ..views import View


class Policy(Protocol):
    name: str

    def act(self, view: View, rng: random.Random) -> Action:
        """One of ``view.legal``; ``view`` is the acting seat's own view."""
        ...
