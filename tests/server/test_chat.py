"""Table chat (server/chat.py): seated people write, everyone at the table reads, over the websocket;
text only, length- and rate-limited, kept with the table, a mute per seat, across processes."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from merchantry.server.app import create_app
from tests.server.conftest import POSTGRES_URL, join_all, new_table, postgres_database


def next_chat(ws) -> list[dict]:
    """The messages of the next chat message on a socket (states before it are passed over)."""
    while True:
        message = ws.receive_json()
        if message["type"] == "chat":
            return message["messages"]
        assert message["type"] == "state", message


def next_answer(ws) -> dict:
    while (message := ws.receive_json())["type"] == "state":
        pass
    return message


def seated_table(client):
    """Three people at a Money table, all seated (no bots: nothing else is sent meanwhile)."""
    table = new_table(client, seats=("human", "human", "human"))
    return table, join_all(client, table)


def socket(client, table, token=None):
    headers = {"X-Seat-Token": token} if token else {}
    return client.websocket_connect(f"/ws/tables/{table['id']}", headers=headers)


def test_seated_people_chat_and_everyone_at_the_table_reads_it(client):
    table, tokens = seated_table(client)
    with (
        socket(client, table, tokens[0]) as ann,
        socket(client, table, tokens[1]) as bob,
        socket(client, table) as fan,
    ):
        for ws in (ann, bob, fan):
            assert ws.receive_json()["type"] == "state"  # and no chat: the table has none yet
        ann.send_json({"type": "chat", "text": "  good   luck  "})
        for ws in (ann, bob, fan):
            (message,) = next_chat(ws)
            assert (message["seat"], message["name"], message["text"]) == (0, "Ann", "good luck")
    with socket(client, table) as later:  # kept with the table: a newcomer gets it
        assert [m["text"] for m in next_chat(later)] == ["good luck"]


def test_spectators_and_non_members_cannot_write(client):
    table, tokens = seated_table(client)
    with socket(client, table) as fan:
        fan.send_json({"type": "chat", "text": "hello"})
        refusal = next_answer(fan)
        assert refusal["type"] == "refused" and "spectators" in refusal["reason"]
    other, other_tokens = seated_table(client)  # a seat at another table is no member of this one
    with socket(client, table, other_tokens[0]) as stranger:
        assert stranger.receive_json()["type"] == "revoked"
    with socket(client, table, tokens[1]) as bob:
        bob.send_json({"type": "chat", "text": "first"})
        assert [m["text"] for m in next_chat(bob)] == ["first"]  # nothing was kept before it


def test_a_seat_handed_to_a_bot_no_longer_writes(client):
    table, tokens = seated_table(client)
    with socket(client, table, tokens[2]) as cid:
        response = client.post(
            f"/api/tables/{table['id']}/seats/2/bot",
            json={"host_token": table["host_token"], "bot": "greedy"},
        )
        assert response.status_code == 200
        cid.send_json({"type": "chat", "text": "still here?"})
        while (message := cid.receive_json())["type"] not in ("revoked", "chat", "refused"):
            pass
        assert message["type"] == "revoked"


def test_markup_is_kept_as_text_and_lengths_controls_and_pace_are_limited(client):
    table, tokens = seated_table(client)
    with socket(client, table, tokens[0]) as ann:
        markup = '<img src=x onerror="alert(1)"><b>hi</b>'
        ann.send_json({"type": "chat", "text": markup})
        assert next_chat(ann)[0]["text"] == markup  # characters, never turned into HTML by the server
        for bad, reason in [
            ("x" * 301, "at most 300"),
            ("   ", "empty"),
            ("a\u202eb", "control or formatting"),
            (42, '"chat"'),
        ]:
            ann.send_json({"type": "chat", "text": bad})
            refusal = next_answer(ann)
            assert refusal["type"] == "refused" and reason in refusal["reason"], refusal
        for n in range(4):  # 5 in 10 s: one was sent above
            ann.send_json({"type": "chat", "text": f"message {n}"})
            next_chat(ann)
        ann.send_json({"type": "chat", "text": "one too many"})
        refusal = next_answer(ann)
        assert refusal["type"] == "refused" and "too many messages" in refusal["reason"]


def test_a_seat_mutes_another_and_keeps_the_mute_after_a_reload(client):
    table, tokens = seated_table(client)
    with socket(client, table, tokens[0]) as ann, socket(client, table, tokens[1]) as bob:
        bob.send_json({"type": "mute", "seat": 0, "muted": True})
        assert next_answer(bob) == {"type": "mute", "seat": 0, "muted": True}
        bob.send_json({"type": "mute", "seat": 1})  # oneself: refused
        assert "another seat" in next_answer(bob)["reason"]
        bob.send_json({"type": "mute", "seat": 9})
        assert "seat" in next_answer(bob)["reason"]
        ann.send_json({"type": "chat", "text": "muted words"})
        assert next_chat(ann)[0]["text"] == "muted words"
        bob.send_json({"type": "chat", "text": "bob speaks"})
        assert next_chat(bob)[0]["text"] == "bob speaks"  # Ann's message never reached Bob
        assert next_chat(ann)[0]["text"] == "bob speaks"
    with socket(client, table, tokens[1]) as bob:
        assert [m["text"] for m in next_chat(bob)] == ["bob speaks"]  # the mute is kept with the table
        bob.send_json({"type": "mute", "seat": 0, "muted": False})
        assert next_answer(bob) == {"type": "mute", "seat": 0, "muted": False}
    with socket(client, table, tokens[1]) as bob:
        assert [m["text"] for m in next_chat(bob)] == ["muted words", "bob speaks"]


def test_the_chat_survives_a_restart(database_url):
    with TestClient(create_app(database_url, bot_delay=0)) as client:
        table, tokens = seated_table(client)
        with socket(client, table, tokens[0]) as ann:
            ann.send_json({"type": "chat", "text": "before the restart"})
            next_chat(ann)
    with TestClient(create_app(database_url, bot_delay=0)) as client, socket(client, table, tokens[1]) as bob:
        assert [m["text"] for m in next_chat(bob)] == ["before the restart"]


@pytest.mark.skipif(not POSTGRES_URL, reason="MERCHANTRY_TEST_POSTGRES_URL not set")
def test_a_message_written_through_one_process_reaches_the_others_connections():
    for url in postgres_database():
        with TestClient(create_app(url, bot_delay=0)) as one, TestClient(create_app(url, bot_delay=0)) as two:
            table, tokens = seated_table(one)
            with socket(two, table, tokens[1]) as bob, socket(one, table, tokens[0]) as ann:
                assert bob.receive_json()["type"] == ann.receive_json()["type"] == "state"
                ann.send_json({"type": "chat", "text": "across processes"})
                assert next_chat(ann)[0]["text"] == "across processes"
                assert next_chat(bob)[0]["text"] == "across processes"  # heard through the other process
