"""Engine speed and memory per game and player count: the compiled build, pure Python and a baseline revision,
in one run.

    make bench      (or: .venv/bin/python benchmarks/bench_engine.py [--baseline REV] [--seconds S]
                         [--game NAME] [--players N])

For every game and player count, three fresh processes measure the same thing one after the other: the
working tree's compiled build (when `make compiled` built it: merchantry/_native), the working tree as pure
Python (MERCHANTRY_PURE=1), and the baseline (the source of git revision REV, unpacked to a temporary
folder and put first on PYTHONPATH; pure Python). The compiled row's ratios are against pure Python, the
pure row's against the baseline; the compiled row also gives its actions/s against OpenSpiel's
`python_kuhn_poker` of the same run.
Each measures, on one core, in CPU time (time.process_time, so another process's load counts less):

- actions/s, games/s: uniformly random playouts on the real state (no bots, no sampling);
- clone µs, sample_hidden µs, greedy µs: over positions taken every 50 actions from those playouts
  (sample_hidden for the seat to act; greedy: the game's greedy bot choosing in a world sampled for it);
- bytes/state: what one more clone of such a position costs in memory (tracemalloc), the log shared.

With open_spiel installed (the `openspiel` extra), a row plays OpenSpiel's `python_kuhn_poker` the same
way (chance outcomes drawn uniformly), the yardstick of issue 12. A last row runs the same playout loop on
a game whose rules do nothing (`State.apply`'s checks, `to_act`, `legal_actions`, `rng.choice` and the
loop itself): no game can play faster than that in pure Python, whatever its rules. The machine is noted at
the top; compare rows of one run: these machines are noisy.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import subprocess
import sys
import tarfile
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from io import BytesIO
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
# Main as it stood before the compiled build and the algorithmic work of issue 30 (2026-12-01).
DEFAULT_BASELINE = "dbdbba7"
POSITION_EVERY = 50
MAX_POSITIONS = 400


# --- measuring, in a worker process -------------------------------------------------------------------


def random_playouts(
    new_state: Callable[[int], Any], seconds: float, positions: list[Any] | None = None
) -> dict[str, float]:
    """Uniformly random playouts of `new_state(n)` (n: games played so far) for `seconds` of CPU time;
    every `POSITION_EVERY` actions a clone goes to `positions`, up to `MAX_POSITIONS`. One loop for every
    game and for the floor row, so that they measure the same thing."""
    rng = random.Random(0)
    n_games = n_actions = 0
    clock = time.process_time
    start = clock()
    while clock() - start < seconds:
        state = new_state(n_games)
        while not state.is_over():
            seat = state.to_act()[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
            n_actions += 1
            if positions is not None and n_actions % POSITION_EVERY == 0 and len(positions) < MAX_POSITIONS:
                positions.append(state.clone())
        n_games += 1
    elapsed = clock() - start
    return {"actions_per_s": n_actions / elapsed, "games_per_s": n_games / elapsed}


def measure(game_name: str, players: int, seconds: float) -> dict[str, float]:
    from merchantry import games

    game = games.get(game_name)
    positions: list[Any] = []
    speed = random_playouts(lambda n: game.new_game(players=players, seed=n), seconds, positions)
    live = [state for state in positions if not state.is_over()]
    return {
        **speed,
        "clone_us": per_call_us(lambda: [state.clone() for state in live], len(live), repeats=20),
        "sample_hidden_us": sample_hidden_us(live),
        "greedy_us": greedy_us(game_name, live),
        "bytes_per_state": bytes_per_clone(live),
    }


def per_call_us(run: Any, calls: int, repeats: int) -> float:
    start = time.process_time()
    for _ in range(repeats):
        run()
    return (time.process_time() - start) / (repeats * calls) * 1e6


def sample_hidden_us(live: list[Any]) -> float:
    rng = random.Random(1)
    pairs = [(state, state.to_act()[0]) for state in live]
    return per_call_us(lambda: [state.sample_hidden(seat, rng) for state, seat in pairs], len(pairs), 5)


def greedy_us(game_name: str, live: list[Any]) -> float:
    from merchantry import bots

    greedy = bots.get("greedy", game_name)
    rng = random.Random(2)
    trials = [(state.sample_hidden(state.to_act()[0], rng), state.to_act()[0]) for state in live[:100]]
    return per_call_us(lambda: [greedy.choose(world, seat, rng) for world, seat in trials], len(trials), 2)


def bytes_per_clone(live: list[Any]) -> float:
    """Memory one more live state costs: clones of the middle third of the positions, kept alive."""
    middle = live[len(live) // 3 : 2 * len(live) // 3] or live
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    kept = [state.clone() for state in middle for _ in range(10)]
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return (after - before) / len(kept)


def measure_kuhn(seconds: float) -> dict[str, float]:
    """OpenSpiel's python_kuhn_poker, random playouts the same way (chance outcomes uniformly)."""
    import open_spiel.python.games  # noqa: F401  (registers the Python games)
    import pyspiel

    game = pyspiel.load_game("python_kuhn_poker")
    rng = random.Random(0)
    n_games = n_actions = 0
    clock = time.process_time
    start = clock()
    while clock() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                action = rng.choice(state.chance_outcomes())[0]
            else:
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
            n_actions += 1
        n_games += 1
    elapsed = clock() - start
    return {"actions_per_s": n_actions / elapsed, "games_per_s": n_games / elapsed}


