"""What a person's first hint costs in CPU time, per game (issue 32: "the first hint took 7-10 s on a loaded
machine").

    nice -n 5 .venv/bin/python benchmarks/first_hint.py [--game NAME]

As `merchantry serve` works one out: in a worker process of its own (server/work.py, `in_processes`; here one
worker at SCHED_BATCH instead of SCHED_IDLE, so that a busy machine does not starve the measurement), with
the analysis' search (`analysis_recipe`). For each game a fresh pool, started as the server's pool starts it
(a checkout with `work.warm_up` readies its workers when the pool is made; an older one starts a worker at the
first job). Columns, in CPU seconds of the worker process: its start (everything it ran before its first hint:
imports, and `ready_for_work` where there is one), the first hint (three positions of a game between greedy
bots where P1 has a choice, the first of them) and the next two hints; "first wait" is what the person's first
hint waits for: the start too where it is not done before (an older checkout), else the hint alone.
Run from another checkout with PYTHONPATH=/path/to/it/src to time that checkout.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import time

from rich.console import Console
from rich.table import Table

from merchantry import bots, games, records
from merchantry.bots.analysis import analysis_recipe, hint
from merchantry.engine import State
from merchantry.server import work
from merchantry.server.work import Priority, in_processes

CLOCK = "__import__('time').process_time()"  # evaluated in the worker: its CPU seconds so far


def positions(game: str, players: int, count: int = 3) -> list[State]:
    session = records.Session(game, players, seed=11)
    greedy, rng = bots.get("greedy", game), random.Random(1)
    found = []
    while len(found) < count and not session.state.is_over():
        state = session.state
        seat = state.to_act()[0]
        if seat == 0 and len(state.legal_actions(0)) > 1 and not state.in_decision(0):
            found.append(state.clone())
        session.apply(seat, greedy.choose(state.sample_hidden(seat, rng), seat, rng))
    return found


def measure(game: str, players: int) -> tuple[float, list[float], float, bool]:
    pool = in_processes(1, None, Priority(idle=False, nice=0, batch=True))
    warmed = hasattr(work, "warm_up")
    try:
        asked = positions(game, players)
        if warmed:  # as FairPool makes its pool: the worker started and readied at once
            pool.submit(work.warm_up).result()
        wall = time.perf_counter()
        start = pool.submit(eval, CLOCK).result()
        hints = []
        for position in asked:
            before = pool.submit(eval, CLOCK).result()
            pool.submit(hint, position, 0, game, None, analysis_recipe(game)).result()
            hints.append(pool.submit(eval, CLOCK).result() - before)
            if len(hints) == 1:
                wall = time.perf_counter() - wall
        return start, hints, wall, warmed
    finally:
        pool.shutdown()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=games.names(), action="append", help="games (default: all)")
    parser.add_argument("--players", type=int, default=3)
    args = parser.parse_args()
    console = Console(width=140)
    load = os.getloadavg()[0]
    console.print(f"{platform.node()} · {os.cpu_count()} cores · load average at start {load:.1f}")
    table = Table(title="A first hint in a fresh worker process: CPU seconds (wall: the first hint)")
    columns = ("game", "worker start", "readied before", "first hint", "next hints", "first wait", "wall")
    for column in columns:
        table.add_column(column, justify="left" if column == "game" else "right")
    for game in args.game or games.names():
        start, hints, wall, warmed = measure(game, args.players)
        wait = hints[0] + (0.0 if warmed else start)
        table.add_row(
            game,
            f"{start:.2f}",
            "yes" if warmed else "no",
            f"{hints[0]:.2f}",
            " ".join(f"{h:.2f}" for h in hints[1:]),
            f"{wait:.2f}",
            f"{wall:.1f}",
        )
    console.print(table)
    console.print(f"load average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
