"""Limits per client (merchantry.server.limits): each refusal says which limit was met."""

from __future__ import annotations

import json
import threading
import time

import pytest
from fastapi.testclient import TestClient

from merchantry.server.app import create_app
from merchantry.server.limits import Limits, RateWindow
from merchantry.server.tables import Refused
from merchantry.server.work import IDLE, FairPool, Priority
from tests.server.conftest import join_all, new_table, next_refusal

SMALL = Limits(
    tables_per_minute=3,
    joins_per_minute=2,
    bot_games_per_client=1,
    sockets_per_client=2,
    messages_per_second=2,
)


@pytest.fixture
def client(database_url):
    app = create_app(database_url, bot_delay=0.2, limits=SMALL)
    with TestClient(app) as test_client:
        yield test_client


def test_table_creation_is_limited_per_minute(client):
    for _ in range(3):
        new_table(client)
    refused = client.post(
        "/api/tables", json={"game": "money", "players": 3, "seats": [{"kind": "human"}] * 3, "name": "Ann"}
    )
    assert refused.status_code == 429 and "at most 3 a minute" in refused.json()["error"]


def test_one_client_may_run_only_so_many_games_of_bots_only(client):
    new_table(client, game="grand_bazaar", seats=("bot", "bot"))
    refused = client.post(
        "/api/tables",
        json={"game": "grand_bazaar", "players": 2, "seats": [{"kind": "bot", "bot": "greedy"}] * 2},
    )
    assert refused.status_code == 429 and "at their bots' pace" in refused.json()["error"]
    new_table(client, game="grand_bazaar", seats=("human", "bot"))  # a game with a person is not one


def test_joins_are_limited_per_minute(client):
    table = new_table(client, seats=("human", "human", "human"))
    join_all(client, table)  # two joins: the limit
    other = new_table(client, seats=("human", "human", "bot"))
    invite = other["invites"][0]
    refused = client.post(
        f"/api/tables/{other['id']}/join", json={"seat": 1, "invite": invite["invite"], "name": "Bo"}
    )
    assert refused.status_code == 429 and "seats taken" in refused.json()["error"]


def test_sockets_per_client_and_messages_per_second_are_limited(client):
    table = new_table(client, seats=("human", "bot", "bot"))
    url = f"/ws/tables/{table['id']}"
    with client.websocket_connect(url) as first, client.websocket_connect(url) as second:
        first.receive_json()
        second.receive_json()
        with client.websocket_connect(url) as third:
            message = third.receive_json()
            assert message["type"] == "error" and "too many connections" in message["reason"]
        for _ in range(8):  # a burst over 2 a second (bursts up to 4)
            first.send_text(json.dumps({"type": "act", "action": "nonsense"}))
        reasons = [next_refusal(first)["reason"] for _ in range(8)]
        assert "too many messages: slow down" in reasons


def test_a_rate_window_forgets_events_older_than_its_window():
    window = RateWindow(2, seconds=10)
    assert window.allow("a", now=0) and window.allow("a", now=1) and not window.allow("a", now=5)
    assert window.allow("b", now=5), "each client has its own window"
    assert window.allow("a", now=10.5), "the first event has left the window"


def test_idle_tables_leave_memory_and_come_back_from_the_database(client):
    service = client.app.state.service
    table = new_table(client, seats=("human", "human", "bot"))
    before = client.get(f"/api/tables/{table['id']}").json()
    time.sleep(0.05)
    gone = service.forget_idle(busy=set(), idle_seconds=0.01)
    assert table["id"] in gone and table["id"] not in service.live
    assert client.get(f"/api/tables/{table['id']}").json() == before  # rebuilt from its record
    assert service.forget_idle(busy={table["id"]}, idle_seconds=0) == [], "a busy table stays"


# --- what a table costs, not how its seats are labelled (issue 31) ---------------------------------------


def create_body(seats: list[dict], turn_seconds: int = 0) -> dict:
    return {"game": "grand_bazaar", "players": len(seats), "seats": seats, "turn_seconds": turn_seconds}


HARD = {"kind": "bot", "bot": "greedy"}
PERSON = {"kind": "human"}


