"""Nothing reaches a connection that its seat may not know.

- every payload any seat (or a spectator) was sent equals that seat's own `view` at that moment;
- a connection hears of a change only when its own payload changed: the stream of messages itself (how
  many, when) is exactly the stream of changes of its view, so nobody counts the cards of a sealed bid;
- a seat handed to a bot is revoked at once, on every open connection;
- a move whose commit fails changes nothing anyone can see.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time

import pytest
from sqlalchemy import event
from sqlalchemy.exc import OperationalError

from merchantry import games, records
from tests.server.conftest import join_all, new_table, with_whole_logs
from tests.server.test_api import headers, play_to_the_end

ALL_HUMAN = ("human", "human", "human")


def wire(value):
    """What a value looks like after a trip through JSON."""
    return json.loads(json.dumps(value))


@pytest.mark.parametrize("game", games.names())  # every registered game
def test_every_payload_matches_its_seats_view(client, game):
    service = client.app.state.service
    sent = []
    original = service.payload

    def recording_payload(table_id, seat):
        payload = original(table_id, seat)
        moves_so_far = len(service.table(table_id).session.moves)
        sent.append((moves_so_far, wire(payload)))
        return payload

    service.payload = recording_payload
    table = new_table(client, game=game, seats=("human", "human", "bot"))
    tokens = join_all(client, table)
    with client.websocket_connect(f"/ws/tables/{table['id']}") as spectator:
        spectator.receive_json()
    with client.websocket_connect(f"/ws/tables/{table['id']}", headers={"X-Seat-Token": tokens[1]}) as ws:
        ws.receive_json()
    play_to_the_end(client, table["id"], tokens)
    record = client.get(f"/api/tables/{table['id']}/record").json()
    assert records.replay(record).is_over()

    checked = {0: 0, 1: 0, None: 0}
    for moves_so_far, payload in sent:
        seat = payload["seat"]
        state = records.replay(record, upto=moves_so_far)
        assert payload["view"] == wire(state.view(seat))
        if payload["table"]["status"] == "playing":
            expected = [str(a) for a in state.legal_actions(seat)] if seat is not None else []
            assert payload["legal"] == expected
        else:
            assert payload["legal"] == []
        checked[seat] += 1
    assert all(count > 0 for count in checked.values()), checked
    # a seat never sees another seat's hand
    for _, payload in sent:
        if payload["seat"] is not None and "hand" in payload["view"]:
            assert payload["view"]["seat"] == payload["seat"]


def drain(ws, earlier: tuple[dict, ...] = ()) -> list[dict]:
    """Every message waiting on a connection (a junk message is answered after all of them), each view
    with its whole log, rebuilt from the connection's `earlier` messages and these."""
    ws.send_text("{}")
    messages = list(earlier)
    while True:
        message = ws.receive_json()
        if message["type"] == "refused":
            return with_whole_logs(messages)[len(earlier) :]
        messages.append(message)


def settle(client, table_id: str, seconds: float = 10.0) -> None:
    """Wait until the server has nothing left to do for the table's seats (its bots, its answers)."""
    service, run = client.app.state.service, client.app.state.in_database
    deadline = time.monotonic() + seconds
    while run(lambda: service.table(table_id).answered_by_server()) and time.monotonic() < deadline:
        time.sleep(0.005)
    assert not run(lambda: service.table(table_id).answered_by_server()), "the server's seats went on"


def in_order_within(items: list, sequence: list) -> bool:
    """`items` is `sequence` with some of its elements left out."""
    rest = iter(sequence)
    return all(any(item == candidate for candidate in rest) for item in items)


def changes_of_view(record: dict, seat: int | None, moves: int) -> list[tuple]:
    """(view, legal moves) of a seat after each move, consecutive repeats dropped."""
    session = records.Session(record["game"], record["players"], record["seed"], record["options"])
    seen: list[tuple] = []
    for k in range(moves + 1):
        if k:
            session.apply(*record["moves"][k - 1])
        state = session.state
        legal = [str(a) for a in state.legal_actions(seat)] if seat is not None else []
        now = (wire(state.view(seat)), legal)
        if not seen or seen[-1] != now:
            seen.append(now)
    return seen


