"""Scripted Samarkand strategies: what a clever newcomer tries in a few lines, to test that the levels
have no cheap exploit (issue 29; hard's results against each are in docs/bots.md).

Each plays like `greedy` (the best action by one look ahead) among the actions its habit allows:
- `loyal`: marries one family only (SK-T2), and builds its routes from then on;
- `keeper`: never sells a goods card when a sale is offered (SK-G1): every card waits for camels;
- `copycat`: marries only families the leader is married into (the other seat with the most public
  points: money and markers, SK-E2); other actions as greedy.
"""

from __future__ import annotations

import random

from merchantry.engine import State
from merchantry.games.samarkand.actions import SamarkandAction
from merchantry.games.samarkand.greedy import best_by_one_look, judge
from merchantry.games.samarkand.rules import SamarkandState

Actions = list[SamarkandAction]


class SamarkandScripted:
    name = "scripted"

    def choose(self, world: State, seat: int, rng: random.Random) -> SamarkandAction:
        assert isinstance(world, SamarkandState)
        legal = world.legal_actions(seat)
        return best_by_one_look(world, seat, rng, judge, self.allowed(world, seat, legal) or legal)

    def allowed(
        self, world: SamarkandState, seat: int, legal: list[SamarkandAction]
    ) -> list[SamarkandAction]:
        return legal


class SamarkandLoyalBot(SamarkandScripted):
    name = "loyal"

    def allowed(
        self, world: SamarkandState, seat: int, legal: list[SamarkandAction]
    ) -> list[SamarkandAction]:
        married = any(world.tiles_held[seat])
        return [a for a in legal if a.verb != "marry" or not married]


class SamarkandKeeperBot(SamarkandScripted):
    name = "keeper"

    def allowed(
        self, world: SamarkandState, seat: int, legal: list[SamarkandAction]
    ) -> list[SamarkandAction]:
        return [a for a in legal if a.verb != "sell"]


def public_points(world: SamarkandState, seat: int) -> int:
    return world.money[seat] + world.goods_markers[seat] + world.relation_markers[seat]


class SamarkandCopycatBot(SamarkandScripted):
    name = "copycat"

    def allowed(
        self, world: SamarkandState, seat: int, legal: list[SamarkandAction]
    ) -> list[SamarkandAction]:
        others = [p for p in range(world.num_players) if p != seat]
        leader = max(others, key=lambda p: public_points(world, p))
        held = world.tiles_held[leader]
        return [a for a in legal if a.verb != "marry" or held[a.family]]


SCRIPTED = {bot.name: bot for bot in (SamarkandLoyalBot, SamarkandKeeperBot, SamarkandCopycatBot)}