@pytest.fixture
def costly(database_url):
    """One table at its bots' pace per client; tables created as often as the tests need."""
    app = create_app(database_url, bot_delay=0.2, limits=Limits(tables_per_minute=50, bot_games_per_client=1))
    with TestClient(app) as test_client:
        yield test_client


def test_a_table_whose_only_person_is_on_a_short_clock_counts_as_bots_only(costly):
    client = costly
    """The clock moves the person, so the table plays at its bots' pace: it takes the client's one share
    (SMALL: 1) as a game of bots only does; on a clock a person can play at, it takes none."""
    first = client.post("/api/tables", json=create_body([PERSON, HARD], turn_seconds=1))
    assert first.status_code == 201, first.text
    refused = client.post("/api/tables", json=create_body([HARD, HARD]))
    assert refused.status_code == 429 and "short turn clock" in refused.json()["error"]
    refused = client.post("/api/tables", json=create_body([PERSON, HARD], turn_seconds=5))
    assert refused.status_code == 429
    assert client.post("/api/tables", json=create_body([PERSON, HARD], turn_seconds=120)).status_code == 201


def test_seats_handed_to_bots_or_joined_cannot_make_a_table_play_by_itself_beyond_the_share(costly):
    client = costly
    new_table(client, game="grand_bazaar", seats=("bot", "bot"))  # the client's one share
    host = client.post("/api/tables", json=create_body([PERSON, HARD])).json()
    handed = client.post(f"/api/tables/{host['id']}/seats/0/bot", json={"host_token": host["host_token"]})
    assert handed.status_code == 429 and "bots' pace" in handed.json()["error"]
    clocked = client.post("/api/tables", json=create_body([PERSON, PERSON, HARD], turn_seconds=2)).json()
    invite = clocked["invites"][0]
    joined = client.post(f"/api/tables/{clocked['id']}/join", json={**invite, "name": "Bo"})
    assert joined.status_code == 429, "the last seat would start a game at its bots' pace"
    wrong = client.post(f"/api/tables/{host['id']}/seats/0/bot", json={"host_token": "not the host"})
    assert wrong.status_code == 403, "only the host learns of the limit"


def test_a_client_may_have_one_hint_at_a_time_and_the_server_a_bounded_queue(database_url):
    import asyncio

    from merchantry.server.work import FairPool

    async def scenario():
        gate = threading.Event()
        pool = FairPool("hints", threads=1, per_client=1, queue=2, one="a hint")
        running = pool.submit("ann", gate.wait)
        with pytest.raises(Refused) as mine:
            pool.submit("ann", lambda: None)
        assert mine.value.status == 429 and "you already have a hint waiting" in mine.value.reason
        assert mine.value.why == {"key": "own_job_waiting", "params": {}, "clauses": []}  # a page says which
        waiting = [pool.submit(client, lambda: None) for client in ("bo", "cy")]
        assert [pool.position(job) for job in waiting] == [0, 1]
        with pytest.raises(Refused) as full:
            pool.submit("di", lambda: None)
        assert full.value.status == 429 and "2 hints waiting" in full.value.reason
        assert full.value.why == {"key": "queue_full", "params": {"waiting": 2}, "clauses": []}
        assert full.value.body()["why"]["params"]["waiting"] == 2  # sent to the page with the reason
        gate.set()
        await asyncio.gather(running.done, *(job.done for job in waiting))
        pool.shutdown()

    asyncio.run(scenario())


def test_a_pool_takes_clients_in_turn_so_one_clients_queue_holds_up_another_by_one_job_at_most():
    import asyncio

    from merchantry.server.work import FairPool

    async def scenario():
        order: list[str] = []
        gate = threading.Event()
        pool = FairPool("bot moves", threads=1)
        blocker = pool.submit("first", gate.wait)
        flood = [pool.submit("flood", order.append, f"flood {i}") for i in range(5)]
        other = pool.submit("other", order.append, "other")
        assert pool.position(other) == 1, "behind one job of the flooding client, not five"
        gate.set()
        await asyncio.gather(blocker.done, other.done, *(job.done for job in flood))
        pool.shutdown()
        return order

    assert asyncio.run(scenario())[:2] == ["flood 0", "other"]