@pytest.mark.parametrize("game", games.names())  # every registered game
def test_each_connection_hears_of_exactly_the_changes_of_its_own_view(client, game):
    service = client.app.state.service
    table = new_table(client, game=game, seats=ALL_HUMAN)
    tokens = join_all(client, table)
    url = f"/ws/tables/{table['id']}"
    rng = random.Random(3)
    with (
        client.websocket_connect(url, headers={"X-Seat-Token": tokens[0]}) as seat0,
        client.websocket_connect(url, headers={"X-Seat-Token": tokens[1]}) as seat1,
        client.websocket_connect(url) as spectator,
    ):
        for _ in range(120):  # random moves by whoever may move, sealed bids card by card included
            settle(client, table["id"])  # the answers the server gives for people (an unseen step)
            payloads = {
                s: client.get(f"/api/tables/{table['id']}", headers=headers(t)).json()
                for s, t in tokens.items()
            }
            movers = [s for s, p in payloads.items() if p["legal"] and p["table"]["status"] == "playing"]
            if not movers:
                break
            seat = rng.choice(movers)
            move = rng.choice(payloads[seat]["legal"])
            reply = client.post(
                f"/api/tables/{table['id']}/act", json={"action": move}, headers=headers(tokens[seat])
            )
            assert reply.status_code == 200, reply.text
        settle(client, table["id"])
        received = {0: drain(seat0), 1: drain(seat1), None: drain(spectator)}
    record = service.table(table["id"]).session.record()
    for seat, messages in received.items():
        assert all("moves" not in m for m in messages), "no move counter that ticks with hidden moves"
        got = [(m["view"], m["legal"]) for m in messages]
        expected = changes_of_view(record, seat, len(record["moves"]))
        # every change, but for answers the server gives together (a step whose answers are unseen): each
        # message is the seat's view at some point, in order, ending with the last
        assert got[-1] == expected[-1], f"seat {seat}"
        assert in_order_within(got, expected), f"seat {seat}"
        if game != "samarkand":  # no step whose answers are unseen: every change, one message each
            assert got == expected, f"seat {seat}"


def test_nobody_hears_a_sealed_bid_being_built(client):
    table = new_table(client, game="money", seats=ALL_HUMAN)
    tokens = join_all(client, table)
    url = f"/ws/tables/{table['id']}"
    with (
        client.websocket_connect(url, headers={"X-Seat-Token": tokens[1]}) as other,
        client.websocket_connect(url) as spectator,
    ):
        first = {ws: ws.receive_json() for ws in (other, spectator)}
        for ws in (other, spectator):
            assert first[ws]["view"]["seats"][0]["sealed"] is False
        hand = client.get(f"/api/tables/{table['id']}", headers=headers(tokens[0])).json()["view"]["hand"]
        for move in (f"add {hand[0]}", f"add {hand[1]}", "add BLUFF", "bid"):
            reply = client.post(
                f"/api/tables/{table['id']}/act", json={"action": move}, headers=headers(tokens[0])
            )
            assert reply.status_code == 200, reply.text
        for ws in (other, spectator):
            after = drain(ws, (first[ws],))
            assert len(after) == 1, "one update, for the seal; none for the cards added"
            assert after[0]["view"]["seats"][0]["sealed"] is True


def test_a_seat_handed_to_a_bot_is_revoked_on_open_connections(client):
    table = new_table(client, game="money", seats=ALL_HUMAN)
    tokens = join_all(client, table)
    with client.websocket_connect(f"/ws/tables/{table['id']}", headers={"X-Seat-Token": tokens[1]}) as former:
        first = former.receive_json()
        assert "hand" in first["view"]
        handed = client.post(
            f"/api/tables/{table['id']}/seats/1/bot",
            json={"host_token": table["host_token"], "bot": "greedy"},
        )
        assert handed.status_code == 200
        revoked = former.receive_json()
        assert revoked["type"] == "revoked" and "gave seat P2 to a bot" in revoked["reason"]
        former.send_json({"type": "act", "action": "bid"})
        later = drain(former, (first,))
        assert later and all(m["seat"] is None and "hand" not in m["view"] and not m["legal"] for m in later)
    refused = client.post(
        f"/api/tables/{table['id']}/act", json={"action": "bid"}, headers=headers(tokens[1])
    )
    assert refused.status_code == 403
    seat1 = client.get(f"/api/tables/{table['id']}", headers=headers(tokens[1]))
    assert seat1.status_code == 403


