"""Samarkand's difficulty levels (ISMCTS recipes; the runs that chose them are in docs/bots.md).

Rollouts are cut short after 8 actions and each seat is judged by its own gain in the investor bot's
judgement (evaluation.py): judged by who leads, a search trusts sampled worlds in which the others hold
random cards (poorer than the cards they really kept) and throws games away. Hard starts from the
`investor` bot (investor.py), which values the family tiles it holds by the meetings they may still be paid
for: its move is kept unless the search is sure of a better one, and the other seats play as the greedy bot
inside the tree (an opponent model).
"""

from merchantry.bots.ismcts import SearchConfig
from merchantry.bots.levels import HARD_SECONDS, MEDIUM_SECONDS

LEVELS = {
    # greedy's move unless a glance (30 iterations, judged as medium judges) finds one better. Against three
    # greedy: 14.6% of 48 games, a mean score of 66 against their 70 (the generic easy, 15 random playouts
    # to the end judged by who wins: 0 of 120, 36 against 71; benchmarks/results/strength-easy-issue32.txt)
    "easy": SearchConfig(
        iterations=30,
        seconds=MEDIUM_SECONDS,
        rollout="random",
        rollout_depth=8,
        reward="gain",
        anchor_margin=0.05,
    ),
    # a short search anchored on greedy's move, judged by the investor's evaluation
    "medium": SearchConfig(
        iterations=150,
        seconds=MEDIUM_SECONDS,
        rollout="random",
        rollout_depth=8,
        reward="gain",
        anchor_margin=0.05,
    ),
    # the other seats play as the greedy bot inside the tree too (an opponent model): their moves are not
    # searched, so every iteration goes to the bot's own choices; its own steps in rollouts and the move it
    # keeps are the investor's
    "hard": SearchConfig(
        iterations=300,
        seconds=HARD_SECONDS,
        rollout="greedy",
        rollout_depth=8,
        reward="gain",
        opponents="policy",
        own_policy="investor",
        anchor_margin=0.3,
    ),
}