def measure_floor(seconds: float) -> dict[str, float]:
    """`measure`'s playout loop on a 4-player game of 400 actions whose rules do nothing: the time per
    action that is the loop's and the engine's own, not a game's."""
    from merchantry.engine import State

    choices = [("buy", 0), ("buy", 1), ("sell", 0), ("done", -1)]

    class Nothing(State):  # every abstract method, each as cheap as it can be
        __slots__ = ("steps", "current")  # num_players is the engine's (a native attribute when compiled)

        def is_over(self) -> bool:
            return self.steps >= 400

        def to_act(self) -> list[int]:
            return [] if self.steps >= 400 else [self.current]

        def legal_actions(self, player: int) -> list[Any]:
            return list(choices) if player == self.current else []

        def _is_legal(self, player: int, action: object) -> bool:
            return player == self.current

        def _apply(self, player: int, action: Any) -> None:
            self.steps += 1
            self.current = (self.current + 1) % self.num_players

        def _why_illegal(self, player: int, action: Any) -> str:
            return "not your turn"

        def view(self, player: int | None) -> dict[str, Any]:
            return {}

        def scores(self) -> list[float]:
            return [0.0] * self.num_players

        def clone(self) -> Nothing:
            return self

        def to_dict(self) -> dict[str, Any]:
            return {}

        def sample_hidden(self, player: int | None, rng: random.Random) -> Nothing:
            return self

    def new_state(_: int) -> Nothing:
        state = Nothing.__new__(Nothing)
        state.num_players, state.steps, state.current = 4, 0, 0
        return state

    return random_playouts(new_state, seconds)


# --- running workers and printing the table ----------------------------------------------------------


def unpack_baseline(revision: str, into: Path) -> Path:
    """The baseline's package source (src/merchantry at `revision`) under `into`; returns the src folder."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", revision, "src/merchantry"], check=True, capture_output=True
    ).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into / "src"


def run_worker(source: Path | None, *arguments: str, pure: bool = True) -> dict[str, float]:
    """One measurement in a fresh process: `source` (None: the working tree), as pure Python or, with
    pure=False, on the compiled build when one is built (the worker reports which ran)."""
    environment = dict(os.environ)
    environment["PYTHONPATH"] = str(source or ROOT / "src")
    environment["MERCHANTRY_PURE"] = "1" if pure else ""
    output = subprocess.run(
        [sys.executable, __file__, "--worker", *arguments],
        check=True,
        capture_output=True,
        text=True,
        env=environment,
    ).stdout
    result: dict[str, float] = json.loads(output)
    return result


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (
        f"{platform.python_implementation()} {platform.python_version()}, {cpu}, "
        f"{os.cpu_count()} cores, one used; CPU time"
    )


COLUMNS = (
    ("actions_per_s", "actions/s", "{:,.0f}", True),
    ("games_per_s", "games/s", "{:,.1f}", True),
    ("clone_us", "clone µs", "{:.2f}", False),
    ("sample_hidden_us", "sample_hidden µs", "{:.1f}", False),
    ("greedy_us", "greedy µs", "{:,.0f}", False),
    ("bytes_per_state", "bytes/state", "{:,.0f}", False),
)


def cell(column: tuple[str, str, str, bool], new: dict[str, float], old: dict | None) -> str:
    key, _, form, higher_is_better = column
    text = form.format(new[key])
    if old is None or key not in old or not old[key] or not new[key]:
        return text
    ratio = new[key] / old[key] if higher_is_better else old[key] / new[key]
    return f"{text} ({ratio:.1f}×)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="playout CPU time per row and version")
    parser.add_argument("--game", action="append", help="only these games (default: all)")
    parser.add_argument("--players", type=int, action="append", help="only these player counts")
    parser.add_argument("--baseline", default=DEFAULT_BASELINE, help="git revision to compare with")
    parser.add_argument("--no-baseline", action="store_true", help="measure today's code only")
    parser.add_argument("--worker", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(work(args.worker)))
        return

    from rich.console import Console

    Console(width=170).print(table(args))


def work(arguments: list[str]) -> dict[str, float]:
    """A worker's measurement, and whether it ran on the compiled build (1.0) or pure Python (0.0)."""
    import merchantry

    if arguments[0] == "kuhn":
        result = measure_kuhn(float(arguments[1]))
    elif arguments[0] == "floor":
        result = measure_floor(float(arguments[1]))
    else:
        result = measure(arguments[0], int(arguments[1]), float(arguments[2]))
    result["compiled"] = float(getattr(merchantry, "build", "") == "compiled (mypyc)")
    return result


