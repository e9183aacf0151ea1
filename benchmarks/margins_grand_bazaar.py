"""Where a Grand Bazaar game against three `greedy` bots is decided (issue 29): one policy bot against three
greedy, seats rotated, the same deals as `screen_grand_bazaar.py` (game i's seed from
`simulate.game_seed(seed, i)`, the bot in seat i mod 4).

    nice -n 10 .venv/bin/python benchmarks/margins_grand_bazaar.py --games 1000 --seed 7 --bot speculator

Prints the bot's win rate (ties shared), the quantiles of its final margin over the best greedy seat, the
share of games in bands of that margin, the median spread between the best and the worst greedy seat, and,
at the start of some rounds, how often the bot is ahead of every greedy seat (cash plus 10 grands a gem,
what each would have if the game ended then: GB-E1) and how often it goes on to win from ahead and from
behind.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import statistics

from merchantry import bots
from merchantry.games.grand_bazaar.game import GAME
from merchantry.games.grand_bazaar.greedy import GrandBazaarGreedyBot
from merchantry.simulate import game_seed

PLAYERS = 4
ROUNDS_SHOWN = (6, 10, 16, 22, 26, 27)
BANDS = ((-99, -6), (-6, -3), (-3, -1), (-1, 0), (0, 1), (1, 3), (3, 6), (6, 99))
Result = tuple[
    float, float, float, dict[int, int]
]  # win share, final margin, greedy spread, margins by round


def play(task: tuple[str, int, int]) -> Result:
    name, seed, index = task
    state = GAME.new_game(PLAYERS, game_seed(seed, index))
    me = index % PLAYERS
    bot, greedy = bots.get(name, "grand_bazaar"), GrandBazaarGreedyBot()
    rng = random.Random(f"bots:{seed}:{index}")
    margins: dict[int, int] = {}
    while not state.is_over():
        seat = state.to_act()[0]
        if state.round not in margins:  # the round's first step: its price card is revealed, nobody traded
            worth = state.worth_at_end()
            margins[state.round] = worth[me] - max(w for p, w in enumerate(worth) if p != me)
        world = state.sample_hidden(seat, rng)
        state.apply(seat, (bot if seat == me else greedy).choose(world, seat, rng))
    scores = state.scores()
    others = [s for p, s in enumerate(scores) if p != me]
    winners = state.winners()
    share = 1 / len(winners) if me in winners else 0.0
    return share, scores[me] - max(others), max(others) - min(others), margins


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--bot", default="speculator")
    args = parser.parse_args()
    tasks = [(args.bot, args.seed, i) for i in range(args.games)]
    with multiprocessing.Pool(args.workers) as pool:
        results = pool.map(play, tasks, chunksize=25)
    n = len(results)
    finals = sorted(r[1] for r in results)
    print(f"{args.bot} · {n} games · seed {args.seed} · win rate {sum(r[0] for r in results) / n:.1%}")
    quantiles = ", ".join(f"{q:.0%} {finals[int(q * n)]:+.0f}" for q in (0.1, 0.25, 0.5, 0.75, 0.9))
    print(f"final margin over the best greedy seat, quantiles: {quantiles}")
    for low, high in BANDS:
        print(f"  margin in [{low}, {high}): {sum(low <= f < high for f in finals) / n:.1%}")
    print(f"best minus worst greedy seat, median: {statistics.median(r[2] for r in results):.1f}")
    for round_ in ROUNDS_SHOWN:
        seen = [(r[3][round_], r[0]) for r in results if round_ in r[3]]
        ahead = [win for margin, win in seen if margin > 0]
        behind = [win for margin, win in seen if margin <= 0]
        print(
            f"round {round_} begins: ahead in {len(ahead) / len(seen):.1%} (then wins "
            f"{statistics.fmean(ahead) if ahead else 0:.1%}), not ahead wins {statistics.fmean(behind):.1%}, "
            f"median margin {statistics.median(m for m, _ in seen):+.0f}"
        )


if __name__ == "__main__":
    main()
