"""Difficulty levels: `easy`, `medium` and `hard`, each an ISMCTS recipe per game.

A game's package may give its own recipe for a level (`GamePackage.levels`); every other game, a game
added later included, gets the generic one below. The measured strength and time per decision of every
recipe is in docs/bots.md (`benchmarks/bench_bots.py` and `benchmarks/bot_strength.py`).
"""

from __future__ import annotations

from merchantry.bots.ismcts import SearchBot, SearchConfig

LEVELS = ("easy", "medium", "hard")
# wall-time budgets per whole move (its steps share it: ismcts.MoveClock); a server publishes a bot's move
# its bot delay plus the longest budget at the table after it began thinking (docs/web.md, "Timing"), so
# these set the pace of a table: a whole hard turn within 2 s (benchmarks/bot_pace.py)
MEDIUM_SECONDS = 0.25
HARD_SECONDS = 1.0

GENERIC = {
    # a glance: greedy's move unless 15 random playouts find one better by 0.05 (their verdicts are mostly
    # noise: beatable, never careless; without the anchor it kept 57-70% of greedy's score, with it
    # 83-90%: benchmarks/results/strength-easy-issue32.txt). Capped like medium: a random playout of a
    # long game is slow on a busy machine, and a table's pace follows its slowest moves
    "easy": SearchConfig(iterations=15, seconds=MEDIUM_SECONDS, rollout="random", anchor_margin=0.05),
    # a short search that keeps the greedy move unless it finds one clearly better; within 0.3 s
    "medium": SearchConfig(iterations=150, seconds=MEDIUM_SECONDS, rollout="random", anchor_margin=0.05),
    # the strength of a recipe is its iterations (the same on any machine); the wall-time budget keeps a
    # whole move within it on a slow or busy one. It searches on (up to twice its iterations, within its
    # time) while its most visited move is clearly not its best by mean (ismcts' "Settle"): a hint of 150
    # iterations proposed a move of 46 visits at 85% over one of 36 at 94%, and lost a won game
    "hard": SearchConfig(iterations=600, seconds=HARD_SECONDS, rollout="random", settle=1.0),
}


def recipe(game_name: str, level: str) -> SearchConfig:
    from merchantry import games

    own = games.package(game_name).levels
    return own.get(level) or GENERIC[level]


def level_bot(game_name: str, level: str) -> SearchBot:
    return SearchBot(level, game_name, recipe(game_name, level))
