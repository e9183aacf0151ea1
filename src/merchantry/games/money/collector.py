"""The `collector` Money bot: greedy's way of bidding and exchanging with a more patient outlook. It is the
policy the `medium` level's search starts from (levels.py).

Greedy judges a hand by a blend of its promise and its exact score that slides to the exact score as the deck
runs out, and expects little from a bid that does not act first (half of the worse market group). Against
other players both are too timid:
- **The promise counts to the end.** The exact score has a cliff (a currency below 200 loses 100, MO-E3), so
  greedy late in a deal stops valuing notes of a currency still short of 200 and lets others complete
  theirs. The collector gives the exact score at most `EXACT_WEIGHT` of the judgement even at the end.
- **A late bid still finds the better group.** A bid that acts after another usually finds the better group
  still there (the first may take the other group or a bid), so the collector expects `BETTER_IF_LATE` of
  the better group's gain and `WORSE_IF_LATE` of the worse one's.

Against three greedy bots (4 players, seats rotated) it wins about 53-55% of games where greedy wins 27%
(2,000-3,000 games on each of two seeds; 3 players: 73%, 5 players: 42%); the three numbers were chosen on
such runs (docs/bots.md).
"""

from __future__ import annotations

from merchantry.games.money.greedy import MoneyGreedyBot, Outlook

EXACT_WEIGHT = 0.3
BETTER_IF_LATE = 0.7
WORSE_IF_LATE = 0.3


class MoneyCollectorBot(MoneyGreedyBot):
    name = "collector"
    outlook = Outlook(exact_weight=EXACT_WEIGHT, better_if_late=BETTER_IF_LATE, worse_if_late=WORSE_IF_LATE)
