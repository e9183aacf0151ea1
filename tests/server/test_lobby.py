"""Open seats and the lobby (server/lobby.py): a table leaves seats open, the lobby lists it by game,
players and pace, and anyone takes a seat; the host still invites by link."""

from __future__ import annotations

from fastapi.testclient import TestClient
from sqlalchemy import select

from merchantry.server.accounts import AccountSeatRow
from merchantry.server.ratings import RatingRow, bot_ratings, shown
from tests.server.test_accounts import app_on, csrf, sign_up


def open_table(client, game="money", players=3, turn_seconds=0, open_seats=(1,), headers=None):
    seats = [{"kind": "human", "open": seat in open_seats} for seat in range(players)]
    body = {"game": game, "players": players, "seats": seats, "name": "Ann", "turn_seconds": turn_seconds}
    response = client.post("/api/tables", json=body, headers=headers or {})
    assert response.status_code == 201, response.text
    return response.json()


def test_the_lobby_lists_tables_with_open_seats_by_game_players_and_pace(client):
    money = open_table(client, "money", 3)
    turn_based = open_table(client, "grand_bazaar", 2, turn_seconds=3600, open_seats=(1,))
    closed = open_table(client, "money", 3, open_seats=())  # invite links only: not listed
    listed = {t["id"]: t for t in client.get("/api/lobby").json()}
    assert set(listed) == {money["id"], turn_based["id"]} and closed["id"] not in listed
    assert listed[money["id"]]["open"] == [1] and listed[money["id"]]["pace"] == "realtime"
    assert listed[turn_based["id"]]["pace"] == "turn-based"
    assert "invite" not in str(listed)  # the invite codes are never listed
    ids = lambda **query: [t["id"] for t in client.get("/api/lobby", params=query).json()]  # noqa: E731
    assert ids(game="grand_bazaar") == [turn_based["id"]]
    assert ids(players=3) == [money["id"]]
    assert ids(pace="turn-based") == [turn_based["id"]] and ids(pace="realtime") == [money["id"]]
    assert client.get("/api/lobby", params={"game": "chess"}).status_code == 422
    assert client.get("/api/lobby", params={"pace": "soon"}).status_code == 422


def test_anyone_takes_an_open_seat_and_the_table_leaves_the_lobby_when_full(client):
    table = open_table(client, "grand_bazaar", 2)
    taken = client.post(f"/api/lobby/{table['id']}/seats/1", json={"name": "Bea"})
    assert taken.status_code == 200, taken.text
    token = taken.json()["token"]
    view = client.get(f"/api/tables/{table['id']}", headers={"X-Seat-Token": token}).json()
    assert view["seat"] == 1 and view["table"]["status"] == "playing"
    assert view["table"]["seats"][1]["name"] == "Bea"
    assert client.get("/api/lobby").json() == []  # nothing open any more
    again = client.post(f"/api/lobby/{table['id']}/seats/1", json={"name": "Cid"})
    assert again.status_code == 409 and "taken" in again.json()["error"]


def test_only_open_seats_are_taken_from_the_lobby_and_the_host_still_invites_by_link(client):
    table = open_table(client, "money", 3, open_seats=(1,))
    shut = client.post(f"/api/lobby/{table['id']}/seats/2", json={"name": "Cid"})
    assert shut.status_code == 404 and "not open" in shut.json()["error"]
    assert client.post(f"/api/lobby/{table['id']}/seats/0", json={"name": "Cid"}).status_code == 404  # host's
    assert client.post("/api/lobby/nosuchtable/seats/1", json={"name": "Cid"}).status_code == 404
    invite = {i["seat"]: i["invite"] for i in table["invites"]}
    assert set(invite) == {1, 2}  # invite links for every seat, the open one too
    joined = client.post(
        f"/api/tables/{table['id']}/join", json={"seat": 1, "invite": invite[1], "name": "Bea"}
    )
    assert joined.status_code == 200
    assert client.post(f"/api/lobby/{table['id']}/seats/1", json={"name": "Cid"}).status_code == 409


def test_an_account_takes_an_open_seat_under_its_name_once_per_table(database_url):
    with TestClient(app_on(database_url)) as host:
        bea = TestClient(host.app)
        table = open_table(host, "money", 3, open_seats=(1, 2))
        sign_up(bea, "Bea")
        taken = bea.post(f"/api/lobby/{table['id']}/seats/1", json={"name": "Typed"}, headers=csrf(bea))
        assert taken.status_code == 200
        seats = bea.get("/api/account/seats").json()["seats"]
        assert [(s["table_id"], s["seat"]) for s in seats] == [(table["id"], 1)]
        lobby = bea.get("/api/lobby").json()
        assert lobby[0]["seats"][1]["name"] == "Bea" and lobby[0]["open"] == [2]
        twice = bea.post(f"/api/lobby/{table['id']}/seats/2", json={"name": "Bea"}, headers=csrf(bea))
        assert twice.status_code == 409 and "already have a seat" in twice.json()["error"]
        assert bea.post(f"/api/lobby/{table['id']}/seats/2", json={}).status_code == 403  # no CSRF token


def test_the_lobby_shows_each_seats_rating_in_the_tables_game_beside_its_name(client):
    sign_up(client, "Ann")
    seats = [{"kind": "human"}, {"kind": "human", "open": True}, {"kind": "bot", "bot": "hard"}]
    body = {"game": "money", "players": 3, "seats": seats, "name": "Ann"}
    table = client.post("/api/tables", json=body, headers=csrf(client)).json()
    (listed,) = client.get("/api/lobby").json()
    fixed = bot_ratings("money")["hard"]
    assert listed["ratings"] == {
        "2": {**shown(fixed["mu"], fixed["sigma"]), "fixed": True}
    }  # Ann has none yet
    service = client.app.state.service
    with service.sessions() as db:  # as after rated games: one in Money, one in another game
        account_id = db.scalar(
            select(AccountSeatRow.account_id).where(AccountSeatRow.table_id == table["id"])
        )
        db.add(RatingRow(account_id=account_id, game="money", mu=27.5, sigma=4.25, games=3, wins=2))
        db.add(RatingRow(account_id=account_id, game="byzanz", mu=20.0, sigma=5.0, games=1, wins=0))
        db.commit()
    (listed,) = client.get("/api/lobby").json()
    assert listed["ratings"]["0"] == shown(27.5, 4.25) and "1" not in listed["ratings"]  # the game's rating
