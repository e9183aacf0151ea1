"""Rated tables and ratings (server/ratings.py): accounts only, a clock, bots with a fixed rating; a
finished rated game updates every account's openskill rating once; profiles and leaderboards."""

from __future__ import annotations

import random

import pytest
from fastapi.testclient import TestClient
from openskill.models import PlackettLuce

from merchantry.server.ratings import bot_ratings
from tests.server.test_accounts import app_on, csrf, sign_up


def rated_body(game="samarkand", seats=None, rated=True, turn_seconds=600, open_seats=()):
    seats = seats or [{"kind": "human"}, {"kind": "human"}]
    for seat in open_seats:
        seats[seat]["open"] = True
    return {
        "game": game,
        "players": len(seats),
        "seats": seats,
        "name": "x",
        "rated": rated,
        "turn_seconds": turn_seconds,
    }


def play_out(client, table_id: str, seats: set[int]) -> None:
    """Random legal moves for the people's seats until the game ends (through the server's own service,
    in its database thread: a whole game in a blink), the bots' turns too."""
    service, run = client.app.state.service, client.app.state.in_database
    rng = random.Random(7)
    while (table := run(service.table, table_id)).status == "playing":
        state = table.state
        movers = [seat for seat in state.to_act() if seat in seats]
        if not movers:  # a bot's turn (the server's runner is started only by requests)
            run(service.bot_move, table_id)
            continue
        seat = movers[0]
        run(service.act, table_id, seat, str(rng.choice(state.legal_actions(seat))))


@pytest.fixture
def two_accounts(database_url):
    with TestClient(app_on(database_url)) as ann:
        bea = TestClient(ann.app)
        sign_up(ann, "Ann")
        sign_up(bea, "Bea")
        yield ann, bea


def test_a_rated_table_needs_an_account_a_clock_and_bots_with_a_fixed_rating(two_accounts):
    ann, _ = two_accounts
    client = TestClient(ann.app)  # a guest's browser
    assert client.post("/api/tables", json=rated_body()).status_code == 401  # a guest
    no_clock = ann.post("/api/tables", json=rated_body(turn_seconds=0), headers=csrf(ann))
    assert no_clock.status_code == 422 and "clock" in no_clock.json()["error"]
    unrated_bot = rated_body(seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}])
    refused = ann.post("/api/tables", json=unrated_bot, headers=csrf(ann))
    assert refused.status_code == 422 and "fixed rating" in refused.json()["error"]
    made = ann.post("/api/tables", json=rated_body(open_seats=(1,)), headers=csrf(ann))
    assert made.status_code == 201
    table = made.json()
    payload = ann.get(f"/api/tables/{table['id']}", headers={"X-Seat-Token": table["token"]}).json()
    assert payload["table"]["hints"] is False  # a rated game is a contest: no hints


def test_guests_cannot_sit_at_a_rated_table(two_accounts):
    ann, _ = two_accounts
    client = TestClient(ann.app)  # a guest's browser
    table = ann.post("/api/tables", json=rated_body(open_seats=(1,)), headers=csrf(ann)).json()
    invite = table["invites"][0]
    by_link = client.post(
        f"/api/tables/{table['id']}/join", json={"seat": 1, "invite": invite["invite"], "name": "Guest"}
    )
    assert by_link.status_code == 401 and "rated" in by_link.json()["error"]
    from_lobby = client.post(f"/api/lobby/{table['id']}/seats/1", json={"name": "Guest"})
    assert from_lobby.status_code == 401


