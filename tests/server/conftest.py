"""Server test fixtures: an app on a fresh database (SQLite, and PostgreSQL when CI provides one)."""

from __future__ import annotations

import contextlib
import os
import socket
import threading
import time
import uuid

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from merchantry.server.app import create_app

POSTGRES_URL = os.environ.get("MERCHANTRY_TEST_POSTGRES_URL")  # set by .ci/run, which starts a server


def database_urls() -> list:
    urls = [pytest.param("sqlite", id="sqlite")]
    urls.append(
        pytest.param(
            "postgres",
            id="postgres",
            marks=pytest.mark.skipif(not POSTGRES_URL, reason="MERCHANTRY_TEST_POSTGRES_URL not set"),
        )
    )
    return urls


@pytest.fixture(params=database_urls())
def database_url(request, tmp_path):
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'merchantry.db'}"
        return
    yield from postgres_database()


def postgres_database():
    """A throwaway database on the CI's PostgreSQL server, dropped afterwards."""
    assert POSTGRES_URL
    name = f"merchantry_test_{uuid.uuid4().hex[:10]}"
    admin = create_engine(POSTGRES_URL, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    base = POSTGRES_URL.rsplit("/", 1)[0]
    yield f"{base}/{name}"
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    admin.dispose()


@pytest.fixture
def client(database_url):
    app = create_app(database_url, bot_delay=0)
    with TestClient(app) as test_client:
        yield test_client


def new_table(client, game="money", seats=("human", "human", "bot"), bot="greedy", name="Ann"):
    specs = [{"kind": "human"} if kind == "human" else {"kind": "bot", "bot": bot} for kind in seats]
    response = client.post(
        "/api/tables", json={"game": game, "players": len(seats), "seats": specs, "name": name}
    )
    assert response.status_code == 201, response.text
    return response.json()


def join_all(client, table):
    """Fill every invited seat; returns {seat: token} including the host's."""
    tokens = {table["seat"]: table["token"]}
    for invite in table["invites"]:
        response = client.post(
            f"/api/tables/{table['id']}/join",
            json={"seat": invite["seat"], "invite": invite["invite"], "name": f"Guest {invite['seat']}"},
        )
        assert response.status_code == 200, response.text
        tokens[invite["seat"]] = response.json()["token"]
    return tokens


def next_refusal(ws):
    """The next refusal on a socket; the bots' moves (they think in a thread) may send states before it."""
    while (message := ws.receive_json())["type"] != "refused":
        assert message["type"] == "state"
    return message


def whole_log(had: list, message: dict) -> list:
    """The log of a live update made whole: the entries the connection had before `log_from`, then the new
    ones it carries (the server sends only what the connection has not had)."""
    assert message["log_from"] <= len(had), "a gap in the log"
    return had[: message["log_from"]] + message["view"]["log"]


def with_whole_logs(messages: list[dict]) -> list[dict]:
    """A connection's messages from its first on, each view's log made whole again."""
    log: list = []
    for message in messages:
        if message.get("type") == "state":
            log = message["view"]["log"] = whole_log(log, message)
    return messages


def free_port() -> int:
    """A local port that was free a moment ago."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def serving(app):
    """`app` served by uvicorn on a free local port, in a thread, for a browser: yields its base URL, and
    stops it at the end (the browser tests' live servers)."""
    import uvicorn

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.time() + 20
    while not server.started and time.time() < deadline:
        time.sleep(0.05)
    assert server.started, "the server did not start"
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
