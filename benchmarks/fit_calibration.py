"""Fit each game's calibration map of the analysis' chances, and measure it on held-out games (issue 28).

    .venv/bin/python benchmarks/calibration.py --games money --samples money.jsonl ...   # the positions
    .venv/bin/python benchmarks/fit_calibration.py money.jsonl byzanz.jsonl ... --write --plot x.png

The positions are `benchmarks/calibration.py --samples` lines: a game's seed, its players, the raw chance
the analysis measured for the seat to move (its share of play-outs won) and that seat's final win share.
Games with an odd seed fit the map, games with an even seed measure it (held out: no position of a game
that fitted the map measures it). The map is Platt scaling on the logit of the raw chance,
calibrated = 1 / (1 + exp(-(a * logit(raw) + b))), with a > 0 (monotone), one per game and player count
with at least `--least` fitting positions, else the game's pooled fit. Printed per game: the reliability
table by decile on the held-out games, raw and calibrated, and the Brier score against the base rate.
`--write` saves the maps as src/merchantry/games/<game>/data/calibration.json (merchantry.bots.analysis
applies them); `--plot` draws the held-out reliability of every game, raw and calibrated.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from merchantry.bots.analysis import EDGE, platt  # noqa: E402

TARGET_OFF, TARGET_COUNT, TARGET_SKILL, TARGET_POSITIONS = 0.05, 50, 0.15, 2000


def load(paths: list[str]) -> dict[str, list[dict[str, Any]]]:
    by_game: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for path in paths:
        for line in Path(path).read_text(encoding="utf-8").splitlines():
            if line.strip():
                sample = json.loads(line)
                by_game[sample["game"]].append(sample)
    return by_game


def logit(p: np.ndarray) -> np.ndarray:
    p = np.clip(p, EDGE, 1 - EDGE)
    return np.log(p / (1 - p))


def fit_platt(raw: list[float], won: list[float]) -> tuple[float, float]:
    """Logistic regression of the win share on logit(raw) (won may be a tie's 1/k): the (a, b) of least log
    loss, a bounded to [0.05, 5] (positive: the map keeps the order of the chances) and b to [-5, 5]."""
    from scipy.optimize import minimize

    x, y = logit(np.array(raw)), np.array(won)

    def log_loss(ab: np.ndarray) -> float:
        z = np.clip(ab[0] * x + ab[1], -30, 30)
        return float(np.sum(np.logaddexp(0, z) - y * z)) / len(x)

    found = minimize(log_loss, np.array([1.0, 0.0]), method="L-BFGS-B", bounds=[(0.05, 5.0), (-5.0, 5.0)])
    return float(found.x[0]), float(found.x[1])


def reliability(pairs: list[tuple[float, float]]) -> dict[str, Any]:
    deciles: list[list[tuple[float, float]]] = [[] for _ in range(10)]
    for estimate, won in pairs:
        deciles[min(9, int(estimate * 10))].append((estimate, won))
    rows = [
        (i, len(d), sum(e for e, _ in d) / len(d), sum(w for _, w in d) / len(d))
        for i, d in enumerate(deciles)
        if d
    ]
    brier = sum((e - w) ** 2 for e, w in pairs) / len(pairs)
    base = sum(w for _, w in pairs) / len(pairs)
    reference = sum((base - w) ** 2 for _, w in pairs) / len(pairs)
    return {"rows": rows, "brier": brier, "reference": reference, "skill": 1 - brier / reference}


def table_lines(name: str, result: dict[str, Any]) -> list[str]:
    lines = [f"  {name}", f"  {'decile':>8} {'positions':>10} {'estimate':>9} {'observed':>9} {'off by':>7}"]
    for decile, count, estimate, observed in result["rows"]:
        flag = "" if count < TARGET_COUNT or abs(estimate - observed) <= TARGET_OFF else "  <- off"
        lines.append(
            f"  {decile * 10:>3}-{decile * 10 + 10:<4} {count:>10} {estimate:>9.1%} {observed:>9.1%}"
            f" {estimate - observed:>+7.1%}{flag}"
        )
    lines.append(
        f"  Brier {result['brier']:.4f}, base rate's {result['reference']:.4f}, skill {result['skill']:.3f}"
    )
    return lines


def meets(result: dict[str, Any], positions: int) -> bool:
    off = [abs(e - o) for _, n, e, o in result["rows"] if n >= TARGET_COUNT]
    enough = positions >= TARGET_POSITIONS
    return enough and result["skill"] >= TARGET_SKILL and all(x <= TARGET_OFF for x in off)


def fit_game(samples: list[dict[str, Any]], least: int) -> dict[str, Any]:
    fitting = [s for s in samples if s["seed"] % 2 == 1]
    pooled = fit_platt([s["estimate"] for s in fitting], [s["won"] for s in fitting])
    maps = {}
    for players in sorted({s["players"] for s in fitting}):
        mine = [s for s in fitting if s["players"] == players]
        if len(mine) >= least:
            a, b = fit_platt([s["estimate"] for s in mine], [s["won"] for s in mine])
            maps[str(players)] = {"a": round(a, 4), "b": round(b, 4), "positions": len(mine)}
    return {
        "about": "Platt maps of the analysis' raw chances: "
        "calibrated = 1 / (1 + exp(-(a * logit(raw) + b))), "
        "raw clipped to [EDGE, 1 - EDGE]; by player count, else 'pooled'. "
        "Fitted by benchmarks/fit_calibration.py on the odd seeds of benchmarks/calibration.py's games.",
        "pooled": {"a": round(pooled[0], 4), "b": round(pooled[1], 4), "positions": len(fitting)},
        "players": maps,
    }


def calibrated(fitted: dict[str, Any], players: int, raw: float) -> float:
    chosen = fitted["players"].get(str(players), fitted["pooled"])
    return platt(raw, chosen["a"], chosen["b"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("samples", nargs="+", help="JSON Lines files of benchmarks/calibration.py --samples")
    parser.add_argument(
        "--least", type=int, default=150, help="fitting positions for a player count's own map"
    )
    parser.add_argument("--write", action="store_true", help="save each game's map in its data folder")
    parser.add_argument("--plot", help="draw the held-out reliability diagrams into this PNG")
    args = parser.parse_args()
    by_game = load(args.samples)
    results = {}
    for game in sorted(by_game):
        samples = by_game[game]
        fitted = fit_game(samples, args.least)
        held = [s for s in samples if s["seed"] % 2 == 0]
        raw = reliability([(s["estimate"], s["won"]) for s in held])
        mapped = reliability([(calibrated(fitted, s["players"], s["estimate"]), s["won"]) for s in held])
        results[game] = (raw, mapped, held)
        games_seen = len({s["seed"] for s in samples})
        print(
            f"\n{game}: {len(samples)} positions from {games_seen} games; fitted on "
            f"{len(samples) - len(held)} (odd seeds), measured on {len(held)} held out (even seeds)"
        )
        maps = ", ".join(f"{p} players a={m['a']} b={m['b']}" for p, m in fitted["players"].items())
        print(f"  maps: pooled a={fitted['pooled']['a']} b={fitted['pooled']['b']}; {maps or 'no own map'}")
        for line in table_lines("raw play-out shares, held out", raw):
            print(line)
        for line in table_lines("calibrated, held out", mapped):
            print(line)
        print(
            "  target (>= 2,000 positions, every held-out decile with >= 50 within 5 points, skill >= 0.15): "
            + ("met" if meets(mapped, len(samples)) else "NOT met")
        )
        if args.write:
            path = ROOT / "src" / "merchantry" / "games" / game / "data" / "calibration.json"
            path.write_text(json.dumps(fitted, indent=1) + "\n", encoding="utf-8")
            print(f"  written to {path.relative_to(ROOT)}")
    if args.plot:
        plot(results, args.plot)


def plot(results: dict[str, Any], path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(1, len(results), figsize=(3.2 * len(results), 3.4), squeeze=False)
    for axis, (game, (raw, mapped, held)) in zip(axes[0], results.items(), strict=True):
        axis.plot([0, 1], [0, 1], color="#999", linewidth=1)
        for result, label, colour in ((raw, "raw", "#d95f02"), (mapped, "calibrated", "#1b9e77")):
            rows = [r for r in result["rows"] if r[1] >= 10]
            estimate = [r[2] for r in rows]
            observed = [r[3] for r in rows]
            # a decile's observed rate, with its 95% interval (normal approximation)
            spread = [
                1.96 * math.sqrt(max(o * (1 - o), 1e-4) / r[1]) for r, o in zip(rows, observed, strict=True)
            ]
            axis.errorbar(
                estimate,
                observed,
                yerr=spread,
                marker="o",
                markersize=3,
                capsize=2,
                color=colour,
                label=f"{label} (skill {result['skill']:.2f})",
            )
        axis.set_title(f"{game} ({len(held)} held out)", fontsize=9)
        axis.set_xlim(0, 1)
        axis.set_ylim(0, 1)
        axis.set_xlabel("chance shown", fontsize=8)
        axis.set_ylabel("observed win rate", fontsize=8)
        axis.legend(fontsize=7, loc="upper left")
        axis.tick_params(labelsize=7)
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    print(f"\nreliability plot written to {path}")


if __name__ == "__main__":
    main()
