"""Difficulty levels: `easy`, `medium` and `hard`, each an ISMCTS recipe per game.

A game's package may give its own recipe for a level (`GamePackage.levels`); every other game, a game
added later included, gets the generic one below. The measured strength and time per decision of every
recipe is in docs/bots.md (`benchmarks/bench_bots.py` and `benchmarks/bot_strength.py`).
"""

from __future__ import annotations

from merchantry.bots.ismcts import SearchBot, SearchConfig

LEVELS = ("easy", "medium", "hard")

GENERIC = {
    # a shallow look: loses to greedy, beats random
    "easy": SearchConfig(iterations=25, rollout="random"),
    # within 0.3 s a decision
    "medium": SearchConfig(iterations=400, seconds=0.25, rollout="random"),
    # within 2 s a decision (median); the budget is wall time, so a slower machine searches less deep
    "hard": SearchConfig(iterations=100_000, seconds=1.5, rollout="random"),
}


def recipe(game_name: str, level: str) -> SearchConfig:
    from merchantry import games

    own = games.package(game_name).levels
    return own.get(level) or GENERIC[level]


def level_bot(game_name: str, level: str) -> SearchBot:
    return SearchBot(level, game_name, recipe(game_name, level))
