"""How far each seat is ahead in an unfinished game of Grand Bazaar, for search bots that cut a rollout
short."""

from __future__ import annotations

from merchantry.engine import State
from merchantry.games.grand_bazaar.components import FINAL_GEM_VALUE
from merchantry.games.grand_bazaar.rules import BazaarState


def evaluate(state: State) -> list[float]:
    """Cash plus each gem at what it can still fetch: its price if it can be sold above the final cash-out
    value, else that value (GB-E1)."""
    assert isinstance(state, BazaarState)
    worth = [max(price, FINAL_GEM_VALUE) for price in state.prices]
    return [
        state.cash[p] + sum(count * value for count, value in zip(state.gems[p], worth, strict=True))
        for p in range(state.num_players)
    ]
