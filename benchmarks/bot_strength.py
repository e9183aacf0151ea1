"""How strong each difficulty level is: one level bot against three `greedy` bots, 4 players, the line-up
rotated through the seats (game i puts the level bot in seat i mod 4), per game.

    .venv/bin/python benchmarks/bot_strength.py --games 120 --workers 2 [--level hard] [--game NAME]

Prints the level's win rate (ties shared) with its 95% Wilson interval; parity is 25%. Games are played by
`merchantry.simulate`, so a run is reproducible from its seed (the `hard` recipe has a wall-time cap too,
which a slower or busier machine may reach first: the table notes the machine). `--level` also takes any
other bot of the game by name (`--level trader`), except the opponent's own. A run stopped by Ctrl-C or
SIGTERM prints the games finished so far as its row ("stopped after N of M") and ends. Measured runs are
kept in docs/bots.md.
"""

from __future__ import annotations

import argparse
import os
import platform
import signal
import time

from rich.console import Console
from rich.table import Table

import merchantry
from merchantry import games, simulate
from merchantry.arena.statistics import wilson
from merchantry.bots.levels import LEVELS


def stop(signum: int, frame: object) -> None:
    """SIGTERM ends a run as Ctrl-C does: the games finished so far are printed as the row."""
    raise KeyboardInterrupt


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=120)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--level",
        action="append",
        help="levels to measure (default: all), or any other bot of the game by name (e.g. trader)",
    )
    parser.add_argument("--game", choices=games.names(), action="append", help="games (default: all)")
    parser.add_argument("--opponent", default="greedy")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, stop)
    if args.opponent in (args.level or []):
        parser.error(f"--level {args.opponent} is the opponent itself: every game would count as its win")
    for name in args.game or games.names():
        for level in args.level or LEVELS:
            try:
                simulate.check_lineup(name, [level] + [args.opponent] * 3)
            except (ValueError, merchantry.UnknownBot) as error:
                parser.error(str(error))
    console = Console(width=150)  # the table stays whole when written to a file
    console.print(
        f"{platform.node()} · {os.cpu_count()} cores · Python {platform.python_version()} · "
        f"{args.games} games each, {args.workers} workers, seed {args.seed}"
    )
    table = Table(
        title=f"Win rate of one level bot against three {args.opponent} bots (4 players; parity 25%)"
    )
    for column in (
        "game",
        "level",
        "games",
        "win rate",
        "95% interval",
        "mean score",
        "opponents' mean",
        "minutes",
    ):
        table.add_column(column, justify="left" if column in ("game", "level") else "right")
    for name in args.game or games.names():
        for level in args.level or LEVELS:
            lineup = [level] + [args.opponent] * 3
            start = time.perf_counter()
            # Ctrl-C or SIGTERM: the games finished so far are the row
            results, stopped = simulate.run_until_stopped(
                name, lineup, args.games, seed=args.seed, workers=args.workers
            )
            if not results:
                continue
            summary = simulate.summarise(name, results, time.perf_counter() - start).by_bot
            wins = sum(1 / len(r.winners) for r in results for s in r.winners if r.seat_bots[s] == level)
            low, high = wilson(wins, len(results))
            row = [
                name,
                level,
                str(len(results)),
                f"{wins / len(results):.1%}",
                f"{low:.1%} – {high:.1%}",
                f"{summary[level]['mean_score']:.1f}",
                f"{summary[args.opponent]['mean_score']:.1f}",
                f"{(time.perf_counter() - start) / 60:.1f}",
            ]
            table.add_row(*row)
            console.print(
                " · ".join(row) + (f" · stopped after {len(results)} of {args.games}" if stopped else "")
            )
            if stopped:
                break
        else:
            continue
        break
    console.print(table)


if __name__ == "__main__":
    main()
