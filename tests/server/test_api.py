"""The web platform's API and websocket: tables, seats, moves, refusals, restart, replays."""

from __future__ import annotations

import logging
import time
from datetime import UTC, datetime

import pytest
from fastapi.testclient import TestClient

from merchantry import records
from merchantry.server.app import create_app, with_new_log_only
from tests.server.conftest import join_all, new_table, next_refusal


def headers(token):
    return {"X-Seat-Token": token}


def test_games_list_names_every_game_with_its_bots(client):
    games = {g["name"]: g for g in client.get("/api/games").json()}
    assert set(games) == {"byzanz", "grand_bazaar", "money", "samarkand"}
    assert (
        games["money"]["bots"]
        == ["easy", "medium", "hard", "collector", "greedy", "highroller", "hoarder", "minimum", "random"]
        and games["money"]["min_players"] == 3
    )


def test_a_table_waits_for_its_players_then_starts(client):
    table = new_table(client)
    listed = client.get("/api/tables").json()[0]
    assert listed["status"] == "waiting" and listed["seats"][0]["name"] == "Ann"
    refused = client.post(
        f"/api/tables/{table['id']}/act", json={"action": "bid"}, headers=headers(table["token"])
    )
    assert refused.status_code == 409 and "waiting for P2" in refused.json()["error"]
    tokens = join_all(client, table)
    payload = client.get(f"/api/tables/{table['id']}", headers=headers(tokens[1])).json()
    assert payload["table"]["status"] == "playing" and payload["seat"] == 1
    assert payload["view"] == payload["view"] | {"seat": 1} and "hand" in payload["view"]
    assert "bid" in payload["legal"]


def test_an_invite_is_single_use_and_bound_to_its_seat(client, caplog):
    table = new_table(client)
    invite = table["invites"][0]
    wrong_seat = client.post(
        f"/api/tables/{table['id']}/join", json={"seat": 2, "invite": invite["invite"], "name": "X"}
    )
    assert wrong_seat.status_code == 403
    ok = client.post(
        f"/api/tables/{table['id']}/join", json={"seat": 1, "invite": invite["invite"], "name": "Bob"}
    )
    assert ok.status_code == 200
    again = client.post(
        f"/api/tables/{table['id']}/join", json={"seat": 1, "invite": invite["invite"], "name": "Eve"}
    )
    assert again.status_code == 409 and "already taken" in again.json()["error"]


def test_moves_are_checked_for_token_turn_and_legality(client, caplog):
    table = new_table(client, seats=("human", "human", "bot"))
    tokens = join_all(client, table)
    act = f"/api/tables/{table['id']}/act"
    with caplog.at_level(logging.WARNING, logger="merchantry.server"):
        forged = client.post(act, json={"action": "bid"}, headers=headers("not-a-real-token"))
    assert forged.status_code == 403 and "not valid" in forged.json()["error"]
    assert any("forged" in record.message for record in caplog.records)  # refused and logged
    bad = client.post(act, json={"action": "take over the world"}, headers=headers(tokens[0]))
    assert bad.status_code == 409 and "moves look like" in bad.json()["error"]
    illegal = client.post(act, json={"action": "add EUR99"}, headers=headers(tokens[0]))
    assert illegal.status_code == 409
    assert client.post(act, json={"action": "bid"}, headers=headers(tokens[0])).status_code == 200
    twice = client.post(act, json={"action": "bid"}, headers=headers(tokens[0]))
    assert twice.status_code == 409 and "already sealed" in twice.json()["error"]
    missing = client.post(act, json={"action": "bid"})
    assert missing.status_code == 422


