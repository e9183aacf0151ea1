"""The outside yardstick: one `hard` bot against three of OpenSpiel's own ISMCTSBot, at equal CPU time per
decision, 4 players, hard's seat rotated (parity 25%), per game.

    MERCHANTRY_SEARCH_CLOCK=cpu nice -n 10 .venv/bin/python benchmarks/vs_openspiel_ismcts.py \
        --games 20 --workers 2 [--game NAME] [--minutes 50]

The games are played through the OpenSpiel adapter (`merchantry.rl.openspiel`): OpenSpiel's
`open_spiel.python.algorithms.ismcts.ISMCTSBot`, unmodified, samples its worlds with the adapter's
`resample_from_infostate` (the engine's `sample_hidden`) and judges leaves by OpenSpiel's
`RandomRolloutEvaluator` (one random rollout to the end); hard is handed a world sampled for its seat, as
every driver does (`bots.play_turn`), and its action goes into the same OpenSpiel state by id.

Equal time: a *decision* is a step at which the seat has more than one legal action (both bots answer a
single legal action at once; hard plays the steps of a planned move without searching again, which counts
as a decision that took no time). Per game, a calibration game of hard against three greedy bots gives
hard's mean CPU seconds per decision, and ISMCTSBot's CPU seconds per simulation are measured at positions
of that game; ISMCTSBot gets `max_simulations` = the ratio (printed). The run then prints the CPU seconds per
decision and per game each side actually took. Hard keeps its level's budgets (iterations and the 1 s cap
per whole move); with MERCHANTRY_SEARCH_CLOCK=cpu (set by this script) the cap counts CPU seconds, so a busy
machine changes the wall time of the run and not its games.

Win shares count a shared win as a share; the interval is Wilson's 95%. Each game's result is printed as
it finishes; `--minutes` stops the run (finished games kept) and the table says how many were played.
"""

from __future__ import annotations

import argparse
import functools
import os
import platform
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing import get_context
from typing import Any

import numpy as np
from open_spiel.python.algorithms import ismcts, mcts

from merchantry import bots, games
from merchantry.arena.statistics import wilson
from merchantry.bots.ismcts import CLOCK_ENV
from merchantry.rl import openspiel

PLAYERS = 4
LEVEL = "hard"
UCT_C = 2.0  # OpenSpiel's own examples' exploration constant for ISMCTS (returns in [-1, 1])
CALIBRATION_POSITIONS = 12  # positions of the calibration game at which ISMCTSBot's simulations are timed
CALIBRATION_SIMULATIONS = 8  # simulations per timed position
MIN_SIMULATIONS = 2


@dataclass
class SeatClock:
    """CPU seconds one side spent deciding, and on how many decisions (steps with a choice)."""

    seconds: float = 0.0
    decisions: int = 0

    def add(self, seconds: float) -> None:
        self.seconds += seconds
        self.decisions += 1


@dataclass
class Outcome:
    game: str
    index: int
    hard_seat: int
    actions: list[str]
    scores: list[int]
    winners: list[int]
    truncated: bool
    hard: SeatClock = field(default_factory=SeatClock)
    ismcts: SeatClock = field(default_factory=SeatClock)

    def hard_share(self) -> float:
        return 1 / len(self.winners) if self.hard_seat in self.winners else 0.0


def load(name: str, seed: int) -> Any:
    openspiel.register()
    return openspiel.pyspiel.load_game(
        openspiel.short_name(name), {"players": PLAYERS, "seed": seed, "search_seed": seed}
    )


def ismcts_bot(game: Any, simulations: int, seed: int) -> ismcts.ISMCTSBot:
    rs = np.random.RandomState(seed)
    return ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), UCT_C, simulations, random_state=rs)


def cpu_timed(decide: Callable[[], Any]) -> tuple[Any, float]:
    start = time.process_time()
    answer = decide()
    return answer, time.process_time() - start


def decide(player: Any, state: Any, seat: int, rng: random.Random) -> int:
    """The action id `player` chooses for `seat`: ISMCTSBot from the OpenSpiel state, a merchantry bot from a
    world sampled for its seat (`bots.play_turn`)."""
    if isinstance(player, ismcts.ISMCTSBot):
        return int(player.step(state))
    return int(state.action_ids.id_of(bots.play_turn(state.state, seat, player, rng)))


