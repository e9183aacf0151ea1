"""Samarkand's difficulty levels (ISMCTS recipes; the runs that chose them are in docs/bots.md).

Rollouts are cut short after 8 actions and each seat is judged by its own gain in the investor bot's
judgement (evaluation.py): judged by who leads, a search trusts sampled worlds in which the others hold
random cards (poorer than the cards they really kept) and throws games away. Hard plays the `closer`
bot's moves (closer.py): the `investor`'s (investor.py), which values the family tiles it holds by the
meetings they may still be paid for, and near the end of the game a flat search over its best steps, each
played out to the end on common worlds. A tree search allowed to overrule the investor when sure (by a
margin of 0.3) won fewer games than the investor alone (issue 29, docs/bots.md), so hard's anchor is final;
hints and analyses still search the position with the recipe, the other seats playing as the greedy bot
inside the tree (an opponent model).
"""

import math

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
    # the closer's move at every step (the investor's game, near the end its best steps played out on common
    # worlds: 61.1% of 200 games against three greedy where the investor won 53.8% on the same deals). No
    # tree overrules it, since none measured did better than the policy it was anchored on (the tree below,
    # anchored on the investor with a margin of 0.3, won 45.7% of 120 games; the investor alone 50.4% /
    # 51.0% of 1,000 on two seeds, and as hard 53.7% of 300: docs/bots.md). The
    # rest of the recipe is the search hints and analyses make of a position: the other seats play as the
    # greedy bot inside the tree too (an opponent model), the investor plays the bot's own rollout steps
    "hard": SearchConfig(
        iterations=300,
        seconds=HARD_SECONDS,
        rollout="greedy",
        rollout_depth=8,
        reward="gain",
        opponents="policy",
        own_policy="investor",
        anchor_policy="closer",
        anchor_margin=math.inf,
    ),
}
