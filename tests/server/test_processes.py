"""Several server processes on one PostgreSQL (server/cluster.py): one truth, every move seen everywhere,
and a process killed mid-game is taken over by another."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from sqlalchemy import event, func, select, text
from sqlalchemy.exc import OperationalError
from websockets.sync.client import connect

from merchantry.server.cluster import CHANNEL, Notice, cluster_for
from merchantry.server.db import MoveRow, open_database
from merchantry.server.tables import Refused, TableService
from tests.server.conftest import POSTGRES_URL, postgres_database, whole_log
from tests.server.test_browser import free_port
from tests.server.test_kill import start, until_serving

needs_postgres = pytest.mark.skipif(not POSTGRES_URL, reason="MERCHANTRY_TEST_POSTGRES_URL not set")


def two_people_at_grand_bazaar(service):
    """A Grand Bazaar table of two people, both seated (its game started): its id."""
    created = service.create("grand_bazaar", 2, {}, [{"kind": "human"}, {"kind": "human"}], "Ann")
    service.join(created["id"], 1, created["invites"][0]["invite"], "Bea")
    return created["id"]


def test_a_move_made_on_a_stale_copy_is_judged_again_on_the_table_as_it_is(tmp_path):
    """Two services on one database, as two processes are: the one whose copy is behind stores nothing
    over the other's move (the move number is the key); it catches up and judges the move again."""
    sessions = open_database(f"sqlite:///{tmp_path / 'two.db'}")
    first, second = TableService(sessions), TableService(sessions)
    seats = [{"kind": "human"}, {"kind": "human"}]
    created = first.create("grand_bazaar", 2, {}, seats, "Ann")
    invite = created["invites"][0]["invite"]
    second_token = second.join(created["id"], 1, invite, "Bea")
    table_id = created["id"]
    for service in (first, second):
        service.table(table_id)  # both hold a copy
    first.act(table_id, 0, "buy sapphire")
    first.act(table_id, 0, "done")  # now seat 1's turn; the second's copy still says seat 0's
    assert second.seat_for_token(table_id, second_token) == 1
    second.act(table_id, 1, "buy ruby")  # illegal on the stale copy (seat 0's turn): caught up, legal
    assert second.table(table_id).session.moves[-1] == [1, "buy ruby"]
    with pytest.raises(Refused, match="turn"):
        second.act(table_id, 0, "buy emerald")  # illegal on the table as it is: refused
    # legal on the first's stale copy too, which would store it as move 3: taken, so caught up, then 4
    first.act(table_id, 1, "buy emerald")
    second.live.clear()
    assert second.table(table_id).session.moves == [
        [0, "buy sapphire"],
        [0, "done"],
        [1, "buy ruby"],
        [1, "buy emerald"],
    ]


def test_a_move_during_an_outage_is_refused_as_unsaved_not_as_an_error(tmp_path):
    """The check for a stale copy asks the database too: when it is away, the refusal stays the 503 that
    says to try again (not an error escaping as a 500)."""
    sessions = open_database(f"sqlite:///{tmp_path / 'away.db'}")
    service = TableService(sessions)
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]
    created = service.create("grand_bazaar", 2, {}, seats, "Ann")
    service.table(created["id"])

    def away():
        raise OperationalError("SELECT", {}, Exception("the database went away"))

    service.sessions = away
    with pytest.raises(Refused) as refused:
        service.act(created["id"], 0, "buy sapphire")
    assert refused.value.status == 503
    assert service.table(created["id"]).session.moves == []


