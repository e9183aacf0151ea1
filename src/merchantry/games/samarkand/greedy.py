"""The `greedy` Samarkand bot: looks one action ahead and judges the position by what it would score now
plus what its goods cards may still become.

A goods card gains 4 points per camel of a family the bot is married into (SK-E2), so a card is worth more
the closer such a family's route runs to its space. The judgement of a position for the bot's seat:
- its score now (SK-E2: money, markers, cards in hand at their current worth);
- for each card in hand, the best of its families that could still reach the card's space, 4 points
  discounted by how many camels away the route is (`REACH_DISCOUNT` per step).
So it marries families whose routes can reach its goods (paying the cost only when the prospect is worth
it), expands towards its goods spaces and towards first meetings that pay it, and sells a card when the
space is unlikely to gain camels of its families (3 dirhams beat a card worth little). It plays in a world
sampled for its seat, like every bot.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import lru_cache

from merchantry.engine import State
from merchantry.games.samarkand.actions import SamarkandAction
from merchantry.games.samarkand.components import ADJACENT, MAP, OWN_CAMEL_POINTS
from merchantry.games.samarkand.rules import FAMILIES, SamarkandState

REACH_DISCOUNT = 0.6  # a camel one more step away is worth this much less
HORIZON = 6  # routes further than this many camels count for nothing


def distances(state: SamarkandState, family: int) -> dict[int, int]:
    """Camels `family` still needs to reach each space it could stand on (1 = next to its route)."""
    return _distances(state.camels, family)


@lru_cache(maxsize=4096)
def _distances(camels: tuple[int, ...], family: int) -> dict[int, int]:
    # cached by the map itself: most actions a bot weighs (a marriage, a sale) leave the map as it was,
    # and a search meets the same maps again and again (the result is shared: callers only read it)
    bit = 1 << family
    frontier = [space for space, mask in enumerate(camels) if mask & bit]
    seen = dict.fromkeys(frontier, 0)
    for steps in range(1, HORIZON + 1):  # breadth first, a ring of spaces per step
        ring = []
        for space in frontier:
            for other in ADJACENT[space]:
                mask = camels[other]
                if other not in seen and not mask & (mask - 1):  # a full space blocks the way (SK-T4)
                    seen[other] = steps
                    ring.append(other)
        frontier = ring
    return seen


def prospect(state: SamarkandState, seat: int) -> float:
    """What the seat's goods cards may still gain from the families it holds."""
    families = [f for f in FAMILIES if state.tiles_held[seat][f] and state.camels_left[f]]
    reach = [distances(state, f) for f in families]
    total = 0.0
    for good in state.hands[seat]:
        space = MAP.goods_space[good - 1]
        mask = state.camels[space]
        if mask & (mask - 1):
            continue  # full: the card's worth is settled
        best = 0.0
        for family, steps in zip(families, reach, strict=True):
            if not mask & (1 << family) and steps.get(space, 0) > 0:
                best = max(best, OWN_CAMEL_POINTS * REACH_DISCOUNT ** steps[space])
        total += best
    return total


def judge(state: SamarkandState, seat: int) -> float:
    return state.score_breakdown(seat)["total"] + prospect(state, seat)


def best_by_one_look(
    world: SamarkandState, seat: int, rng: random.Random, value: Callable[[SamarkandState, int], float]
) -> SamarkandAction:
    """The legal action whose outcome `value` judges best for `seat` (ties drawn at random)."""
    best: list[SamarkandAction] = []
    best_value = float("-inf")
    for action in world.legal_actions(seat):
        after = world.clone()
        after.apply(seat, action)
        worth = value(after, seat)
        if worth > best_value + 1e-9:
            best, best_value = [action], worth
        elif abs(worth - best_value) <= 1e-9:
            best.append(action)
    return rng.choice(best)


class SamarkandGreedyBot:
    name = "greedy"

    def choose(self, world: State, seat: int, rng: random.Random) -> SamarkandAction:
        assert isinstance(world, SamarkandState)
        return best_by_one_look(world, seat, rng, judge)
