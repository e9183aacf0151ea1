"""The fixed ratings bots carry at rated tables (server/ratings.py), from the bot-strength ladder.

    .venv/bin/python benchmarks/bot_ratings.py      # reads README.md's bot-strength table, writes each
                                                    # game's data/bot_ratings.json

`greedy` is the anchor: openskill's default mu (25, a new person's rating) with a small fixed sigma. Each
level's mu follows from its measured win rate w against three greedy bots (4 players) under the
Plackett-Luce model the arena and the site rate with: the winner's probability is
exp(mu_i / c) / sum_j exp(mu_j / c), c = sqrt(sum_j (sigma_j^2 + beta^2)), so
mu_level = 25 + c * ln(3 w / (1 - w)). w is clipped to [1%, 99%] (a level that never won has no finite
rating); the 95% interval of w gives the rating's interval, kept beside it.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

from openskill.models import PlackettLuce

ROOT = Path(__file__).resolve().parents[1]
GAMES = ROOT / "src" / "merchantry" / "games"
BOT_SIGMA = 2.0  # a bot's play does not change: its rating is known, not learned
ROW = re.compile(r"^\| (\w+) \| (\w+) \| (\d+) \| ([\d.]+)% \| ([\d.]+)%–([\d.]+)% \|")


def level_mu(win_rate: float, c: float) -> float:
    w = min(0.99, max(0.01, win_rate))
    return 25.0 + c * math.log(3 * w / (1 - w))


def main() -> None:
    beta = PlackettLuce().beta
    c = math.sqrt(4 * (BOT_SIGMA**2 + beta**2))
    ladder: dict[str, dict[str, dict[str, float | int]]] = {}
    block = ROOT.joinpath("README.md").read_text().split("<!-- bot-strength -->")[1].split("<!--")[0]
    for line in block.splitlines():
        match = ROW.match(line)
        if match is None:
            continue
        game, level, games_played = match[1], match[2], int(match[3])
        rate, low, high = (float(match[i]) / 100 for i in (4, 5, 6))
        ladder.setdefault(game, {"greedy": {"mu": 25.0, "sigma": BOT_SIGMA}})[level] = {
            "mu": round(level_mu(rate, c), 2),
            "sigma": BOT_SIGMA,
            "mu_low": round(level_mu(low, c), 2),
            "mu_high": round(level_mu(high, c), 2),
            "win_rate_vs_greedy": rate,
            "games": games_played,
        }
    print(f"{'game':14} {'bot':7} {'mu':>7} {'95% interval':>16}")
    for game, bots in sorted(ladder.items()):
        path = GAMES / game / "data" / "bot_ratings.json"
        path.write_text(json.dumps(bots, indent=2) + "\n")
        for bot, rating in bots.items():
            interval = f"{rating.get('mu_low', rating['mu'])}–{rating.get('mu_high', rating['mu'])}"
            print(f"{game:14} {bot:7} {rating['mu']:7.2f} {interval:>16}")


if __name__ == "__main__":
    main()
