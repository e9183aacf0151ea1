"""Grand Bazaar's difficulty levels (ISMCTS recipes; the runs that chose them are in docs/bots.md).

A random rollout trades at random for the rest of the game and judges a move by nothing; greedy rollouts
(trading on the known distribution of the price cards left) to the end are what make the search strong.
The searching seat's own steps are played by the `speculator` bot (speculator.py), whose move is kept unless
the search finds one clearly better: against greedy players, taking measured risks apart from the leader
while behind wins more often than any search over greedy's moves found (docs/bots.md). Hard plays the
`closer` (closer.py): the speculator's game and, in the last 12 rounds, a flat search over whole-turn
holdings, each played out to the end on the same 160 orders of the price cards left (within the move's
budget); no tree overrules it (issue 29: every tree tried lost games against the policy it was anchored on).
"""

import math

from merchantry.bots.ismcts import SearchConfig
from merchantry.bots.levels import HARD_SECONDS, MEDIUM_SECONDS

LEVELS = {
    "medium": SearchConfig(
        iterations=40,
        seconds=MEDIUM_SECONDS,
        rollout="greedy",
        rollout_depth=30,
        anchor_margin=0.15,
        own_policy="speculator",
    ),
    # the closer's move at every step (its look over whole-turn holdings played out to the end on common
    # orders of the price cards is the search): no tree overrules it, since none measured did better than
    # the policy it started from (the tree anchored on the speculator 41.7% of 120, on the closer 32.5% of
    # 40; the speculator alone 44%). `iterations` is the search hints and analyses make of a position
    "hard": SearchConfig(
        iterations=150,
        seconds=HARD_SECONDS,
        rollout="greedy",
        anchor_margin=math.inf,
        own_policy="speculator",
        anchor_policy="closer",
        plan_visits=1_000_000,
    ),
}
