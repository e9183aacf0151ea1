"""A server killed mid-game (SIGKILL: no clean shutdown) loses no move it accepted."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import httpx
from sqlalchemy import create_engine, text

from tests.server.test_browser import free_port

SERVE = [sys.executable, "-m", "merchantry.cli", "serve"]


def start(port: int, database_url: str, bot_delay: float = 0) -> subprocess.Popen:
    process = subprocess.Popen(
        [*SERVE, "--port", str(port), "--database-url", database_url, "--bot-delay", str(bot_delay)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    return until_serving(process, port)


def until_serving(process: subprocess.Popen, port: int) -> subprocess.Popen:
    """`process` once it answers on `port` (killed, and the test failed, if it does not within 30 s)."""
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1)
            return process
        except httpx.HTTPError:
            time.sleep(0.1)
    process.kill()
    raise AssertionError("the server did not start")


def test_a_killed_server_loses_no_accepted_move(tmp_path):
    database_url = f"sqlite:///{tmp_path / 'kill.db'}"
    port = free_port()
    server = start(port, database_url)
    base = f"http://127.0.0.1:{port}"
    try:
        table = httpx.post(
            f"{base}/api/tables",
            json={"game": "money", "players": 3, "seats": [{"kind": "human"}] * 3, "name": "Ann"},
        ).json()
        tokens = [table["token"]]
        for invite in table["invites"]:
            joined = httpx.post(
                f"{base}/api/tables/{table['id']}/join",
                json={"seat": invite["seat"], "invite": invite["invite"], "name": "Guest"},
            )
            tokens.append(joined.json()["token"])
        accepted = 0
        for seat, token in enumerate(tokens):
            hand = httpx.get(f"{base}/api/tables/{table['id']}", headers={"X-Seat-Token": token}).json()[
                "legal"
            ]
            for move in (hand[0], "bid") if seat < 2 else (hand[0],):
                reply = httpx.post(
                    f"{base}/api/tables/{table['id']}/act",
                    json={"action": move},
                    headers={"X-Seat-Token": token},
                )
                assert reply.status_code == 200
                accepted += 1
        before = httpx.get(f"{base}/api/tables/{table['id']}", headers={"X-Seat-Token": tokens[2]}).json()
    finally:
        os.killpg(server.pid, signal.SIGKILL)  # no shutdown, no flush
        server.wait()
    port = free_port()
    server = start(port, database_url)
    try:
        after = httpx.get(
            f"http://127.0.0.1:{port}/api/tables/{table['id']}", headers={"X-Seat-Token": tokens[2]}
        ).json()
        with create_engine(database_url).connect() as db:
            stored = db.execute(text("SELECT count(*) FROM moves WHERE table_id = :id"), {"id": table["id"]})
            assert stored.scalar_one() == accepted
        assert after["view"] == before["view"]  # P3's half-built bid survived too
        assert after["view"]["my_bid"] != []
    finally:
        os.killpg(server.pid, signal.SIGKILL)
        server.wait()


def test_the_served_websocket_sends_updates_uncompressed(tmp_path):
    """`merchantry serve` declines per-message compression, even when a browser offers it: updates are small
    deltas, and compressing them cost a fifth of the server's time under load (docs/web.md, "Load")."""
    from websockets.sync.client import connect

    port = free_port()
    server = start(port, f"sqlite:///{tmp_path / 'plain.db'}")
    try:
        table = httpx.post(
            f"http://127.0.0.1:{port}/api/tables",
            json={"game": "money", "players": 3, "seats": [{"kind": "human"}] * 3, "name": "Ann"},
        ).json()
        with connect(f"ws://127.0.0.1:{port}/ws/tables/{table['id']}", compression="deflate") as socket:
            assert socket.request is not None and socket.response is not None
            assert "permessage-deflate" in socket.request.headers["Sec-WebSocket-Extensions"]  # offered
            assert "Sec-WebSocket-Extensions" not in socket.response.headers  # and declined
            assert json.loads(socket.recv(timeout=10))["type"] == "state"  # and the table is served
    finally:
        os.killpg(server.pid, signal.SIGKILL)
        server.wait(timeout=10)
