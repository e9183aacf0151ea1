"""Samarkand's difficulty levels (ISMCTS recipes; the runs that chose them are in docs/bots.md).

Rollouts are cut short after 8 actions and each seat is judged by its own gain in the greedy bot's
judgement: judged by who leads, a search trusts sampled worlds in which the others hold random cards
(poorer than the cards they really kept) and throws games away.
"""

from merchantry.bots.ismcts import SearchConfig

LEVELS = {
    "medium": SearchConfig(
        iterations=150, seconds=0.25, rollout="random", rollout_depth=8, reward="gain", anchor_margin=0.05
    ),
    "hard": SearchConfig(iterations=300, seconds=1.5, rollout="greedy", rollout_depth=8, reward="gain"),
}
