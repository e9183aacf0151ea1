"""No payload ever carries what its seat may not see: whole games are played through the server and every
payload any seat (or a spectator) was sent is checked against that seat's own `view` at that moment."""

from __future__ import annotations

import json

import pytest

from merchantry import records
from tests.server.conftest import join_all, new_table
from tests.server.test_api import play_to_the_end


@pytest.mark.parametrize("game", ["money", "byzanz", "grand_bazaar"])
def test_every_payload_matches_its_seats_view(client, game):
    service = client.app.state.service
    sent = []
    original = service.payload

    def recording_payload(table_id, seat):
        payload = original(table_id, seat)
        sent.append(json.loads(json.dumps(payload)))  # what goes over the wire
        return payload

    service.payload = recording_payload
    table = new_table(client, game=game, seats=("human", "human", "bot"))
    tokens = join_all(client, table)
    with client.websocket_connect(f"/ws/tables/{table['id']}") as spectator:
        spectator.receive_json()
    with client.websocket_connect(f"/ws/tables/{table['id']}?token={tokens[1]}") as ws:
        ws.receive_json()
    play_to_the_end(client, table["id"], tokens)
    record = client.get(f"/api/tables/{table['id']}/record").json()
    assert records.replay(record).is_over()

    checked = {0: 0, 1: 0, None: 0}
    for payload in sent:
        seat = payload["seat"]
        state = records.replay(record, upto=payload["moves"])
        assert payload["view"] == json.loads(json.dumps(state.view(seat)))
        if payload["table"]["status"] == "playing":
            expected = [str(a) for a in state.legal_actions(seat)] if seat is not None else []
            assert payload["legal"] == expected
        else:
            assert payload["legal"] == []
        checked[seat] += 1
    assert all(count > 0 for count in checked.values()), checked
    # a seat never sees another seat's hand
    for payload in sent:
        if payload["seat"] is not None and "hand" in payload["view"]:
            assert payload["view"]["seat"] == payload["seat"]
