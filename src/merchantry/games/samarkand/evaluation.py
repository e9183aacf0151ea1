"""How far each seat is ahead in an unfinished game of Samarkand, for search bots that cut a rollout short."""

from __future__ import annotations

from merchantry.engine import State
from merchantry.games.samarkand.greedy import judge
from merchantry.games.samarkand.rules import SamarkandState


def evaluate(state: State) -> list[float]:
    """The greedy bot's judgement of every seat: its score now (SK-E2) plus what its goods cards may still
    gain from the families it is married into. (The bare score misleads a search: it pays for marrying
    now and sees nothing of a route still to be built.)"""
    assert isinstance(state, SamarkandState)
    return [judge(state, seat) for seat in range(state.num_players)]
