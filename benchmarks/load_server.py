"""Load on the web platform: N live Grand Bazaar tables, two people per table, each on a websocket.

    .venv/bin/python benchmarks/load_server.py --tables 1000 --pace 3 --seconds 60
    .venv/bin/python benchmarks/load_server.py --tables 100 --pace 0 --seconds 30      # saturated
    .venv/bin/python benchmarks/load_server.py --database-url postgresql+psycopg://... --tables 100 --pace 0

It starts a server process (`--serve`, with the per-client limits off and bots unused), creates the tables
(host in seat 1, seat 2 joined by invite), connects both seats, and lets every table play: the seat to move
waits `--pace` seconds (human pace; 0: as fast as the server answers), sends a random legal move and waits
for its update. A finished game is replaced by a new table, so N stay live. Printed, per run: moves/s,
round trip (move sent to the mover's update) p50/p95/p99, moves unanswered after 10 s, refusals and
errors, the server's CPU (percent of one core) and memory. Scenarios beside the plain run:
- `--slow-readers K`: K spectators that never read, at busy tables;
- `--storm K`: K connections opened at once while the tables play (a reconnect storm after a restart);
  their time to the first message is printed too.
The load generator runs on the same machine: its own CPU is printed too (a saturated generator limits
what can be measured). Results: docs/web.md and benchmarks/results/load-server*.txt.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import random
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ANSWER_TIMEOUT = 10.0  # a move not answered within this is counted unanswered
OPEN_TIMEOUT = 300.0  # seconds to wait for every table to open before measuring anyway


def bench_app() -> Any:
    """The platform as `merchantry serve` builds it, without per-client limits (the whole load comes from
    one address); one per process."""
    from merchantry.server.app import create_app
    from merchantry.server.limits import Limits

    return create_app(
        os.environ["MERCHANTRY_DATABASE_URL"],
        bot_delay=0.0,
        limits=Limits(enabled=False),
        tune_process=True,
    )


def serve(database_url: str, port: int, workers: int) -> None:
    """The server under test, in `workers` processes sharing the port (as `merchantry serve --workers`)."""
    import uvicorn

    from merchantry.server.app import WEBSOCKET_SETTINGS
    from merchantry.server.db import open_database

    open_database(database_url)  # the schema, once, before the workers start
    os.environ["MERCHANTRY_DATABASE_URL"] = database_url
    uvicorn.run(
        "load_server:bench_app",
        factory=True,
        app_dir=str(Path(__file__).parent),
        workers=workers if workers > 1 else None,
        host="127.0.0.1",
        port=port,
        log_level="warning",
        backlog=4096,
        **WEBSOCKET_SETTINGS,  # as `merchantry serve`
    )


@dataclass
class Stats:
    round_trips: list[float] = field(default_factory=list)
    unanswered: int = 0
    refused: int = 0
    errors: int = 0
    games_finished: int = 0
    first_message: list[float] = field(default_factory=list)  # storm connections: connect to first state


def raise_file_limit() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def server_pids(pid: int) -> list[int]:
    """The server process and its workers (uvicorn's children), for CPU and memory."""
    children = Path(f"/proc/{pid}/task/{pid}/children")
    return [pid, *(int(p) for p in children.read_text().split())] if children.exists() else [pid]


def cpu_seconds(pids: list[int]) -> float:
    total = 0.0
    for pid in pids:
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def rss_mib(pids: list[int]) -> float:
    total = 0.0
    for pid in pids:
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) / 1024
    return total


