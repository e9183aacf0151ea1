"""Hard against each scripted newcomer strategy (games/<game>/scripted.py): one `hard` bot against three
copies of the strategy, 4 players, the line-up rotated through the seats, per game.

    .venv/bin/python benchmarks/scripted_vs_hard.py --games 8 --workers 2 [--game NAME] [--bot NAME]

A strategy "beats hard on average" if each of its seats wins more than hard's seat does: hard's win rate
below 25% (parity). The table gives hard's win rate with its 95% Wilson interval, a strategy seat's mean
win rate ((1 - hard's) / 3), both mean scores, and the minutes the run took. Every bot a game's package
registers from its scripted.py is measured unless `--bot` names some. Games are played by
`merchantry.simulate` (reproducible from `--seed`, but for hard's wall-time cap, which a busy machine
reaches with fewer iterations: the load is printed with the machine). Rows are printed as they finish. A
run stopped by Ctrl-C or SIGTERM prints the games finished so far as its row ("stopped after N of M") and
ends, so a long run on a busy machine still leaves its figure.
"""

from __future__ import annotations

import argparse
import importlib
import os
import platform
import signal
import time

from rich.console import Console
from rich.table import Table

from merchantry import games, simulate
from merchantry.arena.statistics import wilson

LEVEL = "hard"


def stop(signum: int, frame: object) -> None:
    """SIGTERM ends a run as Ctrl-C does: the games finished so far are printed as the row."""
    raise KeyboardInterrupt


def scripted(name: str) -> list[str]:
    """The scripted strategies a game's package registers (its `scripted.SCRIPTED`), if any."""
    try:
        module = importlib.import_module(
            f"{games.package(name).bots['greedy'].__module__.rsplit('.', 1)[0]}.scripted"
        )
    except ImportError:
        return []
    return list(getattr(module, "SCRIPTED", {}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", choices=games.names(), action="append", help="games (default: all)")
    parser.add_argument("--bot", action="append", help="strategies (default: every scripted one)")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, stop)
    console = Console(width=150)
    console.print(
        f"{platform.node()} · {os.cpu_count()} cores · load {os.getloadavg()[0]:.1f} · Python "
        f"{platform.python_version()} · {args.games} games each, {args.workers} workers, seed {args.seed}"
    )
    table = Table(
        title=f"One {LEVEL} bot against three copies of a scripted strategy (4 players; parity 25%)"
    )
    for column in (
        "game",
        "strategy",
        "games",
        "hard wins",
        "95% interval",
        "a strategy seat wins",
        "hard mean score",
        "strategy mean score",
        "minutes",
    ):
        table.add_column(column, justify="left" if column in ("game", "strategy") else "right")
    for name in args.game or games.names():
        for bot in [b for b in scripted(name) if not args.bot or b in args.bot]:
            start = time.perf_counter()
            # Ctrl-C or SIGTERM: the games finished so far are the row
            results, stopped = simulate.run_until_stopped(
                name, [LEVEL] + [bot] * 3, args.games, seed=args.seed, workers=args.workers
            )
            if not results:
                break
            summary = simulate.summarise(name, results, time.perf_counter() - start).by_bot
            wins = sum(1 / len(r.winners) for r in results for s in r.winners if r.seat_bots[s] == LEVEL)
            low, high = wilson(wins, len(results))
            rate = wins / len(results)
            row = [
                name,
                bot,
                str(len(results)),
                f"{rate:.1%}",
                f"{low:.1%} – {high:.1%}",
                f"{(1 - rate) / 3:.1%}",
                f"{summary[LEVEL]['mean_score']:.1f}",
                f"{summary[bot]['mean_score']:.1f}",
                f"{(time.perf_counter() - start) / 60:.1f}",
            ]
            table.add_row(*row)
            stopped_note = f" · stopped after {len(results)} of {args.games}" if stopped else ""
            console.print(" · ".join(row) + f" · load {os.getloadavg()[0]:.1f}" + stopped_note)
            if stopped:
                break
        else:
            continue
        break
    console.print(table)


if __name__ == "__main__":
    main()
