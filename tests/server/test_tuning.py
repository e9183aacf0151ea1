"""The server process's tuning (server/tuning.py): no automatic full collections while it serves, a full one
on its own schedule, prompt hand-overs between threads, and everything as it was once it stops."""

from __future__ import annotations

import asyncio
import gc
import sys

from fastapi.testclient import TestClient

from merchantry.server import tuning
from merchantry.server.app import create_app


def test_a_served_process_collects_fully_only_on_its_schedule_and_is_restored_after(tmp_path):
    before = (gc.get_threshold(), sys.getswitchinterval())
    app = create_app(f"sqlite:///{tmp_path}/t.db", tune_process=True)
    with TestClient(app) as client:
        assert client.get("/api/games").status_code == 200
        assert gc.get_threshold()[2] == tuning.NEVER and gc.get_freeze_count() > 0
        assert sys.getswitchinterval() == tuning.SWITCH_INTERVAL
    assert (gc.get_threshold(), sys.getswitchinterval()) == before and gc.get_freeze_count() == 0
    with TestClient(create_app(f"sqlite:///{tmp_path}/u.db")):  # an app in someone else's process
        assert (gc.get_threshold(), sys.getswitchinterval()) == before


def test_full_collections_come_on_schedule(monkeypatch):
    generations = []
    monkeypatch.setattr(gc, "collect", lambda generation=2: generations.append(generation) or 0)

    async def run_a_while() -> None:
        task = asyncio.create_task(tuning.collect_fully(every=0.01))
        await asyncio.sleep(0.055)
        task.cancel()

    asyncio.run(run_a_while())
    assert 3 <= len(generations) <= 6 and set(generations) == {2}
