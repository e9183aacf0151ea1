"""Do the analysis' chances mean what they say? A reliability table per game (issue 28, item 4).

    .venv/bin/python benchmarks/calibration.py --positions 2000 --workers 2
    .venv/bin/python benchmarks/calibration.py --games money --positions 300        # a quick look
    .venv/bin/python benchmarks/calibration.py --games byzanz --per-game 4 --seed 90001 --samples x.jsonl

Games are played between bots of mixed levels (each seat drawn from random, greedy, easy and the game's own
policy bots). At decisions picked at random, the chance the analysis shows after the move played (the
chart's figure: `merchantry.bots.analysis`, the move played out in `--worlds` worlds sampled for the seat,
with the hard recipe's rollouts, to the end or as far as the game's `PlayOutCut` says) is recorded with
whether that seat went on to win (its win share: 1/k in a k-way tie) and how far into the game it came.
`--per-game K` takes K decisions per game drawn at random instead of `--rate`'s share: a game's positions
share its outcome, so a decile's observed rate is only as sure as the number of games behind it (many
games, few positions each). Printed per game: by decile of the estimate, the positions, the mean estimate
and the observed win rate; the Brier score, the base rate's Brier score (always saying the mean win rate)
and the Brier skill (1 - Brier / base). Target (issue 28): every decile with >= 50 positions within 5
points of its observed rate, Brier skill >= 0.15. CPU time per game is printed too (the machine is shared).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from merchantry import bots, games, records  # noqa: E402
from merchantry.bots.analysis import decisions_in, play_outs  # noqa: E402
from merchantry.bots.ismcts import searcher, win_shares  # noqa: E402
from merchantry.bots.levels import recipe  # noqa: E402

LINEUP = ("random", "greedy", "easy")  # with the game's own policy bots added (the level bots are searches)


def lineup_for(game: str, rng: random.Random, players: int) -> list[str]:
    names = [
        *LINEUP,
        *(n for n in bots.names(game) if n not in ("random", "greedy", "easy", "medium", "hard")),
    ]
    return [rng.choice(names) for _ in range(players)]


def one_game(
    args: tuple[str, int, float, int, int],
) -> tuple[int, int, list[tuple[float, float, float]], float]:
    """A game between mixed bots (its seed and players), then the analysis' chance at a share `rate` of its
    decisions (or at `per_game` of them drawn at random, if set), each with the seat's final win share and
    how far into the game it came (its index among the game's decisions / their number); and the CPU
    seconds it took."""
    game, seed, rate, worlds, per_game = args
    began = time.process_time()
    rng = random.Random(seed)
    spec = games.get(game)
    players = rng.randint(spec.min_players, min(spec.max_players, 5))
    names = lineup_for(game, rng, players)
    lineup = [bots.get(name, game) for name in names]
    session = records.Session(game, players, seed=seed)
    while not session.state.is_over():
        seat = session.state.to_act()[0]
        session.apply(seat, bots.play_turn(session.state, seat, lineup[seat], rng))
    record = session.record()
    outcome = win_shares(session.state.winners(), players)
    search = searcher(game, recipe(game, "hard"))
    decisions = list(decisions_in(record))
    # the analysis judges only decisions with a choice
    choices = [(i, d) for i, d in enumerate(decisions) if len(d[2]) > 1 or len(d[0].legal_actions(d[1])) > 1]
    if per_game:
        # few positions from each of many games: a game's positions share one outcome, so many per game
        # make a decile's observed rate the outcome of few games
        taken = sorted(rng.sample(choices, min(per_game, len(choices))), key=lambda c: c[0])
    else:
        taken = [c for c in choices if rng.random() < rate]
    found = []
    for index, (before, seat, steps) in taken:
        played = [action for _, action in steps]
        shares = play_outs(before, seat, [played], search, random.Random(rng.getrandbits(64)), worlds)[0]
        found.append((sum(s[seat] for s in shares) / len(shares), outcome[seat], index / len(decisions)))
    return seed, players, found, time.process_time() - began


def save_samples(
    path: str, game: str, seed: int, players: int, found: list[tuple[float, float, float]]
) -> None:
    with open(path, "a", encoding="utf-8") as out:
        for estimate, won, progress in found:
            line = {
                "game": game,
                "seed": seed,
                "players": players,
                "estimate": estimate,
                "won": won,
                "progress": round(progress, 4),
            }
            out.write(json.dumps(line) + "\n")


def reliability(samples: list[tuple[float, float]]) -> dict[str, Any]:
    deciles: list[list[tuple[float, float]]] = [[] for _ in range(10)]
    for estimate, won in samples:
        deciles[min(9, int(estimate * 10))].append((estimate, won))
    rows = [
        (i, len(d), sum(e for e, _ in d) / len(d), sum(w for _, w in d) / len(d))
        for i, d in enumerate(deciles)
        if d
    ]
    brier = sum((e - w) ** 2 for e, w in samples) / len(samples)
    base = sum(w for _, w in samples) / len(samples)
    reference = sum((base - w) ** 2 for _, w in samples) / len(samples)
    return {"rows": rows, "brier": brier, "reference": reference, "skill": 1 - brier / reference}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--games", default=",".join(games.names()), help="games, comma-separated")
    parser.add_argument("--positions", type=int, default=2000, help="positions per game, at least")
    parser.add_argument("--rate", type=float, default=0.2, help="share of a game's decisions taken")
    parser.add_argument(
        "--per-game",
        type=int,
        default=0,
        help="take this many decisions per game, drawn at random (instead of --rate's share)",
    )
    parser.add_argument("--worlds", type=int, default=48, help="worlds per estimate (the analysis' own)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--samples",
        help="also append every position (game, seed, players, estimate, won) to this JSON Lines"
        " file as it is measured: benchmarks/fit_calibration.py fits the calibration maps from it",
    )
    args = parser.parse_args()
    print(f"calibration of the analysis' chance after the move played: {args.worlds} worlds, hard rollouts")
    print(f"{platform.node()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    for game in args.games.split(","):
        samples: list[tuple[float, float]] = []
        cpu, seed = 0.0, args.seed
        with ProcessPoolExecutor(args.workers) as pool:
            while len(samples) < args.positions:
                batch = [
                    (game, seed + k, args.rate, args.worlds, args.per_game) for k in range(2 * args.workers)
                ]
                seed += len(batch)
                for game_seed, players, found, seconds in pool.map(one_game, batch):
                    samples += [(e, w) for e, w, _ in found]
                    cpu += seconds
                    if args.samples:
                        save_samples(args.samples, game, game_seed, players, found)
        table = reliability(samples)
        print(f"\n{game}: {len(samples)} positions, {cpu:.0f} CPU s")
        print(f"{'decile':>8} {'positions':>10} {'estimate':>9} {'observed':>9} {'off by':>7}")
        for decile, count, estimate, observed in table["rows"]:
            flag = "" if count < 50 or abs(estimate - observed) <= 0.05 else "  <- off"
            print(
                f"{decile * 10:>3}-{decile * 10 + 10:<4} {count:>10} {estimate:>9.1%} {observed:>9.1%}"
                f" {estimate - observed:>+7.1%}{flag}"
            )
        print(
            f"Brier {table['brier']:.4f}, base rate's {table['reference']:.4f}, skill {table['skill']:.3f}"
            f" (target >= 0.15)"
        )


if __name__ == "__main__":
    main()
