"""Can one client slow another's table down? One abusive client against a few people's tables (issue 31).

    .venv/bin/python benchmarks/abuse_server.py --seconds 30

It starts a server process as `merchantry serve` builds it (its default per-client limits on, the bots'
pause at its default 0.8 s). The victim, from 127.0.0.1, plays `--tables` Grand Bazaar tables of two
people on websockets, a move every `--pace` seconds per seat, and its round trip (move sent to the mover's
update) is measured twice: quiet, then while an abuser from 127.0.0.2 does everything it may at once, as
fast as the server lets it:
- games of hard bots only, as many as it is allowed (the rest refused: counted);
- tables of itself and hard bots on a 1-second turn clock (the clock moves it: bots only in effect);
- tables of itself and hard bots without a clock, where it moves at once and asks for a hint before every
  move (a script playing at the bots' pace);
- an analysis of every finished game it sees in the lobby (`--finished` games of random bots are played
  to their end before the server starts), again and again.
Printed: the victim's moves/s and round trip p50/p95/p99 in both phases, the server's CPU, and what the
abuser got (its requests by answer). The victim and the abuser run in processes of their own, on the same
machine (2 cores) as the server.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import os
import platform
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from load_server import Load, cpu_seconds, free_port, percentile, server_pids, wait_until_up

ABUSER = "127.0.0.2"  # another loopback address: another client for the server's limits
HARD = {"kind": "bot", "bot": "hard"}


def abuse_app() -> Any:
    """The platform as `merchantry serve` builds it: default limits, default bot pause."""
    from merchantry.server.app import create_app

    extra: dict[str, Any] = {}  # MERCHANTRY_CPU_PROCESSES=0: bots, hints and analyses in threads instead
    if "MERCHANTRY_CPU_PROCESSES" in os.environ:
        extra["cpu_processes"] = os.environ["MERCHANTRY_CPU_PROCESSES"] == "1"
    # MERCHANTRY_BOT_PRIORITY=batch:N (SCHED_BATCH at nice N) or nice:N: the bots in worker processes
    # scheduled so (server/work.py, Priority); unset or "thread": in a thread of the server, as it serves
    kind, _, nice = os.environ.get("MERCHANTRY_BOT_PRIORITY", "thread").partition(":")
    if kind in ("batch", "nice"):
        from merchantry.server.work import Priority

        extra["bot_priority"] = Priority(nice=int(nice or 0), batch=kind == "batch")
    return create_app(os.environ["MERCHANTRY_DATABASE_URL"], tune_process=True, **extra)


def finished_games(database_url: str, count: int) -> None:
    """`count` games of random bots played to their end in the database, for the abuser to analyse."""
    from merchantry.server.db import open_database
    from merchantry.server.tables import TableService

    service = TableService(open_database(database_url))
    for _ in range(count):
        bots = [{"kind": "bot", "bot": "random"}] * 3
        table_id = service.create("grand_bazaar", 3, {}, bots, "Ann")["id"]
        while service.bot_move(table_id):
            pass


def serve(database_url: str, port: int) -> None:
    import uvicorn

    from merchantry.server.app import WEBSOCKET_SETTINGS

    os.environ["MERCHANTRY_DATABASE_URL"] = database_url
    uvicorn.run(
        "abuse_server:abuse_app",
        factory=True,
        app_dir=str(Path(__file__).parent),
        host="127.0.0.1",
        port=port,
        log_level="error",
        **WEBSOCKET_SETTINGS,
    )


class Abuser:
    def __init__(self, base: str) -> None:
        import httpx

        transport = httpx.AsyncHTTPTransport(local_address=ABUSER, limits=httpx.Limits(max_connections=None))
        self.http = httpx.AsyncClient(base_url=base, transport=transport, timeout=120)
        self.answers: collections.Counter[str] = collections.Counter()
        self.reasons: collections.Counter[str] = collections.Counter()
        self.rng = random.Random(9)

    async def ask(self, what: str, method: str, url: str, **extra: Any) -> Any:
        try:
            answer = await self.http.request(method, url, **extra)
        except Exception as exc:  # noqa: BLE001
            self.answers[f"{what} {type(exc).__name__}"] += 1
            return None
        self.answers[f"{what} {answer.status_code}"] += 1
        if answer.status_code == 429:
            self.reasons[answer.json()["error"][:70]] += 1
        return answer

    async def create(self, what: str, seats: list[dict], turn_seconds: int = 0) -> Any:
        body = {"game": "grand_bazaar", "players": len(seats), "seats": seats, "turn_seconds": turn_seconds}
        answer = await self.ask(what, "POST", "/api/tables", json=body)
        return answer.json() if answer is not None and answer.status_code == 201 else None

    async def games_of_bots(self) -> None:
        while True:
            await self.create("bots only", [HARD] * 4)
            await asyncio.sleep(1)

    async def clocked_games(self) -> None:
        while True:
            await self.create("person on a 1 s clock", [{"kind": "human"}, HARD, HARD, HARD], turn_seconds=1)
            await asyncio.sleep(1)

    async def scripted_game(self) -> None:
        """Itself and hard bots, no clock: it moves at once, asking for a hint before every move."""
        while True:
            table = await self.create("scripted person", [{"kind": "human"}, HARD, HARD, HARD])
            if table is None:
                await asyncio.sleep(2)
                continue
            url, token = f"/api/tables/{table['id']}", {"X-Seat-Token": table["token"]}
            while True:
                seen = await self.ask("view", "GET", url, headers=token)
                if seen is None or seen.status_code != 200 or seen.json()["table"]["status"] != "playing":
                    break
                legal = seen.json()["legal"]
                if not legal:
                    await asyncio.sleep(0.05)
                    continue
                await self.ask("hint", "POST", f"{url}/hint", headers=token)
                await self.ask(
                    "move", "POST", f"{url}/act", json={"action": self.rng.choice(legal)}, headers=token
                )

    async def analyses(self) -> None:
        while True:
            lobby = await self.ask("lobby", "GET", "/api/tables")
            finished = [
                t["id"] for t in (lobby.json() if lobby is not None else []) if t["status"] == "finished"
            ]
            for table_id in finished[:20]:
                await self.ask("analysis", "POST", f"/api/tables/{table_id}/analysis")
            await asyncio.sleep(0.5)

    def tasks(self, scripted: int) -> list[asyncio.Task[None]]:
        work = [self.games_of_bots(), self.clocked_games(), self.analyses()]
        work += [self.scripted_game() for _ in range(scripted)]
        return [asyncio.create_task(w) for w in work]


async def measure(load: Load, seconds: float, pids: list[int]) -> dict[str, float]:
    load.stats.round_trips.clear()
    load.measuring = True
    cpu, wall = cpu_seconds(pids), time.perf_counter()
    await asyncio.sleep(seconds)
    load.measuring = False
    wall = time.perf_counter() - wall
    trips = [t * 1000 for t in load.stats.round_trips]
    return {
        "moves_per_s": len(trips) / wall,
        "p50": percentile(trips, 0.5),
        "p95": percentile(trips, 0.95),
        "p99": percentile(trips, 0.99),
        "max": max(trips, default=float("nan")),
        "cpu": 100 * (cpu_seconds(pids) - cpu) / wall,
    }


async def abuse(base: str, seconds: float, scripted: int) -> None:
    """The abuser, in a process of its own (so the victim's measurements are not the load generator's own
    delays): `seconds` of abuse, then what it got, as JSON on stdout."""
    abuser = Abuser(base)
    tasks = abuser.tasks(scripted)
    await asyncio.sleep(seconds)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    print(json.dumps({"answers": abuser.answers, "reasons": abuser.reasons}))


async def run(args: argparse.Namespace, base: str, pids: list[int]) -> tuple[dict, dict, dict]:
    load = Load(base, argparse.Namespace(warmup=4.0, pace=args.pace))
    rng = random.Random(args.seed)
    players = [asyncio.create_task(load.play_table(random.Random(rng.random()))) for _ in range(args.tables)]
    while load.seats_open < 2 * args.tables:
        await asyncio.sleep(0.5)
    await asyncio.sleep(3)
    quiet = await measure(load, args.seconds, pids)
    abuser = await asyncio.create_subprocess_exec(
        sys.executable,
        __file__,
        "--abuse",
        base,
        "--seconds",
        str(args.abuse_warmup + args.seconds + 1),
        "--scripted",
        str(args.scripted),
        stdout=asyncio.subprocess.PIPE,
    )
    await asyncio.sleep(args.abuse_warmup)  # its tables open and its bots start thinking
    loud = await measure(load, args.seconds, pids)
    got = json.loads((await abuser.communicate())[0])
    load.stop.set()
    for task in players:
        task.cancel()
    await asyncio.gather(*players, return_exceptions=True)
    return quiet, loud, got


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--abuse", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--database-url", help="default: a fresh SQLite file in a temporary folder")
    parser.add_argument("--tables", type=int, default=12, help="the victim's tables (two sockets each)")
    parser.add_argument("--pace", type=float, default=1.0, help="seconds between a victim seat's moves")
    parser.add_argument("--scripted", type=int, default=8, help="the abuser's scripted tables with hints")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--abuse-warmup", type=float, default=15.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--finished", type=int, default=10, help="finished games in the lobby to analyse")
    args = parser.parse_args()
    if args.serve:
        serve(args.database_url, args.port)
        return
    if args.abuse:
        asyncio.run(abuse(args.abuse, args.seconds, args.scripted))
        return
    url = args.database_url or f"sqlite:///{tempfile.mkdtemp(prefix='merchantry-abuse-')}/abuse.db"
    port = args.port or free_port()
    finished_games(url, args.finished)
    server = subprocess.Popen(
        [sys.executable, __file__, "--serve", "--port", str(port), "--database-url", url],
        start_new_session=True,
    )
    try:
        base = f"http://127.0.0.1:{port}"
        wait_until_up(base)
        quiet, loud, abuser = asyncio.run(run(args, base, server_pids(server.pid)))
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
    database = "PostgreSQL" if url.startswith("postgresql") else "SQLite"
    print(f"{platform.node()} · {os.cpu_count()} cores · Python {platform.python_version()} · {database}")
    print(
        f"victim: {args.tables} tables of two people, a move every {args.pace:g} s per seat; abuser: "
        f"bots-only and 1 s clock tables, {args.scripted} scripted tables with a hint before every move, "
        "analyses"
    )
    print("| phase | victim moves/s | round trip p50 / p95 / p99 / max ms | server CPU |")
    print("|---|---|---|---|")
    for name, r in (("quiet", quiet), ("abused", loud)):
        print(
            f"| {name} | {r['moves_per_s']:.0f} | {r['p50']:.0f} / {r['p95']:.0f} / **{r['p99']:.0f}** / "
            f"{r['max']:.0f} | {r['cpu']:.0f}% |"
        )
    print("abuser's requests by answer:", dict(sorted(abuser["answers"].items())))
    print("its refusals:", abuser["reasons"])


if __name__ == "__main__":
    main()
