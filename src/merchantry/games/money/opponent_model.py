"""The searches' model of the others' sealed bids (`GamePackage.hidden_model`, merchantry.bots.worlds).

In a world sampled for a seat, `sample_hidden` draws each other seat's sealed bid at random from its
sampled cards (MO-R1: a sealed bid is unseen). The searches play the others by the greedy bot in their
play-outs, so a bid not yet sealed is greedy's; a sealed one drawn at random was a different opponent, and
the seat's chance of a same bid rose by 13 points on average once the others had sealed. Here each sealed
bid is made again by the greedy bot from the seat's sampled hand, as an unsealed one would be.
"""

from __future__ import annotations

import random

from merchantry.engine import State
from merchantry.games.money.greedy import MoneyGreedyBot
from merchantry.games.money.rules import BIDDING, MoneyState

GREEDY = MoneyGreedyBot()
MOST_STEPS = 40  # a bid has at most a hand's cards and the seal (the greedy bot never takes a card back)


def redraw_sealed_bids(world: State, seat: int, rng: random.Random) -> None:
    """Every other seat's sealed bid in `world` (sampled for `seat`) made again by the greedy bot."""
    assert isinstance(world, MoneyState)
    if world.phase != BIDDING:
        return
    for other in range(world.num_players):
        if other == seat or not world.committed[other]:
            continue
        world.reopen_bid(other)
        for _ in range(MOST_STEPS):
            world.apply(other, GREEDY.choose(world, other, rng))
            if world.committed[other]:
                break
