"""Turn-based play (server/turns.py): clocks of days a move, the "your turn" list, and a move that runs
out of its days played by a bot, said in the log, also after a restart."""

from __future__ import annotations

import time

from fastapi.testclient import TestClient

from tests.server.test_accounts import app_on, csrf, sign_up

DAY = 86400


def turn_based_table(ann, bea, days=2, rated=True):
    seats = [{"kind": "human"}, {"kind": "human", "open": True}]
    body = {
        "game": "samarkand",
        "players": 2,
        "seats": seats,
        "name": "x",
        "rated": rated,
        "turn_seconds": days * DAY,
    }
    table = ann.post("/api/tables", json=body, headers=csrf(ann)).json()
    assert bea.post(f"/api/lobby/{table['id']}/seats/1", json={}, headers=csrf(bea)).status_code == 200
    return table


def test_a_clock_of_days_a_move_and_the_your_turn_list(database_url):
    with TestClient(app_on(database_url)) as ann:
        bea = TestClient(ann.app)
        sign_up(ann, "Ann")
        sign_up(bea, "Bea")
        assert TestClient(ann.app).get("/api/account/turns").status_code == 401  # a guest has no list
        too_long = {
            "game": "samarkand",
            "players": 2,
            "seats": [{"kind": "human"}] * 2,
            "turn_seconds": 15 * DAY,
        }
        assert (
            ann.post("/api/tables", json=too_long, headers=csrf(ann)).status_code == 422
        )  # two weeks at most
        table = turn_based_table(ann, bea)
        service, run = ann.app.state.service, ann.app.state.in_database
        first = run(service.table, table["id"]).state.to_act()[0]
        mover, waiter = (ann, bea) if first == 0 else (bea, ann)
        turns = mover.get("/api/account/turns").json()
        assert turns["count"] == 1
        (turn,) = turns["turns"]
        assert turn["table_id"] == table["id"] and turn["seat"] == first
        assert 2 * DAY - 60 < turn["seconds_left"] <= 2 * DAY
        assert waiter.get("/api/account/turns").json() == {"turns": [], "count": 0}


def test_a_move_whose_days_run_out_is_played_by_a_bot_and_said_in_the_log_after_a_restart(database_url):
    with TestClient(app_on(database_url)) as ann:
        bea = TestClient(ann.app)
        sign_up(ann, "Ann")
        sign_up(bea, "Bea")
        table = turn_based_table(ann, bea, days=1)
        service, run = ann.app.state.service, ann.app.state.in_database
        seat = run(service.table, table["id"]).state.to_act()[0]
        start = time.monotonic()
        run(service.clock, table["id"], start)  # the clock starts (and is stored)
        assert not run(service.play_timed_out_turns, table["id"], start + DAY - 60)
    with TestClient(app_on(database_url)) as restarted:  # the days go on counting across a restart
        service, run = restarted.app.state.service, restarted.app.state.in_database
        later = time.monotonic() + DAY + 1  # a day and a second after the turn began, as the clock sees it
        assert run(service.play_timed_out_turns, table["id"], later)
        payload = restarted.get(f"/api/tables/{table['id']}").json()
        assert {"seat": seat} in payload["table"]["timeouts"]  # said to everyone
        assert run(service.table, table["id"]).session.moves[0][0] == seat  # a bot moved for the seat
