"""Turn-based play (server/turns.py): clocks of days a move, the "your turn" list, and a move that runs
out of its days played by a bot, said in the log, also after a restart."""

from __future__ import annotations

import contextlib
import time

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from merchantry.server.app import create_app
from merchantry.server.db import SeatRow
from tests.server.conftest import POSTGRES_URL, postgres_database
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


# --- the total per player: a time bank for the whole game beside the clock per move ----------------------


def guest_table(client, turn_seconds=DAY, total_seconds=2 * DAY):
    """A turn-based Samarkand table of two guests, both seated; returns its id and the seats' tokens."""
    body = {
        "game": "samarkand",
        "players": 2,
        "seats": [{"kind": "human"}, {"kind": "human"}],
        "name": "Ann",
        "turn_seconds": turn_seconds,
        "total_seconds": total_seconds,
    }
    made = client.post("/api/tables", json=body)
    assert made.status_code == 201, made.text
    table = made.json()
    (invite,) = table["invites"]
    joined = client.post(
        f"/api/tables/{table['id']}/join", json={"seat": 1, "invite": invite["invite"], "name": "Bea"}
    )
    assert joined.status_code == 200, joined.text
    return table["id"], {0: table["token"], 1: joined.json()["token"]}


def finish_turn(run, service, table_id):
    """The seat to act makes its whole turn (every step while it stays to act); returns the seat."""
    seat = run(service.table, table_id).state.to_act()[0]
    while (state := run(service.table, table_id).state).to_act() == [seat] and not state.is_over():
        run(service.act, table_id, seat, str(state.legal_actions(seat)[0]))
    return seat


def banks(client, table_id):
    shown = client.get(f"/api/tables/{table_id}").json()["table"]["time_banks"]
    return {int(seat): left for seat, left in shown.items()}


def test_the_total_per_player_is_chosen_at_creation_and_bad_values_are_refused_with_a_reason(client):
    base = {"game": "samarkand", "players": 2, "seats": [{"kind": "human"}] * 2, "name": "Ann"}
    bad = [
        ({"total_seconds": DAY}, "needs a turn clock"),
        ({"turn_seconds": DAY, "total_seconds": 3600}, "at least one move's time"),
        ({"turn_seconds": DAY, "total_seconds": -1}, "total_seconds"),
        ({"turn_seconds": DAY, "total_seconds": 121 * DAY}, "total_seconds"),
        ({"turn_seconds": DAY, "total_seconds": "a week"}, "total_seconds"),
    ]
    for extra, reason in bad:
        refused = client.post("/api/tables", json={**base, **extra})
        assert refused.status_code == 422 and reason in refused.json()["error"], (extra, refused.text)
    table_id, tokens = guest_table(client, total_seconds=5 * DAY)
    shown = client.get(f"/api/tables/{table_id}").json()["table"]
    assert shown["total_seconds"] == 5 * DAY and shown["out_of_time"] == []
    assert set(banks(client, table_id)) == {0, 1}  # every seat's bank is shown, the one on turn counting down
    assert all(5 * DAY - 60 < left <= 5 * DAY for left in banks(client, table_id).values())
    untimed = client.post("/api/tables", json={**base, "turn_seconds": DAY}).json()["id"]
    assert client.get(f"/api/tables/{untimed}").json()["table"]["time_banks"] == {}  # no total: none shown


def time_passes(run, service, table_id, seconds):
    """`seconds` pass on the table's clock: every running turn began that much earlier, in memory and as
    stored (so the server's own clock, ticking on in the background, sees the same)."""

    def shift():
        table = service.table(table_id)
        table.clock_started = {s: t - seconds for s, t in (table.clock_started or {}).items()}
        with service.sessions() as db:
            running = select(SeatRow).where(SeatRow.table_id == table_id, SeatRow.turn_started.is_not(None))
            for row in db.scalars(running):
                row.turn_started -= seconds
            db.commit()

    run(shift)


def eventually(check, seconds=10.0):
    deadline = time.monotonic() + seconds
    while not (result := check()):
        assert time.monotonic() < deadline, "not within the time"
        time.sleep(0.05)
    return result