def table(args: argparse.Namespace) -> Any:
    from rich.table import Table

    from merchantry import games

    try:
        kuhn: dict[str, float] | None = run_worker(None, "kuhn", str(args.seconds))
    except subprocess.CalledProcessError:
        kuhn = None  # open_spiel is an optional extra
    with tempfile.TemporaryDirectory() as folder:
        baseline = None if args.no_baseline else unpack_baseline(args.baseline, Path(folder))
        against = "" if baseline is None else f"; pure (n×): against {args.baseline}"
        result = Table(
            title=f"Engine speed — {machine()}, {args.seconds:g} s of playouts per row; "
            f"compiled (n×): against pure Python{against}; same run"
        )
        for heading in ("game", "players", "build", *(title for _, title, _, _ in COLUMNS), "× kuhn"):
            result.add_column(heading, justify="right")
        for name in args.game or games.names():
            game = games.get(name)
            for players in range(game.min_players, game.max_players + 1):
                if args.players and players not in args.players:
                    continue
                worker_args = (name, str(players), str(args.seconds))
                compiled = run_worker(None, *worker_args, pure=False)
                pure = run_worker(None, *worker_args)
                old = None if baseline is None else run_worker(baseline, *worker_args)
                if compiled["compiled"]:
                    versus_kuhn = f"{compiled['actions_per_s'] / kuhn['actions_per_s']:.2f}" if kuhn else ""
                    cells = (cell(column, compiled, pure) for column in COLUMNS)
                    result.add_row(name, str(players), "compiled", *cells, versus_kuhn)
                    name_cell, players_cell = "", ""
                else:
                    name_cell, players_cell = name, str(players)
                pure_kuhn = f"{pure['actions_per_s'] / kuhn['actions_per_s']:.2f}" if kuhn else ""
                cells = (cell(column, pure, old) for column in COLUMNS)
                result.add_row(name_cell, players_cell, "pure", *cells, pure_kuhn)
                if old is not None:
                    cells = (form.format(old[key]) for key, _, form, _ in COLUMNS)
                    result.add_row("", "", "baseline", *cells, "", style="dim")
        if kuhn is not None:
            result.add_row(
                "OpenSpiel python_kuhn_poker",
                "2",
                "",
                f"{kuhn['actions_per_s']:,.0f}",
                f"{kuhn['games_per_s']:,.1f}",
                *[""] * (len(COLUMNS) - 1),
            )
        for pure_floor in (False, True):
            floor = run_worker(None, "floor", str(args.seconds), pure=pure_floor)
            result.add_row(
                "rules that do nothing (the loop's floor)",
                "4",
                "compiled" if floor["compiled"] else "pure",
                f"{floor['actions_per_s']:,.0f}",
                f"{floor['games_per_s']:,.1f}",
                *[""] * (len(COLUMNS) - 1),
            )
    return result


if __name__ == "__main__":
    main()