def test_requests_are_validated_with_size_limits(client):
    too_long = "x" * 300
    bad_bodies = [
        {"game": "money", "players": 3, "seats": [{"kind": "human"}] * 3, "name": too_long},
        {"game": "money", "players": 3, "seats": [{"kind": "alien"}] * 3},
        {"game": "money", "players": 99, "seats": [{"kind": "human"}]},
        {"game": "money", "players": 3, "seats": [{"kind": "human"}] * 3, "name": "<script>"},
    ]
    for body in bad_bodies:
        assert client.post("/api/tables", json=body).status_code == 422
    chess = client.post("/api/tables", json={"game": "chess", "players": 2, "seats": [{"kind": "human"}] * 2})
    assert chess.status_code == 422 and "unknown game" in chess.json()["error"]
    mismatch = client.post(
        "/api/tables", json={"game": "money", "players": 4, "seats": [{"kind": "human"}] * 3}
    )
    assert mismatch.status_code == 422
    table = new_table(client)
    long_move = client.post(
        f"/api/tables/{table['id']}/act", json={"action": "a" * 500}, headers=headers(table["token"])
    )
    assert long_move.status_code == 422
    assert client.get("/api/tables/nope").status_code == 404


def test_gb_r3_a_refused_move_comes_with_its_reason_for_every_language_and_its_english_sentence(client):
    """Issue 32: a move the rules refuse is answered, over HTTP and the websocket, with the English sentence
    as before and the reason's key, values and clause ids, for the page to say in its reader's language."""
    table = new_table(client, game="grand_bazaar", seats=("human", "human"))
    tokens = join_all(client, table)
    seat = client.get(f"/api/tables/{table['id']}", headers=headers(tokens[0])).json()["view"]["to_act"][0]
    act = f"/api/tables/{table['id']}/act"
    refused = client.post(act, json={"action": "done"}, headers=headers(tokens[seat]))
    assert refused.status_code == 409
    assert refused.json() == {
        "error": "you must buy at least one gem this turn before you are done (GB-R3)",
        "why": {"key": "must_buy_gem", "params": {}, "clauses": ["GB-R3"]},
    }
    turn = client.post(act, json={"action": "buy ruby"}, headers=headers(tokens[1 - seat]))
    assert turn.json()["why"] == {
        "key": "not_your_turn",
        "params": {"turn_seat": seat, "seat": 1 - seat},
        "clauses": [],
    }
    with client.websocket_connect(f"/ws/tables/{table['id']}", headers={"X-Seat-Token": tokens[seat]}) as ws:
        assert ws.receive_json()["type"] == "state"
        ws.send_json({"type": "act", "action": "sell emerald"})
        message = next_refusal(ws)
        assert message["reason"] == "you have no emerald to sell"
        assert message["why"] == {"key": "none_to_sell", "params": {"gem": "emerald"}, "clauses": []}
        ws.send_json({"type": "act", "action": "fly"})  # not a move at all: the game's notation says so
        assert next_refusal(ws)["why"]["key"] == "not_a_move"
        ws.send_text("{not json")  # the platform's own refusals have their English sentence only
        assert "why" not in next_refusal(ws)


def test_websocket_sends_each_seat_its_view_and_refuses_with_a_reason(client):
    table = new_table(client)
    tokens = join_all(client, table)
    with client.websocket_connect(f"/ws/tables/{table['id']}", headers={"X-Seat-Token": tokens[0]}) as ws:
        first = ws.receive_json()
        assert first["type"] == "state" and first["seat"] == 0 and "hand" in first["view"]
        ws.send_json({"type": "act", "action": "keep"})
        assert "bids are being made" in next_refusal(ws)["reason"]
        ws.send_text("{not json")
        next_refusal(ws)
        ws.send_text('{"type": "act", "action": "' + "x" * 3000 + '"}')
        assert "too large" in next_refusal(ws)["reason"]
        ws.send_json({"type": "act", "action": "bid"})
        while not (after := ws.receive_json())["view"]["seats"][0]["sealed"]:
            assert after["type"] == "state"
    with client.websocket_connect(f"/ws/tables/{table['id']}", headers={"X-Seat-Token": "forged"}) as ws:
        # the database confirms it holds no seat: "revoked" (the page forgets it; a passing refusal keeps it)
        assert ws.receive_json()["type"] == "revoked"
    with client.websocket_connect(f"/ws/tables/{table['id']}") as spectator:
        seen = spectator.receive_json()
        assert seen["seat"] is None and "hand" not in seen["view"] and seen["legal"] == []
        spectator.send_json({"type": "act", "action": "bid"})
        assert "spectators cannot act" in spectator.receive_json()["reason"]