def test_each_turn_takes_its_time_from_the_bank_which_survives_a_restart(database_url):
    with TestClient(create_app(database_url, bot_delay=0)) as client:
        table_id, _ = guest_table(client, turn_seconds=DAY, total_seconds=3 * DAY)
        service, run = client.app.state.service, client.app.state.in_database
        run(service.clock, table_id, time.monotonic())
        time_passes(run, service, table_id, DAY / 2)
        first = finish_turn(run, service, table_id)
        left = run(service.clock, table_id, time.monotonic())  # the turn ended half a day in
        (second,) = left
        assert second != first and left[second] == pytest.approx(DAY, abs=60)  # a whole move's time for it
        assert banks(client, table_id)[first] == pytest.approx(2.5 * DAY, abs=60)
    with TestClient(create_app(database_url, bot_delay=0)) as restarted:
        shown = banks(restarted, table_id)
        assert shown[first] == pytest.approx(2.5 * DAY, abs=60)  # three days less the half a day used
        assert shown[second] == pytest.approx(3 * DAY, abs=60)  # its turn has just begun


def test_once_a_seats_total_runs_out_a_bot_moves_for_it_at_once_to_the_end_said_in_the_log(client):
    table_id, tokens = guest_table(client, turn_seconds=DAY, total_seconds=DAY + 3600)
    service, run = client.app.state.service, client.app.state.in_database
    run(service.clock, table_id, time.monotonic())
    time_passes(run, service, table_id, DAY - 60)  # a move in time, almost a day
    slow = finish_turn(run, service, table_id)
    run(service.clock, table_id, time.monotonic())
    finish_turn(run, service, table_id)  # the other seat moves at once
    left = run(service.clock, table_id, time.monotonic())
    assert left[slow] == pytest.approx(3660, abs=30)  # what is left of the bank, not a day
    assert banks(client, table_id)[slow] == pytest.approx(3660, abs=30)
    time_passes(run, service, table_id, 3700)  # the bank runs out: a bot moves, said to everyone
    table_of = lambda: client.get(f"/api/tables/{table_id}").json()["table"]  # noqa: E731
    shown = eventually(lambda: (t := table_of())["out_of_time"] and t)
    assert shown["out_of_time"] == [slow] and {"seat": slow} in shown["timeouts"]
    assert banks(client, table_id)[slow] == 0
    refused = client.post(
        f"/api/tables/{table_id}/act", json={"action": "anything"}, headers={"X-Seat-Token": tokens[slow]}
    )
    assert refused.status_code == 409 and "time for the game has run out" in refused.json()["error"]
    mine = lambda: [m for m in run(service.table, table_id).session.moves if m[0] == slow]  # noqa: E731
    before = len(mine())
    playing = lambda: run(service.table, table_id).status == "playing"  # noqa: E731
    eventually(lambda: not playing() or run(service.table, table_id).state.to_act() == [1 - slow])
    if playing():
        finish_turn(run, service, table_id)  # the other seat's turn; then a bot plays the slow one's at once
    eventually(lambda: len(mine()) > before or run(service.table, table_id).status == "finished")
    assert table_of()["out_of_time"] == [slow]  # said in the log to the end: a bot plays its moves


def test_the_bank_is_counted_once_across_two_processes(tmp_path):
    """Two server processes on one database (PostgreSQL when CI provides one; else SQLite, where the
    second serves no requests, only its table service: SQLite serves one process)."""
    urls = postgres_database() if POSTGRES_URL else iter([f"sqlite:///{tmp_path / 'two.db'}"])
    for url in urls:
        with TestClient(create_app(url, bot_delay=0)) as one:
            table_id, _ = guest_table(one, turn_seconds=DAY, total_seconds=3 * DAY)
            service1, run1 = one.app.state.service, one.app.state.in_database
            run1(service1.clock, table_id, time.monotonic())
            time_passes(run1, service1, table_id, 3600)
            two = create_app(url, bot_delay=0)
            with TestClient(two) if POSTGRES_URL else contextlib.nullcontext():
                service2, run2 = two.state.service, two.state.in_database
                first = run2(service2.table, table_id).state.to_act()[0]
                shown = run2(service2.payload, table_id, None)["table"]["time_banks"]
                assert shown[str(first)] == pytest.approx(3 * DAY - 3600, abs=60)  # the same clock
                assert finish_turn(run2, service2, table_id) == first  # its move, through the other process
                run2(service2.clock, table_id, time.monotonic())
                used = run2(service2.table, table_id).time_used[first]
                assert used == pytest.approx(3600, abs=60)
                moves = len(run2(service2.table, table_id).session.moves)
                run1(service1.catch_up, table_id, moves)  # the notice (PostgreSQL sends it itself)
                run1(service1.clock, table_id, time.monotonic())
                assert run1(service1.table, table_id).time_used[first] == used  # as stored: not added twice
                assert banks(one, table_id)[first] == pytest.approx(3 * DAY - used, abs=1)
                with service1.sessions() as db:
                    row = db.get(SeatRow, (table_id, first))
                    assert row.time_used == used and row.turn_started is None
                service2.stop()
