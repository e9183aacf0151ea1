"""Engine speed per game and player count: random playouts, clone() and apply().

    make bench            (or: .venv/bin/python benchmarks/bench_engine.py [--seconds S] [--game NAME])

Random playouts pick uniformly among legal actions on the real state (no sampling, no bots), on one core.
clone() and apply() are timed over the positions of those playouts. Figures vary with the machine and its
load: compare rows of one run, and note the machine with any figure you quote.
"""

from __future__ import annotations

import argparse
import platform
import random
import time

from rich.console import Console
from rich.table import Table

from merchantry import games


def playouts(game_name: str, players: int, seconds: float) -> dict[str, float]:
    game = games.get(game_name)
    rng = random.Random(0)
    n_games = n_actions = 0
    start = time.perf_counter()
    positions = []
    while time.perf_counter() - start < seconds:
        state = game.new_game(players=players, seed=n_games)
        while not state.is_over():
            seat = state.to_act()[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
            n_actions += 1
            if n_actions % 50 == 0 and len(positions) < 2000:
                positions.append(state.clone())
        n_games += 1
    elapsed = time.perf_counter() - start
    return {
        "games_per_s": n_games / elapsed,
        "actions_per_s": n_actions / elapsed,
        "actions_per_game": n_actions / max(1, n_games),
        "clone_us": time_clone(positions),
        "apply_us": time_apply(positions, rng),
    }


def time_clone(positions: list) -> float:
    repeats = 20
    start = time.perf_counter()
    for _ in range(repeats):
        for state in positions:
            state.clone()
    return (time.perf_counter() - start) / (repeats * len(positions)) * 1e6


def time_apply(positions: list, rng: random.Random) -> float:
    """apply() alone: legal actions are picked and states cloned outside the timed section."""
    trials = []
    for state in positions:
        if state.is_over():
            continue
        seat = state.to_act()[0]
        for _ in range(10):
            trials.append((state.clone(), seat, rng.choice(state.legal_actions(seat))))
    start = time.perf_counter()
    for state, seat, action in trials:
        state.apply(seat, action)
    return (time.perf_counter() - start) / len(trials) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="playout time per row")
    parser.add_argument("--game", action="append", help="only these games (default: all)")
    args = parser.parse_args()
    table = Table(
        title=f"Engine speed — {platform.python_implementation()} {platform.python_version()}, "
        f"{platform.machine()}, {args.seconds:g} s per row, one core"
    )
    for column in ("game", "players", "games/s", "actions/s", "actions/game", "clone() µs", "apply() µs"):
        table.add_column(column, justify="right")
    for name in args.game or games.names():
        game = games.get(name)
        for players in range(game.min_players, game.max_players + 1):
            row = playouts(name, players, args.seconds)
            table.add_row(
                name,
                str(players),
                f"{row['games_per_s']:.1f}",
                f"{row['actions_per_s']:,.0f}",
                f"{row['actions_per_game']:.0f}",
                f"{row['clone_us']:.2f}",
                f"{row['apply_us']:.2f}",
            )
    Console(width=120).print(table)


if __name__ == "__main__":
    main()
