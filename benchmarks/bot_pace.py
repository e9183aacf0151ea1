"""How long a bot's turn takes as a person at the table sees it, per game and level (issue 32, item 4).

    nice -n 10 .venv/bin/python benchmarks/bot_pace.py [--moves 60] [--game NAME] [--level hard]

Each table has four seats: P1 is a person's stand-in played by `greedy` (its moves are not measured), P2-P4
are bots of the level. Every whole move of a bot (ENGINE principle 5: all its steps up to the end of its
decision) is thought out as the server thinks it (`tables.BotTurn.think`: step by step, each in a world
sampled for the seat), its thinking timed in wall and CPU time; the turn a person sees is the later of the
thinking and the publishing pause (`tables.publishing_pause` with the server's default bot delay, the
table's longest budget per move and its latest thinking times), as `server/app.py` waits. Games are played
until `--moves` bot moves are measured per game and level. Prints medians (with a 95% interval, from the
order statistics) and p99s (with fewer than 100 moves, the largest), the mean steps per move and the median
tree-search iterations per move (what the budget let the search do on this machine).

Run from a checkout before issue 32 (`PYTHONPATH=/path/to/it/src`), it times that checkout's bots with its
publishing rule (bot delay 0.8 s plus twice the longest cap of one search, stretched by [1, 1.5]).

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
from typing import Any

from rich.console import Console
from rich.table import Table

from merchantry import bots, games
from merchantry.bots.ismcts import Search
from merchantry.server.tables import THINKING_KEPT, BotTurn

try:
    from merchantry.server.tables import BOT_DELAY, publishing_pause
except ImportError:  # a checkout from before issue 32 (PYTHONPATH=its src): its rule, per step
    BOT_DELAY = 0.8

    def publishing_pause(
        bot_delay: float, longest_budget: float, recent: float, stretch: float | None = None
    ) -> float:
        """LiveTable.publishing_pause before issue 32: twice the longest cap of one search."""
        return max(bot_delay + 2 * longest_budget, 1.5 * recent) * random.uniform(1.0, 1.5)


LEVELS = ("easy", "medium", "hard", "greedy")
PLAYERS = 4
PERSON = 0  # the seat a person would take (played by greedy, not measured)


@dataclass
class Pace:
    seen: list[float] = field(default_factory=list)  # seconds from thinking's start to publishing
    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    steps: list[int] = field(default_factory=list)
    iterations: list[int] = field(default_factory=list)  # tree-search iterations run per move


class CountedIterations:
    """Counts the iterations every tree search runs (Search.iterate), while in a `with`."""

    def __init__(self) -> None:
        self.count = 0

    def __enter__(self) -> CountedIterations:
        self.original = Search.iterate
        counter = self

        def counting(search: Search, *args: object) -> float:
            counter.count += 1
            return counter.original(search, *args)  # type: ignore[arg-type]

        Search.iterate = counting  # type: ignore[method-assign, assignment]
        return self

    def __exit__(self, *exc: object) -> None:
        Search.iterate = self.original  # type: ignore[method-assign]


def uncapped(bot: Any) -> Any:
    """The bot with no time budget: its recipe's iterations alone end its searches (what it needs)."""
    if hasattr(bot, "move"):
        bot.move.seconds = None
    return bot


def measure(
    game_name: str, level: str, moves: int, seed: int, bot_delay: float, no_cap: bool = False
) -> Pace:
    pace = Pace()
    game = games.get(game_name)
    table = 0
    while len(pace.seen) < moves:
        rng = random.Random(f"{seed}:{game_name}:{level}:{table}")
        state = game.new_game(players=PLAYERS, seed=rng.getrandbits(64))
        players = [bots.get("greedy" if seat == PERSON else level, game_name) for seat in range(PLAYERS)]
        if no_cap:
            players = [uncapped(player) for player in players]
        budget = max((getattr(getattr(p, "config", None), "seconds", None) or 0.0) for p in players[1:])
        thinking: deque[float] = deque(maxlen=THINKING_KEPT)
        while not state.is_over() and len(pace.seen) < moves:
            seat = state.to_act()[0]
            turn = BotTurn(seat, 0, None, state.clone(), players[seat], random.Random(rng.random()))
            with CountedIterations() as iterations:
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
            pace.iterations.append(iterations.count)
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
    parser.add_argument(
        "--no-cap", action="store_true", help="no time budget: what the recipes' iterations take (CPU column)"
    )
    args = parser.parse_args()
    console = Console(width=160)
    console.print(
        f"{platform.node()} · {os.cpu_count()} cores · Python {platform.python_version()} · "
        f"load average at start {os.getloadavg()[0]:.1f} · {args.moves} bot moves per game and level · "
        f"bot delay {args.bot_delay} s · seed {args.seed}{' · no time budget' if args.no_cap else ''}"
    )
    table = Table(title="A whole bot move: seconds, median [95% interval] and p99 (4 players, 3 bots)")
    for column in (
        "game",
        "level",
        "moves",
        "steps/move",
        "iterations",
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
            pace = measure(name, level, args.moves, args.seed, args.bot_delay, args.no_cap)
            table.add_row(
                name,
                level,
                str(len(pace.seen)),
                f"{statistics.fmean(pace.steps):.1f}",
                f"{statistics.median(pace.iterations):.0f}",
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
