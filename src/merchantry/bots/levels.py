"""Difficulty levels: `easy`, `medium` and `hard`, each an ISMCTS recipe per game.

A game's package may give its own recipe for a level (`GamePackage.levels`); every other game, a game
added later included, gets the generic one below. The measured strength and time per decision of every
recipe is in docs/bots.md (`benchmarks/bench_bots.py` and `benchmarks/bot_strength.py`).
"""

from __future__ import annotations

from merchantry.bots.ismcts import SearchBot, SearchConfig

LEVELS = ("easy", "medium", "hard")

GENERIC = {
    # a glance: 15 random playouts per decision; loses to greedy, beats random
    "easy": SearchConfig(iterations=15, rollout="random"),
    # a short search that keeps the greedy move unless it finds one clearly better; within 0.3 s
    "medium": SearchConfig(iterations=150, seconds=0.25, rollout="random", anchor_margin=0.05),
    # the strength of a recipe is its iterations (the same on any machine); the wall-time cap keeps a
    # decision within 2 s on a slow or busy one
    "hard": SearchConfig(iterations=600, seconds=1.5, rollout="random"),
}


def recipe(game_name: str, level: str) -> SearchConfig:
    from merchantry import games

    own = games.package(game_name).levels
    return own.get(level) or GENERIC[level]


def level_bot(game_name: str, level: str) -> SearchBot:
    return SearchBot(level, game_name, recipe(game_name, level))
