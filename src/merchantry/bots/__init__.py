"""Bots: `names(game)`, `get(name, game)`, and `bot.choose(world, seat, rng)`.

A bot is handed a world sampled for its seat (`state.sample_hidden(seat, rng)`), never the real state
(ENGINE principle 2); `play_turn` is the one place that does this for every driver.

Plug-in bots (docs/engine.md, "Write your own bot") come two ways, and only where plug-ins are enabled
(`plugins=True`, or `enable_plugins()` as the command line does; never by default, so that a web request
cannot make the server import a module it names):

- `package.module:factory`: `factory(game)` returns a bot (anything with `choose(world, seat, rng)`);
- a name registered by an installed package in the entry-point group `merchantry.bots`, whose value is
  such a factory. The server's operator lets the lobby offer these with MERCHANTRY_PLUGIN_BOTS=1 (names
  only: the lobby never imports a `module:factory` it is sent).
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import json
import os
import random
import sys
from importlib import metadata
from types import ModuleType
from typing import Any, Protocol

from merchantry.bots.worlds import sampled_world
from merchantry.engine import Action, Game, State
from merchantry.errors import UnknownBot

ENTRY_POINTS = "merchantry.bots"  # the entry-point group of installed plug-in bots
PLUGINS_ENV = "MERCHANTRY_PLUGIN_BOTS"  # "1": the installed plug-ins' names are offered (the lobby too)
# {name: "module:factory"} of installed plug-ins, handed to workers that lack the package's metadata (Ray)
SPECS_ENV = "MERCHANTRY_BOT_SPECS"
_plugins_enabled = False


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


def enable_plugins() -> None:
    """Let `get` and `names` of this process (and of the worker processes it forks) take plug-in bots:
    the command line does, for the person who runs it names the modules."""
    global _plugins_enabled
    _plugins_enabled = True


def _plugins_on(plugins: bool | None) -> bool:
    return _plugins_enabled if plugins is None else plugins


def installed() -> dict[str, str]:
    """{name: "module:factory"} of the bots installed packages register (entry-point group
    `merchantry.bots`), and of those handed to this worker by its driver (SPECS_ENV)."""
    handed = os.environ.get(SPECS_ENV)
    return {**(json.loads(handed) if handed else {}), **_entry_points(tuple(sys.path))}


@functools.lru_cache(maxsize=8)
def _entry_points(path: tuple[str, ...]) -> dict[str, str]:
    """The `merchantry.bots` entry points on this import path (remembered per path: a run looks its
    plug-ins up for every game)."""
    return {ep.name: ep.value for ep in metadata.entry_points(group=ENTRY_POINTS)}


def names(game: Game | str, plugins: bool | None = None) -> list[str]:
    """Bots that can play `game`: the difficulty levels from easy to hard, then the others by name; with
    plug-ins enabled (or MERCHANTRY_PLUGIN_BOTS=1) the installed plug-ins' names after them."""
    from merchantry.bots.levels import LEVELS

    available = _available(game)
    built_in = [level for level in LEVELS if level in available] + sorted(set(available) - set(LEVELS))
    if _plugins_on(plugins) or os.environ.get(PLUGINS_ENV) == "1":
        built_in += sorted(set(installed()) - set(available))
    return built_in


def get(name: str, game: Game | str, plugins: bool | None = None) -> Bot:
    """A new bot called `name` for `game`; raises UnknownBot listing the bots that exist for it.

    With plug-ins enabled `name` may also be an installed plug-in's name or `module:factory`; without,
    only installed plug-ins' names, and only when MERCHANTRY_PLUGIN_BOTS=1."""
    if not isinstance(name, str):
        raise UnknownBot(f"a bot is named by text, not {type(name).__name__}")
    available = _available(game)
    if name in available:
        bot: Bot = available[name]()
        return bot
    enabled = _plugins_on(plugins)
    spec = installed().get(name) if enabled or os.environ.get(PLUGINS_ENV) == "1" else None
    if spec is None and enabled and ":" in name:
        spec = name
    if spec is None:
        hint = "; your own bot: module:factory (docs/engine.md)" if enabled else ""
        listed = ", ".join(names(game, plugins))
        raise UnknownBot(f"no bot {name!r} for {_game_name(game)}; bots are: {listed}{hint}")
    return _from_factory(spec, name, game)


def plugin_spec(name: str) -> str | None:
    """The `module:factory` behind a plug-in bot's name (itself for a `module:factory`); None for a
    built-in bot or an unknown name."""
    return installed().get(name) or (name if ":" in name else None)


def plugin_modules(bot_names: list[str] | tuple[str, ...]) -> list[ModuleType]:
    """The top-level modules of the plug-in bots among `bot_names`, imported: what a cluster's workers
    need shipped when the package is not installed on every machine (backends.py)."""
    found: dict[str, ModuleType] = {}
    for name in bot_names:
        spec = plugin_spec(name)
        if spec:
            top = spec.partition(":")[0].split(".")[0]
            if top != "merchantry" and top not in found:
                found[top] = importlib.import_module(top)
    return list(found.values())


def _from_factory(spec: str, name: str, game: Game | str) -> Bot:
    """Import `module:factory` and call the factory with the game; every failure is one UnknownBot line."""
    from merchantry import games

    module_name, _, attribute = spec.partition(":")
    if not module_name or not attribute:
        raise UnknownBot(f"bot {name!r}: write a plug-in bot as package.module:factory")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise UnknownBot(f"bot {name!r}: cannot import {module_name!r} ({exc})") from None
    factory: Any = module
    for part in attribute.split("."):
        factory = getattr(factory, part, None)
        if factory is None:
            raise UnknownBot(f"bot {name!r}: {module_name} has no {attribute!r}")
    if not callable(factory):
        raise UnknownBot(f"bot {name!r}: {spec} is not callable: it must be a factory called with the game")
    the_game = games.get(game) if isinstance(game, str) else game
    try:
        bot = factory(the_game)
    except Exception as exc:  # the plug-in's own code: its failure, in one line, before any game
        raise UnknownBot(f"bot {name!r}: {spec}(game) failed: {type(exc).__name__}: {exc}"[:300]) from None
    if not callable(getattr(bot, "choose", None)):
        raise UnknownBot(
            f"bot {name!r}: {spec}(game) returned {bot!r:.40}, which has no choose(world, seat, rng)"
        )
    if not isinstance(getattr(bot, "name", None), str):
        with contextlib.suppress(AttributeError):  # a bot with slots keeps its own
            bot.name = name
    result: Bot = bot
    return result


def play_turn(state: State, seat: int, bot: Bot, rng: random.Random) -> Action:
    """Let `bot` choose for `seat` from a world sampled for that seat; returns the action (not applied)."""
    world = sampled_world(state, seat, rng)
    return bot.choose(world, seat, rng)
