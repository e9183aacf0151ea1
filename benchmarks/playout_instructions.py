"""A fixed, seeded set of uniformly random playouts, to be counted in instructions rather than timed.

    PYTHONHASHSEED=0 [MERCHANTRY_PURE=1] valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        .venv/bin/python benchmarks/playout_instructions.py GAME PLAYERS GAMES

Wall and CPU time on the shared development VMs move by ±30% between runs; instruction counts under
callgrind move by well under 1%. The loop is bench_engine.py's `random_playouts` (the same rng, games seeded
0, 1, ...), run for a number of games instead of a number of seconds, so both builds play exactly the same
games (their courses are the same). Run it once with GAMES = 0 as well: the difference of the two counts,
divided by GAMES, is the instructions of one playout, without Python's start-up and the imports.
"""

from __future__ import annotations

import random
import sys


def main() -> None:
    import merchantry
    from merchantry import games

    name, players, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    game = games.get(name)
    rng = random.Random(0)
    n_actions = 0
    for n in range(count):
        state = game.new_game(players=players, seed=n)
        while not state.is_over():
            seat = state.to_act()[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
            n_actions += 1
    print(f"{name} {players}p {count} games {n_actions} actions; build: {merchantry.build}", file=sys.stderr)


if __name__ == "__main__":
    main()
