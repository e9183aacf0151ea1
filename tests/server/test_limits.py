"""Limits per client (merchantry.server.limits): each refusal says which limit was met."""

from __future__ import annotations

import json
import time

import pytest
from fastapi.testclient import TestClient

from merchantry.server.app import create_app
from merchantry.server.limits import Limits, RateWindow
from tests.server.conftest import join_all, new_table, next_refusal

SMALL = Limits(
    tables_per_minute=3,
    joins_per_minute=2,
    bot_games_per_client=1,
    sockets_per_client=2,
    messages_per_second=2,
)


@pytest.fixture
def client(database_url):
    app = create_app(database_url, bot_delay=0.2, limits=SMALL)
    with TestClient(app) as test_client:
        yield test_client


def test_table_creation_is_limited_per_minute(client):
    for _ in range(3):
        new_table(client)
    refused = client.post(
        "/api/tables", json={"game": "money", "players": 3, "seats": [{"kind": "human"}] * 3, "name": "Ann"}
    )
    assert refused.status_code == 429 and "at most 3 a minute" in refused.json()["error"]


def test_one_client_may_run_only_so_many_games_of_bots_only(client):
    new_table(client, game="grand_bazaar", seats=("bot", "bot"))
    refused = client.post(
        "/api/tables",
        json={"game": "grand_bazaar", "players": 2, "seats": [{"kind": "bot", "bot": "greedy"}] * 2},
    )
    assert refused.status_code == 429 and "games of bots only" in refused.json()["error"]
    new_table(client, game="grand_bazaar", seats=("human", "bot"))  # a game with a person is not one


def test_joins_are_limited_per_minute(client):
    table = new_table(client, seats=("human", "human", "human"))
    join_all(client, table)  # two joins: the limit
    other = new_table(client, seats=("human", "human", "bot"))
    invite = other["invites"][0]
    refused = client.post(
        f"/api/tables/{other['id']}/join", json={"seat": 1, "invite": invite["invite"], "name": "Bo"}
    )
    assert refused.status_code == 429 and "seats taken" in refused.json()["error"]


def test_sockets_per_client_and_messages_per_second_are_limited(client):
    table = new_table(client, seats=("human", "bot", "bot"))
    url = f"/ws/tables/{table['id']}"
    with client.websocket_connect(url) as first, client.websocket_connect(url) as second:
        first.receive_json()
        second.receive_json()
        with client.websocket_connect(url) as third:
            message = third.receive_json()
            assert message["type"] == "error" and "too many connections" in message["reason"]
        for _ in range(8):  # a burst over 2 a second (bursts up to 4)
            first.send_text(json.dumps({"type": "act", "action": "nonsense"}))
        reasons = [next_refusal(first)["reason"] for _ in range(8)]
        assert "too many messages: slow down" in reasons


def test_a_rate_window_forgets_events_older_than_its_window():
    window = RateWindow(2, seconds=10)
    assert window.allow("a", now=0) and window.allow("a", now=1) and not window.allow("a", now=5)
    assert window.allow("b", now=5), "each client has its own window"
    assert window.allow("a", now=10.5), "the first event has left the window"


def test_idle_tables_leave_memory_and_come_back_from_the_database(client):
    service = client.app.state.service
    table = new_table(client, seats=("human", "human", "bot"))
    before = client.get(f"/api/tables/{table['id']}").json()
    time.sleep(0.05)
    gone = service.forget_idle(busy=set(), idle_seconds=0.01)
    assert table["id"] in gone and table["id"] not in service.live
    assert client.get(f"/api/tables/{table['id']}").json() == before  # rebuilt from its record
    assert service.forget_idle(busy={table["id"]}, idle_seconds=0) == [], "a busy table stays"
