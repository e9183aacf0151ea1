"""How far each seat is ahead in an unfinished game of Money, for search bots that cut a rollout short."""

from __future__ import annotations

from merchantry.engine import State
from merchantry.games.money.components import CARD_CODES
from merchantry.games.money.rules import MoneyState
from merchantry.games.money.scoring import score_breakdown


def evaluate(state: State) -> list[float]:
    """Each seat's match score so far plus what its cards (hand and bid) would score if the deal ended now
    (MO-E1..E4): the deal's end scores exactly that."""
    assert isinstance(state, MoneyState)
    played = state.scores()
    return [
        played[p] + score_breakdown(CARD_CODES[c] for c in (*state.hands[p], *state.bids[p])).total
        for p in range(state.num_players)
    ]
