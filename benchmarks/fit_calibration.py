"""Fit each game's calibration map of the analysis' chances, and measure it on held-out games (issue 28).

    .venv/bin/python benchmarks/calibration.py --games money --samples money.jsonl ...   # the positions
    .venv/bin/python benchmarks/fit_calibration.py money.jsonl ... --measure money-heldout.jsonl ... \
        --write --plot x.png

The positions are `benchmarks/calibration.py --samples` lines: a game's seed, its players, the raw chance
the analysis measured for the seat to move (its share of play-outs won) and that seat's final win share.
The positions of the files named first fit the maps, those of `--measure` (games of other seeds) measure
them; without `--measure`, games with an odd seed fit and games with an even seed measure, and with it
and `--even-measure GAME`, that game's odd seeds fit and its even seeds measure beside `--measure`'s (held
out every way: no position of a game that fitted the map measures it).

Four kinds of map, each monotone in the raw chance: Platt scaling on its logit,
calibrated = 1 / (1 + exp(-(a * logit(raw) + b))) with a > 0, one per player count with at least `--least`
fitting positions, else the game's pooled fit; an isotonic map (pool adjacent violators over bins of
positions, knots joined by straight lines); Platt's maps followed by one isotonic map of what they show
(where Platt's curve is too rigid: raw shares that all meant about the same); or Beta calibration,
1 / (1 + exp(-(a * ln(raw) - b * ln(1 - raw) + c))) with a, b >= 0 (Platt's curve where a = b), per player
count or pooled, shipped as knots. The kind kept is the one of least Brier score in two-fold
cross-validation on the fitting games alone (never on the held-out ones), or the one `--kind` names
(benchmarks/calibration_cv.py cross-validates every kind in more folds, by game).
Printed per game: the cross-validation, the reliability table by decile on the held-out games, raw and
calibrated, and the Brier score against the base rate. `--write` saves the maps as
src/merchantry/games/<game>/data/calibration.json (merchantry.bots.analysis applies them); `--plot` draws
the held-out reliability of every game, raw and calibrated.
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

from merchantry.bots.analysis import EDGE, Calibration  # noqa: E402

TARGET_OFF, TARGET_COUNT, TARGET_SKILL, TARGET_POSITIONS = 0.05, 50, 0.15, 2000
KNOT_EDGE = 0.005  # an isotonic map shows no chance below this or above 1 - this
# the maps cross-validated on the fitting positions (by seed parity), the best of them kept: Platt's
# curve, or isotonic maps smoothed by bins of this many positions
BIN_SIZES = (25, 50, 100, 200)


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


def fit_isotonic(raw: list[float], won: list[float], bin_size: int) -> list[tuple[float, float]]:
    """An isotonic map, smoothed: the positions in order of their raw chance are cut into bins of at least
    `bin_size` (equal raw chances never split), neighbouring bins whose win rates fall are pooled until they
    rise (pool adjacent violators, weighted by positions), and each pool is a knot at its mean raw chance
    and its win rate, clipped to [KNOT_EDGE, 1 - KNOT_EDGE] (no chance is shown as certain)."""
    order = np.argsort(np.array(raw), kind="stable")
    x, y = np.array(raw)[order], np.array(won)[order]
    bins: list[list[float]] = []  # [sum of raw, sum of won, positions]
    start = 0
    while start < len(x):
        end = min(len(x), start + bin_size)
        while end < len(x) and x[end] == x[end - 1]:
            end += 1
        bins.append([float(x[start:end].sum()), float(y[start:end].sum()), float(end - start)])
        start = end
    if len(bins) > 1 and bins[-1][2] < bin_size / 2:  # a short last bin joins the one before
        last = bins.pop()
        bins[-1] = [a + b for a, b in zip(bins[-1], last, strict=True)]
    pools: list[list[float]] = []
    for each in bins:
        pools.append(list(each))
        while len(pools) > 1 and pools[-2][1] / pools[-2][2] >= pools[-1][1] / pools[-1][2]:
            last = pools.pop()
            pools[-1] = [a + b for a, b in zip(pools[-1], last, strict=True)]
    return [(round(sx / n, 5), round(min(1 - KNOT_EDGE, max(KNOT_EDGE, sy / n)), 5)) for sx, sy, n in pools]


def reliability(pairs: list[tuple[float, float]], seeds: list[int] | None = None) -> dict[str, Any]:
    """By decile of the chance: positions, games (distinct `seeds`, when given), mean chance, observed win
    rate and its 95% interval; the Brier score, the base rate's and the skill."""
    deciles: list[list[int]] = [[] for _ in range(10)]
    for index, (estimate, _) in enumerate(pairs):
        deciles[min(9, int(estimate * 10))].append(index)
    rows = []
    for i, members in enumerate(deciles):
        if not members:
            continue
        estimate = sum(pairs[k][0] for k in members) / len(members)
        observed = sum(pairs[k][1] for k in members) / len(members)
        games = len({seeds[k] for k in members}) if seeds is not None else 0
        rows.append((i, len(members), estimate, observed, games, wilson(observed, len(members))))
    brier = sum((e - w) ** 2 for e, w in pairs) / len(pairs)
    base = sum(w for _, w in pairs) / len(pairs)
    reference = sum((base - w) ** 2 for _, w in pairs) / len(pairs)
    return {"rows": rows, "brier": brier, "reference": reference, "skill": 1 - brier / reference}


