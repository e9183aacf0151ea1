"""Merchantry: faithful digital editions of merchant board games.

The public surface is described in docs/engine.md (and ../shared/ENGINE.md):

    import merchantry
    game = merchantry.games.get(merchantry.games.names()[0])   # every game by name: games.names()
    state = game.new_game(players=game.min_players, seed=7)
"""

from merchantry import _native

# Which build runs, e.g. "compiled (mypyc)" or "pure Python (MERCHANTRY_PURE=1)": decided before any
# engine or rules module is imported (merchantry/_native.py).
build = _native.activate()

from merchantry import bots, games, records  # noqa: E402  (after the build is chosen)
from merchantry.errors import IllegalAction, InvalidOption, InvalidRecord, UnknownBot, UnknownGame  # noqa: E402

__all__ = [
    "IllegalAction",
    "InvalidOption",
    "InvalidRecord",
    "UnknownBot",
    "UnknownGame",
    "bots",
    "build",
    "games",
    "records",
]
