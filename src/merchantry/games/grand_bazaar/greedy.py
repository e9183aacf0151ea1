"""The `greedy` Grand Bazaar bot: trades on the known distribution of the remaining price cards.

The 27 price cards are public knowledge and so is which have been revealed, so the bot knows each gem's
expected move next round: the mean change over the cards left (GB-C3). It sells what it expects to
fall, buys what it expects to rise, and when it must buy (GB-R3) buys the gem with the best prospect.
It reads only what is public (prices, its gems, the cards left as a set): it is handed a world sampled for
its seat, and asks it for these directly rather than building a whole view (a search's rollouts call it
hundreds of times per iteration).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from merchantry.engine import State
from merchantry.games.grand_bazaar.actions import BUY, DONE, SELL, BazaarAction
from merchantry.games.grand_bazaar.rules import BazaarState


class GrandBazaarGreedyBot:
    name = "greedy"

    def choose(self, world: State, seat: int, rng: random.Random) -> BazaarAction:
        assert isinstance(world, BazaarState)
        legal: set[BazaarAction] = set(world.legal_actions(seat))
        moves = world.expected_moves()
        must_buy = not any(world.bought)
        # sell what is expected to fall
        for g in sorted(range(len(moves)), key=lambda g: moves[g]):
            if moves[g] < 0 and SELL[g] in legal:
                return SELL[g]
        # buy what is expected to rise, best prospect first
        buys = sorted((g for g in range(len(moves)) if BUY[g] in legal), key=lambda g: -moves[g])
        if buys and (moves[buys[0]] > 0 or must_buy):
            return BUY[buys[0]]
        return make_room_or_end(legal, moves, must_buy)


def make_room_or_end(legal: set[BazaarAction], moves: Sequence[float], must_buy: bool) -> BazaarAction:
    """Nothing left worth trading: when a required buy still needs room or cash, sell the gem with the worst
    prospect (GB-R3, GB-R4); else end the turn."""
    if must_buy and DONE not in legal:
        sells = [g for g in range(len(moves)) if SELL[g] in legal]
        if sells:
            return SELL[min(sells, key=lambda g: moves[g])]
    if DONE in legal:
        return DONE
    return sorted(legal, key=str)[0]  # unreachable in practice: keep to the rules whatever happens
