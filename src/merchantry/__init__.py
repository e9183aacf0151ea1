"""Merchantry: faithful digital editions of merchant board games.

The public surface is described in docs/engine.md (and ../shared/ENGINE.md):

    import merchantry
    game = merchantry.games.get(merchantry.games.names()[0])   # every game by name: games.names()
    state = game.new_game(players=game.min_players, seed=7)
"""

from merchantry import bots, games, records
from merchantry.errors import IllegalAction, InvalidOption, InvalidRecord, UnknownBot, UnknownGame

__all__ = [
    "IllegalAction",
    "InvalidOption",
    "InvalidRecord",
    "UnknownBot",
    "UnknownGame",
    "bots",
    "games",
    "records",
]
