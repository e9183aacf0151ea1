"""Golden playthroughs: the whole text of a seeded bot game, views and moves, so that any change to a
game's rules or views shows up as a diff (tests/golden/, checked by tests/test_golden.py).

    python -m merchantry.playthrough GAME PLAYERS SEED BOT,BOT,... > tests/golden/GAME-4p-seed7.txt
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Iterator, Sequence

from merchantry import bots
from merchantry.engine import JSON, seat_label
from merchantry.i18n import log_lines
from merchantry.records import Session


def compact(view: dict[str, JSON]) -> str:
    """A view on one line; the log is left out (it is printed once, at the end)."""
    return json.dumps({k: v for k, v in view.items() if k != "log"}, sort_keys=True, separators=(",", ":"))


def playthrough(game: str, players: int, seed: int, lineup: Sequence[str]) -> Iterator[str]:
    """Lines of a game: before each run of moves by one seat, that seat's view; then each move."""
    session = Session(game, players, seed=seed)
    seat_bots = [bots.get(name, game) for name in lineup]
    rng = random.Random(seed)
    state = session.state
    yield f"# merchantry playthrough: {game}, {players} players, seed {seed}, bots {','.join(lineup)}"
    yield f"start {compact(state.view(None))}"
    last_seat = None
    while not state.is_over():
        seat = state.to_act()[0]
        if seat != last_seat:
            yield f"view {seat_label(seat)} {compact(state.view(seat))}"
            last_seat = seat
        action = session.apply(seat, bots.play_turn(state, seat, seat_bots[seat], rng))
        yield f"move {seat_label(seat)} {action}"
    final = state.view(None)
    yield f"final {compact(final)}"
    yield from (f"log {line}" for line in log_lines(final))
    yield f"scores {json.dumps(state.scores())}"
    yield f"winners {json.dumps([seat_label(w) for w in state.winners()])}"


def main(argv: list[str]) -> None:
    game, players, seed, lineup = argv[0], int(argv[1]), int(argv[2]), argv[3].split(",")
    for line in playthrough(game, players, seed, lineup):
        print(line)


if __name__ == "__main__":
    main(sys.argv[1:])
