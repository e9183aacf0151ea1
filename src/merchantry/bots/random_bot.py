"""The `random` bot: uniform over the legal actions, for every game."""

from __future__ import annotations

import random

from merchantry.engine import Action, State


class RandomBot:
    name = "random"

    def choose(self, world: State, seat: int, rng: random.Random) -> Action:
        return rng.choice(world.legal_actions(seat))
