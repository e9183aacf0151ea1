"""`lookahead`: a bot that looks one action ahead, written against Merchantry's public API alone.

Merchantry finds it through the entry point `lookahead = "merchantry_example_bot:make"` (pyproject.toml)
or as `--bots merchantry_example_bot:make`; either way `make(game)` is called once per bot and seat, and
the bot's `choose(world, seat, rng)` is handed a world sampled for its seat, never the real game.
"""

from __future__ import annotations

import random
from typing import Any

from merchantry.engine import Game, State

__all__ = ["Lookahead", "make"]


class Lookahead:
    """Tries each legal action on a clone of its world and keeps the one that leaves its seat's score
    furthest ahead of the best other seat's (random among equals). Games whose scores move only at the
    end make it play like `random` until then; that is the point of a small example, not a strong bot."""

    name = "lookahead"

    def __init__(self, game: Game) -> None:
        self.game = game

    def choose(self, world: State, seat: int, rng: random.Random) -> Any:
        actions = world.legal_actions(seat)
        best: list[Any] = []
        best_lead = float("-inf")
        for action in actions:
            after = world.clone()
            after.apply(seat, action)
            lead = self.lead(after, seat)
            if lead > best_lead:
                best, best_lead = [action], lead
            elif lead == best_lead:
                best.append(action)
        return rng.choice(best)

    @staticmethod
    def lead(state: State, seat: int) -> float:
        scores = state.scores()
        others = [score for other, score in enumerate(scores) if other != seat]
        return scores[seat] - max(others, default=0.0)


def make(game: Game) -> Lookahead:
    """The factory Merchantry calls with the game to play."""
    return Lookahead(game)
