"""Money's difficulty levels (ISMCTS recipes; the runs that chose them are in docs/bots.md).

Random rollouts are useless in Money (a random seat adds and takes back cards for hundreds of steps), so
rollouts are played by the greedy bot and cut short, the deal judged by what every hand would score now.
"""

from merchantry.bots.ismcts import SearchConfig

LEVELS = {
    "medium": SearchConfig(
        iterations=30, seconds=0.25, rollout="greedy", rollout_depth=15, anchor_margin=0.05
    ),
    "hard": SearchConfig(iterations=120, seconds=1.5, rollout="greedy", rollout_depth=60),
}
