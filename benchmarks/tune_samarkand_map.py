"""How long Samarkand lasts on maps of several sizes (SK-C5: typical games should last about 30-60 turns).

For each size, `map_generator` makes a map, and games are played on it (through $MERCHANTRY_SAMARKAND_MAP,
in a fresh process) by four greedy bots and by four random bots; the table shows turns per game.

    .venv/bin/python benchmarks/tune_samarkand_map.py [games per size, default 100]
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile

SIZES = [(11, 7), (12, 7), (13, 7), (15, 7), (13, 8), (15, 8)]  # smaller grids leave no room for 33 goods
LINEUPS = {"greedy": ["greedy"] * 4, "random": ["random"] * 4}

PLAY = """
import json, random, sys
from merchantry import bots, games
game, lineup, count = games.get("samarkand"), json.loads(sys.argv[1]), int(sys.argv[2])
turns = []
for seed in range(count):
    state, rng = game.new_game(players=len(lineup), seed=seed), random.Random(seed)
    players = [bots.get(name, game) for name in lineup]
    while not state.is_over():
        seat = state.to_act()[0]
        state.apply(seat, bots.play_turn(state, seat, players[seat], rng))
    turns.append(state.view(None)["turns_played"])
print(json.dumps(turns))
"""


def turns_on(map_text: str, lineup: list[str], count: int) -> list[int]:
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as file:
        file.write(map_text)
    env = {**os.environ, "MERCHANTRY_SAMARKAND_MAP": file.name}
    out = subprocess.run(
        [sys.executable, "-c", PLAY, json.dumps(lineup), str(count)],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    os.unlink(file.name)
    return list(json.loads(out))


def main() -> None:
    from merchantry.games.samarkand import map_generator

    count = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    print(f"{count} games of 4 players per size and line-up; turns per game")
    print("| columns x rows | spaces | line-up | mean | median | 10%-90% | min-max |")
    print("|---|---|---|---|---|---|---|")
    for columns, rows in SIZES:
        text = json.dumps(map_generator.build(columns, rows))
        for name, lineup in LINEUPS.items():
            turns = sorted(turns_on(text, lineup, count))
            tenth, ninetieth = turns[len(turns) // 10], turns[len(turns) * 9 // 10]
            print(
                f"| {columns} x {rows} | {columns * rows} | {name} | {statistics.fmean(turns):.1f} |"
                f" {statistics.median(turns):.0f} | {tenth}-{ninetieth} | {turns[0]}-{turns[-1]} |"
            )


if __name__ == "__main__":
    main()
