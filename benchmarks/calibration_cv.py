"""Which kind of calibration map generalises? Cross-validated by game on positions measured (issue 28).

    .venv/bin/python benchmarks/calibration_cv.py money=benchmarks/results/calibration/money-fit4.jsonl,...

Every game's positions (benchmarks/calibration.py --samples lines) are dealt into `--folds` folds by game
(a game's positions share its outcome, so they never sit on both sides), each kind of map is fitted on the
other folds and scores the fold left out. Printed per game and kind: the out-of-fold Brier score, the largest
decile miss among deciles with >= 50 positions, how many such deciles miss by more than 5 points, and the
share of `--draws` simulated held-out sets of `--held` positions (whole games drawn from the out-of-fold
predictions, each position's outcome drawn from the chance shown) that pass the decile target: how often
even a map that is right would pass on so few positions.
Kinds: every kind benchmarks/fit_calibration.py can ship (its KINDS: Platt, isotonic in bins of 25-200
positions, Platt then isotonic, Beta calibration, pooled or per player count), fitted as it fits them, and,
for information only, Platt with the game's progress (not known during a game: not shippable).
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from fit_calibration import (  # noqa: E402
    KINDS,
    TARGET_COUNT,
    TARGET_OFF,
    calibrated,
    fit_game,
    fit_logistic,
    load,
    logit,
)

Map = Callable[[dict[str, Any]], float]


def progress_fit(fitting: list[dict[str, Any]]) -> Map:
    """For information: Platt on logit(raw), progress and their product, plus the player count."""

    def features(samples: list[dict[str, Any]]) -> np.ndarray:
        x = logit(np.array([s["estimate"] for s in samples]))
        g = np.array([s.get("progress", 0.5) for s in samples])
        n = np.array([s["players"] for s in samples], dtype=float)
        return np.column_stack([x, x * g, g, n, np.ones_like(x)])

    w = fit_logistic(features(fitting), np.array([s["won"] for s in fitting]))
    return lambda s: float(1 / (1 + np.exp(-np.clip(features([s]) @ w, -30, 30)))[0])


def kinds() -> dict[str, Callable[[list[dict[str, Any]]], Map]]:
    """Every kind of map fit_calibration.py can ship (its KINDS, fitted as it fits them), the raw shares,
    and for information the Platt map with the game's progress."""

    def from_fitter(kind: tuple[str, int], least: int) -> Callable[[list[dict[str, Any]]], Map]:
        def fit(fitting: list[dict[str, Any]]) -> Map:
            fitted = fit_game(fitting, least, kind)
            return lambda s: calibrated(fitted, s["players"], s["estimate"])

        return fit

    found: dict[str, Callable[[list[dict[str, Any]]], Map]] = {"raw": lambda fitting: lambda s: s["estimate"]}
    for name, (kind, least) in KINDS.items():
        found[name] = from_fitter(kind, least)
    found["(info) platt+progress"] = progress_fit
    return found


def deciles(pairs: list[tuple[float, float]]) -> list[tuple[int, float]]:
    """(positions, estimate - observed) of each decile of the chance shown."""
    bins: list[list[tuple[float, float]]] = [[] for _ in range(10)]
    for e, w in pairs:
        bins[min(9, int(e * 10))].append((e, w))
    return [(len(b), sum(e - w for e, w in b) / len(b)) for b in bins if b]


def passes(pairs: list[tuple[float, float]]) -> bool:
    return all(abs(off) <= TARGET_OFF for n, off in deciles(pairs) if n >= TARGET_COUNT)


def simulated_pass(by_game: dict[int, list[float]], held: int, draws: int, rng: random.Random) -> float:
    """The share of simulated held-out sets that pass, were the map right: whole games drawn (with
    replacement) until `held` positions, each position's outcome drawn from the chance shown (independently:
    the positions of one game really share its outcome, so a true pass rate is lower still)."""
    seeds = list(by_game)
    hits = 0
    for _ in range(draws):
        pairs: list[tuple[float, float]] = []
        while len(pairs) < held:
            for chance in by_game[rng.choice(seeds)]:
                pairs.append((chance, 1.0 if rng.random() < chance else 0.0))
        hits += passes(pairs)
    return hits / draws


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("files", nargs="+", help="GAME=file,file,... (positions of today's code)")
    parser.add_argument("--folds", type=int, default=10)
    parser.add_argument(
        "--held", default="2000", help="positions of a simulated held-out set (comma-separated sizes)"
    )
    parser.add_argument("--only", help="these kinds alone (comma-separated names)")
    parser.add_argument("--draws", type=int, default=400)
    args = parser.parse_args()
    sizes = [int(n) for n in args.held.split(",")]
    labels = ["pass if right"] if len(sizes) == 1 else [f"right, {n}" for n in sizes]
    for spec in args.files:
        game, paths = spec.split("=", 1)
        samples = load(paths.split(","))[game]
        seeds = sorted({s["seed"] for s in samples})
        shuffled = random.Random(1).sample(seeds, len(seeds))
        fold_of = {seed: i % args.folds for i, seed in enumerate(shuffled)}
        print(
            f"\n{game}: {len(samples)} positions from {len(seeds)} games ({paths}),"
            f" {args.folds} folds by game"
        )
        print(
            f"  {'kind':<24} {'Brier':>8} {'skill':>6} {'worst decile':>13} {'deciles off':>12}"
            + "".join(f" {label:>14}" for label in labels)
        )
        won = [s["won"] for s in samples]
        base = sum(won) / len(won)
        reference = sum((base - w) ** 2 for w in won) / len(won)
        for name, fit in kinds().items():
            if args.only and name not in args.only.split(","):
                continue
            shown = [0.0] * len(samples)
            for fold in range(args.folds):
                fitting = [s for s in samples if fold_of[s["seed"]] != fold]
                mapping = fit(fitting)
                for i, s in enumerate(samples):
                    if fold_of[s["seed"]] == fold:
                        shown[i] = mapping(s)
            pairs = list(zip(shown, won, strict=True))
            brier = sum((e - w) ** 2 for e, w in pairs) / len(pairs)
            rows = [(n, off) for n, off in deciles(pairs) if n >= TARGET_COUNT]
            worst = max(abs(off) for _, off in rows)
            missed = sum(abs(off) > TARGET_OFF for _, off in rows)
            by_game: dict[int, list[float]] = {}
            for chance, s in zip(shown, samples, strict=True):
                by_game.setdefault(s["seed"], []).append(chance)
            passed = [simulated_pass(by_game, n, args.draws, random.Random(2)) for n in sizes]
            print(
                f"  {name:<24} {brier:>8.5f} {1 - brier / reference:>6.3f} {worst:>+12.1%}"
                f" {missed:>5} of {len(rows):<4}" + "".join(f" {p:>13.0%}" for p in passed)
            )


if __name__ == "__main__":
    main()
