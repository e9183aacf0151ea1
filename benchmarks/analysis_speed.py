"""How long a whole-game analysis takes (issue 28, item 5): `merchantry analyze-game`'s work, per game.

    .venv/bin/python benchmarks/analysis_speed.py           # every game, the analysis' defaults
    .venv/bin/python benchmarks/analysis_speed.py --games money --workers 1 --share 1 --no-floor  # main's

Each game's record is seeded and played between bots without a time cap (greedy and the game's own policy
bots, 4 players), so every run analyses the same games. Printed per game: the decisions judged, the wall
seconds and the CPU seconds of the analysis (this process and its worker processes), and the CPU seconds
per decision. The target is a whole game in <= 30 s wall on the 2-core VM; the VM is shared, so the CPU
seconds (which do not grow with the others' load) say more than the wall time: on two free cores the wall
time is about half the CPU time. The machine's load average is printed with each row.
"""

from __future__ import annotations

import argparse
import itertools
import os
import platform
import random
import resource
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

import merchantry  # noqa: E402
from merchantry import bots, games, records  # noqa: E402
from merchantry.bots import analysis  # noqa: E402

PLAYERS = 4
SEED = 2028
SEARCHES = ("random", "easy", "medium", "hard")  # time-capped or aimless: not in the seeded records


def seeded_record(game: str, seed: int = SEED) -> dict[str, Any]:
    """A game between greedy and the game's own policy bots, alternating, from `seed`."""
    policies = [n for n in bots.names(game) if n not in SEARCHES]
    others = [n for n in policies if n != "greedy"] or ["greedy"]
    names = [("greedy", others[i % len(others)])[i % 2] for i in range(PLAYERS)]
    lineup = [bots.get(name, game) for name in names]
    rng = random.Random(seed)
    session = records.Session(game, PLAYERS, seed=seed)
    while not session.state.is_over():
        seat = session.state.to_act()[0]
        session.apply(seat, bots.play_turn(session.state, seat, lineup[seat], rng))
    return session.record()


def cpu_seconds() -> float:
    """CPU time of this process and of its finished children (the worker processes)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def measure(
    game: str, share: float, floor: int | None, workers: int, decisions: int | None = None
) -> tuple[int, int, float, float]:
    record = seeded_record(game)
    config = analysis.analysis_recipe(game, share)
    wall, cpu = time.perf_counter(), cpu_seconds()
    judging = analysis.analyze(record, config, workers=workers, floor=floor)
    judged = list(itertools.islice(judging, decisions))
    judging.close()  # a worker pool stops what it has not started
    return len(record["moves"]), len(judged), time.perf_counter() - wall, cpu_seconds() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--games", default=",".join(games.names()), help="games, comma-separated")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument(
        "--share", type=float, default=analysis.SEARCH_SHARE, help="share of hard's search iterations"
    )
    parser.add_argument("--no-floor", action="store_true", help="play every move out in all worlds")
    parser.add_argument(
        "--decisions",
        type=int,
        help="judge only the game's first this many decisions (a quick comparison of two builds or settings;"
        " the early ones cost the most: their play-outs are the longest)",
    )
    parser.add_argument(
        "--to-the-end",
        action="store_true",
        help="play every chance out to the end, whatever the game's PlayOutCut (one worker process only:"
        " the setting lives in this process)",
    )
    args = parser.parse_args()
    if args.to_the_end:
        if args.workers != 1:
            parser.error("--to-the-end needs --workers 1")
        analysis.play_out_cut = lambda game_name: None
    floor = None if args.no_floor else analysis.FLOOR
    print(
        f"analyze-game's work: {analysis.WORLDS} worlds, play-outs of a differing preferred move stopped "
        f"from {floor or 'never'}, {args.share:g} of hard's iterations, {args.workers} worker process(es),"
        f" play-outs {'to the end' if args.to_the_end else 'as each game declares'}"
    )
    print(
        f"{platform.node()}, {os.cpu_count()} cores, Python {platform.python_version()}, seed {SEED},"
        f" merchantry.build: {merchantry.build}"
    )
    print(
        f"{'game':<14} {'moves':>6} {'decisions':>9} {'wall s':>7} {'CPU s':>7} {'CPU s/decision':>15}"
        f" {'load avg':>9}"
    )
    for game in args.games.split(","):
        moves, judged, wall, cpu = measure(game, args.share, floor, args.workers, args.decisions)
        load = os.getloadavg()[0]
        print(
            f"{game:<14} {moves:>6} {judged:>9} {wall:>7.1f} {cpu:>7.1f} {cpu / judged:>15.3f} {load:>9.1f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
