"""The game registry: every game is reached by name through `get`.

A game registers by being listed in `_MODULES`; its module exposes `GAME`, a `merchantry.engine.Game`.
Modules are imported on first use so that importing merchantry stays cheap.
"""

from __future__ import annotations

import importlib

from merchantry.engine import Game
from merchantry.errors import UnknownGame

_MODULES = {
    "byzanz": "merchantry.games.byzanz",
    "grand_bazaar": "merchantry.games.grand_bazaar",
    "money": "merchantry.games.money",
}
_loaded: dict[str, Game] = {}


def names() -> list[str]:
    """Names of every registered game, sorted."""
    return sorted(_MODULES)


def get(name: str) -> Game:
    """The game called `name`; raises UnknownGame (a ValueError) listing the known names."""
    if name not in _MODULES:
        raise UnknownGame(f"unknown game {name!r}; games are: {', '.join(names())}")
    if name not in _loaded:
        game = importlib.import_module(_MODULES[name]).GAME
        assert isinstance(game, Game)
        _loaded[name] = game
    return _loaded[name]
