"""The worlds the searches play in: a world sampled for a seat (`State.sample_hidden`), with what the others
chose unseen drawn by the game's model of them (`GamePackage.hidden_model`) where it has one.

Why: a search's play-outs play the other seats by a policy (greedy), while `sample_hidden` draws a choice
already made unseen at random (a sealed bid: any cards of the seat's sampled hand). The two disagree, and a
seat's measured chance then jumped when the others sealed, though it learnt nothing of their bids: +10 to +13
points on average over a game's deals, one move's chance 4% before and 53% after (issue 32, fifteenth pass: a
hint asked again after a bot sealed; docs/bots.md, "Worlds"). Drawn by the play-outs' own policy, the chance
before and after the seals is the same on average. A model reads the world only, which is a function of what
the seat knows, so the world still is.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from merchantry.engine import State

Model = Callable[[State, int, random.Random], None]
_models: dict[str | None, Model | None] = {}  # per game name: its package's hidden_model, looked up once


def sampled_world(state: State, seat: int, rng: random.Random) -> State:
    """A world sampled for `seat` from `state`, the others' unseen choices drawn by the game's model."""
    world = state.sample_hidden(seat, rng)
    model = _model_of(getattr(getattr(state, "game", None), "name", None))
    if model is not None:
        model(world, seat, rng)
    return world


def _model_of(name: str | None) -> Model | None:
    """The registered game's model (none for a state of no registered game: a test's own toy game)."""
    if name not in _models:
        from merchantry import games  # (games' packages import the bots: looked up when first used)

        _models[name] = games.package(name).hidden_model if name in games.names() else None
    return _models[name]
