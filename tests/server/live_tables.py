"""Helpers for tests that drive a live server over HTTP (its base address)."""

from __future__ import annotations

import time

import httpx


def wait_until_finished(base: str, table_id: str, seconds: float = 90, what: str = "the game") -> None:
    """Wait until the table's bots have played it to its end; fail the test if they take over `seconds`."""
    deadline = time.time() + seconds
    while httpx.get(f"{base}/api/tables/{table_id}").json()["table"]["status"] != "finished":
        assert time.time() < deadline, f"the bots did not finish {what}"
        time.sleep(0.2)
