"""Memory under a flood of requests for tables that do not exist (issue 31: a lock per id was kept for good).

    .venv/bin/python benchmarks/flood_unknown_ids.py --requests 100000

It starts a server process as `benchmarks/load_server.py` does (per-client limits off, so that every request
reaches the table lookup), sends `--warmup` requests with random ids to let the process's allocator settle,
reads its memory (VmRSS), sends `--requests` more of every kind that names a table (act, join, hint, hand
over, close, the table, its replay, record and analysis), `--concurrency` at a time, and reads it again.
Printed: requests/s, the answers by status, memory before and after and the growth.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import os
import platform
import secrets
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from load_server import free_port, rss_mib, server_pids, wait_until_up


def requests_for(table_id: str) -> list[tuple[str, str, dict]]:
    url = f"/api/tables/{table_id}"
    token = {"X-Seat-Token": secrets.token_urlsafe(24)}
    host = {"host_token": secrets.token_urlsafe(24)}
    return [
        ("POST", f"{url}/act", {"json": {"action": "done"}, "headers": token}),
        ("POST", f"{url}/join", {"json": {"seat": 1, "invite": "x", "name": "Bo"}}),
        ("POST", f"{url}/hint", {"headers": token}),
        ("POST", f"{url}/seats/1/bot", {"json": host}),
        ("POST", f"{url}/close", {"json": host}),
        ("GET", url, {"headers": token}),
        ("GET", f"{url}/replay", {}),
        ("GET", f"{url}/record", {}),
        ("POST", f"{url}/analysis", {}),
    ]


async def flood(base: str, count: int, concurrency: int) -> collections.Counter[int]:
    import httpx

    statuses: collections.Counter[int] = collections.Counter()  # 0: no answer (a connection lost)
    left = count

    async def worker(http: httpx.AsyncClient) -> None:
        nonlocal left
        while left > 0:
            for method, url, extra in requests_for(secrets.token_urlsafe(6)):
                if left <= 0:
                    return
                left -= 1
                try:
                    statuses[(await http.request(method, url, **extra)).status_code] += 1
                except httpx.TransportError:  # a kept-alive connection the server closed meanwhile
                    statuses[0] += 1

    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        await asyncio.gather(*(worker(http) for _ in range(concurrency)))
    return statuses


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--requests", type=int, default=100_000)
    parser.add_argument("--warmup", type=int, default=10_000)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--database-url", help="default: a fresh SQLite file in a temporary folder")
    args = parser.parse_args()
    url = args.database_url or f"sqlite:///{tempfile.mkdtemp(prefix='merchantry-flood-')}/flood.db"
    port = free_port()
    load_server = str(Path(__file__).parent / "load_server.py")
    server = subprocess.Popen(
        [sys.executable, load_server, "--serve", "--port", str(port), "--database-url", url],
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(base)
        pids = server_pids(server.pid)
        asyncio.run(flood(base, args.warmup, args.concurrency))
        before = rss_mib(pids)
        began = time.perf_counter()
        statuses = asyncio.run(flood(base, args.requests, args.concurrency))
        took = time.perf_counter() - began
        after = rss_mib(pids)
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
    database = "PostgreSQL" if url.startswith("postgresql") else "SQLite"
    print(f"{platform.node()} · {os.cpu_count()} cores · Python {platform.python_version()} · {database}")
    print("| requests for unknown ids | requests/s | answers | memory before | after | growth |")
    print("|---|---|---|---|---|---|")
    answers = ", ".join(f"{status}: {n:,}" for status, n in sorted(statuses.items()))
    print(
        f"| {args.requests:,} after {args.warmup:,} to warm up | {args.requests / took:,.0f} | {answers} | "
        f"{before:.1f} MiB | {after:.1f} MiB | **{after - before:+.2f} MiB** |"
    )


if __name__ == "__main__":
    main()