def wilson(rate: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% interval of a win rate over `n` positions, by Wilson's score method (taking the positions
    as independent: those of one game share its outcome, so the true interval is wider)."""
    centre = (rate + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(rate * (1 - rate) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def table_lines(name: str, result: dict[str, Any]) -> list[str]:
    lines = [
        f"  {name}",
        f"  {'decile':>8} {'positions':>10} {'games':>6} {'estimate':>9} {'observed':>9} {'95% interval':>14}"
        f" {'off by':>7}",
    ]
    for decile, count, estimate, observed, games, (low, high) in result["rows"]:
        flag = "" if count < TARGET_COUNT or abs(estimate - observed) <= TARGET_OFF else "  <- off"
        lines.append(
            f"  {decile * 10:>3}-{decile * 10 + 10:<4} {count:>10} {games or '':>6} {estimate:>9.1%}"
            f" {observed:>9.1%} {f'{low:.1%}-{high:.1%}':>14} {estimate - observed:>+7.1%}{flag}"
        )
    lines.append(
        f"  Brier {result['brier']:.4f}, base rate's {result['reference']:.4f}, skill {result['skill']:.3f}"
    )
    return lines


def meets(result: dict[str, Any], positions: int) -> bool:
    off = [abs(row[2] - row[3]) for row in result["rows"] if row[1] >= TARGET_COUNT]
    enough = positions >= TARGET_POSITIONS
    return enough and result["skill"] >= TARGET_SKILL and all(x <= TARGET_OFF for x in off)


Kind = tuple[str, int]  # ("platt", 0), ("isotonic", bin size), ("platt+isotonic", bin size) or ("beta", 0)
BETA_GRID = tuple(round(0.01 * k, 2) for k in range(1, 100))  # where a Beta map's curve is shipped as knots


def beta_features(raw: np.ndarray) -> np.ndarray:
    p = np.clip(raw, 0.01, 0.99)
    return np.column_stack([np.log(p), -np.log(1 - p), np.ones_like(p)])


def fit_logistic(features: np.ndarray, won: np.ndarray) -> np.ndarray:
    """The weights of least log loss of a logistic model of the win share (features with a constant)."""
    from scipy.optimize import minimize

    def loss(w: np.ndarray) -> tuple[float, np.ndarray]:
        z = np.clip(features @ w, -30, 30)
        p = 1 / (1 + np.exp(-z))
        return float(np.sum(np.logaddexp(0, z) - won * z)) / len(won), features.T @ (p - won) / len(won)

    return np.asarray(minimize(loss, np.zeros(features.shape[1]), jac=True, method="L-BFGS-B").x)


def beta_map(samples: list[dict[str, Any]]) -> dict[str, Any]:
    """Beta calibration (Kull et al. 2017): calibrated = 1 / (1 + exp(-(a ln p - b ln(1 - p) + c))), p the raw
    chance clipped to [0.01, 0.99], fitted by least log loss; where a or b comes out negative (a curve that
    would not keep the order of the chances) Platt's curve (a = b) instead. Shipped as knots on BETA_GRID
    (straight between them: within a few hundredths of a point of the curve), so analysis reads it as it
    reads an isotonic map."""
    raw = np.array([s["estimate"] for s in samples])
    won = np.array([s["won"] for s in samples])
    w = fit_logistic(beta_features(raw), won)
    if w[0] < 0 or w[1] < 0:
        x = logit(raw)
        v = fit_logistic(np.column_stack([x, np.ones_like(x)]), won)
        w = np.array([v[0], v[0], v[1]])
    z = np.clip(beta_features(np.array(BETA_GRID)) @ w, -30, 30)
    shown = np.clip(1 / (1 + np.exp(-z)), KNOT_EDGE, 1 - KNOT_EDGE)
    return {
        "beta": [round(float(v), 5) for v in w],
        "knots": [[x, round(float(y), 5)] for x, y in zip(BETA_GRID, shown, strict=True)],
    }


# the kinds of map by name (benchmarks/calibration_cv.py cross-validates them, --kind ships one): the kind and
# the fitting positions a player count needs for its own map (else the pooled map serves it)
KINDS: dict[str, tuple[Kind, int]] = {
    "platt pooled": (("platt", 0), 10**9),
    "platt per players": (("platt", 0), 150),
    **{f"isotonic {size}": (("isotonic", size), 150) for size in BIN_SIZES},
    **{f"platt+isotonic {size}": (("platt+isotonic", size), 150) for size in (50, 100)},
    "beta pooled": (("beta", 0), 10**9),
    "beta per players": (("beta", 0), 150),
}


def fit_game(fitting: list[dict[str, Any]], least: int, kind: Kind) -> dict[str, Any]:
    """The game's maps of one kind: Platt's, pooled and per player count with at least `least` positions;
    an isotonic map of the raw chances (pooled: every player count); or Platt's maps followed by one pooled
    isotonic map of what they show (Platt's curve per player count, straightened where it is too rigid)."""
    fitted: dict[str, Any] = {"kind": kind[0], "pooled": {"positions": len(fitting)}, "players": {}}
    if kind[0] == "beta":
        fitted["pooled"].update(beta_map(fitting))
        for players in sorted({s["players"] for s in fitting}):
            mine = [s for s in fitting if s["players"] == players]
            if len(mine) >= least:
                fitted["players"][str(players)] = {**beta_map(mine), "positions": len(mine)}
    elif kind[0] != "isotonic":
        fitted["pooled"].update(platt_map(fitting))
        for players in sorted({s["players"] for s in fitting}):
            mine = [s for s in fitting if s["players"] == players]
            if len(mine) >= least:
                fitted["players"][str(players)] = {**platt_map(mine), "positions": len(mine)}
    if kind[0] in ("isotonic", "platt+isotonic"):
        shown = [calibrated(fitted, s["players"], s["estimate"]) for s in fitting]
        knots = [list(k) for k in fit_isotonic(shown, [s["won"] for s in fitting], kind[1])]
        for chosen in (fitted["pooled"], *fitted["players"].values()):
            chosen["knots"] = knots
    shapes = {
        "platt": "Platt maps, calibrated = 1 / (1 + exp(-(a * logit(raw) + b))),"
        " raw clipped to [EDGE, 1 - EDGE]",
        "isotonic": f"an isotonic map, knots [raw, calibrated] joined by straight lines (bins of {kind[1]})",
        "platt+isotonic": "Platt maps (a, b), then one isotonic map of what they show, knots [Platt's chance,"
        f" calibrated] joined by straight lines (bins of {kind[1]})",
        "beta": "Beta calibration maps, calibrated = 1 / (1 + exp(-(a * ln(raw) - b * ln(1 - raw) + c))), raw"
        " clipped to [0.01, 0.99], 'beta' [a, b, c], shipped as knots [raw, calibrated] joined by straight"
        " lines",
    }
    fitted["about"] = (
        f"The analysis' raw chances mapped to what they meant in games between bots: {shapes[kind[0]]}; "
        "by player count, else 'pooled'. Fitted by benchmarks/fit_calibration.py on the positions of "
        "benchmarks/calibration.py's fitting games (benchmarks/results/calibration.txt)."
    )
    return {"about": fitted.pop("about"), **fitted}


def platt_map(samples: list[dict[str, Any]]) -> dict[str, float]:
    a, b = fit_platt([s["estimate"] for s in samples], [s["won"] for s in samples])
    return {"a": round(a, 4), "b": round(b, 4)}


def calibrated(fitted: dict[str, Any], players: int, raw: float) -> float:
    """What the analysis shows for `raw` with these maps (merchantry.bots.analysis.Calibration)."""
    chosen = fitted["players"].get(str(players), fitted["pooled"])
    knots = tuple((float(x), float(y)) for x, y in chosen.get("knots", ()))
    return Calibration(chosen.get("a", 1.0), chosen.get("b", 0.0), True, knots, "a" in chosen)(raw)


def brier(fitted: dict[str, Any], samples: list[dict[str, Any]]) -> float:
    return sum((calibrated(fitted, s["players"], s["estimate"]) - s["won"]) ** 2 for s in samples) / len(
        samples
    )


def choose_kind(fitting: list[dict[str, Any]], least: int) -> tuple[Kind, list[str]]:
    """The kind of map with the least Brier score in two-fold cross-validation on the fitting positions
    (the games in order of their seed dealt alternately into two halves: fitted on one, scored on the
    other, and the other way round); the scores."""
    half = {seed: i % 2 for i, seed in enumerate(sorted({s["seed"] for s in fitting}))}
    halves = [[s for s in fitting if half[s["seed"]] == k] for k in (0, 1)]
    kinds: list[Kind] = [
        ("platt", 0),
        *((name, size) for name in ("isotonic", "platt+isotonic") for size in BIN_SIZES),
    ]
    scores = {}
    for kind in kinds:
        scores[kind] = sum(
            brier(fit_game(halves[k], least // 2, kind), halves[1 - k]) * len(halves[1 - k]) for k in (0, 1)
        ) / len(fitting)
    best = min(kinds, key=lambda kind: scores[kind])
    lines = [
        f"{kind[0]}{f' (bins of {kind[1]})' if kind[1] else ''} {scores[kind]:.4f}"
        + (" <- kept" if kind == best else "")
        for kind in kinds
    ]
    return best, lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("samples", nargs="+", help="JSON Lines files of benchmarks/calibration.py --samples")
    parser.add_argument(
        "--measure",
        nargs="+",
        help="held-out JSON Lines files: the samples all fit the maps and these measure them (without it,"
        " the samples' games of odd seeds fit and those of even seeds measure)",
    )
    parser.add_argument(
        "--even-measure",
        help="games (comma-separated) whose samples of even seeds measure too, beside --measure: only their"
        " odd seeds fit",
        default="",
    )
    parser.add_argument(
        "--least", type=int, default=150, help="fitting positions for a player count's own map"
    )
    parser.add_argument("--write", action="store_true", help="save each game's map in its data folder")
    parser.add_argument(
        "--fit-only",
        action="store_true",
        help="fit (and with --write save) the maps on the samples alone, measuring nothing: a run's maps are"
        " fixed before its held-out positions are played",
    )
    parser.add_argument("--plot", help="draw the held-out reliability diagrams into this PNG")
    parser.add_argument(
        "--kind",
        action="append",
        default=[],
        metavar="GAME=KIND",
        help="ship this kind of map for the game (a name of KINDS, e.g. 'money=isotonic 50', chosen by"
        " benchmarks/calibration_cv.py) instead of the two-fold cross-validation's choice",
    )
    args = parser.parse_args()
    forced = {}
    for spec in args.kind:
        game, name = spec.split("=", 1)
        if name not in KINDS:
            raise SystemExit(f"--kind {spec}: no kind {name!r} (kinds: {', '.join(KINDS)})")
        forced[game] = KINDS[name]
    by_game = load(args.samples)
    measured = load(args.measure) if args.measure else None
    results = {}
    for game in sorted(by_game):
        samples = by_game[game]
        if args.fit_only:
            fit_and_write(game, samples, args.least, args.write, forced.get(game))
            continue
        if measured is not None and game in args.even_measure.split(","):
            fitting = [s for s in samples if s["seed"] % 2 == 1]
            held = [s for s in samples if s["seed"] % 2 == 0] + measured.get(game, [])
            split = "odd seeds", "even seeds and --measure's"
        elif measured is not None:
            fitting, held = samples, measured.get(game, [])
            if not held:
                print(f"\n{game}: no held-out positions in --measure; skipped")
                continue
            split = "fitting games", "held-out games"
        else:
            fitting = [s for s in samples if s["seed"] % 2 == 1]
            held = [s for s in samples if s["seed"] % 2 == 0]
            split = "odd seeds", "even seeds"
        overlap = {s["seed"] for s in fitting} & {s["seed"] for s in held}
        if overlap:
            raise SystemExit(f"{game}: seeds both fit and measure: {sorted(overlap)[:5]}")
        if game in forced:
            kind, least = forced[game]
            scores = ["not run: the kind given by --kind"]
        else:
            (kind, scores), least = choose_kind(fitting, args.least), args.least
        fitted = fit_game(fitting, least, kind)
        seeds_of = [s["seed"] for s in held]
        raw = reliability([(s["estimate"], s["won"]) for s in held], seeds_of)
        mapped = reliability(
            [(calibrated(fitted, s["players"], s["estimate"]), s["won"]) for s in held], seeds_of
        )
        results[game] = (raw, mapped, held)
        seeds = sorted({s["seed"] for s in held})
        print(
            f"\n{game}: fitted on {len(fitting)} positions from {len({s['seed'] for s in fitting})} games"
            f" ({split[0]}), measured on {len(held)} held out from {len(seeds)} games ({split[1]},"
            f" seeds {seeds[0]}-{seeds[-1]})"
        )
        print(f"  cross-validated Brier on the fitting positions: {'; '.join(scores)}")
        print(f"  maps: {describe(fitted)}")
        for line in table_lines("raw play-out shares, held out", raw):
            print(line)
        for line in table_lines("calibrated, held out", mapped):
            print(line)
        print(
            "  target (>= 2,000 held-out positions, every held-out decile with >= 50 within 5 points,"
            " skill >= 0.15): " + ("met" if meets(mapped, len(held)) else "NOT met")
        )
        if args.write:
            write_map(game, fitted)
    if args.plot:
        plot(results, args.plot)


def fit_and_write(
    game: str,
    fitting: list[dict[str, Any]],
    least: int,
    write: bool,
    forced: tuple[Kind, int] | None = None,
) -> None:
    """--fit-only: the game's map from its fitting positions (of the `forced` kind, if given), nothing
    measured."""
    if forced:
        (kind, least), scores = forced, ["not run: the kind given by --kind"]
    else:
        kind, scores = choose_kind(fitting, least)
    fitted = fit_game(fitting, least, kind)
    print(f"\n{game}: fitted on {len(fitting)} positions from {len({s['seed'] for s in fitting})} games")
    print(f"  cross-validated Brier on the fitting positions: {'; '.join(scores)}")
    print(f"  maps: {describe(fitted)}")
    if write:
        write_map(game, fitted)


def write_map(game: str, fitted: dict[str, Any]) -> None:
    path = ROOT / "src" / "merchantry" / "games" / game / "data" / "calibration.json"
    path.write_text(json.dumps(fitted, indent=1) + "\n", encoding="utf-8")
    print(f"  written to {path.relative_to(ROOT)}")


def describe(fitted: dict[str, Any]) -> str:
    def one(m: dict[str, Any]) -> str:
        platt_part = f"a={m['a']} b={m['b']}" if "a" in m else ""
        if "beta" in m:
            platt_part = "beta a={} b={} c={}".format(*m["beta"])
        knots = f"{len(m['knots'])} knots" if "knots" in m else ""
        return " ".join(x for x in (platt_part, knots) if x) + f" ({m['positions']} positions)"

    own = ", ".join(f"{p} players {one(m)}" for p, m in fitted["players"].items())
    return f"{fitted['kind']}; pooled {one(fitted['pooled'])}; {own or 'no own map'}"


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
