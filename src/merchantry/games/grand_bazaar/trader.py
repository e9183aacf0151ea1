"""The `trader` Grand Bazaar bot: greedy's reading of the price cards left, played apart from the others
while behind and with them while ahead. It is the policy the `hard` level's search starts from (levels.py).

Greedy players all read the price cards the same way, so they hold the same gems and their fortunes rise and
fall together; what separates them is small (who got the last gem in stock). To win against them a player
must differ from them while behind and may copy them while ahead:
- **Ahead** (worth, cash plus 10 per gem as at the end (GB-E1), at least `LEAD` above every other seat's): it
  plays greedy's moves, so whatever the prices do moves its worth as theirs and the lead holds.
- **Otherwise** it trades apart from them. Like greedy it knows each gem's expected move next round (the
  mean change over the price cards left, GB-C3), but it keeps a gem only while that move is worth the place:
  it sells what it expects to rise by less than `KEEP_ABOVE` a round (greedy keeps a gem until it is
  expected to fall), and buys, beyond the one buy it must make (GB-R3), only what it expects to rise by more
  than `BUY_ABOVE`. Among gems whose prospects are within `NEAR` of the best it buys the one the bazaar has
  most of: the one the others hold least of, and the least likely to run out (GB-R5).

Against three greedy bots (4 players, seats rotated) it wins about 38% of games where greedy wins 26%, with
the same mean score (3,000 games on each of two seeds; docs/bots.md): the margins were chosen on such runs.
"""

from __future__ import annotations

import random

from merchantry.engine import State
from merchantry.games.grand_bazaar.actions import BUY, SELL, BazaarAction
from merchantry.games.grand_bazaar.greedy import GrandBazaarGreedyBot, make_room_or_end
from merchantry.games.grand_bazaar.rules import GEM_RANGE, BazaarState

KEEP_ABOVE = 0.07  # grands a round a gem must be expected to gain to be kept
BUY_ABOVE = 0.07  # ... and to be bought when no buy is required
NEAR = 0.05  # prospects this close count as equal: the gem with the most stock left is bought
LEAD = 2  # grands ahead of every other seat from which it plays as the others do


class GrandBazaarTraderBot:
    name = "trader"

    def __init__(self) -> None:
        self.greedy = GrandBazaarGreedyBot()

    def choose(self, world: State, seat: int, rng: random.Random) -> BazaarAction:
        assert isinstance(world, BazaarState)
        if ahead(world, seat):
            return self.greedy.choose(world, seat, rng)
        return self.trade_apart(world, seat)

    def trade_apart(self, world: BazaarState, seat: int) -> BazaarAction:
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
        return make_room_or_end(legal, moves, must_buy)


def ahead(world: BazaarState, seat: int, lead: int = LEAD) -> bool:
    """At least `lead` grands above every other seat, each gem counted at what it fetches at the end."""
    worth = world.worth_at_end()
    return all(worth[seat] >= worth[other] + lead for other in range(world.num_players) if other != seat)
