"""Tuning runs for a search recipe: one ISMCTS bot with a recipe given on the command line against three
`greedy` bots, 4 players, its seat rotated (game i puts it in seat i mod 4).

    .venv/bin/python benchmarks/tune_search.py --game grand_bazaar --games 24 --workers 2 \\
        --base hard reward=gain opponents=policy

`--base` names the level whose recipe the overrides change (`key=value`, any SearchConfig field). The
games are the same as `bot_strength.py`'s for one seed (same deals), so two recipes compare on the same
games. Prints win rate (ties shared) with its 95% Wilson interval, mean scores and milliseconds per
search. Short runs rank recipes; `bot_strength.py` measures the chosen one.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import platform
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor

from merchantry import bots, games, simulate
from merchantry.arena.statistics import wilson
from merchantry.bots.ismcts import SearchBot, SearchConfig
from merchantry.bots.levels import LEVELS, recipe
from merchantry.records import Session


def parse_recipe(base: SearchConfig, overrides: list[str]) -> SearchConfig:
    fields = {f.name: f.type for f in dataclasses.fields(SearchConfig)}
    changes: dict[str, object] = {}
    for item in overrides:
        key, _, text = item.partition("=")
        if key not in fields:
            raise SystemExit(f"unknown recipe field {key!r}; fields are: {', '.join(fields)}")
        current = getattr(base, key)
        if text == "None":
            changes[key] = None
        elif isinstance(current, bool):
            changes[key] = text == "true"
        elif isinstance(current, int) or key in ("iterations", "rollout_depth", "plan_visits"):
            changes[key] = int(text)
        elif isinstance(current, float) or key in ("seconds", "anchor_margin"):
            changes[key] = float(text)
        else:
            changes[key] = text
    return dataclasses.replace(base, **changes)


def play(args: tuple[str, SearchConfig, int, int]) -> tuple[int, list[float], list[int], list[float]]:
    """Game `index`: the trial bot in seat index mod 4; returns its seat, scores, winners, ms per search."""
    game_name, config, seed, index = args
    seat_of_trial = index % 4
    session = Session(game_name, 4, simulate.game_seed(seed, index))
    trial = SearchBot("trial", game_name, config)
    timings: list[float] = []
    search = trial.search.run

    def timed_run(*a: object, **k: object):  # type: ignore[no-untyped-def]
        start = time.perf_counter()
        result = search(*a, **k)  # type: ignore[arg-type]
        timings.append((time.perf_counter() - start) * 1000)
        return result

    trial.search.run = timed_run  # type: ignore[method-assign]
    players = [trial if s == seat_of_trial else bots.get("greedy", game_name) for s in range(4)]
    rng = random.Random(f"bots:{seed}:{index}")
    state = session.state
    while not state.is_over():
        seat = state.to_act()[0]
        session.apply(seat, bots.play_turn(state, seat, players[seat], rng))
    return seat_of_trial, list(state.scores()), list(state.winners()), timings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", choices=games.names(), required=True)
    parser.add_argument("--games", type=int, default=24)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--base", choices=LEVELS, default="hard")
    parser.add_argument("overrides", nargs="*", help="key=value changes to the base recipe")
    args = parser.parse_args()
    config = parse_recipe(recipe(args.game, args.base), args.overrides)
    start = time.perf_counter()
    tasks = [(args.game, config, args.seed, i) for i in range(args.games)]
    with ProcessPoolExecutor(args.workers) as pool:
        results = list(pool.map(play, tasks))
    wins = sum(1 / len(w) for seat, _, w, _ in results if seat in w)
    low, high = wilson(wins, len(results))
    own = statistics.mean(scores[seat] for seat, scores, _, _ in results)
    others = statistics.mean(
        score for seat, scores, _, _ in results for s, score in enumerate(scores) if s != seat
    )
    times = sorted(t for *_, timings in results for t in timings)
    median = times[len(times) // 2] if times else 0.0
    print(
        f"{platform.node()} · {os.cpu_count()} cores · Python {platform.python_version()} · "
        f"seed {args.seed}\n"
        f"{args.game} · {args.base} {' '.join(args.overrides) or '(as is)'} · {len(results)} games · "
        f"win {wins / len(results):.1%} ({low:.1%} – {high:.1%}) · mean score {own:.1f} "
        f"(greedy {others:.1f}) · search ms median {median:.0f}, max {max(times, default=0):.0f} · "
        f"{(time.perf_counter() - start) / 60:.1f} min"
    )


if __name__ == "__main__":
    main()
