"""The `trader` Grand Bazaar bot: greedy's reading of the price cards left, with a margin, and an eye on the
bazaar's stock. It is the policy the `hard` level's search starts from (levels.py).

Like `greedy` it knows each gem's expected move next round (the mean change over the price cards left,
GB-C3), but it keeps a gem only while that move is worth the place: it sells what it expects to rise by
less than `KEEP_ABOVE` a round (greedy keeps a gem until it is expected to fall), and buys, beyond the one
buy it must make (GB-R3), only what it expects to rise by more than `BUY_ABOVE`. Among gems whose prospects
are within `NEAR` of the best it buys the one the bazaar has most of: the greedy players all want the same
best gem, and the one they leave is less likely to run out (GB-R5).

Against three greedy bots (4 players, seats rotated) it wins 37% of games where greedy wins 26%, with the
same mean score (3,000 games; docs/bots.md): the margins were chosen on such runs.
"""

from __future__ import annotations

import random

from merchantry.engine import State
from merchantry.games.grand_bazaar.actions import BUY, DONE, SELL, BazaarAction
from merchantry.games.grand_bazaar.rules import GEM_RANGE, BazaarState

KEEP_ABOVE = 0.07  # grands a round a gem must be expected to gain to be kept
BUY_ABOVE = 0.07  # ... and to be bought when no buy is required
NEAR = 0.05  # prospects this close count as equal: the gem with the most stock left is bought


class GrandBazaarTraderBot:
    name = "trader"

    def choose(self, world: State, seat: int, rng: random.Random) -> BazaarAction:
        assert isinstance(world, BazaarState)
        legal = set(world.legal_actions(seat))
        moves = world.expected_moves()
        for gem in sorted(GEM_RANGE, key=lambda g: moves[g]):
            if moves[gem] < KEEP_ABOVE and SELL[gem] in legal:
                return SELL[gem]
        buys = [gem for gem in GEM_RANGE if BUY[gem] in legal]
        wanted = [gem for gem in buys if moves[gem] > BUY_ABOVE]
        must_buy = not any(world.bought)
        if wanted or (buys and must_buy):
            choices = wanted or buys
            best = max(moves[gem] for gem in choices)
            near = [gem for gem in choices if moves[gem] >= best - NEAR]
            return BUY[max(near, key=lambda g: (world.stock[g], moves[g]))]
        if must_buy and DONE not in legal:
            # a buy is possible but needs room or cash: sell the gem with the worst prospect
            sells = [gem for gem in GEM_RANGE if SELL[gem] in legal]
            if sells:
                return SELL[min(sells, key=lambda g: moves[g])]
        if DONE in legal:
            return DONE
        return sorted(legal, key=str)[0]  # unreachable in practice: keep to the rules whatever happens