def test_a_finished_games_seats_cannot_be_handed_over(client):
    table = new_table(client, game="money", seats=("human", "human", "bot"))
    tokens = join_all(client, table)
    play_to_the_end(client, table["id"], tokens)
    before = client.get(f"/api/tables/{table['id']}/record").json()
    handed = client.post(
        f"/api/tables/{table['id']}/seats/1/bot", json={"host_token": table["host_token"], "bot": "greedy"}
    )
    assert handed.status_code == 409 and "over" in handed.json()["error"]
    lobby = client.get("/api/tables").json()[0]
    assert lobby["seats"][1]["kind"] == "human" and lobby["seats"][1]["name"] == "Guest 1"
    assert client.get(f"/api/tables/{table['id']}/record").json() == before


class FailingCommits:
    """A sessionmaker whose sessions fail to commit, as a database that went away would."""

    def __init__(self, real):
        self.real = real

    def __call__(self):
        session = self.real()

        def commit():
            raise OperationalError("COMMIT", {}, Exception("the database went away"))

        session.commit = commit
        return session


def test_a_failed_commit_of_the_last_move_changes_nothing_anyone_sees(client):
    service = client.app.state.service
    table = new_table(client, game="money", seats=ALL_HUMAN)
    tokens = join_all(client, table)
    table_id = table["id"]
    last_move = None
    for _ in range(3000):  # first legal non-add move of whoever may move, until one would end the game
        payloads = {
            s: client.get(f"/api/tables/{table_id}", headers=headers(t)).json() for s, t in tokens.items()
        }
        seat = next(s for s, p in payloads.items() if p["legal"])
        legal = payloads[seat]["legal"]
        move = next((m for m in legal if not m.startswith("add")), legal[0])
        trial = service.table(table_id).state.clone()
        trial.apply(seat, move)
        if trial.is_over():
            last_move = (seat, move)
            break
        client.post(f"/api/tables/{table_id}/act", json={"action": move}, headers=headers(tokens[seat]))
    assert last_move is not None
    seat, move = last_move
    seen_before = {
        s: client.get(f"/api/tables/{table_id}", headers=headers(t)).json() for s, t in tokens.items()
    }
    with client.websocket_connect(f"/ws/tables/{table_id}", headers={"X-Seat-Token": tokens[seat]}) as ws:
        ws.receive_json()
        service.sessions = FailingCommits(service.sessions)
        ws.send_json({"type": "act", "action": move})
        refused = ws.receive_json()
        assert refused["type"] == "refused" and "could not be saved" in refused["reason"]
        http = client.post(
            f"/api/tables/{table_id}/act", json={"action": move}, headers=headers(tokens[seat])
        )
        assert http.status_code == 503
        assert drain(ws) == [], "nobody was told of a move that was not stored"
        service.sessions = service.sessions.real
    seen_after = {
        s: client.get(f"/api/tables/{table_id}", headers=headers(t)).json() for s, t in tokens.items()
    }
    assert seen_after == seen_before
    assert client.get(f"/api/tables/{table_id}/record").status_code == 409
    assert client.get("/api/tables").json()[0]["status"] == "playing"
    service.live.clear()  # what the database says agrees with what memory says
    assert client.get(f"/api/tables/{table_id}", headers=headers(tokens[seat])).json() == seen_before[seat]
    again = client.post(f"/api/tables/{table_id}/act", json={"action": move}, headers=headers(tokens[seat]))
    assert again.status_code == 200 and again.json()["table"]["status"] == "finished"


def test_a_connection_that_never_reads_does_not_hold_up_the_table(client):
    """A spectator whose socket takes nothing (a full receive buffer) is dropped once its outbox is full;
    the players' moves are answered at once and the other connections keep getting their updates."""
    table = new_table(client, game="grand_bazaar", seats=("human", "human"))
    tokens = join_all(client, table)
    url = f"/ws/tables/{table['id']}"
    rooms = client.app.state.rooms
    with (
        client.websocket_connect(url) as stuck,
        client.websocket_connect(url, headers={"X-Seat-Token": tokens[1]}) as other,
    ):
        stuck.receive_json()
        first = other.receive_json()
        blocked = next(c for c in rooms[table["id"]] if c.seat is None)

        async def never_returns(message):
            await asyncio.Event().wait()

        blocked.ws.send_text = never_returns
        moves = 0
        for _ in range(200):  # every move changes every view in Grand Bazaar
            payloads = {
                s: client.get(f"/api/tables/{table['id']}", headers=headers(t)).json()
                for s, t in tokens.items()
            }
            seat = next(s for s, p in payloads.items() if p["legal"])
            reply = client.post(
                f"/api/tables/{table['id']}/act",
                json={"action": payloads[seat]["legal"][0]},
                headers=headers(tokens[seat]),
            )
            assert reply.status_code == 200  # answered: nobody waits for the stuck reader
            moves += 1
        assert blocked.dropped and blocked not in rooms[table["id"]]
        updates = drain(other, (first,))
        assert len(updates) >= moves // 2 and updates[-1]["view"] == payloads_now(client, table, tokens[1])


