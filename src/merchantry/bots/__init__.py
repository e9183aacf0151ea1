"""Bots: `names(game)`, `get(name, game)`, and `bot.choose(world, seat, rng)`.

A bot is handed a world sampled for its seat (`state.sample_hidden(seat, rng)`), never the real state
(ENGINE principle 2); `play_turn` is the one place that does this for every driver.
"""

from __future__ import annotations

import importlib
import random
from typing import Protocol

from merchantry.engine import Action, Game, State
from merchantry.errors import UnknownBot


class Bot(Protocol):
    name: str

    def choose(self, world: State, seat: int, rng: random.Random) -> Action:
        """An action legal for `seat` in `world`."""
        ...


# bot name -> {game name or "*" for every game: "module:Class"}
_BOTS = {
    "random": {"*": "merchantry.bots.random_bot:RandomBot"},
    "greedy": {
        "money": "merchantry.bots.money_greedy:MoneyGreedyBot",
        "grand_bazaar": "merchantry.bots.grand_bazaar_greedy:GrandBazaarGreedyBot",
        "byzanz": "merchantry.bots.byzanz_greedy:ByzanzGreedyBot",
    },
}


def _game_name(game: Game | str) -> str:
    return game if isinstance(game, str) else game.name


def names(game: Game | str) -> list[str]:
    """Bots that can play `game`."""
    name = _game_name(game)
    return sorted(bot for bot, where in _BOTS.items() if name in where or "*" in where)


def get(name: str, game: Game | str) -> Bot:
    """A new bot called `name` for `game`; raises UnknownBot listing the bots that exist for it."""
    game_name = _game_name(game)
    where = _BOTS.get(name, {})
    target = where.get(game_name) or where.get("*")
    if target is None:
        raise UnknownBot(f"no bot {name!r} for {game_name}; bots are: {', '.join(names(game_name))}")
    module, cls = target.split(":")
    bot: Bot = getattr(importlib.import_module(module), cls)()
    return bot


def play_turn(state: State, seat: int, bot: Bot, rng: random.Random) -> Action:
    """Let `bot` choose for `seat` from a world sampled for that seat; returns the action (not applied)."""
    world = state.sample_hidden(seat, rng)
    return bot.choose(world, seat, rng)
