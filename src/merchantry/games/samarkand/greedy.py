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
from collections.abc import Callable, Iterable

from merchantry.engine import State
from merchantry.games.samarkand.actions import SamarkandAction
from merchantry.games.samarkand.components import ADJACENT, MAP, OWN_CAMEL_POINTS
from merchantry.games.samarkand.rules import FAMILIES, SamarkandState

REACH_DISCOUNT = 0.6  # a camel one more step away is worth this much less
HORIZON = 6  # routes further than this many camels count for nothing


def sum_bits(bits: Iterable[int]) -> int:
    found = 0
    for bit in bits:
        found |= bit
    return found


def distances(state: SamarkandState, family: int) -> dict[int, int]:
    """Camels `family` still needs to reach each space it could stand on (1 = next to its route; 0 = on
    it)."""
    rings = _rings(state, family)
    found = {space: 0 for space in _spaces(rings[0])}
    for steps, ring in enumerate(rings[1 : HORIZON + 1], start=1):
        found.update(dict.fromkeys(_spaces(ring), steps))
    return found


# each space's neighbours as one bit per space: a breadth-first search then widens a whole ring at once
ADJACENT_BITS: tuple[int, ...] = tuple(sum(1 << other for other in near) for near in ADJACENT)
CHUNK = 11  # spaces per entry of NEIGHBOURS: a ring widens in one look-up per 11 spaces, not one per space
# NEIGHBOURS[c][b]: the neighbours of the spaces c * CHUNK + i for each bit i set in b
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        sum_bits(
            ADJACENT_BITS[space]
            for i in range(CHUNK)
            if byte >> i & 1 and (space := chunk * CHUNK + i) < len(ADJACENT)
        )
        for byte in range(1 << CHUNK)
    )
    for chunk in range(-(-len(ADJACENT) // CHUNK))
)
# the points a card's space `steps` camels away from a family's route is counted for (index: steps)
REACH_POINTS: tuple[float, ...] = tuple(
    OWN_CAMEL_POINTS * REACH_DISCOUNT**steps for steps in range(HORIZON + 1)
)
STEPS = range(1, HORIZON + 1)
CHUNK_MASK = (1 << CHUNK) - 1
ALL_SPACES = (1 << len(ADJACENT)) - 1
GOODS_SPACE: tuple[int, ...] = (-1, *MAP.goods_space)  # GOODS_SPACE[n]: the space of good n


def _spaces(bits: int) -> list[int]:
    return [space for space in range(len(ADJACENT)) if bits >> space & 1]


def _neighbours(bits: int) -> int:
    """The spaces next to any of `bits`."""
    found = 0
    for table in NEIGHBOURS:
        if not bits:
            break
        found |= table[bits & CHUNK_MASK]
        bits >>= CHUNK
    return found


Board = tuple[tuple[int, ...], int]  # each family's spaces, and the spaces open to a camel, as bit sets
_BOARDS: dict[tuple[int, ...], Board] = {}
_RINGS: dict[tuple[tuple[int, ...], int], tuple[int, ...]] = {}
KEPT = 8192  # entries a cache keeps before it starts afresh


def _board(state: SamarkandState) -> Board:
    """Each family's spaces and the spaces still open to a camel (not full: SK-T4, two camels fill one),
    from the routes the state keeps; remembered by the map (every family's search and seat share it)."""
    found = _BOARDS.get(state.camels)
    if found is None:
        routes = tuple(sum_bits(1 << space for space in route) for route in state.routes)
        once = twice = 0
        for route in routes:
            twice |= once & route
            once |= route
        if len(_BOARDS) >= KEPT:
            _BOARDS.clear()
        found = _BOARDS[state.camels] = (routes, ALL_SPACES & ~twice)
    return found


def _reach(state: SamarkandState, family: int) -> tuple[tuple[int, ...], int]:
    """`_rings`, and the spaces 1 to `HORIZON` camels away as one bit set."""
    rings = _rings(state, family)
    return rings, rings[-1]


def _rings(state: SamarkandState, family: int) -> tuple[int, ...]:
    """Breadth first from `family`'s route: the spaces it stands on, then those 1, 2, .. `HORIZON` camels
    away, as bit sets, and last all of those but the route. Remembered by the map itself: most actions a
    bot weighs (a marriage, a sale) leave the map as it was, and a search meets the same maps again and
    again."""
    key = (state.camels, family)
    rings = _RINGS.get(key)
    if rings is None:
        routes, free = _board(state)
        seen = frontier = routes[family]
        found = [frontier]
        for _ in STEPS:
            frontier = _neighbours(frontier) & free & ~seen
            seen |= frontier
            found.append(frontier)
        found.append(seen & ~routes[family])  # last: every ring but the route, at once
        if len(_RINGS) >= KEPT:
            _RINGS.clear()
        rings = _RINGS[key] = tuple(found)
    return rings


def prospect(state: SamarkandState, seat: int) -> float:
    """What the seat's goods cards may still gain from the families it holds."""
    camels = state.camels
    held = state.tiles_held[seat]
    left = state.camels_left
    reach = [(1 << f, *_reach(state, f)) for f in FAMILIES if held[f] and left[f]]
    total = 0.0
    for good in state.hands[seat]:
        space = GOODS_SPACE[good]
        mask = camels[space]
        if mask & (mask - 1):
            continue  # full: the card's worth is settled
        here = 1 << space
        best = 0.0
        for bit, rings, within in reach:
            if within & here and not mask & bit:
                for steps in STEPS:  # the nearest ring that holds the space: 4 points discounted per step
                    if rings[steps] & here:
                        if REACH_POINTS[steps] > best:
                            best = REACH_POINTS[steps]
                        break
        total += best
    return total


def judge(state: SamarkandState, seat: int) -> float:
    return state.score_breakdown(seat)["total"] + prospect(state, seat)


def best_by_one_look(
    world: SamarkandState,
    seat: int,
    rng: random.Random,
    value: Callable[[SamarkandState, int], float],
    among: list[SamarkandAction] | None = None,
) -> SamarkandAction:
    """The legal action (of `among`, when given) whose outcome `value` judges best for `seat` (ties drawn
    at random)."""
    best: list[SamarkandAction] = []
    best_value = float("-inf")
    for action in world.legal_actions(seat) if among is None else among:
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