def test_live_updates_carry_only_the_log_entries_not_sent_before(client):
    table = new_table(client, game="grand_bazaar", seats=("bot", "bot", "bot"))
    log: list = []
    sizes = []
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        while True:
            message = ws.receive_json()
            assert message["log_from"] == (len(log) if sizes else 0)
            log = log[: message["log_from"]] + message["view"]["log"]
            sizes.append(len(message["view"]["log"]))
            if message["table"]["status"] == "finished":
                break
    assert log == client.get(f"/api/tables/{table['id']}").json()["view"]["log"]
    assert len(sizes) > 20 and max(sizes[1:]) < len(log) / 10, "no update but the first carries the log"


def test_a_log_whose_past_changed_is_sent_whole():
    def payload(log):
        return {"type": "state", "table": {}, "view": {"log": log}}

    assert with_new_log_only(payload(["a", "b", "c"]), payload(["a", "b"]))["log_from"] == 2
    resent = with_new_log_only(payload(["a", "B", "c"]), payload(["a", "b"]))
    assert resent["log_from"] == 0 and resent["view"]["log"] == ["a", "B", "c"]
    assert with_new_log_only(payload(["a"]), None)["view"]["log"] == ["a"]


def test_bots_play_their_turns_server_side_and_a_bot_only_game_finishes(client):
    table = new_table(client, seats=("bot", "bot", "bot"))
    assert table["token"] is None
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        payload = ws.receive_json()
        while payload["table"]["status"] != "finished":
            payload = ws.receive_json()
    result = client.get("/api/tables").json()[0]
    assert result["status"] == "finished" and result["result"]["winners"]


def test_the_host_hands_an_absent_seat_to_a_bot(client):
    table = new_table(client, seats=("human", "human", "bot"))
    denied = client.post(
        f"/api/tables/{table['id']}/seats/1/bot", json={"host_token": "nope", "bot": "greedy"}
    )
    assert denied.status_code == 403
    given = client.post(f"/api/tables/{table['id']}/seats/1/bot", json={"host_token": table["host_token"]})
    assert given.status_code == 200
    assert given.json()["table"]["status"] == "playing"
    assert given.json()["table"]["seats"][1] == given.json()["table"]["seats"][1] | {
        "kind": "bot",
        "bot": "greedy",
    }


def play_to_the_end(client, table_id, tokens):
    """Humans always choose their first legal move; bots play server-side."""
    for _ in range(5000):
        payloads = {
            s: client.get(f"/api/tables/{table_id}", headers=headers(t)).json() for s, t in tokens.items()
        }
        if any(p["table"]["status"] == "finished" for p in payloads.values()):
            return
        for seat, payload in payloads.items():
            if payload["legal"]:
                moves = [m for m in payload["legal"] if not m.startswith("add")] or payload["legal"]
                client.post(
                    f"/api/tables/{table_id}/act", json={"action": moves[0]}, headers=headers(tokens[seat])
                )
                break
    raise AssertionError("the game did not end")