def payloads_now(client, table, token):
    return client.get(f"/api/tables/{table['id']}", headers=headers(token)).json()["view"]


@contextlib.contextmanager
def database_away(service):
    """Every statement fails, on whichever connection it runs (the sessions' or the one kept for moves),
    as when the database went away."""
    engine = service.sessions.kw["bind"]

    def fail(*_):
        raise OperationalError("(any statement)", {}, Exception("the database went away"))

    event.listen(engine, "before_cursor_execute", fail)
    try:
        yield
    finally:
        event.remove(engine, "before_cursor_execute", fail)


def test_bots_outlive_a_database_outage_and_finish_the_game(client, caplog):
    """Every statement fails for a while (the database went away); the bots store no move, wait and try
    again, and once it is back they play the game to its end without a person kicking them."""
    service = client.app.state.service
    table = new_table(client, game="grand_bazaar", seats=("bot", "bot"), bot="random")
    with database_away(service):
        time.sleep(0.3)
        moves_then = len(service.table(table["id"]).session.moves)
        time.sleep(1.5)  # several failed tries
        assert len(service.table(table["id"]).session.moves) == moves_then, "moves were made in an outage"
        stuck = client.get(f"/api/tables/{table['id']}").json()["table"]["status"]
    deadline = time.time() + 60
    while client.get(f"/api/tables/{table['id']}").json()["table"]["status"] != "finished":
        assert time.time() < deadline, "the bots did not resume after the outage"
        time.sleep(0.1)
    assert stuck == "playing"
    said = [r.getMessage() for r in caplog.records if r.levelname in ("WARNING", "ERROR")]
    assert len([m for m in said if "not answering" in m]) == 1, "an outage is said once, not at every try"
    assert len([m for m in said if "is back after" in m]) == 1, said
    assert not [r for r in caplog.records if r.exc_info], "no traceback for an outage"


@pytest.mark.parametrize("game", games.names())  # every registered game
def test_the_live_log_is_numbered_as_the_replay_and_never_counts_a_move_its_seat_did_not_see(game):
    """A line's number is the record's move that wrote it (the replay's and the analysis' numbers), shown
    live only while the seat has seen every move so far: the next number would otherwise tell how many
    moves it did not see were made (another seat's cards put into a sealed bid)."""
    session = records.Session(game, 3, seed=5)
    numbers = records.LogNumbers(game, 3, 5, {})
    rng = random.Random(5)
    viewers = (None, 0, 1, 2)
    unseen: dict = {}  # viewer -> the first move that left its view as it was
    while not session.state.is_over() and len(session.moves) < 160:
        seat = rng.choice(session.state.to_act())
        before = {v: session.state.view(v) for v in viewers}
        session.apply(seat, rng.choice(session.state.legal_actions(seat)))
        for v in viewers:
            if session.state.view(v) == before[v]:
                unseen.setdefault(v, len(session.moves))
        numbers.follow(session.moves)
        if len(session.moves) % 20 and not session.state.is_over():
            continue
        record = session.record()
        for v in viewers:
            replayed = records.log_moves(record, v)  # as the replay numbers the lines so far
            live = numbers.of(v)
            assert live == replayed[: len(live)], f"{game}, seen by {v}"
            if v in unseen:  # no line numbered at or after the move it did not see
                assert all(n < unseen[v] for n in live), f"{game}, seen by {v}"
            else:  # every move seen: every line numbered
                assert live == replayed, f"{game}, seen by {v}"
    if game == "money":  # sealed bids: someone always misses a card put in
        assert unseen
