"""How far each seat is ahead in an unfinished game of Samarkand, for search bots that cut a rollout short."""

from __future__ import annotations

from merchantry.engine import State
from merchantry.games.samarkand.investor import invested
from merchantry.games.samarkand.rules import SamarkandState


def evaluate(state: State) -> list[float]:
    """The investor's judgement of every seat (investor.py): its score now (SK-E2), what its goods cards may
    still gain from the families it is married into, and the first meetings those families may still have.
    (The bare score misleads a search: it pays for marrying now and sees nothing of a route still to be
    built, nor of the relationships a tile will be paid for.)"""
    assert isinstance(state, SamarkandState)
    return [invested(state, seat) for seat in range(state.num_players)]