def test_analyses_wait_in_a_bounded_queue_and_only_the_latest_stay_in_memory(tmp_path):
    from merchantry.bots.ismcts import SearchConfig

    limits = Limits(analyses_per_client=1, analysis_queue=1, analyses_kept=1, bot_games_per_client=10)
    quick = SearchConfig(iterations=4, rollout_depth=4)
    app = create_app(f"sqlite:///{tmp_path / 'a.db'}", bot_delay=0, analysis_search=quick, limits=limits)
    with TestClient(app) as client:
        finished = []
        for _ in range(3):
            table = new_table(client, game="grand_bazaar", seats=("bot", "bot"), bot="random")
            while client.get(f"/api/tables/{table['id']}").json()["table"]["status"] != "finished":
                time.sleep(0.05)
            finished.append(table["id"])
        first = client.post(f"/api/tables/{finished[0]}/analysis")
        assert first.status_code == 202
        second = client.post(f"/api/tables/{finished[1]}/analysis")
        if first.json()["status"] != "done":  # one at a time per client
            assert second.status_code == 429 and "an analysis waiting" in second.json()["error"]
        deadline = time.time() + 120
        while (done := client.get(f"/api/tables/{finished[0]}/analysis").json())["status"] != "done":
            assert time.time() < deadline
            time.sleep(0.1)
        assert client.post(f"/api/tables/{finished[1]}/analysis").status_code == 202
        while client.get(f"/api/tables/{finished[1]}/analysis").json()["status"] != "done":
            assert time.time() < deadline
            time.sleep(0.1)
        # in memory: the latest one; the first is read again from the database, not worked out again
        assert list(app.state.analyses) == [finished[1]]
        again = client.get(f"/api/tables/{finished[0]}/analysis").json()
        assert again["status"] == "done" and again["decisions"] == done["decisions"]


def unknown_id_requests(table_id: str) -> list[tuple[str, str, dict]]:
    """A request of every kind that names a table, for `table_id`."""
    url = f"/api/tables/{table_id}"
    token = {"X-Seat-Token": "whatever"}
    host = {"host_token": "whatever"}
    return [
        ("GET", url, {"headers": token}),
        ("POST", f"{url}/act", {"json": {"action": "done"}, "headers": token}),
        ("POST", f"{url}/join", {"json": {"seat": 1, "invite": "x", "name": "Bo"}}),
        ("POST", f"{url}/hint", {"headers": token}),
        ("POST", f"{url}/seats/1/bot", {"json": host}),
        ("POST", f"{url}/close", {"json": host}),
        ("GET", f"{url}/replay", {}),
        ("GET", f"{url}/record", {}),
        ("POST", f"{url}/analysis", {}),
        ("GET", f"{url}/analysis", {}),
    ]


def test_requests_for_tables_that_do_not_exist_leave_nothing_behind(database_url, caplog):
    """Issue 31: a lock per table id was made before the table was looked up, and never removed (90,000
    requests with random ids held 21 MiB). Now each is a 404 and nothing is kept for it (the memory of a
    flood of 100,000: benchmarks/flood_unknown_ids.py)."""
    app = create_app(database_url, bot_delay=0, limits=Limits(enabled=False))
    with TestClient(app) as client:
        flood(client)
    assert app.state.locks == {} and app.state.rooms == {}
    assert app.state.service.live == {}
    assert not [r for r in caplog.records if r.levelname == "WARNING"], "an unknown id is not worth a warning"


def flood(client):
    for number in range(30):
        for method, url, extra in unknown_id_requests(f"nosuch{number}"):
            assert client.request(method, url, **extra).status_code == 404, (method, url)
        with client.websocket_connect(f"/ws/tables/nosuch{number}") as ws:
            assert ws.receive_json()["type"] == "error"


