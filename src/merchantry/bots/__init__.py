"""Bots: `names(game)`, `get(name, game)`, and `bot.choose(world, seat, rng)`.

A bot is handed a world sampled for its seat (`state.sample_hidden(seat, rng)`), never the real state
(ENGINE principle 2); `play_turn` is the one place that does this for every driver.
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from merchantry.engine import Action, Game, State
from merchantry.errors import UnknownBot


class Bot(Protocol):
    name: str

    def choose(self, world: State, seat: int, rng: random.Random) -> Action:
        """An action legal for `seat` in `world`."""
        ...


def _generic() -> dict[str, type]:
    """Bots that play every game (any legal move); per-game bots come from each game's package."""
    from merchantry.bots.random_bot import RandomBot

    return {"random": RandomBot}


def _game_name(game: Game | str) -> str:
    return game if isinstance(game, str) else game.name


def _levels(game_name: str) -> dict[str, Any]:
    """The difficulty levels (ISMCTS recipes), for every game."""
    from merchantry.bots.levels import LEVELS, level_bot

    return {level: (lambda level=level: level_bot(game_name, level)) for level in LEVELS}


def _available(game: Game | str) -> dict[str, Any]:
    from merchantry import games  # the registry imports the games, which may import this module

    name = _game_name(game)
    return {**_generic(), **_levels(name), **games.package(name).bots}


def names(game: Game | str) -> list[str]:
    """Bots that can play `game`: the difficulty levels from easy to hard, then the others by name."""
    from merchantry.bots.levels import LEVELS

    available = _available(game)
    return [level for level in LEVELS if level in available] + sorted(set(available) - set(LEVELS))


def get(name: str, game: Game | str) -> Bot:
    """A new bot called `name` for `game`; raises UnknownBot listing the bots that exist for it."""
    available = _available(game)
    if name not in available:
        raise UnknownBot(f"no bot {name!r} for {_game_name(game)}; bots are: {', '.join(names(game))}")
    bot: Bot = available[name]()
    return bot


def play_turn(state: State, seat: int, bot: Bot, rng: random.Random) -> Action:
    """Let `bot` choose for `seat` from a world sampled for that seat; returns the action (not applied)."""
    world = state.sample_hidden(seat, rng)
    return bot.choose(world, seat, rng)
