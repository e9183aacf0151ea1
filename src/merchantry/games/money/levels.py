"""Money's difficulty levels (ISMCTS recipes; the runs that chose them are in docs/bots.md).

Random rollouts are useless in Money (a random seat adds and takes back cards for hundreds of steps), so
rollouts are played by the greedy bot and cut short, the deal judged by what every hand would score now.
Both levels start from the `collector` bot (collector.py): it plays the searching seat's own steps in
rollouts, and its move is kept unless the search is sure of a better one (a short search cannot tell
moves apart more finely: with 30 iterations and a margin of 0.05, medium overruled greedy at random and
won 12.5%).
"""

from dataclasses import replace

from merchantry.bots.ismcts import SearchConfig
from merchantry.bots.levels import HARD_SECONDS, MEDIUM_SECONDS

# a short search whose overrules of the collector are mostly noise (with a margin of 1.0, never overruling,
# it won 56%): medium on purpose
MEDIUM = SearchConfig(
    iterations=30,
    seconds=MEDIUM_SECONDS,
    rollout="greedy",
    rollout_depth=15,
    own_policy="collector",
    anchor_margin=0.3,
)

LEVELS = {
    # the greedy bot's move unless a short search (greedy rollouts cut at 15, as medium's) finds one better
    # by a small margin: its overrules are mostly noise, which makes it beatable but not careless. Against
    # three greedy: 10.4% of 48 games, a mean score of 465 against their 612 (the generic easy's random
    # rollouts judge nothing in Money: 0 of 120, 47 against 656; benchmarks/results/strength-easy-issue32.txt)
    "easy": SearchConfig(
        iterations=20, seconds=MEDIUM_SECONDS, rollout="greedy", rollout_depth=15, anchor_margin=0.05
    ),
    "medium": MEDIUM,
    # four times the iterations, rollouts four times as long, and overruled only by a surer search
    "hard": replace(MEDIUM, iterations=120, seconds=HARD_SECONDS, rollout_depth=60, anchor_margin=0.5),
}
