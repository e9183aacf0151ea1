"""What confirming a mark on more worlds (analysis.CONFIRM) costs and changes: the same seeded records
(analysis_speed.py's) judged with CONFIRM = 1 (a mark on the first 48 worlds) and with the shipped CONFIRM,
per game: decisions judged, marks of each kind, and CPU seconds (one process).

    .venv/bin/python benchmarks/analysis_confirm.py [--games money,byzanz] [--seeds 2]
"""

from __future__ import annotations

import argparse
import os
import time
from collections import Counter

from analysis_speed import seeded_record
from merchantry.bots import analysis

GAMES = ["money", "byzanz", "samarkand", "grand_bazaar"]


def judged(record: dict, confirm: int) -> tuple[Counter, int, float]:
    analysis.CONFIRM = confirm
    start = time.process_time()
    decisions = [d for d in analysis.analyze(record, workers=1) if d is not None]
    return Counter(d.mark for d in decisions if d.mark), len(decisions), time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--seeds", type=int, default=1)
    args = parser.parse_args()
    shipped = analysis.CONFIRM
    machine = f"{os.uname().nodename} · {os.cpu_count()} cores · load {os.getloadavg()[0]:.1f}"
    print(f"{machine} · CPU seconds, 1 process")
    columns = ["game", "seed", "CONFIRM", "decisions", "inaccuracies", "mistakes", "blunders", "CPU s"]
    print("| " + " | ".join(columns) + " |")
    print("|---|---|---|---|---|---|---|---|")
    for game in args.games.split(","):
        for seed in range(1, args.seeds + 1):
            record = seeded_record(game, seed)
            for confirm in (1, shipped):
                marks, count, cpu = judged(record, confirm)
                row = [
                    game,
                    seed,
                    confirm,
                    count,
                    marks["inaccuracy"],
                    marks["mistake"],
                    marks["blunder"],
                    f"{cpu:.1f}",
                ]
                print("| " + " | ".join(str(x) for x in row) + " |", flush=True)


if __name__ == "__main__":
    main()