def test_bots_hints_and_analyses_in_worker_processes_play_answer_and_tell_their_progress(tmp_path):
    """As `merchantry serve` runs them (cpu_processes): a game of bots is played to its end by a worker
    process, a hint comes from one, and an analysis done in one tells its progress and its decisions."""
    from merchantry.bots.ismcts import SearchConfig

    quick = SearchConfig(iterations=6, rollout_depth=6)
    app = create_app(
        f"sqlite:///{tmp_path / 'w.db'}",
        bot_delay=0,
        hint_search=quick,
        analysis_search=quick,
        limits=Limits(enabled=False),
        cpu_processes=True,
        bot_priority=Priority(nice=1),  # the bots too (by default they think in a thread of the server)
    )
    with TestClient(app) as client:
        bots = new_table(client, game="grand_bazaar", seats=("bot", "bot"), bot="random")
        deadline = time.time() + 120
        while client.get(f"/api/tables/{bots['id']}").json()["table"]["status"] != "finished":
            assert time.time() < deadline, "the bots in a worker process did not finish the game"
            time.sleep(0.1)
        person = new_table(client, game="grand_bazaar", seats=("human", "bot"), bot="greedy")
        token = {"X-Seat-Token": person["token"]}
        while not client.get(f"/api/tables/{person['id']}", headers=token).json()["legal"]:
            assert time.time() < deadline
            time.sleep(0.05)
        advice = client.post(f"/api/tables/{person['id']}/hint", headers=token)
        assert advice.status_code == 200 and advice.json()["best"]
        assert client.post(f"/api/tables/{bots['id']}/analysis").status_code == 202
        seen, partial = [], []
        while (body := client.get(f"/api/tables/{bots['id']}/analysis").json())["status"] != "done":
            assert body["status"] in ("queued", "running"), body
            seen.append(body["done"])
            partial.append(body["decisions"])
            assert time.time() < deadline, "the analysis in a worker process did not end"
            time.sleep(0.05)
        assert body["done"] == body["total"] and body["decisions"]
        assert seen == sorted(seen), "its progress only goes forward"
        # the decisions judged so far come as they are judged, each time the start of the whole list
        assert all(body["decisions"][: len(some)] == some for some in partial)


def scheduling() -> tuple[int, int]:
    import os

    return os.sched_getscheduler(0), os.nice(0)


@pytest.mark.parametrize(
    ("priority", "policy", "nicer"),
    [
        (IDLE, "SCHED_IDLE", None),
        (Priority(nice=3), "SCHED_BATCH", 3),
        (Priority(nice=2, batch=False), "SCHED_OTHER", 2),
    ],
)
def test_worker_processes_run_at_the_priority_asked(priority, policy, nicer):
    """Hints and analyses only when nothing else wants the CPU; bots in processes (when asked) at a fair
    share that the server's requests come before (SCHED_BATCH), or plainly nicer."""
    import asyncio
    import os

    async def ask() -> tuple[int, int]:
        pool = FairPool("checks", 1, processes=True, priority=priority)
        try:
            return await pool.run("someone", scheduling)
        finally:
            pool.shutdown()

    got_policy, got_nice = asyncio.run(ask())
    assert got_policy == getattr(os, policy)
    if nicer is not None:
        assert got_nice == min(19, os.nice(0) + nicer)


def test_a_hint_worker_starts_without_the_database_layer_with_every_games_search_loaded():
    """Issue 32: a person's first hint waited for its worker process to start: 3-4 s of CPU on a busy
    machine importing the database layer (sqlalchemy, alembic: work.py took `Refused` from tables.py), then
    the game. A worker now imports none of it, and has every game's search loaded when its first job comes
    (`ready_for_work`, run when the pool is made, while nobody waits)."""
    import asyncio

    from merchantry import games

    async def ask() -> list[str]:
        pool = FairPool("hints", 1, processes=True, priority=Priority(nice=1))
        try:
            loaded: list[str] = await pool.run("someone", eval, "sorted(__import__('sys').modules)")
            return loaded
        finally:
            pool.shutdown()

    loaded = asyncio.run(ask())
    assert not [name for name in loaded if name.split(".")[0] in ("sqlalchemy", "alembic", "fastapi")]
    assert "merchantry.bots.analysis" in loaded
    assert all(f"merchantry.games.{name}.rules" in loaded for name in games.names())
