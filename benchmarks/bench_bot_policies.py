"""CPU time per call of each game's bot evaluation code: the functions a hard search's rollouts spend their
time in (issue 29), timed one by one on the same positions.

    .venv/bin/python benchmarks/bench_bot_policies.py [--games 3]

- On greedy games: every position of `--games` seeded games of four greedy bots, each seat's decision
  taken once, with the functions' own caches cleared first (a search meets the same positions more often
  than this, so there the cached functions gain more);
- In hard's search: the calls `hard`'s searches make (from positions a quarter, half and three quarters
  into a greedy game, 40 iterations each) are recorded, then replayed in order and timed, caches cleared
  first: what a search pays per call;
- iterations per CPU second of hard's search (its rollouts and evaluation, no wall-time cap) from those
  positions, 80 iterations each.

Microseconds of CPU time (`time.process_time`) per call.
To compare code before and after a change, run this file against each source tree
(`PYTHONPATH=<tree>/src`): the functions timed exist in both. The machine is noted at the top; compare
rows of one run (these machines are noisy).
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import time
from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.table import Table

from merchantry import bots, games
from merchantry.bots import play_turn

PLAYERS = 4


def positions(name: str, count: int) -> list[Any]:
    found = []
    for seed in range(count):
        state = games.get(name).new_game(players=PLAYERS, seed=seed)
        greedy = bots.get("greedy", name)
        rng = random.Random(seed)
        while not state.is_over():
            found.append(state.clone())
            seat = state.to_act()[0]
            state.apply(seat, play_turn(state, seat, greedy, rng))
    return found


def clear_caches(module: Any) -> None:
    for value in vars(module).values():
        clear = getattr(value, "cache_clear", None)
        if callable(clear):
            clear()


def per_call(states: list[Any], call: Callable[[Any, int], object], modules: list[Any]) -> tuple[float, int]:
    for module in modules:
        clear_caches(module)
    calls = 0
    start = time.process_time()
    for state in states:
        for seat in state.to_act():
            call(state, seat)
            calls += 1
    return (time.process_time() - start) / calls * 1e6, calls


def bot_call(name: str, bot: str) -> Callable[[Any, int], object]:
    player = bots.get(bot, name)
    rng = random.Random(1)
    return lambda state, seat: player.choose(state, seat, rng)


def cases() -> list[tuple[str, str, Callable[[Any, int], object], list[Any]]]:
    """(game, what, call, modules whose caches are cleared first)."""
    from merchantry.games.grand_bazaar import speculator
    from merchantry.games.money import greedy as money_greedy
    from merchantry.games.samarkand import greedy as samarkand_greedy

    def holding(state: Any, seat: int) -> object:
        return speculator.best_holding(state, seat, speculator.next_card_statistics(frozenset(state.deck)))

    def hand(state: Any, seat: int) -> object:
        cards = list(state.view(seat)["hand"])
        return [money_greedy.hand_value(cards, progress) for progress in (0.2, 0.8)]

    def evaluation(name: str) -> Callable[[Any, int], object]:
        evaluate = games.package(name).evaluate
        assert evaluate is not None
        return lambda state, _: evaluate(state)

    return [
        ("grand_bazaar", "speculator.best_holding", holding, [speculator]),
        ("grand_bazaar", "speculator bot", bot_call("grand_bazaar", "speculator"), [speculator]),
        ("grand_bazaar", "evaluate", evaluation("grand_bazaar"), []),
        ("money", "greedy.hand_value (x2)", hand, [money_greedy]),
        ("money", "greedy bot", bot_call("money", "greedy"), [money_greedy]),
        ("money", "collector bot", bot_call("money", "collector"), [money_greedy]),
        ("money", "evaluate", evaluation("money"), []),
        ("samarkand", "greedy.prospect", samarkand_greedy.prospect, [samarkand_greedy]),
        ("samarkand", "greedy.judge", samarkand_greedy.judge, [samarkand_greedy]),
        ("samarkand", "greedy bot", bot_call("samarkand", "greedy"), [samarkand_greedy]),
        ("samarkand", "investor bot", bot_call("samarkand", "investor"), [samarkand_greedy]),
        ("samarkand", "evaluate", evaluation("samarkand"), [samarkand_greedy]),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=3)
    args = parser.parse_args()
    console = Console(width=150)
    console.print(
        f"{platform.node()} · {platform.machine()} · {os.cpu_count()} cores · Python "
        f"{platform.python_version()} · {games.__file__.rsplit('/src/', 1)[0]}"
    )
    table = Table(title="CPU microseconds per call on the positions of greedy games (4 players)")
    for column in ("game", "code", "calls", "µs per call"):
        table.add_column(column, justify="left" if column in ("game", "code") else "right")
    found = {name: positions(name, args.games) for name in ("grand_bazaar", "money", "samarkand")}
    for name, what, call, modules in cases():
        micros, calls = per_call(found[name], call, modules)
        table.add_row(name, what, f"{calls:,}", f"{micros:,.1f}")
    console.print(table)
    console.print(searched_calls())
    console.print(search_speed())


def search_speed() -> Table:
    import sys
    from dataclasses import replace

    from merchantry.bots.ismcts import searcher
    from merchantry.bots.levels import recipe

    sys.path.insert(0, os.path.dirname(__file__))
    from bench_bots import positions as search_positions

    table = Table(title="hard's search: iterations per CPU second (80 iterations from 3 positions)")
    for column in ("game", "iterations", "CPU s", "iterations / CPU s"):
        table.add_column(column, justify="left" if column == "game" else "right")
    for name in games.names():
        search = searcher(name, replace(recipe(name, "hard"), iterations=80, seconds=None))
        rng = random.Random(1)
        done, spent = 0, 0.0
        for state, seat in search_positions(name, seed=3):
            world = state.sample_hidden(seat, rng)  # type: ignore[attr-defined]
            start = time.process_time()
            done += search.run(world, seat, rng).iterations
            spent += time.process_time() - start
        table.add_row(name, str(done), f"{spent:.2f}", f"{done / spent:,.0f}")
    return table


def recorded_calls(name: str, module: Any, function: str) -> list[tuple[Any, ...]]:
    """The arguments of every call of `module.function` made by hard's searches (states cloned)."""
    import sys
    from dataclasses import replace

    from merchantry.bots.ismcts import searcher
    from merchantry.bots.levels import recipe

    sys.path.insert(0, os.path.dirname(__file__))
    from bench_bots import positions as search_positions

    original = getattr(module, function)
    calls: list[tuple[Any, ...]] = []

    def record(*args: Any) -> Any:
        calls.append(tuple(arg.clone() if hasattr(arg, "clone") else arg for arg in args))
        return original(*args)

    setattr(module, function, record)
    try:
        search = searcher(name, replace(recipe(name, "hard"), iterations=40, seconds=None))
        rng = random.Random(1)
        for state, seat in search_positions(name, seed=3):
            search.run(state.sample_hidden(seat, rng), seat, rng)  # type: ignore[attr-defined]
    finally:
        setattr(module, function, original)
    return calls


def searched_calls() -> Table:
    from merchantry.games.grand_bazaar import speculator
    from merchantry.games.money import greedy as money_greedy
    from merchantry.games.samarkand import greedy as samarkand_greedy

    table = Table(title="CPU microseconds per call, the calls of hard's searches replayed (4 players)")
    for column in ("game", "code", "calls", "µs per call"):
        table.add_column(column, justify="left" if column in ("game", "code") else "right")
    for name, module, function in (
        ("grand_bazaar", speculator, "best_holding"),
        ("money", money_greedy, "hand_value"),
        ("samarkand", samarkand_greedy, "prospect"),
    ):
        calls = recorded_calls(name, module, function)
        call = getattr(module, function)
        for holder in (module, samarkand_greedy, speculator):
            clear_caches(holder)
            for cache in ("_MERITS", "_BOARDS", "_RINGS"):
                getattr(holder, cache, {}).clear()
        start = time.process_time()
        for args in calls:
            call(*args)
        micros = (time.process_time() - start) / len(calls) * 1e6
        table.add_row(
            name, f"{module.__name__.rsplit('.', 1)[1]}.{function}", f"{len(calls):,}", f"{micros:,.1f}"
        )
    return table


if __name__ == "__main__":
    main()
