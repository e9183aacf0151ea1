"""Odd input gets a clear refusal (4xx, or a websocket message and a clean close), never a 500 or a dropped
socket; names are normalised; seat tokens never travel in an address."""

from __future__ import annotations

import json

import pytest

from tests.server.conftest import new_table, next_refusal

SEATS = [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}]


def create(client, **fields):
    return client.post("/api/tables", json={"game": "money", "players": 3, "seats": SEATS, **fields})


def test_a_lone_surrogate_is_refused_with_422_and_nothing_is_created(client):
    body = json.dumps({"game": "money", "players": 3, "seats": SEATS, "name": "Ann"}).replace(
        "Ann", "\\ud800"
    )
    response = client.post("/api/tables", content=body, headers={"content-type": "application/json"})
    assert response.status_code == 422 and "name" in response.json()["error"]
    assert client.get("/api/tables").json() == []


def test_a_huge_or_deeply_nested_body_is_refused_before_it_is_parsed(client):
    huge = b'{"name": "' + b"x" * (2 * 1024 * 1024) + b'"}'
    response = client.post("/api/tables", content=huge, headers={"content-type": "application/json"})
    assert response.status_code == 413 and "over" in response.json()["error"]
    nested = "[" * 50_000 + "]" * 50_000
    assert client.post(
        "/api/tables", content=nested, headers={"content-type": "application/json"}
    ).status_code in (
        400,
        413,
    )


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("Ann\u202eevil", "control or formatting"),  # a right-to-left override: the name would read backwards
        ("Ann\u0000", "control or formatting"),  # a NUL (PostgreSQL cannot store it)
        ("greedy (bot)", "(bot)"),  # a person posing as a bot
        ("Greedy (BOT) ", "(bot)"),
        ("easy  BOT", "names a bot"),  # how the page names a bot at a table
        ("Bot simple", "names a bot"),  # in any language
        ("   ", "visible character"),
        ("<b>Ann</b>", "< or >"),
    ],
)
def test_names_that_mislead_are_refused_with_the_reason(client, name, reason):
    response = create(client, name=name)
    assert response.status_code == 422 and reason in response.json()["error"]


def test_names_are_normalised(client):
    table = create(client, name="  Ann \n  Lee ").json()
    listed = client.get("/api/tables").json()[0]
    assert listed["id"] == table["id"] and listed["seats"][0]["name"] == "Ann Lee"


def test_a_binary_frame_and_a_bad_message_are_refused_and_the_socket_stays_open(client):
    table = new_table(client, seats=("human", "bot", "bot"))
    with client.websocket_connect(
        f"/ws/tables/{table['id']}", headers={"X-Seat-Token": table["token"]}
    ) as ws:
        assert ws.receive_json()["type"] == "state"
        ws.send_bytes(b"\x00\x01\x02")
        assert "binary" in next_refusal(ws)["reason"]
        ws.send_text("[" * 1020 + "]" * 1020)  # nested deeper than Python's JSON parser goes
        assert "send" in next_refusal(ws)["reason"]
        ws.send_text("x" * 5000)  # over the size of any real message
        assert "too large" in next_refusal(ws)["reason"]
        ws.send_text(json.dumps({"type": "act", "action": "x"}).replace('"x"', '"\\ud800"'))
        assert "send" in next_refusal(ws)["reason"]
        ws.send_text(json.dumps({"type": "act", "action": "bid"}))  # still alive: a real move is played
        while (message := ws.receive_json())["type"] == "state" and 0 in message["view"]["to_act"]:
            pass
        assert message["type"] == "state", message


def test_a_token_in_the_address_is_refused_and_the_seat_token_works_as_a_subprotocol(client):
    table = new_table(client)
    with client.websocket_connect(f"/ws/tables/{table['id']}?token={table['token']}") as ws:
        message = ws.receive_json()
        assert message["type"] == "error" and "not the address" in message["reason"]
    with client.websocket_connect(
        f"/ws/tables/{table['id']}", subprotocols=["merchantry", f"token.{table['token']}"]
    ) as ws:
        assert ws.accepted_subprotocol == "merchantry"
        assert ws.receive_json()["seat"] == 0


def test_an_unknown_table_closes_the_socket_with_4404(client):
    from starlette.websockets import WebSocketDisconnect

    with client.websocket_connect("/ws/tables/nosuchtable") as ws:
        assert ws.receive_json()["type"] == "error"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4404


@pytest.mark.parametrize("value", [10**30, -(10**30), 2**53])
def test_an_option_no_payload_could_carry_is_refused_with_422_and_nothing_is_created(client, value):
    """Issue 31: max_rounds=10**30 was accepted, orjson could not encode it, and every websocket of the
    table closed (1013) and reconnected for ever. An integer beyond 2**53 is not exact in a browser."""
    response = create(client, name="Ann", options={"max_rounds": value})
    assert response.status_code == 422, response.text
    assert "max_rounds" in response.json()["error"]
    assert client.get("/api/tables").json() == []


def test_an_option_the_game_refuses_gets_422_with_the_games_reason(client):
    response = create(client, name="Ann", options={"max_rounds": -3})
    assert response.status_code == 422 and "max_rounds" in response.json()["error"]
    response = create(client, name="Ann", options={"no_such_option": 1})
    assert response.status_code == 422 and "unknown option" in response.json()["error"]


def test_every_message_a_table_sends_can_be_encoded(client):
    """A table whose options cannot be sent never reaches a websocket: the options a table keeps are those
    checked at its creation, and its payload encodes."""
    from merchantry.server.app import encode_message

    created = create(client, name="Ann", options={"max_rounds": 200})  # the most Money declares
    assert created.status_code == 201, created.text
    table = created.json()
    payload = client.get(f"/api/tables/{table['id']}", headers={"X-Seat-Token": table["token"]}).json()
    assert encode_message(payload)