def play(
    name: str,
    index: int,
    simulations: int,
    hard_seat: int,
    level: str = LEVEL,
    opponents: str = "ismcts",
) -> Outcome:
    """Game `index`: `level` in `hard_seat`, ISMCTSBot with `simulations` (or a named bot) in the others."""
    seed = 29_000 + index
    game = load(name, seed)
    state = game.new_initial_state()
    rng = random.Random(f"{level}:{seed}")
    seats: list[Any] = []
    for seat in range(PLAYERS):
        if seat == hard_seat:
            seats.append(bots.get(level, name))
        elif opponents == "ismcts":
            seats.append(ismcts_bot(game, simulations, seed * 10 + seat))
        else:
            seats.append(bots.get(opponents, name))
    outcome = Outcome(name, index, hard_seat, [], [], [], False)
    while not state.is_terminal():
        seat = state.current_player()
        player = seats[seat]
        choice = len(state.legal_actions()) > 1
        action, seconds = cpu_timed(functools.partial(decide, player, state, seat, rng))
        if isinstance(player, ismcts.ISMCTSBot):
            clock = outcome.ismcts
        else:
            clock = outcome.hard if seat == hard_seat else SeatClock()
        if choice:
            clock.add(seconds)
        outcome.actions.append(state.action_to_string(seat, action))
        state.apply_action(action)
    outcome.truncated = not state.state.is_over()
    if not outcome.truncated:
        outcome.scores = list(state.state.scores())
        outcome.winners = list(state.state.winners())
    return outcome