def test_a_finished_rated_game_updates_each_accounts_rating_once_with_the_arenas_model(two_accounts):
    ann, bea = two_accounts
    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "greedy"}]  # quick, fixed at 25
    table = ann.post("/api/tables", json=rated_body(seats=seats, open_seats=(1,)), headers=csrf(ann)).json()
    assert bea.post(f"/api/lobby/{table['id']}/seats/1", json={}, headers=csrf(bea)).status_code == 200
    before = bea.get(f"/api/tables/{table['id']}/ratings").json()
    assert before["rated"] and before["seats"]["2"]["fixed"]  # the bot's fixed rating; people have none yet
    play_out(ann, table["id"], {0, 1})
    result = ann.get(f"/api/tables/{table['id']}").json()["table"]["result"]
    model = PlackettLuce()
    greedy = bot_ratings("samarkand")["greedy"]
    teams = [[model.rating()], [model.rating()], [model.rating(mu=greedy["mu"], sigma=greedy["sigma"])]]
    scores = result["scores"]
    ranks = [1.0 + sum(other > mine for other in scores) for mine in scores]
    expected = model.rate(teams, ranks=ranks)
    for seat, client, name in ((0, ann, "Ann"), (1, bea, "Bea")):
        profile = client.get(f"/api/players/{name.lower()}").json()
        game = profile["games"]["samarkand"]
        assert game["played"] == 1 and game["won"] == (seat in result["winners"])
        assert game["rating"]["mu"] == pytest.approx(expected[seat][0].mu, abs=0.01)
        assert game["rating"]["sigma"] == pytest.approx(expected[seat][0].sigma, abs=0.01)
        (last,) = profile["recent"]
        assert (
            last["table_id"] == table["id"] and last["rated"] and last["replay"] == f"/replay/{table['id']}"
        )
        assert last["score"] == scores[seat] and last["scores"] == scores  # checked against the engine's
        assert [p["name"] for p in last["players"]][:2] == ["Ann", "Bea"] and last[
            "table"
        ] == f"/table/{table['id']}"
    board = ann.get("/api/leaderboard/samarkand").json()
    ordinals = [row["rating"]["ordinal"] for row in board["leaders"]]
    assert {row["name"] for row in board["leaders"]} == {"Ann", "Bea"} and ordinals == sorted(
        ordinals, reverse=True
    )
    assert {row["bot"] for row in board["bots"]} >= {"easy", "medium", "hard", "greedy"}
    # the game is rated once: reloading the table (a restart, another process) rates nothing again
    service = ann.app.state.service
    ann.app.state.in_database(service.live.pop, table["id"])
    ann.get(f"/api/tables/{table['id']}")
    assert ann.get("/api/players/Ann").json()["games"]["samarkand"]["played"] == 1
    assert ann.get("/api/leaderboard/samarkand").json()["leaders"][0]["games"] == 1


def test_an_unrated_game_counts_in_the_profile_but_moves_no_rating(two_accounts):
    ann, _ = two_accounts
    body = rated_body(
        seats=[{"kind": "human"}, {"kind": "bot", "bot": "greedy"}], rated=False, turn_seconds=0
    )
    table = ann.post("/api/tables", json=body, headers=csrf(ann)).json()
    play_out(ann, table["id"], {0})
    games = ann.get("/api/players/Ann").json()["games"]
    assert games["samarkand"]["played"] == 1 and "rating" not in games["samarkand"]
    assert ann.get("/api/leaderboard/samarkand").json()["leaders"] == []
    assert ann.get("/api/players/nobody").status_code == 404
    assert ann.get("/api/leaderboard/chess").status_code == 404


def test_every_game_has_fixed_bot_ratings_ordered_as_the_ladder_measured():
    for game in ("byzanz", "money", "samarkand"):  # (Grand Bazaar's medium and hard are within noise)
        fixed = bot_ratings(game)
        assert fixed["hard"]["mu"] > fixed["medium"]["mu"] > fixed["easy"]["mu"]
        assert fixed["greedy"]["mu"] == 25.0


def test_the_lobby_filters_rated_tables(two_accounts):
    ann, _ = two_accounts
    rated = ann.post("/api/tables", json=rated_body(open_seats=(1,)), headers=csrf(ann)).json()
    casual = ann.post("/api/tables", json=rated_body(rated=False, open_seats=(1,)), headers=csrf(ann)).json()
    listed = {t["id"]: t["rated"] for t in ann.get("/api/lobby").json()}
    assert listed == {rated["id"]: True, casual["id"]: False}
    assert [t["id"] for t in ann.get("/api/lobby?rated=true").json()] == [rated["id"]]
    assert [t["id"] for t in ann.get("/api/lobby?rated=false").json()] == [casual["id"]]
