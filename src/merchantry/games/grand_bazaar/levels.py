"""Grand Bazaar's difficulty levels (ISMCTS recipes; the runs that chose them are in docs/bots.md).

A random rollout trades at random for the rest of the game and judges a move by nothing; greedy rollouts
(trading on the known distribution of the price cards left) to the end are what make the search strong.
"""

from merchantry.bots.ismcts import SearchConfig

LEVELS = {
    "medium": SearchConfig(
        iterations=40, seconds=0.25, rollout="greedy", rollout_depth=30, anchor_margin=0.05
    ),
    "hard": SearchConfig(iterations=150, seconds=1.5, rollout="greedy"),
}
