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
import contextlib
import os
import platform
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BIN = Path(sys.executable).parent
GAMES = {"money": 4, "grand_bazaar": 4, "samarkand": 4}


def free_ports(count: int) -> list[int]:
    sockets = [socket.socket() for _ in range(count)]
    for s in sockets:
        s.bind(("127.0.0.1", 0))
    ports = [s.getsockname()[1] for s in sockets]
    for s in sockets:
        s.close()
    return ports


def session_pids(session: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[3]) == session:
                    found.append(int(entry.name))
    return found


def start_cluster(env: dict[str, str], temp: str) -> tuple[str, int]:
    gcs, manager, objects, metrics, agent, agent_grpc, runtime_env, dashboard = free_ports(8)
    command = [
        str(BIN / "ray"), "start", "--head", "--node-ip-address=127.0.0.1", f"--port={gcs}",
        f"--node-manager-port={manager}", f"--object-manager-port={objects}",
        f"--metrics-export-port={metrics}", f"--dashboard-agent-listen-port={agent}",
        f"--dashboard-agent-grpc-port={agent_grpc}", f"--runtime-env-agent-port={runtime_env}",
        f"--dashboard-port={dashboard}", "--include-dashboard=false", "--num-cpus=2",
        "--disable-usage-stats", f"--temp-dir={temp}",
    ]  # fmt: skip
    starter = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               start_new_session=True)  # fmt: skip
    output, _ = starter.communicate(timeout=300)
    if starter.returncode:
        raise SystemExit(f"ray start failed:\n{output[-2000:]}")
    return f"127.0.0.1:{gcs}", starter.pid


def stop_cluster(session: int) -> None:
    for sig in (signal.SIGTERM, signal.SIGKILL):
        for pid in session_pids(session):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, sig)
        deadline = time.monotonic() + 10
        while session_pids(session) and time.monotonic() < deadline:
            time.sleep(0.2)


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
    address, session = start_cluster(cluster_env, temp)
    rows = []
    try:
        for game in GAMES:
            for games in args.games:
                for _ in range(args.repeat):
                    one = tournament(game, games, env, "--workers", "1")
                    two = tournament(game, games, env, "--workers", "2")
                    ray = tournament(game, games, env, "--backend", "ray", "--address", address)
                    rows.append((game, games, one, two, ray))
    finally:
        stop_cluster(session)
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
