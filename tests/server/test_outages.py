"""The database away (issue 31): every request that needs it is answered 503 with a clear message, the log
says so once, nothing is lost and every table goes on once it is back; on SQLite a write lock held by
someone else does not stall the requests that need no write."""

from __future__ import annotations

import json
import logging
import os
import random
import signal
import sqlite3
import subprocess
import time
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from websockets.sync.client import connect

from merchantry.server.app import create_app
from merchantry.server.limits import Limits
from tests.server.conftest import POSTGRES_URL, join_all, new_table
from tests.server.test_browser import free_port
from tests.server.test_leaks import database_away
from tests.server.test_processes import start_unlimited

REPOSITORY = Path(__file__).parents[2]


def every_request(table: dict, token: str, seated: dict, action: str) -> dict[str, tuple[str, str, dict]]:
    """One request of each kind that needs the database (method, address, what to send); `action` is a
    legal move for `token` at the `seated` table."""
    tid = table["id"]
    invite = table["invites"][-1]
    body = {"game": "grand_bazaar", "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]}
    return {
        "lobby": ("GET", "/api/tables", {}),
        "create": ("POST", "/api/tables", {"json": body}),
        "join": ("POST", f"/api/tables/{tid}/join", {"json": {**invite, "name": "Cy"}}),
        "act": ("POST", f"/api/tables/{seated['id']}/act", {"json": {"action": action}, "headers": token}),
        "hand over": (
            "POST",
            f"/api/tables/{tid}/seats/2/bot",
            {"json": {"host_token": table["host_token"]}},
        ),
        "close": ("POST", f"/api/tables/{tid}/close", {"json": {"host_token": table["host_token"]}}),
        "a table not in memory": ("GET", "/api/tables/notloaded", {}),
        "its replay": ("GET", "/api/tables/notloaded/replay", {}),
        "its record": ("GET", "/api/tables/notloaded/record", {}),
    }


def test_every_request_that_needs_the_database_answers_503_in_an_outage_and_works_after(client, caplog):
    service = client.app.state.service
    table = new_table(client, game="money", seats=("human", "human", "human"))
    seated = new_table(client, game="grand_bazaar", seats=("human", "bot"))
    token = {"X-Seat-Token": seated["token"]}
    legal = client.get(f"/api/tables/{seated['id']}", headers=token).json()["legal"]
    requests = every_request(table, token, seated, legal[0])
    caplog.set_level(logging.WARNING, logger="merchantry.server")
    caplog.clear()
    with database_away(service):
        service.live.pop(table["id"], None)  # the other table has to be read from the database
        answers = {}
        for what, (method, url, extra) in requests.items():
            extra = {k: (token if k == "headers" else v) for k, v in extra.items()}
            answers[what] = client.request(method, url.replace("notloaded", table["id"]), **extra)
        with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
            message = ws.receive_json()
    for what, answer in answers.items():
        assert answer.status_code == 503, (what, answer.status_code, answer.text)
        assert (
            "database is not answering" in answer.json()["error"]
            or "could not be saved" in answer.json()["error"]
        ), what
    assert message["type"] == "error" and "database is not answering" in message["reason"]
    said = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(said) <= 2, [r.getMessage() for r in said]  # the outage begins (and a token check, once)
    assert not [r for r in said if r.exc_info], "no traceback for an outage"
    # back: every request works, nothing was half done
    assert client.get("/api/tables").status_code == 200
    join_all(client, table)
    assert client.post(
        f"/api/tables/{seated['id']}/act", json={"action": "done"}, headers=token
    ).status_code in (
        200,
        409,
    )
    assert [m for m in (r.getMessage() for r in caplog.records) if "is back after" in m]


def test_a_seat_token_checked_in_an_outage_is_not_called_revoked(client):
    """The copy in memory does not know the token and the database cannot say: 503, not 403, so the page
    keeps the token (it forgets one only when told it is revoked)."""
    service = client.app.state.service
    table = new_table(client, game="money", seats=("human", "human", "bot"))
    tokens = join_all(client, table)
    service.live.pop(table["id"])
    client.get(f"/api/tables/{table['id']}")  # a copy again
    service.live[table["id"]].seats[1].token_hash = None  # as if the join had not been heard of yet
    with database_away(service):
        answer = client.get(f"/api/tables/{table['id']}", headers={"X-Seat-Token": tokens[1]})
        with client.websocket_connect(f"/ws/tables/{table['id']}", headers={"X-Seat-Token": tokens[1]}) as ws:
            message = ws.receive_json()
    assert answer.status_code == 503
    assert message["type"] == "error"
    payload = client.get(f"/api/tables/{table['id']}", headers={"X-Seat-Token": tokens[1]}).json()
    assert payload["seat"] == 1, "once the database answers, the token holds its seat"


@pytest.fixture
def sqlite_client(tmp_path):
    url = f"sqlite:///{tmp_path / 'locked.db'}"
    app = create_app(url, bot_delay=0, limits=Limits(enabled=False))
    with TestClient(app) as test_client:
        yield test_client, tmp_path / "locked.db"


def test_on_sqlite_a_write_lock_held_elsewhere_stalls_no_request_that_only_reads(sqlite_client):
    """Someone holds the file's write lock (a tool, a backup script). A write is refused as busy after a
    moment (503), and while it is held the lobby, a table and a move's refusal all answer at once: nothing
    waits in the database thread behind the lock."""
    client, path = sqlite_client
    table = new_table(client, game="grand_bazaar", seats=("human", "bot"))
    holder = sqlite3.connect(path, isolation_level=None, timeout=0)
    holder.execute("BEGIN IMMEDIATE")  # the write lock, held
    try:
        began = time.monotonic()
        create = client.post(
            "/api/tables", json={"game": "money", "players": 3, "seats": [{"kind": "human"}] * 3}
        )
        lobby = client.get("/api/tables")
        view = client.get(f"/api/tables/{table['id']}", headers={"X-Seat-Token": table["token"]})
        took = time.monotonic() - began
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert create.status_code == 503 and "try again" in create.json()["error"]
    assert lobby.status_code == 200 and view.status_code == 200
    # sqlite's own default would have held the database thread 5 s for the write alone
    assert took < 3, f"requests waited {took:.1f} s behind a write lock held elsewhere"
    assert (
        client.post(
            "/api/tables", json={"game": "money", "players": 3, "seats": [{"kind": "human"}] * 3}
        ).status_code
        == 201
    )


# --- a real PostgreSQL server stopped for 10 s under a real server process -------------------------------


def private_postgres() -> tuple[str, str, int]:
    """A PostgreSQL server of this test's own (it is stopped and started again): URL, data folder, port."""
    port = free_port()
    url = subprocess.run(
        [str(REPOSITORY / ".ci" / "start-postgres")],
        env={**os.environ, "PGPORT": str(port)},
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    with create_engine(url).connect() as db:
        folder = db.execute(text("SHOW data_directory")).scalar_one()
    return url, folder, port


def pg_ctl(folder: str, *args: str) -> None:
    binary = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"))[-1]
    as_postgres = ["runuser", "-u", "postgres", "--"] if os.getuid() == 0 else []
    subprocess.run([*as_postgres, str(binary), "-D", folder, "-w", *args], check=True, capture_output=True)


@pytest.mark.skipif(not POSTGRES_URL, reason="MERCHANTRY_TEST_POSTGRES_URL not set (PostgreSQL present)")
def test_postgresql_stopped_for_10_seconds_every_request_503_a_few_log_lines_and_every_table_resumes(
    tmp_path,
):
    url, folder, port = private_postgres()
    errors = tmp_path / "server.log"
    server_port = free_port()
    with errors.open("w") as log_file:
        server = start_unlimited(server_port, url, stderr=log_file, bot_delay=0.05)
    base = f"http://127.0.0.1:{server_port}"
    try:
        with httpx.Client(base_url=base, timeout=10) as http:
            bots = {"kind": "bot", "bot": "random"}
            alone = http.post(
                "/api/tables", json={"game": "grand_bazaar", "players": 2, "seats": [bots, bots]}
            )
            person = http.post(
                "/api/tables", json={"game": "grand_bazaar", "players": 2, "seats": [{"kind": "human"}, bots]}
            ).json()
            waiting = http.post(
                "/api/tables",
                json={
                    "game": "money",
                    "players": 3,
                    "seats": [{"kind": "human"}] * 2 + [bots],
                    "name": "Ann",
                },
            ).json()
            alone_id = alone.json()["id"]
            token = {"X-Seat-Token": person["token"]}
            pg_ctl(folder, "stop", "-m", "fast")
            stopped = time.monotonic()
            statuses: dict[str, set[int]] = {}
            legal = http.get(f"/api/tables/{person['id']}", headers=token).json()["legal"]
            requests = every_request(waiting, person["token"], person, legal[0])
            while time.monotonic() - stopped < 10:
                for what, (method, address, extra) in requests.items():
                    extra = {k: (token if k == "headers" else v) for k, v in extra.items()}
                    answer = http.request(method, address.replace("notloaded", "nosuchtable"), **extra)
                    statuses.setdefault(what, set()).add(answer.status_code)
                with connect(base.replace("http", "ws") + "/ws/tables/nosuchtable") as ws:
                    statuses.setdefault("websocket", set()).add(json.loads(ws.recv(timeout=10))["type"])
                time.sleep(0.2)
            moves_in_outage = http.get(f"/api/tables/{alone_id}/replay").status_code
            pg_ctl(
                folder,
                "start",
                "-l",
                f"{folder}/../log",
                "-o",
                f"-p {port} -c listen_addresses=127.0.0.1 -k {Path(folder).parent}",
            )
            for what, seen in statuses.items():
                assert seen == ({"error"} if what == "websocket" else {503}), (what, seen)
            # every table goes on: the bots of the bots' game, the bot answering the person, the joins
            deadline = time.time() + 60
            while http.get(f"/api/tables/{alone_id}").json()["table"]["status"] != "finished":
                assert time.time() < deadline, "the game of bots did not resume"
                time.sleep(0.2)
            rng = random.Random(3)
            for _ in range(20):
                payload = http.get(f"/api/tables/{person['id']}", headers=token).json()
                if payload["legal"]:
                    assert (
                        http.post(
                            f"/api/tables/{person['id']}/act",
                            json={"action": rng.choice(payload["legal"])},
                            headers=token,
                        ).status_code
                        == 200
                    )
                time.sleep(0.1)
            after = http.get(f"/api/tables/{person['id']}/replay")
            assert after.status_code in (409, 200)  # (still played)
            invite = waiting["invites"][0]
            assert (
                http.post(f"/api/tables/{waiting['id']}/join", json={**invite, "name": "Bo"}).status_code
                == 200
            )
            assert moves_in_outage in (409, 503)
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
        pg_ctl(folder, "stop", "-m", "immediate")
    lines = [line for line in errors.read_text().splitlines() if line.strip()]
    assert 1 <= len(lines) <= 6, lines
    assert not [line for line in lines if "Traceback" in line], lines
