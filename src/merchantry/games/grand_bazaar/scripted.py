"""Scripted Grand Bazaar strategies: what a clever newcomer tries in a few lines, to test that the levels
have no cheap exploit (issue 29; hard's results against each are in docs/bots.md).

- `hoarder`: fills up on one gem, the one with the best expected move at its first turn (GB-C3), and never
  sells: it holds those gems to the end, when each pays 10 (GB-E1).
- `minimum`: trades as little as the rules allow: the one buy a turn requires (GB-R3), of the cheapest gem,
  selling only to make room for it (GB-R4), the gem with the worst prospect.
- `copycat`: holds what the leader holds (the other seat worth most, cash plus 10 per gem, GB-E1): sells
  and buys its way to the leader's gems (worst prospect sold first, best bought first, GB-R5/GB-R6).
"""

from __future__ import annotations

import random

from merchantry.engine import State
from merchantry.games.grand_bazaar.actions import BUY, DONE, SELL, BazaarAction
from merchantry.games.grand_bazaar.components import GEM_LIMIT
from merchantry.games.grand_bazaar.greedy import make_room_or_end
from merchantry.games.grand_bazaar.rules import GEM_RANGE, BazaarState
from merchantry.games.grand_bazaar.speculator import leader, step_towards


class GrandBazaarHoarderBot:
    name = "hoarder"

    def __init__(self) -> None:
        self.gem: int | None = None

    def choose(self, world: State, seat: int, rng: random.Random) -> BazaarAction:
        assert isinstance(world, BazaarState)
        legal = set(world.legal_actions(seat))
        moves = world.expected_moves()
        hand = world.gems[seat]
        if self.gem is None or (not any(hand) and world.stock[self.gem] == 0):
            self.gem = max(GEM_RANGE, key=lambda g: (moves[g], -g))
        if BUY[self.gem] in legal:
            return BUY[self.gem]
        if world.bought_any and DONE in legal:
            return DONE
        return make_room_or_end(legal, moves, not world.bought_any)  # a buy it must make of another gem


class GrandBazaarMinimumBot:
    name = "minimum"

    def choose(self, world: State, seat: int, rng: random.Random) -> BazaarAction:
        assert isinstance(world, BazaarState)
        legal = set(world.legal_actions(seat))
        moves = world.expected_moves()
        if world.bought_any and DONE in legal:
            return DONE
        buys = [g for g in GEM_RANGE if BUY[g] in legal]
        if buys:
            return BUY[min(buys, key=lambda g: (world.prices[g], -moves[g]))]
        if sum(world.gems[seat]) >= GEM_LIMIT or DONE not in legal:
            sells = [g for g in GEM_RANGE if SELL[g] in legal]
            if sells:
                return SELL[min(sells, key=lambda g: moves[g])]
        return make_room_or_end(legal, moves, not world.bought_any)


class GrandBazaarCopycatBot:
    name = "copycat"

    def choose(self, world: State, seat: int, rng: random.Random) -> BazaarAction:
        assert isinstance(world, BazaarState)
        target = tuple(world.gems[leader(world, seat)])
        return step_towards(world, seat, target, world.expected_moves())


SCRIPTED = {bot.name: bot for bot in (GrandBazaarHoarderBot, GrandBazaarMinimumBot, GrandBazaarCopycatBot)}
