"""Where an adapter step's time goes, per part, on positions of random games (CPU time, one core, the build in
use): the engine's `legal_actions`, the table's legal ids and mask built from them (`Table.legal`, the engine
call included), and one seat's observation (`observer.observe`, the seat to act).

    .venv/bin/python benchmarks/bench_rl_parts.py [--seconds 0.5] [--game NAME] [--players 4]

The positions are those of three seeded random games, replayed in order (each a clone), so that an observer
meets them as it meets a game it follows. Compare rows of one run: the machine is shared.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from rich.console import Console
from rich.table import Table as RichTable

import merchantry
from merchantry import games
from merchantry.engine import State
from merchantry.rl.table import Table


def positions(name: str, players: int) -> list[tuple[State, int]]:
    """Every position of three seeded random games with its first seat to act (clones)."""
    table, rng, out = Table(name, players), random.Random(1), []
    for seed in range(3):
        table.new(seed)
        while not table.ended():
            assert table.state is not None
            seat = table.first_to_act()
            out.append((table.state.clone(), seat))
            table.play(seat, rng.choice(table.legal(seat).ids))
    return out


Part = Callable[[State, int], object]


def per_position(part: Part, cases: list[tuple[State, int]], seconds: float) -> float:
    """CPU µs per call of `part` over the positions, repeated for about `seconds`."""
    clock, count = time.process_time, 0
    start = clock()
    while clock() - start < seconds:
        for state, seat in cases:
            part(state, seat)
        count += len(cases)
    return (clock() - start) / count * 1e6


def parts(name: str, players: int, seconds: float) -> list[float]:
    cases, table = positions(name, players), Table(name, players)

    def legal(state: State, seat: int) -> object:
        table.set_state(state)  # forgets the position's kept legal lists
        return table.legal(seat)

    return [
        per_position(lambda state, seat: state.legal_actions(seat), cases, seconds),
        per_position(legal, cases, seconds),
        per_position(lambda state, seat: table.observers[seat].observe(state), cases, seconds),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=0.5)
    parser.add_argument("--game", action="append", help="only these games")
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    out = RichTable(title=f"CPU µs per position, {args.players} players, {merchantry.build}")
    for column in ("game", "legal_actions", "legal ids + mask", "observation"):
        out.add_column(column, justify="right")
    for name in args.game or games.names():
        players = min(max(args.players, games.get(name).min_players), games.get(name).max_players)
        out.add_row(name, *(f"{cost:.2f}" for cost in parts(name, players, args.seconds)))
    Console(width=120).print(out)


if __name__ == "__main__":
    main()
