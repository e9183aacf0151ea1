"""ISMCTS speed per game, and the time each difficulty level takes per decision (4 players).

    .venv/bin/python benchmarks/bench_bots.py [--games 2] [--game NAME]

- iterations/s: `Search.run` with each game's `hard` recipe (its rollout policy and depth) for 200
  iterations, from positions a quarter, half and three quarters into a greedy game;
- per decision: each level plays seat 1 of `--games` games against three `greedy` bots; every call of its
  `choose` is timed (a planned step of a multi-step move included: that is what a player waits for), and
  decisions with a single legal move are left out (the bot answers those at once). Median and 99th
  percentile in milliseconds.

The machine is noted at the top; compare rows of one run (these machines are noisy).
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import time
from dataclasses import replace

from rich.console import Console
from rich.table import Table

from merchantry import bots, games
from merchantry.bots.ismcts import searcher
from merchantry.bots.levels import LEVELS, recipe

PLAYERS = 4


def positions(name: str, seed: int) -> list[tuple[object, int]]:
    """States a quarter, half and three quarters into a greedy game, with the seat to act."""
    state = games.get(name).new_game(players=PLAYERS, seed=seed)
    greedy = bots.get("greedy", name)
    rng = random.Random(seed)
    history = []
    while not state.is_over():
        seat = state.to_act()[0]
        history.append((state.clone(), seat))
        state.apply(seat, bots.play_turn(state, seat, greedy, rng))
    return [history[len(history) * k // 4] for k in (1, 2, 3)]


def iterations_per_second(name: str) -> float:
    config = replace(recipe(name, "hard"), iterations=200, seconds=None)
    search = searcher(name, config)
    rng = random.Random(1)
    done, spent = 0, 0.0
    for state, seat in positions(name, seed=3):
        world = state.sample_hidden(seat, rng)  # type: ignore[attr-defined]
        start = time.perf_counter()
        done += search.run(world, seat, rng).iterations
        spent += time.perf_counter() - start
    return done / spent


def decision_times(name: str, level: str, games_count: int) -> list[float]:
    times: list[float] = []
    for index in range(games_count):
        state = games.get(name).new_game(players=PLAYERS, seed=100 + index)
        players = [bots.get(level, name)] + [bots.get("greedy", name) for _ in range(PLAYERS - 1)]
        rng = random.Random(index)
        while not state.is_over():
            seat = state.to_act()[0]
            several = len(state.legal_actions(seat)) > 1
            start = time.perf_counter()
            action = bots.play_turn(state, seat, players[seat], rng)
            if seat == 0 and several:
                times.append(time.perf_counter() - start)
            state.apply(seat, action)
    return times


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=2, help="games per level and game (default 2)")
    parser.add_argument("--game", choices=games.names(), help="one game only")
    args = parser.parse_args()
    console = Console(width=150)  # the table stays whole when written to a file
    console.print(
        f"{platform.node()} · {platform.processor() or platform.machine()} · {os.cpu_count()} cores · "
        f"Python {platform.python_version()}"
    )
    table = Table(title="ISMCTS: iterations per second and milliseconds per decision (median / p99)")
    table.add_column("game")
    table.add_column("iterations/s (hard's rollouts)", justify="right")
    for level in LEVELS:
        table.add_column(f"{level} ms", justify="right")
    for name in [args.game] if args.game else games.names():
        cells = [name, f"{iterations_per_second(name):,.0f}"]
        for level in LEVELS:
            times = decision_times(name, level, args.games)
            cells.append(
                f"{statistics.median(times) * 1000:,.0f} / {percentile(times, 0.99) * 1000:,.0f}"
                f" ({len(times)})"
            )
        table.add_row(*cells)
        console.print(f"{name} done")
    console.print(table)


if __name__ == "__main__":
    main()
