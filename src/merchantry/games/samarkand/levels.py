"""Samarkand's difficulty levels (ISMCTS recipes; the runs that chose them are in docs/bots.md).

Rollouts are cut short after 8 actions and each seat is judged by its own gain in the greedy bot's
judgement: judged by who leads, a search trusts sampled worlds in which the others hold random cards
(poorer than the cards they really kept) and throws games away. Hard models the other seats as greedy
players inside its tree.
"""

from merchantry.bots.ismcts import SearchConfig

LEVELS = {
    "medium": SearchConfig(
        iterations=150, seconds=0.25, rollout="random", rollout_depth=8, reward="gain", anchor_margin=0.05
    ),
    # the other seats play as the greedy bot inside the tree too (an opponent model): their moves are not
    # searched, so every iteration goes to the bot's own choices (24-game runs: 33% against 23%)
    "hard": SearchConfig(
        iterations=300, seconds=1.5, rollout="greedy", rollout_depth=8, reward="gain", opponents="policy"
    ),
}