class Load:
    def __init__(self, base: str, args: argparse.Namespace) -> None:
        import httpx

        self.base = base
        self.ws_base = base.replace("http://", "ws://")
        self.args = args
        # as many connections as tables open at once (the default pool of 100 times out at 1,000 tables)
        pool = httpx.Limits(max_connections=None, max_keepalive_connections=100)
        self.http = httpx.AsyncClient(base_url=base, timeout=60, limits=pool)
        self.stats = Stats()
        self.measuring = False
        self.stop = asyncio.Event()
        self.seats_open = 0  # seats that have had their first update (the table is open for them)

    async def new_table(self) -> tuple[str, list[str]]:
        body = {
            "game": "grand_bazaar",
            "players": 2,
            "seats": [{"kind": "human"}, {"kind": "human"}],
            "name": "Ada",
        }
        created = (await self.http.post("/api/tables", json=body)).raise_for_status().json()
        invite = created["invites"][0]["invite"]
        joined = await self.http.post(
            f"/api/tables/{created['id']}/join", json={"seat": 1, "invite": invite, "name": "Bea"}
        )
        return created["id"], [created["token"], joined.raise_for_status().json()["token"]]

    async def play_table(self, rng: random.Random) -> None:
        """One live table, replaced by a new one when its game ends, until the run stops."""
        import websockets

        await asyncio.sleep(rng.uniform(0, self.args.warmup / 2))  # the tables open over the warm-up

        while not self.stop.is_set():
            try:
                table_id, tokens = await self.new_table()
                async with asyncio.TaskGroup() as group:
                    for seat, token in enumerate(tokens):
                        group.create_task(self.play_seat(table_id, seat, token, rng))
                if self.measuring:
                    self.stats.games_finished += 1
            except (OSError, websockets.WebSocketException, Exception) as exc:  # noqa: BLE001
                if self.measuring:
                    self.stats.errors += 1
                if not self.stop.is_set():
                    print(f"table error: {type(exc).__name__}: {exc}", file=sys.stderr)
                    await asyncio.sleep(1)

    async def play_seat(self, table_id: str, seat: int, token: str, rng: random.Random) -> None:
        import websockets

        url = f"{self.ws_base}/ws/tables/{table_id}"
        async with websockets.connect(url, subprotocols=["merchantry", f"token.{token}"]) as ws:  # type: ignore[list-item]
            sent_at: float | None = None
            opened = False
            while not self.stop.is_set():
                try:
                    timeout = ANSWER_TIMEOUT if sent_at is not None else 60
                    message = json.loads(await asyncio.wait_for(ws.recv(), timeout))
                except TimeoutError:
                    if sent_at is not None and self.measuring:
                        self.stats.unanswered += 1
                    sent_at = None
                    continue
                if message.get("type") == "refused":
                    if self.measuring:
                        self.stats.refused += 1
                    sent_at = None
                    continue
                if message.get("type") != "state":
                    continue
                if not opened:
                    opened = True
                    self.seats_open += 1
                if sent_at is not None:
                    if self.measuring:
                        self.stats.round_trips.append(time.perf_counter() - sent_at)
                    sent_at = None
                if message["table"]["status"] != "playing":
                    return
                legal = message["legal"]
                if not legal:
                    continue
                if self.args.pace:
                    await asyncio.sleep(rng.uniform(0.5, 1.5) * self.args.pace)
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "act", "action": rng.choice(legal)}))

    async def slow_reader(self, table_id: str) -> None:
        """A spectator with a tiny receive buffer that never reads."""
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
        host, port = self.base.removeprefix("http://").split(":")
        sock.connect((host, int(port)))
        sock.sendall(
            (
                f"GET /ws/tables/{table_id} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\n"
                "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                "Sec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        await self.stop.wait()
        sock.close()

    async def storm(self, count: int) -> None:
        """`count` spectators connect at once; each one's time to its first message is kept."""
        import websockets

        listing = (await self.http.get("/api/tables")).json()
        ids = [t["id"] for t in listing if t["status"] == "playing"] or [listing[0]["id"]]

        async def one(table_id: str) -> None:
            start = time.perf_counter()
            try:
                async with websockets.connect(f"{self.ws_base}/ws/tables/{table_id}", open_timeout=60) as ws:
                    await asyncio.wait_for(ws.recv(), 60)
                    self.stats.first_message.append(time.perf_counter() - start)
            except Exception:  # noqa: BLE001
                self.stats.errors += 1

        await asyncio.gather(*(one(ids[i % len(ids)]) for i in range(count)))


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def run(args: argparse.Namespace, base: str, server_pids: list[int]) -> dict[str, Any]:
    load = Load(base, args)
    rng = random.Random(args.seed)
    players = [asyncio.create_task(load.play_table(random.Random(rng.random()))) for _ in range(args.tables)]
    # open the tables gradually over half the warm-up; measure once every seat has had its first update and
    # the warm-up has passed (opening 1,000 tables queues work: measured too soon, p99 is that queue's wait)
    began = time.perf_counter()
    await asyncio.sleep(args.warmup)
    while load.seats_open < 2 * args.tables and time.perf_counter() - began < OPEN_TIMEOUT:
        await asyncio.sleep(0.5)
    opened_after = time.perf_counter() - began
    await asyncio.sleep(args.settle)
    extras: list[asyncio.Task[None]] = []
    if args.slow_readers:
        listing = (await load.http.get("/api/tables")).json()
        busy = [t["id"] for t in listing if t["status"] == "playing"]
        for i in range(args.slow_readers):
            extras.append(asyncio.create_task(load.slow_reader(busy[i % len(busy)])))
    load.measuring = True
    cpu_before, own_before, wall_before = cpu_seconds(server_pids), time.process_time(), time.perf_counter()
    if args.storm:
        extras.append(asyncio.create_task(load.storm(args.storm)))
    await asyncio.sleep(args.seconds)
    wall = time.perf_counter() - wall_before
    cpu = cpu_seconds(server_pids) - cpu_before
    own = time.process_time() - own_before
    load.measuring = False
    memory = rss_mib(server_pids)
    stats = load.stats
    load.stop.set()
    for task in [*players, *extras]:
        task.cancel()
    await asyncio.gather(*players, *extras, return_exceptions=True)
    await load.http.aclose()
    trips = [t * 1000 for t in stats.round_trips]
    return {
        "moves_per_s": len(trips) / wall,
        "p50": percentile(trips, 0.50),
        "p95": percentile(trips, 0.95),
        "p99": percentile(trips, 0.99),
        "unanswered": stats.unanswered,
        "refused": stats.refused,
        "errors": stats.errors,
        "games": stats.games_finished,
        "server_cpu": 100 * cpu / wall,
        "client_cpu": 100 * own / wall,
        "server_mib": memory,
        "opened_after": opened_after,
        "storm_first_p50": percentile([t * 1000 for t in stats.first_message], 0.5),
        "storm_first_p99": percentile([t * 1000 for t in stats.first_message], 0.99),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--database-url", help="default: a fresh SQLite file in a temporary folder")
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--pace", type=float, default=3.0, help="seconds a seat waits to move (0: none)")
    parser.add_argument("--seconds", type=float, default=30.0, help="how long to measure")
    parser.add_argument("--warmup", type=float, default=10.0, help="seconds before measuring, at least")
    parser.add_argument(
        "--settle", type=float, default=5.0, help="seconds to wait once every table is open, then measure"
    )
    parser.add_argument("--slow-readers", type=int, default=0)
    parser.add_argument("--storm", type=int, default=0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1, help="server processes (PostgreSQL for several)")
    args = parser.parse_args()
    raise_file_limit()
    if args.serve:
        serve(args.database_url, args.port, args.workers)
        return
    workdir = tempfile.mkdtemp(prefix="merchantry-load-")
    url = args.database_url or f"sqlite:///{workdir}/load.db"
    port = args.port or free_port()
    server = subprocess.Popen(
        [sys.executable, __file__, "--serve", "--port", str(port), "--database-url", url]
        + ["--workers", str(args.workers)],
        start_new_session=True,
    )
    try:
        base = f"http://127.0.0.1:{port}"
        wait_until_up(base)
        result = asyncio.run(run(args, base, server_pids(server.pid)))
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
    database = "PostgreSQL" if url.startswith("postgresql") else "SQLite"
    scenario = "saturated" if not args.pace else f"a move every {args.pace:g} s per seat"
    extra = ""
    if args.slow_readers:
        extra += f" · {args.slow_readers} slow readers"
    if args.storm:
        extra += (
            f" · storm of {args.storm}: first message p50 {result['storm_first_p50']:.0f} ms,"
            f" p99 {result['storm_first_p99']:.0f} ms"
        )
    processes = f"{args.workers} process" + ("es" if args.workers > 1 else "")
    print(f"{platform.node()} · {os.cpu_count()} cores · Python {platform.python_version()}")
    print(
        f"{database} · {processes} · {args.tables} tables · {scenario}{extra} · every table open after "
        f"{result['opened_after']:.0f} s, measured from {args.settle:g} s later for {args.seconds:g} s\n"
        f"  moves/s {result['moves_per_s']:.0f} · round trip p50 {result['p50']:.0f} ms, "
        f"p95 {result['p95']:.0f} ms, p99 {result['p99']:.0f} ms · unanswered {result['unanswered']} · "
        f"refused {result['refused']} · errors {result['errors']} · games finished {result['games']}\n"
        f"  server CPU {result['server_cpu']:.0f}% of a core, {result['server_mib']:.0f} MiB · "
        f"load generator CPU {result['client_cpu']:.0f}%"
    )


def wait_until_up(base: str) -> None:
    import httpx

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            httpx.get(f"{base}/api/games", timeout=2).raise_for_status()
            return
        except httpx.HTTPError:
            time.sleep(0.2)
    raise SystemExit("the server did not start within 60 s")


if __name__ == "__main__":
    main()