def test_a_restarted_server_resumes_every_game_from_its_record(database_url):
    app = create_app(database_url, bot_delay=0)
    with TestClient(app) as client:
        table = new_table(client)
        tokens = join_all(client, table)
        for seat in (0, 1):
            client.post(
                f"/api/tables/{table['id']}/act", json={"action": "bid"}, headers=headers(tokens[seat])
            )
        deadline = time.time() + 20
        while True:  # the bot thinks in a thread: let it finish its bid before the restart
            before = client.get(f"/api/tables/{table['id']}", headers=headers(tokens[0])).json()
            if 2 not in before["view"]["to_act"] or time.time() > deadline:
                break
            time.sleep(0.05)
    restarted = create_app(database_url, bot_delay=0)  # a new process: nothing in memory
    with TestClient(restarted) as client:
        after = client.get(f"/api/tables/{table['id']}", headers=headers(tokens[0])).json()
        assert after["view"] == before["view"] and after["legal"] == before["legal"]
        play_to_the_end(client, table["id"], tokens)
        record = client.get(f"/api/tables/{table['id']}/record").json()
        state = records.replay(record)
        assert state.is_over()
        final = client.get("/api/tables").json()[0]
        assert final["result"]["winners"] == state.winners()


def test_replays_step_through_a_finished_game(client):
    table = new_table(client, seats=("bot", "bot", "bot"))
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        while ws.receive_json()["table"]["status"] != "finished":
            pass
    start = client.get(f"/api/tables/{table['id']}/replay?upto=0").json()
    assert start["at"] == 0 and start["move"] is None and start["view"]["round"] == 1
    step = client.get(f"/api/tables/{table['id']}/replay?upto=5").json()
    assert step["at"] == 5 and step["move"]["text"]
    # each log line carries the number of the move that wrote it (the replay's numbering): the lines the
    # fifth move wrote are the ones numbered 5, the newest
    before = client.get(f"/api/tables/{table['id']}/replay?upto=4").json()
    numbers = step["log_moves"]
    assert len(numbers) == len(step["view"]["log"]) and numbers == sorted(numbers)
    assert step["log_moves"][: len(before["log_moves"])] == before["log_moves"]
    assert set(step["log_moves"][len(before["view"]["log"]) :]) <= {5}
    end = client.get(f"/api/tables/{table['id']}/replay?upto={start['moves']}").json()
    assert end["view"]["phase"] == "over" and "hand" not in end["view"]
    # jumping by round: at each listed point a round has just begun, as the status line and the analysis
    # count rounds (round 1 at the start; a Money round's log opens only at its reveal, after its bids)
    rounds = start["rounds"]
    assert rounds[0] == 0 and rounds == sorted(rounds) and len(rounds) == end["view"]["round"]
    for number, at in enumerate(rounds, 1):
        view = client.get(f"/api/tables/{table['id']}/replay?upto={at}").json()["view"]
        assert view["round"] == number
        if at:
            before = client.get(f"/api/tables/{table['id']}/replay?upto={at - 1}").json()["view"]
            assert before["round"] == number - 1
    # after the end, any seat's point of view: its hand at that moment, nobody else's
    as_p2 = client.get(f"/api/tables/{table['id']}/replay?upto=5&seat=1").json()
    assert as_p2["seat"] == 1 and as_p2["view"]["seat"] == 1 and as_p2["view"]["hand"]
    assert client.get(f"/api/tables/{table['id']}/replay?upto=5&seat=9").status_code == 400
    game_in_progress = new_table(client)
    assert client.get(f"/api/tables/{game_in_progress['id']}/replay").status_code == 409
    assert client.get(f"/api/tables/{game_in_progress['id']}/replay?seat=0").status_code == 409
    assert client.get(f"/api/tables/{game_in_progress['id']}/record").status_code == 409


def test_pages_and_rules_are_served(client):
    assert "Merchantry" in client.get("/").text
    assert client.get("/table/abc").status_code == 200
    assert (
        "sealed bid" in client.get("/rules/money").text.lower()
        or "Sealed bids" in client.get("/rules/money").text
    )
    assert client.get("/rules/chess").status_code == 404
    german = client.get("/rules/grand_bazaar?lang=de").text
    assert (
        '<html lang="de">' in german and "so wird gespielt" in german and 'href="/static/style.css"' in german
    )
    assert "<title>Grand Bazaar</title>" in german  # the game's own title, in the platform's frame
    assert client.get("/static/app.js").status_code == 200
    # every link the lobby offers leads somewhere: rules pages, drawings and catalogues of each game
    for game in client.get("/api/games").json():
        for url in (game["rules"], game["drawing"], game["style"]):
            assert url is None or client.get(url).status_code == 200, url
        for lang in ("en", "pt", "de", "fr"):
            assert client.get(f"/games/{game['name']}/locales/{lang}.json").json()["event"]
            assert client.get(f"/locales/{lang}.json").json()["ui"]["lobby"]
    assert client.get("/games/money/locales/xx.json").status_code == 404
    assert client.get("/games/money/locales/..%2F..%2Fgame.py").status_code == 404


