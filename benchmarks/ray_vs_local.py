"""Ray against local workers on the same games (issue 34): a tournament played in one process, on 2 local
worker processes, and on a Ray cluster started here with `ray start --head` on 127.0.0.1 and joined with
--address, as docs/arena.md shows. Wall-clock seconds of the whole command (start-up included) and of the
games alone (the command's own games/s figure), per game and size of run; prints a Markdown table.

    .venv/bin/python benchmarks/ray_vs_local.py --games 48 192 --repeat 1

The cluster runs without token authentication while this machine holds a token (~/.ray/auth_token in a
HOME of its own), which is the other case the arena must join: the driver sends its token and the
cluster ignores it. Every process the cluster left is stopped at the end.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from merchantry.arena import local_ray  # noqa: E402

BIN = Path(sys.executable).parent
GAMES = {"money": 4, "grand_bazaar": 4, "samarkand": 4}


def tournament(game: str, games: int, env: dict[str, str], *where: str) -> tuple[float, float]:
    """(seconds of the whole command, games per second the command reports for its games)."""
    argv = [str(BIN / "merchantry"), "tournament", game, "--players", str(GAMES[game])]
    argv += ["--bots", "greedy,random", "--games", str(games), "--seed", "1", *where]
    start = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=3600)
    seconds = time.perf_counter() - start
    if done.returncode:
        raise SystemExit(f"{' '.join(argv)} failed:\n{done.stderr[-2000:]}")
    rate = re.findall(r"([\d.]+) games/s", done.stdout + done.stderr)
    return seconds, float(rate[-1]) if rate else games / seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, nargs="+", default=[48, 192])
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    home = tempfile.mkdtemp(prefix="ray-bench-home-")
    temp = tempfile.mkdtemp(prefix="rb", dir="/tmp")
    env = {**os.environ, "HOME": home, "COLUMNS": "200", "RAY_USAGE_STATS_ENABLED": "0"}
    env.pop("RAY_AUTH_MODE", None)
    subprocess.run(
        [str(BIN / "ray"), "get-auth-token", "--generate"], env=env, check=True, capture_output=True
    )
    cluster_env = {**env, "RAY_AUTH_MODE": "disabled"}  # a cluster without authentication
    cluster = local_ray.start(BIN / "ray", cluster_env, temp)
    rows = []
    try:
        for game in GAMES:
            for games in args.games:
                for _ in range(args.repeat):
                    one = tournament(game, games, env, "--workers", "1")
                    two = tournament(game, games, env, "--workers", "2")
                    ray = tournament(game, games, env, "--backend", "ray", "--address", cluster.address)
                    rows.append((game, games, one, two, ray))
    finally:
        local_ray.stop(cluster.session)
        subprocess.run(["rm", "-rf", temp, home], check=False)
    print(f"{platform.node()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"{time.strftime('%Y-%m-%d %H:%M')}; greedy,random tournaments, 4 players, seed 1")  # fmt: skip
    print()
    print("| game | games | 1 process: s (games/s) | 2 workers: s (games/s) | Ray by address: s (games/s) "
          "| Ray / 2 workers, whole command |")  # fmt: skip
    print("|---|---|---|---|---|---|")
    for game, games, one, two, ray in rows:
        cells = [f"{s:.1f} ({r:.1f})" for s, r in (one, two, ray)]
        print(f"| {game} | {games} | {' | '.join(cells)} | {ray[0] / two[0]:.2f}× |")


if __name__ == "__main__":
    main()
