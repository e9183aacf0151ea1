"""Screen variants of Grand Bazaar's `closer` against three `greedy` bots on common deals (issue 29).

    nice -n 19 .venv/bin/python benchmarks/screen_grand_bazaar.py --games 150 --workers 2 --seed 7 \
        --variant closer --variant margin

Each variant plays the same deals (game i's seed from `simulate.game_seed(seed, i)`, the variant in seat
i mod 4, as `bot_strength.py` seats a level), so rows compare on the same games. A variant is a closer
built with other parameters (VARIANTS); playing the closer itself, not hard's wrapper around it, leaves
out hard's 1 s budget per move (the closer's look is small enough not to reach it: docs/bots.md). Prints
each variant's win rate (ties shared) with its 95% Wilson interval, its mean score and the greedy seats',
and its CPU seconds per whole move at the median and p99 (the look is the only costly part).
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import platform
import random
import signal
import statistics
import time
from collections.abc import Callable

from merchantry.arena.statistics import wilson
from merchantry.engine import State
from merchantry.games.grand_bazaar.closer import GrandBazaarCloserBot
from merchantry.games.grand_bazaar.game import GAME
from merchantry.games.grand_bazaar.greedy import GrandBazaarGreedyBot
from merchantry.games.grand_bazaar.speculator import GrandBazaarSpeculatorBot
from merchantry.simulate import game_seed

PLAYERS = 4
Result = tuple[float, float, float, list[float]]  # win share, score, greedy seats' mean, CPU s/turn

VARIANTS: dict[str, Callable[[], GrandBazaarCloserBot | GrandBazaarSpeculatorBot]] = {
    "closer": GrandBazaarCloserBot,
    "margin": lambda: GrandBazaarCloserBot(margin_weight=0.5),
    "margin-all": lambda: GrandBazaarCloserBot(margin_weight=0.5, candidates=99),
    "all": lambda: GrandBazaarCloserBot(candidates=99),
    "worlds48": lambda: GrandBazaarCloserBot(worlds=48),
    "margin-worlds48": lambda: GrandBazaarCloserBot(margin_weight=0.5, worlds=48),
    "whole": lambda: GrandBazaarCloserBot(rounds=27),
    "margin-whole": lambda: GrandBazaarCloserBot(rounds=27, margin_weight=0.5),
    "deny": lambda: GrandBazaarCloserBot(deny=True),
    "unpredicted": lambda: GrandBazaarCloserBot(predict=False),  # as shipped, named beside `predict`
    "unpredicted-worlds48": lambda: GrandBazaarCloserBot(predict=False, worlds=48),
    "predict-worlds24": lambda: GrandBazaarCloserBot(predict=True, worlds=24),
    "predict-worlds48": lambda: GrandBazaarCloserBot(predict=True, worlds=48),
    # issue 29, ninth session: the old sampling (independent orders) against orders spread over the next
    # card (every order once near the end), more orders and candidates, a longer look
    "shipped": lambda: GrandBazaarCloserBot(stratify=False),
    "w96c10": lambda: GrandBazaarCloserBot(worlds=96, candidates=10, stratify=False),
    "w96c10s": lambda: GrandBazaarCloserBot(worlds=96, candidates=10, stratify=True),
    "w160c10s": lambda: GrandBazaarCloserBot(worlds=160, candidates=10, stratify=True),
    "w96c10s-r16": lambda: GrandBazaarCloserBot(worlds=96, candidates=10, stratify=True, rounds=16),
    # the policy alone (no look: thousands of deals in minutes), as it is and judging the leader by the
    # holding it will carry into the next card (speculator.rival_holding)
    "speculator": GrandBazaarSpeculatorBot,
    "speculator-predict": lambda: GrandBazaarSpeculatorBot(predict=True),
}


def play(task: tuple[str, int, int]) -> Result:
    """Game `index` with the variant in seat index mod 4: its win share, its score, the greedy seats' mean
    score, and its CPU seconds per whole turn."""
    variant, seed, index = task
    state: State = GAME.new_game(PLAYERS, game_seed(seed, index))
    seat_of_variant = index % PLAYERS
    bot = VARIANTS[variant]()
    greedy = GrandBazaarGreedyBot()
    rng = random.Random(f"bots:{seed}:{index}")
    turn_seconds: list[float] = []
    turn_start: float | None = None
    while not state.is_over():
        seat = state.to_act()[0]
        world = state.sample_hidden(seat, rng)
        if seat == seat_of_variant:
            if turn_start is None:
                turn_start = time.process_time()
            action = bot.choose(world, seat, rng)
        else:
            action = greedy.choose(world, seat, rng)
        state.apply(seat, action)
        if seat == seat_of_variant and not state.in_decision(seat) and turn_start is not None:
            turn_seconds.append(time.process_time() - turn_start)
            turn_start = None
    scores = state.scores()
    winners = state.winners()
    share = 1 / len(winners) if seat_of_variant in winners else 0.0
    others = [s for p, s in enumerate(scores) if p != seat_of_variant]
    return share, scores[seat_of_variant], statistics.fmean(others), turn_seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--first", type=int, default=0, help="the first deal (a stopped run goes on)")
    parser.add_argument("--variant", choices=list(VARIANTS), action="append")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, stop)
    variants = args.variant or list(VARIANTS)
    print(
        f"{platform.node()} · {os.cpu_count()} cores · load {os.getloadavg()[0]:.1f} · Python "
        f"{platform.python_version()} · {args.games} games each, {args.workers} workers, seed {args.seed}"
        f"{f', deals {args.first}+' if args.first else ''}",
        flush=True,
    )
    # deal by deal, every variant on each: a run stopped early still compares the variants on the same deals
    deals = range(args.first, args.first + args.games)
    tasks = [(variant, args.seed, i) for i in deals for variant in variants]
    results: dict[str, dict[int, Result]] = {variant: {} for variant in variants}
    stopped = False
    # the workers end as the pool ends them (SIGTERM's default), not by this script's handler
    with multiprocessing.Pool(args.workers, signal.signal, (signal.SIGTERM, signal.SIG_DFL)) as pool:
        try:
            for task, result in zip(tasks, pool.imap(play, tasks), strict=False):
                results[task[0]][task[2]] = result
        except KeyboardInterrupt:  # Ctrl-C or SIGTERM: the deals every variant finished are the rows
            stopped = True
            pool.terminate()
    common = set.intersection(*(set(found) for found in results.values()))
    note = f" · stopped: {len(common)} deals of {args.games} played by every variant" if stopped else ""
    print(f"{len(common)} deals each{note} · load {os.getloadavg()[0]:.1f}")
    print("variant · games · win rate · 95% interval · mean score · greedy's mean · CPU s/turn median · p99")
    for variant in variants:
        rows = [results[variant][i] for i in sorted(common)]
        if rows:
            print(row(variant, rows), flush=True)


def stop(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def row(variant: str, results: list[Result]) -> str:
    wins = sum(r[0] for r in results)
    low, high = wilson(wins, len(results))
    seconds = sorted(s for r in results for s in r[3])
    p99 = seconds[min(len(seconds) - 1, int(0.99 * len(seconds)))]
    return (
        f"{variant} · {len(results)} · {wins / len(results):.1%} · {low:.1%} – {high:.1%} · "
        f"{statistics.fmean(r[1] for r in results):.1f} · {statistics.fmean(r[2] for r in results):.1f}"
        f" · {statistics.median(seconds):.3f} · {p99:.3f}"
    )


if __name__ == "__main__":
    main()