def test_the_turn_clock_lets_a_bot_play_a_turn_that_times_out(client):
    response = client.post(
        "/api/tables",
        json={
            "game": "money",
            "players": 3,
            "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "greedy"}],
            "name": "Ann",
            "turn_seconds": 30,
        },
    )
    table = response.json()
    tokens = join_all(client, table)
    service, run = client.app.state.service, client.app.state.in_database  # beside the server's own clock
    start = time.monotonic()
    clock = run(service.clock, table["id"], start)
    assert set(clock) == {0, 1} and all(0 < left <= 30 for left in clock.values())
    client.post(f"/api/tables/{table['id']}/act", json={"action": "bid"}, headers=headers(tokens[0]))
    assert not run(service.play_timed_out_turns, table["id"], start + 10)  # time is not up yet
    assert run(service.play_timed_out_turns, table["id"], start + 31)  # P2 ran out of time: a bot seals
    moves = run(service.table, table["id"]).session.moves
    assert [1, "bid"] in moves  # the bot sealed P2's bid
    payload = client.get(f"/api/tables/{table['id']}", headers=headers(tokens[1])).json()
    assert payload["table"]["turn_seconds"] == 30
    # said to all, with no move count (it would tick with the sealed moves of others)
    assert payload["table"]["timeouts"] == [{"seat": 1}]
    no_clock = new_table(client)
    assert client.get(f"/api/tables/{no_clock['id']}").json()["table"]["clock"] == {}


def test_new_tables_get_128_bit_seeds_that_no_live_payload_carries(client):
    table = new_table(client, seats=("human", "human", "bot"))
    tokens = join_all(client, table)
    seed = client.app.state.service.table(table["id"]).session.seed
    assert isinstance(seed, int) and seed.bit_length() > 96  # drawn from 128 bits (fails once in 2**32)
    for token in (*tokens.values(), None):
        payload = client.get(f"/api/tables/{table['id']}", headers=headers(token) if token else {}).text
        assert str(seed) not in payload
    assert client.get(f"/api/tables/{table['id']}/record").status_code == 409
    play_to_the_end(client, table["id"], tokens)
    assert client.get(f"/api/tables/{table['id']}/record").json()["seed"] == seed  # exact, once it is over


def test_tables_from_before_wide_seeds_are_migrated_and_resume(database_url):
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import create_engine, text

    from merchantry.server.db import MIGRATIONS, token_hash

    engine = create_engine(database_url)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0002")  # the schema with a 64-bit integer seed column
        connection.execute(
            text(
                "INSERT INTO tables (id, game, players, seed, options, status, turn_seconds,"
                " host_token_hash, created_at)"
                " VALUES ('old', 'money', 3, 1234567, '{}', 'playing', 0, :host, :at)"
            ),
            {"host": token_hash("host"), "at": datetime.now(UTC)},
        )
        for seat in range(3):
            connection.execute(
                text(
                    "INSERT INTO seats (table_id, seat, kind, bot, invite)"
                    " VALUES ('old', :s, 'bot', 'random', 'x')"
                ),
                {"s": seat},
            )
    engine.dispose()
    with TestClient(create_app(database_url, bot_delay=0)) as client:
        assert client.app.state.service.table("old").session.seed == 1234567
        with client.websocket_connect("/ws/tables/old") as ws:
            payload = ws.receive_json()
            while payload["table"]["status"] != "finished":
                payload = ws.receive_json()
        assert client.get("/api/tables/old/record").json()["seed"] == 1234567


