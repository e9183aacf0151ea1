"""Bot variants for screening runs, named on the command line as `variants:NAME` (run with
PYTHONPATH=benchmarks; a `module:factory` bot, docs/engine.md):

    PYTHONPATH=benchmarks .venv/bin/python benchmarks/bot_strength.py --game grand_bazaar \\
        --level variants:closer__rounds=12__worlds=48 --games 600

NAME is a bot of the game or a level, then `__key=value` changes: for a bot, its constructor's keyword
arguments; for a level (easy, medium, hard), fields of its SearchConfig (as tune_search.py's overrides).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from merchantry import bots
from merchantry.bots.ismcts import SearchBot
from merchantry.bots.levels import LEVELS, recipe


def _value(text: str) -> Any:
    if text == "None":
        return None
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def __getattr__(name: str) -> Any:
    if name.startswith("__"):
        raise AttributeError(name)
    base, *changes = name.split("__")
    kwargs = {key: _value(text) for key, _, text in (change.partition("=") for change in changes)}

    def factory(game: Any) -> Any:
        if base in LEVELS:
            config = dataclasses.replace(recipe(game.name, base), **kwargs)
            return SearchBot(name, game.name, config)
        bot = type(bots.get(base, game.name))(**kwargs)
        bot.name = name
        return bot

    return factory