def calibrate(name: str) -> dict[str, float]:
    """Hard's CPU seconds per decision (a game against three greedy) and ISMCTSBot's per simulation (timed
    at positions of that game); the simulations that make them equal."""
    outcome = play(name, -1, 0, hard_seat=0, opponents="greedy")
    per_decision = outcome.hard.seconds / max(1, outcome.hard.decisions)
    game = load(name, 29_000 - 1)
    state = game.new_initial_state()
    positions = []
    for text in outcome.actions:
        if len(state.legal_actions()) > 1:
            positions.append(state.clone())
        state.apply_action(game.action_ids.ids[text])
    step = max(1, len(positions) // CALIBRATION_POSITIONS)
    spent = 0.0
    timed = 0
    for position in positions[::step][:CALIBRATION_POSITIONS]:
        bot = ismcts_bot(game, CALIBRATION_SIMULATIONS, timed)
        spent += cpu_timed(lambda: bot.step(position))[1]  # noqa: B023
        timed += 1
    per_simulation = spent / (timed * CALIBRATION_SIMULATIONS)
    simulations = max(MIN_SIMULATIONS, round(per_decision / per_simulation))
    return {
        "per_decision": per_decision,
        "per_simulation": per_simulation,
        "simulations": simulations,
        "positions": timed,
        "decisions": outcome.hard.decisions,
    }


def _calibrate(name: str) -> tuple[str, dict[str, float]]:
    return name, calibrate(name)


def _play(task: tuple[str, int, int]) -> Outcome:
    name, index, simulations = task
    return play(name, index, simulations, hard_seat=index % PLAYERS)


def interleaved(
    names: list[str], count: int, simulations: dict[str, int], first: int = 0
) -> list[tuple[str, int, int]]:
    """Game `first` of every game, then the next of every game, ...: a run cut short has about as many of
    each. Runs started at different `first` (with the same --simulations) play different deals and pool."""
    return [(name, index, simulations[name]) for index in range(first, first + count) for name in names]


def summary_rows(
    names: list[str], outcomes: list[Outcome], calibration: dict[str, dict[str, float]]
) -> list[list[str]]:
    rows = []
    for name in names:
        played = [o for o in outcomes if o.game == name and not o.truncated]
        if not played:
            continue
        wins = sum(o.hard_share() for o in played)
        low, high = wilson(wins, len(played))
        hard_cpu = sum(o.hard.seconds for o in played)
        hard_decisions = sum(o.hard.decisions for o in played)
        other_cpu = sum(o.ismcts.seconds for o in played)
        other_decisions = sum(o.ismcts.decisions for o in played)
        rows.append(
            [
                name,
                str(len(played)),
                f"{wins / len(played):.1%}",
                f"{low:.1%}–{high:.1%}",
                f"{(1 - wins / len(played)) / 3:.1%}",
                str(int(calibration[name]["simulations"])),
                f"{hard_cpu / max(1, hard_decisions):.3f} / {other_cpu / max(1, other_decisions):.3f}",
                f"{hard_cpu / len(played):.1f} / {other_cpu / len(played) / 3:.1f}",
                str(sum(o.truncated for o in outcomes if o.game == name)),
            ]
        )
    return rows


HEADER = [
    "game",
    "games",
    "hard wins",
    "95% interval",
    "an ISMCTS seat wins",
    "ISMCTS simulations",
    "CPU s per decision (hard / ISMCTS)",
    "CPU s per game per seat (hard / ISMCTS)",
    "truncated",
]


def markdown(rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(HEADER) + " |", "|" + "---|" * len(HEADER)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=20, help="games per game")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--game", choices=games.names(), action="append", help="games (default: all)")
    parser.add_argument("--minutes", type=float, default=None, help="stop after this many minutes (wall)")
    parser.add_argument("--simulations", type=int, default=None, help="skip calibration: ISMCTSBot's count")
    parser.add_argument("--first", type=int, default=0, help="index of the first game (its deal and seats)")
    args = parser.parse_args()
    os.environ.setdefault(CLOCK_ENV, "cpu")  # hard's caps in CPU seconds (read at each search; workers fork)
    names = args.game or [name for name in games.names() if games.package(name).encoding is not None]
    start = time.time()
    print(
        f"{platform.node()} · {os.cpu_count()} cores · load {os.getloadavg()[0]:.1f} · Python "
        f"{platform.python_version()} · {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} · "
        f"{args.games} games each from game {args.first}, {args.workers} workers · "
        f"clock {os.environ[CLOCK_ENV]}",
        flush=True,
    )
    context = get_context("fork")
    outcomes: list[Outcome] = []
    with context.Pool(args.workers) as pool:
        if args.simulations is None:
            calibration = dict(pool.map(_calibrate, names))
        else:
            calibration = {
                n: {
                    "simulations": args.simulations,
                    "per_decision": 0.0,
                    "per_simulation": 0.0,
                    "positions": 0,
                    "decisions": 0,
                }
                for n in names
            }
        for name in names:
            c = calibration[name]
            print(
                f"calibration {name}: hard {c['per_decision']:.3f} CPU s per decision ({int(c['decisions'])} "
                f"decisions), ISMCTS {c['per_simulation'] * 1000:.2f} CPU ms per simulation "
                f"({int(c['positions'])} positions × {CALIBRATION_SIMULATIONS}) → "
                f"{int(c['simulations'])} simulations",
                flush=True,
            )
        simulations = {n: int(c["simulations"]) for n, c in calibration.items()}
        tasks = interleaved(names, args.games, simulations, args.first)
        for outcome in pool.imap_unordered(_play, tasks):
            outcomes.append(outcome)
            print(
                f"{outcome.game} game {outcome.index}: hard in seat {outcome.hard_seat + 1}, scores "
                f"{outcome.scores}, winners {[w + 1 for w in outcome.winners]}, "
                f"hard {outcome.hard.seconds:.1f} CPU s / {outcome.hard.decisions} decisions, "
                f"ISMCTS {outcome.ismcts.seconds:.1f} / "
                f"{outcome.ismcts.decisions}{' TRUNCATED' if outcome.truncated else ''} · "
                f"{(time.time() - start) / 60:.1f} min · load {os.getloadavg()[0]:.1f}",
                flush=True,
            )
            if args.minutes is not None and time.time() - start > args.minutes * 60:
                print(f"stopped after {args.minutes} minutes", flush=True)
                pool.terminate()
                break
    print()
    print(
        "One hard bot against three OpenSpiel ISMCTSBots, equal CPU time per decision (4 players, parity 25%)"
    )
    print(markdown(summary_rows(names, outcomes, calibration)))
    print(f"{(time.time() - start) / 60:.1f} min wall · load {os.getloadavg()[0]:.1f}", file=sys.stderr)


if __name__ == "__main__":
    main()