def test_the_host_closes_an_abandoned_table_and_nobody_moves_there_any_more(client):
    table = new_table(client, seats=("human", "human", "bot"))
    tokens = join_all(client, table)
    url = f"/api/tables/{table['id']}"
    assert client.post(f"{url}/close", json={"host_token": "not-the-host"}).status_code == 403
    closed = client.post(f"{url}/close", json={"host_token": table["host_token"]})
    assert closed.status_code == 200 and closed.json()["table"]["status"] == "closed"
    refused = client.post(f"{url}/act", json={"action": "bid"}, headers=headers(tokens[0]))
    assert refused.status_code == 409 and "closed" in refused.json()["error"]
    lobby = {t["id"]: t for t in client.get("/api/tables").json()}
    assert lobby[table["id"]]["status"] == "closed"
    service = client.app.state.service
    assert service.bot_move(table["id"]) is False and service.clock(table["id"], 0.0) == {}


def test_a_turn_clock_runs_only_while_the_game_is_played(client):
    specs = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "greedy"}]
    table = client.post(
        "/api/tables", json={"game": "money", "players": 3, "seats": specs, "name": "Ann", "turn_seconds": 60}
    ).json()
    clocks = client.app.state.clocks
    assert table["id"] not in clocks, "a table waiting for its players keeps no clock"
    join_all(client, table)
    assert table["id"] in clocks, "the clock starts with the game"


def test_a_replay_step_is_worked_out_once(client, monkeypatch):
    table = new_table(client, game="grand_bazaar", seats=("bot", "bot"), bot="random")
    deadline = time.time() + 60
    while client.get(f"/api/tables/{table['id']}").json()["table"]["status"] != "finished":
        assert time.time() < deadline
        time.sleep(0.05)
    calls = []
    real = records.replay
    monkeypatch.setattr(records, "replay", lambda record, upto=None: calls.append(upto) or real(record, upto))
    first = client.get(f"/api/tables/{table['id']}/replay?upto=5").json()
    again = client.get(f"/api/tables/{table['id']}/replay?upto=5").json()
    other_seat = client.get(f"/api/tables/{table['id']}/replay?upto=5&seat=1").json()
    assert first == again and other_seat["seat"] == 1
    assert calls == [5, 5], "the second request for a step was answered from the cache"


def test_a_restart_keeps_everyones_turn_clock(database_url):
    specs = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "greedy"}]
    with TestClient(create_app(database_url, bot_delay=0)) as client:
        table = client.post(
            "/api/tables",
            json={"game": "money", "players": 3, "seats": specs, "name": "Ann", "turn_seconds": 60},
        ).json()
        tokens = join_all(client, table)
        first = client.get(f"/api/tables/{table['id']}", headers=headers(tokens[0])).json()["table"]["clock"]
        assert 59 <= first["0"] <= 60
    time.sleep(1.5)
    with TestClient(create_app(database_url, bot_delay=0)) as client:  # a new process: nothing in memory
        after = client.get(f"/api/tables/{table['id']}", headers=headers(tokens[0])).json()["table"]["clock"]
    assert after["0"] <= first["0"] - 1.2, "the restart did not give P1 a fresh turn"


def test_a_second_server_on_one_sqlite_file_is_refused_and_may_start_once_the_first_stops(tmp_path):
    url = f"sqlite:///{tmp_path / 'one.db'}"
    with TestClient(create_app(url, bot_delay=0)) as first:
        assert first.get("/api/games").status_code == 200
        with pytest.raises(RuntimeError, match="SQLite serves one process"), TestClient(create_app(url)):
            pass
    with TestClient(create_app(url, bot_delay=0)) as again:  # the first one stopped: its lock is gone
        assert again.get("/api/tables").status_code == 200
