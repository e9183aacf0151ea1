"""Where may an analysis' play-outs stop? How well chances cut after K actions predict the winner (issue 28).

    .venv/bin/python benchmarks/play_out_cut.py record GAME FIRST_SEED GAMES OUT.jsonl --per-game 2
    .venv/bin/python benchmarks/play_out_cut.py score OUT.jsonl ...

`record` plays games between bots of mixed levels (benchmarks/calibration.py's line-up) and, at a few
decisions per game drawn at random, plays the move played out in `--worlds` worlds sampled for its seat by
the analysis' policies to the end of the game, noting every seat's evaluation after each of `CUTS` actions
and the final win shares. `score` then compares, on those same play-outs, the chance played out to the end
with chances cut after K actions, each world cut short shared by exp(evaluation / T) (`analysis.cut_shares`;
T = 0: its leader takes the win): per K, the play-outs' mean actions (their cost) and the cross-validated
Brier skill of the chance through a Platt map fitted on the other half of the games (by seed parity). Use
seeds that neither fit nor measure a calibration map: choosing K and T is tuning.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from calibration import lineup_for  # noqa: E402
from fit_calibration import fit_platt  # noqa: E402
from merchantry import bots, games, records  # noqa: E402
from merchantry.bots.analysis import analysis_recipe, cut_shares, decisions_in, platt  # noqa: E402
from merchantry.bots.ismcts import leader_shares, searcher, win_shares  # noqa: E402

CUTS = (8, 16, 24, 32, 48, 64)
SPREADS = (0, 2, 4, 6, 10, 15)


def record(game: str, first: int, count: int, out: str, per_game: int, worlds: int) -> None:
    spec = games.get(game)
    evaluate = games.package(game).evaluate or (lambda state: state.scores())
    search = searcher(game, analysis_recipe(game))
    for seed in range(first, first + count):
        rng = random.Random(seed)
        players = rng.randint(spec.min_players, min(spec.max_players, 5))
        lineup = [bots.get(name, game) for name in lineup_for(game, rng, players)]
        session = records.Session(game, players, seed=seed)
        while not session.state.is_over():
            seat = session.state.to_act()[0]
            session.apply(seat, bots.play_turn(session.state, seat, lineup[seat], rng))
        outcome = win_shares(session.state.winners(), players)
        decisions = list(decisions_in(session.record()))
        choices = [
            (i, d) for i, d in enumerate(decisions) if len(d[2]) > 1 or len(d[0].legal_actions(d[1])) > 1
        ]
        for index, (before, seat, steps) in rng.sample(choices, min(per_game, len(choices))):
            began = time.process_time()
            rows = []
            for _ in range(worlds):
                world = before.sample_hidden(seat, rng)
                for _, action in steps:
                    world.apply(seat, action)
                stream = random.Random(rng.getrandbits(64))
                cuts, played = {}, 0
                while not world.is_over():
                    if played in CUTS:
                        cuts[played] = evaluate(world)
                    actor = world.to_act()[0]
                    policy = search.own_policy if actor == seat else search.policy
                    world.apply(actor, policy(world, actor, stream))
                    played += 1
                rows.append({"cuts": cuts, "length": played, "end": win_shares(world.winners(), players)})
            line = {
                "seed": seed,
                "players": players,
                "seat": seat,
                "progress": index / len(decisions),
                "won": outcome[seat],
                "worlds": rows,
                "cpu": time.process_time() - began,
            }
            with open(out, "a", encoding="utf-8") as file:
                file.write(json.dumps(line) + "\n")


def chance(position: dict[str, Any], cut: int | None, spread: float) -> float:
    seat, found = position["seat"], []
    for world in position["worlds"]:
        standing = world["cuts"].get(str(cut)) if cut is not None else None
        if standing is None:  # over before the cut (or not cut at all): its real outcome
            found.append(world["end"][seat])
        else:
            found.append((cut_shares(standing, spread) if spread else leader_shares(standing))[seat])
    return sum(found) / len(found)


def skill(raws: list[float], won: list[float], seeds: list[int]) -> float:
    """Brier skill of the raw chances through a Platt map fitted on the other half of the games."""
    x, y = np.array(raws), np.array(won)
    squared = 0.0
    for half in (0, 1):
        fit = np.array([seed % 2 == half for seed in seeds])
        a, b = fit_platt(list(x[fit]), list(y[fit]))
        squared += float(np.sum((np.array([platt(r, a, b) for r in x[~fit]]) - y[~fit]) ** 2))
    return 1 - (squared / len(x)) / float(np.mean((y.mean() - y) ** 2))


def read_lines(path: str) -> list[str]:
    data = Path(path).read_bytes()
    return (gzip.decompress(data) if path.endswith(".gz") else data).decode("utf-8").splitlines()


def score(paths: list[str]) -> None:
    positions = [json.loads(line) for path in paths for line in read_lines(path)]
    positions = [p for p in positions if p["worlds"]]
    won, seeds = [p["won"] for p in positions], [p["seed"] for p in positions]
    print(f"{len(positions)} positions from {len(set(seeds))} games")
    length = float(np.mean([w["length"] for p in positions for w in p["worlds"]]))
    end = skill([chance(p, None, 0) for p in positions], won, seeds)
    print(f"to the end: {length:.1f} actions per play-out, cross-validated Brier skill {end:.3f}")
    for cut in CUTS:
        cost = float(np.mean([min(w["length"], cut) for p in positions for w in p["worlds"]]))
        found = [f"T={t}: {skill([chance(p, cut, t) for p in positions], won, seeds):.3f}" for t in SPREADS]
        print(
            f"cut {cut:>3}: {cost:5.1f} actions per play-out ({cost / length:.0%}); skill {', '.join(found)}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    recording = commands.add_parser("record")
    recording.add_argument("game")
    recording.add_argument("first", type=int)
    recording.add_argument("count", type=int)
    recording.add_argument("out")
    recording.add_argument("--per-game", type=int, default=2)
    recording.add_argument("--worlds", type=int, default=24)
    scoring = commands.add_parser("score")
    scoring.add_argument("paths", nargs="+")
    args = parser.parse_args()
    if args.command == "record":
        record(args.game, args.first, args.count, args.out, args.per_game, args.worlds)
    else:
        score(args.paths)


if __name__ == "__main__":
    main()