@needs_postgres
def test_moves_go_on_after_the_database_dropped_every_connection():
    """PostgreSQL restarted or a proxy cut the connections: the connection kept for moves is broken. The
    move that finds it so is refused as unsaved (503), changes nothing, and the next one is stored on a
    new connection."""
    for database_url in postgres_database():
        sessions = open_database(database_url)
        service = TableService(sessions, cluster_for(sessions.kw["bind"], database_url))
        table_id = two_people_at_grand_bazaar(service)
        service.act(table_id, 0, "buy sapphire")
        with sessions() as db:  # every other connection to this database is cut
            db.execute(
                text(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    " WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )
            )
        tries = []
        for _ in range(2):
            try:
                service.act(table_id, 0, "done")
                tries.append("stored")
                break
            except Refused as refused:
                tries.append(refused.status)
        assert tries in (["stored"], [503, "stored"])
        service.live.clear()  # rebuilt from the database: both moves, once each
        assert service.table(table_id).session.moves == [[0, "buy sapphire"], [0, "done"]]


def test_a_move_is_one_statement_in_its_own_transaction_and_announced_once_stored(database_url):
    """A move costs the database thread one round trip (issue 15): the insert, and on PostgreSQL the notice
    to the other processes, in one statement that commits by itself (no begin, no commit to wait for). The
    notice goes out only if the move was stored."""
    sessions = open_database(database_url)
    engine = sessions.kw["bind"]
    service = TableService(sessions, cluster_for(engine, database_url))
    table_id = two_people_at_grand_bazaar(service)
    service.table(table_id)
    statements: list[tuple[str, object]] = []

    def record(conn, cursor, statement, parameters, context, executemany):
        statements.append((statement, conn.get_execution_options().get("isolation_level")))

    listener = None
    if engine.dialect.name == "postgresql":
        import psycopg

        with engine.connect() as connection:  # a commit does not wait for the disk, as on SQLite (db.py)
            assert connection.exec_driver_sql("SHOW synchronous_commit").scalar() == "off"

        listener = psycopg.connect(database_url.replace("+psycopg", ""), autocommit=True)
        listener.execute(f"LISTEN {CHANNEL}")
    event.listen(engine, "before_cursor_execute", record)
    try:
        service.act(table_id, 0, "buy sapphire")
    finally:
        event.remove(engine, "before_cursor_execute", record)
    assert len(statements) == 1, statements
    assert "INSERT INTO moves" in statements[0][0]
    assert statements[0][1] == "AUTOCOMMIT"
    # a copy that is behind stores over nothing: its insert is refused, so it announces nothing
    stale = TableService(sessions, cluster_for(engine, database_url))
    stale.table(table_id)
    service.act(table_id, 0, "done")  # move 2
    with pytest.raises(Refused, match="turn"):
        stale.act(table_id, 0, "buy ruby")  # legal on its copy as move 2: taken, caught up, not seat 0's turn
    with sessions() as db:
        assert db.scalar(select(func.count()).select_from(MoveRow)) == 2
    if listener is not None:
        notices = [notice.payload.split(":", 1)[1] for notice in listener.notifies(timeout=1)]
        listener.close()
        assert notices == [f"{table_id}:1:0:buy sapphire", f"{table_id}:2:0:done"]


@needs_postgres
def test_a_notice_that_is_not_one_is_ignored_and_the_next_is_heard(caplog):
    """Any client of the database may NOTIFY the channel: what does not parse is logged and skipped, and
    the listening goes on (an exception there would end it, and with it every update from elsewhere)."""
    for database_url in postgres_database():
        engine = open_database(database_url).kw["bind"]
        cluster = cluster_for(engine, database_url)
        heard = []
        cluster.listen(heard.append)
        try:
            time.sleep(0.5)  # listening
            with psycopg.connect(database_url.replace("+psycopg", ""), autocommit=True) as other:
                for payload in ("garbage", "someone:table:many", "someone:abc:3:x:buy ruby", "p:abc:4:1:a:b"):
                    other.execute("SELECT pg_notify(%s, %s)", (CHANNEL, payload))
            deadline = time.time() + 5
            while not heard and time.time() < deadline:
                time.sleep(0.05)
        finally:
            cluster.stop()
        assert heard == [Notice("abc", 4, (1, "a:b"))]
        assert len([r for r in caplog.records if "not one" in r.getMessage()]) == 3


@needs_postgres
def test_a_process_holding_the_table_plays_the_notified_move_without_asking_the_database():
    """A move's notice carries the move: another process holding the table plays it from the notice, with
    no query, and to the game's end, whose result it then reads from the database."""
    for database_url in postgres_database():
        sessions = open_database(database_url)
        engine = sessions.kw["bind"]
        mover = TableService(sessions, cluster_for(engine, database_url))
        watcher = TableService(sessions, cluster_for(engine, database_url))
        table_id = two_people_at_grand_bazaar(mover)
        watcher.table(table_id)
        listener = psycopg.connect(database_url.replace("+psycopg", ""), autocommit=True)
        listener.execute(f"LISTEN {CHANNEL}")
        statements = []

        def record(conn, cursor, statement, *_, seen=statements):
            seen.append(statement)

        rng = random.Random(7)
        while mover.table(table_id).status == "playing":
            state = mover.table(table_id).state
            seat = state.to_act()[0]
            mover.act(table_id, seat, str(rng.choice(state.legal_actions(seat))))
            (heard,) = list(listener.notifies(timeout=1, stop_after=1))
            notice = Notice.parse(heard.payload.split(":", 1)[1])
            last = mover.table(table_id).status != "playing"
            if not last:
                event.listen(engine, "before_cursor_execute", record)
            try:
                assert watcher.catch_up(table_id, notice.moves, notice.move)
            finally:
                if not last:
                    event.remove(engine, "before_cursor_execute", record)
            assert watcher.table(table_id).session.moves == mover.table(table_id).session.moves
        listener.close()
        assert statements == [], "a notified move was looked up in the database"
        finished = watcher.table(table_id)
        assert (finished.status, finished.result) == ("finished", mover.table(table_id).result)
        assert finished.state.view(0) == mover.table(table_id).state.view(0)


@pytest.fixture
def two_servers():  # (used only by tests marked needs_postgres)
    """Two server processes on one fresh database: their base addresses and processes."""
    for database_url in postgres_database():
        processes = []
        try:
            for _ in range(2):  # one after the other: the first upgrades the schema
                port = free_port()
                # bots wait a little before each move, so a process can be killed while they are to move
                server = start(port, database_url, bot_delay=0.2)
                processes.append((f"http://127.0.0.1:{port}", server))
            yield processes
        finally:
            for _, process in processes:
                if process.poll() is None:
                    os.killpg(process.pid, signal.SIGTERM)
                    process.wait(timeout=30)


class Watcher:
    """A spectator's websocket on one process, keeping the length of every log it is sent."""

    def __init__(self, base: str, table_id: str) -> None:
        self.logs: list[list] = []
        self.status = ""
        self.url = base.replace("http://", "ws://") + f"/ws/tables/{table_id}"
        self.thread = threading.Thread(target=self.read, daemon=True)
        self.thread.start()
        wait_for(lambda: self.status)

    def read(self) -> None:
        with connect(self.url) as socket:
            for text in socket:
                message = json.loads(text)
                if message["type"] == "state":
                    self.logs.append(whole_log(self.logs[-1] if self.logs else [], message))
                    self.status = message["table"]["status"]
                if self.status == "finished":
                    return


def create(base: str, seats: list[dict]) -> dict:
    body = {"game": "grand_bazaar", "players": len(seats), "seats": seats, "name": "Ann"}
    response = httpx.post(f"{base}/api/tables", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def move_once(base: str, table_id: str, token: str, rng: random.Random) -> str:
    """One random legal move for the token's seat through `base`, if it is that seat's turn there; returns
    the table's status. A process that has not heard of the last move yet may refuse: that is retried."""
    payload = httpx.get(f"{base}/api/tables/{table_id}", headers={"X-Seat-Token": token}).json()
    if payload["legal"]:
        reply = httpx.post(
            f"{base}/api/tables/{table_id}/act",
            json={"action": rng.choice(payload["legal"])},
            headers={"X-Seat-Token": token},
        )
        assert reply.status_code in (200, 409), reply.text
    else:
        time.sleep(0.01)
    return str(payload["table"]["status"])


def wait_for(condition, seconds: float = 30) -> None:
    deadline = time.time() + seconds
    while not condition():
        assert time.time() < deadline, "timed out"
        time.sleep(0.05)


@needs_postgres
def test_players_on_two_processes_share_one_game_and_see_every_move_in_order(two_servers):
    (base_a, _), (base_b, _) = two_servers
    table = create(base_a, [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "greedy"}])
    invite = table["invites"][0]
    joined = httpx.post(
        f"{base_b}/api/tables/{table['id']}/join", json={"seat": 1, "invite": invite["invite"], "name": "Bea"}
    )
    assert joined.status_code == 200, joined.text
    players = [(base_a, table["token"]), (base_b, joined.json()["token"])]  # seat 1 plays through B
    watchers = [Watcher(base_a, table["id"]), Watcher(base_b, table["id"])]
    rng = random.Random(4)
    deadline = time.time() + 120
    status = "playing"
    while status == "playing":
        assert time.time() < deadline, "the game did not end"
        for base, token in players:
            status = move_once(base, table["id"], token, rng)
    wait_for(lambda: all(w.status == "finished" for w in watchers))
    records = [httpx.get(f"{base}/api/tables/{table['id']}/record").json() for base in (base_a, base_b)]
    assert records[0] == records[1], "both processes tell the same game"
    assert {seat for seat, _ in records[0]["moves"]} == {0, 1, 2}
    for watcher in watchers:
        assert watcher.logs[-1] == watchers[0].logs[-1], "every spectator saw the game to its end"
        for earlier, later in zip(watcher.logs, watcher.logs[1:], strict=False):
            assert later[: len(earlier)] == earlier, "an update lost or reordered an event"


@needs_postgres
def test_a_process_killed_while_its_bots_are_to_move_is_taken_over_by_the_other(two_servers):
    """B owns the bots of a table (it answered the human's moves); it dies while they are to move, so no
    request reaches A: A must find the table without an owner and play its bots on."""
    (base_a, _), (base_b, process_b) = two_servers
    bots = {"kind": "bot", "bot": "greedy"}
    table = create(base_b, [{"kind": "human"}, bots, bots])
    token = table["token"]
    url = f"/api/tables/{table['id']}"
    rng = random.Random(5)
    for _ in range(200):  # the human's first turn through B, ended by "done": the bots are to move
        payload = httpx.get(base_b + url, headers={"X-Seat-Token": token}).json()
        legal = payload["legal"]
        action = "done" if "done" in legal else rng.choice(legal)
        httpx.post(f"{base_b}{url}/act", json={"action": action}, headers={"X-Seat-Token": token})
        if action == "done":
            break
    os.killpg(process_b.pid, signal.SIGKILL)  # no shutdown: its locks go with its connections
    process_b.wait(timeout=10)
    wait_for(lambda: httpx.get(base_a + url, headers={"X-Seat-Token": token}).json()["legal"], seconds=60)
    deadline = time.time() + 120
    while move_once(base_a, table["id"], token, rng) == "playing":
        assert time.time() < deadline, "the bots did not go on after their process died"
    final = httpx.get(f"{base_a}{url}/record").json()
    bot_moves = [seat for seat, _ in final["moves"] if seat != 0]
    assert len(bot_moves) > 50, "the bots played the game out through A"


def start_unlimited(
    port: int, database_url: str, stderr: Any = subprocess.DEVNULL, bot_delay: float = 0
) -> subprocess.Popen:
    """A real server process (uvicorn, as `merchantry serve`) without per-client limits; what it logs goes
    to `stderr`."""
    environment = {
        **os.environ,
        "MERCHANTRY_DATABASE_URL": database_url,
        "MERCHANTRY_BOT_DELAY": str(bot_delay),
    }
    command = [sys.executable, "-m", "uvicorn", "--factory", "tests.server.process_app:app"]
    process = subprocess.Popen(
        [*command, "--port", str(port), "--log-level", "warning"],
        env=environment,
        cwd=Path(__file__).parents[2],
        stdout=subprocess.DEVNULL,
        stderr=stderr,
        start_new_session=True,
    )
    return until_serving(process, port)


@needs_postgres
def test_a_seat_taken_through_one_process_is_good_at_once_on_the_other_100_times_of_100():
    """Issue 31: B holds a copy of a waiting table; the seat is taken through A and its token used on B at
    once, before B has heard A's notice. B must ask the database rather than refuse the token (which made
    the page forget it and lose the seat for good): over HTTP and on the websocket, 100 races of 100."""
    for database_url in postgres_database():
        processes = []
        try:
            bases = []
            for _ in range(2):  # one after the other: the first upgrades the schema
                port = free_port()
                processes.append(start_unlimited(port, database_url))
                bases.append(f"http://127.0.0.1:{port}")
            base_a, base_b = bases
            outcomes = []
            with httpx.Client(base_url=base_a) as a, httpx.Client(base_url=base_b) as b:
                for race in range(100):
                    seats = [{"kind": "human"}, {"kind": "human"}]
                    body = {"game": "grand_bazaar", "players": 2, "seats": seats, "name": "Ann"}
                    table = a.post("/api/tables", json=body).json()
                    url = f"/api/tables/{table['id']}"
                    assert b.get(url).json()["table"]["status"] == "waiting"  # B holds a copy
                    invite = table["invites"][0]["invite"]
                    token = a.post(f"{url}/join", json={"seat": 1, "invite": invite, "name": "Bea"}).json()[
                        "token"
                    ]
                    if race % 2:  # on B at once, over HTTP
                        seen = b.get(url, headers={"X-Seat-Token": token})
                        outcomes.append(seen.status_code == 200 and seen.json()["seat"] == 1)
                    else:  # on B at once, on the websocket
                        ws_url = base_b.replace("http://", "ws://") + f"/ws/tables/{table['id']}"
                        with connect(ws_url, subprotocols=["merchantry", f"token.{token}"]) as socket:
                            first = json.loads(socket.recv(timeout=10))
                        outcomes.append(first["type"] == "state" and first["seat"] == 1)
            assert outcomes.count(True) == 100, f"{outcomes.count(False)} of 100 tokens refused on B"
        finally:
            for process in processes:
                os.killpg(process.pid, signal.SIGTERM)
                process.wait(timeout=30)
