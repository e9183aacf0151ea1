"""Seeded random walks through any registered game, shared by the conformance tests."""

from __future__ import annotations

import random
from collections.abc import Iterator

from merchantry import games
from merchantry.engine import Action, State

MAX_STEPS = 50_000  # a random game longer than this counts as not terminating


def game_setups(min_seeds: int) -> list[tuple[str, int]]:
    """(game, players) for every registered game and every player count it supports."""
    return [
        (name, players)
        for name in games.names()
        for players in range(games.get(name).min_players, games.get(name).max_players + 1)
    ]


def random_walk(state: State, rng: random.Random) -> Iterator[tuple[int, Action]]:
    """Play uniformly random legal actions to the end, yielding (seat, action) before each is applied.

    In a simultaneous step the acting seat is itself drawn at random, so bids interleave."""
    for _ in range(MAX_STEPS):
        if state.is_over():
            return
        seat = rng.choice(state.to_act())
        action = rng.choice(state.legal_actions(seat))
        yield seat, action
        state.apply(seat, action)
    raise AssertionError(f"game did not end within {MAX_STEPS} random actions")
