"""How long a bot's turn takes as a person at the table sees it, per game and level (issue 32, item 4).

    nice -n 10 .venv/bin/python benchmarks/bot_pace.py [--moves 60] [--game NAME] [--level hard]

Each table has four seats: P1 is a person's stand-in played by `greedy` (its moves are not measured), P2-P4
are bots of the level. Every whole move of a bot (ENGINE principle 5: all its steps up to the end of its
decision) is thought out as the server thinks it (`tables.BotTurn.think`: step by step, each in a world
sampled for the seat), its thinking timed in wall and CPU time; the turn a person sees is the later of the
thinking and the publishing pause (`tables.publishing_pause` with the server's default bot delay, the
table's longest budget per move and its latest thinking times), as `server/app.py` waits. Games are played
until `--moves` bot moves are measured per game and level. Prints medians (with a 95% interval, from the
order statistics) and p99s (with fewer than 100 moves, the largest), and the steps per move.

The machine is shared: the load average is printed with the table, and wall time on a busy machine runs into
the budgets (which are wall time, what a person waits), while CPU time shows what the search itself spent.
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import random
import statistics
import time
from collections import deque
from dataclasses import dataclass, field

from rich.console import Console
from rich.table import Table

from merchantry import bots, games
from merchantry.server.tables import BOT_DELAY, THINKING_KEPT, BotTurn, publishing_pause

LEVELS = ("easy", "medium", "hard", "greedy")
PLAYERS = 4
PERSON = 0  # the seat a person would take (played by greedy, not measured)


@dataclass
class Pace:
    seen: list[float] = field(default_factory=list)  # seconds from thinking's start to publishing
    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    steps: list[int] = field(default_factory=list)


def measure(game_name: str, level: str, moves: int, seed: int, bot_delay: float) -> Pace:
    pace = Pace()
    game = games.get(game_name)
    table = 0
    while len(pace.seen) < moves:
        rng = random.Random(f"{seed}:{game_name}:{level}:{table}")
        state = game.new_game(players=PLAYERS, seed=rng.getrandbits(64))
        players = [bots.get("greedy" if seat == PERSON else level, game_name) for seat in range(PLAYERS)]
        budget = max((getattr(getattr(p, "config", None), "seconds", None) or 0.0) for p in players[1:])
        thinking: deque[float] = deque(maxlen=THINKING_KEPT)
        while not state.is_over() and len(pace.seen) < moves:
            seat = state.to_act()[0]
            turn = BotTurn(seat, 0, None, state.clone(), players[seat], random.Random(rng.random()))
            wall, cpu = time.perf_counter(), time.process_time()
            steps = turn.think()
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            for action in steps:
                state.apply(seat, action)
            if seat == PERSON:
                continue
            pause = publishing_pause(bot_delay, budget, max(thinking, default=0.0))
            thinking.append(wall)
            pace.seen.append(max(wall, pause))
            pace.wall.append(wall)
            pace.cpu.append(cpu)
            pace.steps.append(len(steps))
        table += 1
    return pace


def median_interval(values: list[float]) -> str:
    """The median with its 95% interval from the order statistics (binomial ranks)."""
    ordered = sorted(values)
    n = len(ordered)
    half = 1.96 * math.sqrt(n) / 2
    low = ordered[max(0, math.floor(n / 2 - half))]
    high = ordered[min(n - 1, math.ceil(n / 2 + half))]
    return f"{statistics.median(ordered):.2f} [{low:.2f}, {high:.2f}]"


def p99(values: list[float]) -> str:
    ordered = sorted(values)
    return f"{ordered[min(len(ordered) - 1, math.ceil(0.99 * len(ordered)) - 1)]:.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--moves", type=int, default=60, help="bot moves measured per game and level")
    parser.add_argument("--game", choices=games.names(), action="append", help="games (default: all)")
    parser.add_argument("--level", choices=LEVELS, action="append", help="levels (default: all)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bot-delay", type=float, default=BOT_DELAY)
    args = parser.parse_args()
    console = Console(width=160)
    console.print(
        f"{platform.node()} · {os.cpu_count()} cores · Python {platform.python_version()} · "
        f"load average at start {os.getloadavg()[0]:.1f} · {args.moves} bot moves per game and level · "
        f"bot delay {args.bot_delay} s · seed {args.seed}"
    )
    table = Table(title="A whole bot move: seconds, median [95% interval] and p99 (4 players, 3 bots)")
    for column in (
        "game",
        "level",
        "moves",
        "steps/move",
        "turn seen",
        "p99",
        "think wall",
        "p99",
        "CPU",
        "p99",
    ):
        table.add_column(column, justify="left" if column in ("game", "level") else "right")
    for name in args.game or games.names():
        for level in args.level or LEVELS:
            pace = measure(name, level, args.moves, args.seed, args.bot_delay)
            table.add_row(
                name,
                level,
                str(len(pace.seen)),
                f"{statistics.fmean(pace.steps):.1f}",
                median_interval(pace.seen),
                p99(pace.seen),
                median_interval(pace.wall),
                p99(pace.wall),
                median_interval(pace.cpu),
                p99(pace.cpu),
            )
    console.print(table)
    console.print(f"load average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
