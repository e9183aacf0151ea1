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


def finished_bot_table(
    base: str, game: str, bots: list[str], options: dict | None = None, seconds: float = 90
) -> str:
    """A new table of these bots (one seat each) with `options`, played by them to its end; its id."""
    seats = [{"kind": "bot", "bot": bot} for bot in bots]
    body = {"game": game, "players": len(bots), "seats": seats, "options": options or {}}
    created = httpx.post(base + "/api/tables", json=body).json()
    wait_until_finished(base, created["id"], seconds, what=game)
    return created["id"]
