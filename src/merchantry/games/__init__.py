"""The game registry: every game is reached by name through `get` (the rules) and `package` (its parts).

A game registers with one line in `_PACKAGES`: its package exposes `PACKAGE`, a `merchantry.package.
GamePackage` naming its `Game`, bots, drawings, rules pages and catalogue. Packages are imported on first
use so that importing merchantry stays cheap.
"""

from __future__ import annotations

import importlib

from merchantry.engine import Game
from merchantry.errors import UnknownGame
from merchantry.package import GamePackage

_PACKAGES = {
    "byzanz": "merchantry.games.byzanz",
    "grand_bazaar": "merchantry.games.grand_bazaar",
    "money": "merchantry.games.money",
    "samarkand": "merchantry.games.samarkand",
}
_loaded: dict[str, GamePackage] = {}


def names() -> list[str]:
    """Names of every registered game, sorted."""
    return sorted(_PACKAGES)


def package(name: str) -> GamePackage:
    """Everything the game called `name` provides; raises UnknownGame (a ValueError) listing the names."""
    if name not in _PACKAGES:
        raise UnknownGame(f"unknown game {name!r}; games are: {', '.join(names())}")
    if name not in _loaded:
        registered = importlib.import_module(_PACKAGES[name]).PACKAGE
        assert isinstance(registered, GamePackage) and registered.game.name == name
        _loaded[name] = registered
    return _loaded[name]


def get(name: str) -> Game:
    """The game called `name`; raises UnknownGame (a ValueError) listing the known names."""
    return package(name).game
