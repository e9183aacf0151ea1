"""A newcomer's rough edges, batch A of issue 32, pinned in chromium: the lobby's clock units sit with their
fields, the Samarkand sale offer counts down to its deadline, and the replay a player opens from their
finished table shows their own seat."""

# ruff: noqa: F811  (the fixtures imported from test_browser are parameters here)
from __future__ import annotations

import time

import httpx
import pytest

from tests.server.test_browser import browser, live_server, shot  # noqa: F401
from tests.server.test_browser import pytestmark as browser_needed

pytestmark = browser_needed


def same_line(page, first: str, second: str) -> bool:
    """Whether two elements sit on one line: each one's vertical middle within the other's height."""
    a, b = page.locator(first).bounding_box(), page.locator(second).bounding_box()
    return a["y"] <= b["y"] + b["height"] / 2 <= a["y"] + a["height"] and b["y"] <= a["y"] + a["height"] / 2 <= b["y"] + b["height"]


@pytest.mark.parametrize("viewport", [{"width": 1100, "height": 900}, {"width": 390, "height": 844}], ids=["desktop", "phone"])
@pytest.mark.parametrize("language", ["en", "de"])
def test_the_lobbys_clock_units_sit_beside_their_fields(live_server, browser, viewport, language):
    page = browser.new_page(viewport=viewport)
    page.goto(f"{live_server}/?lang={language}")
    page.wait_for_selector("#total-unit")
    assert same_line(page, "#total-time", "#total-unit"), "the total's unit menu wrapped onto its own line"
    assert same_line(page, "#turn-seconds", "#turn-unit")
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]  # nothing widens the page
    shot(page, f"newcomer-lobby-clock-{language}-{viewport['width']}")
    page.close()


def finished_table_with_a_person(base: str) -> tuple[str, str]:
    """A short Money table (two rounds at most) whose first seat is a person, played over the API by its
    token to the end: (table id, the person's token)."""
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}]
    body = {"game": "money", "players": 3, "seats": seats, "name": "Ann", "options": {"max_rounds": 2}}
    created = httpx.post(base + "/api/tables", json=body).json()
    table_id, token = created["id"], created["token"]
    deadline = time.time() + 60
    while True:
        payload = httpx.get(f"{base}/api/tables/{table_id}", headers={"X-Seat-Token": token}).json()
        if payload["table"]["status"] == "finished":
            return table_id, token
        assert time.time() < deadline, "the table did not finish"
        legal = payload["legal"]
        if not legal:
            time.sleep(0.05)  # the bots' turn
            continue
        move = "bid" if "bid" in legal else legal[0]  # an empty bid passes the round
        httpx.post(f"{base}/api/tables/{table_id}/act", json={"action": move}, headers={"X-Seat-Token": token})


def test_a_player_replays_their_finished_table_as_their_seat_and_a_spectator_as_spectators(live_server, browser):
    table_id, token = finished_table_with_a_person(live_server)
    player = browser.new_context(viewport={"width": 1100, "height": 900})
    page = player.new_page()
    page.goto(f"{live_server}/")
    page.evaluate("([id, token]) => localStorage.setItem(`merchantry:table:${id}`, JSON.stringify({ token, seat: 0 }))", [table_id, token])
    page.goto(f"{live_server}/replay/{table_id}")
    page.wait_for_selector("#replay-seat")
    assert page.input_value("#replay-seat") == "0"  # their seat's view, with their own hand
    page.wait_for_selector(".money .mine")
    shot(page, "newcomer-replay-as-seat-1100")
    page.set_viewport_size({"width": 390, "height": 844})
    page.reload()
    page.wait_for_selector(".money .mine")
    assert page.input_value("#replay-seat") == "0"
    shot(page, "newcomer-replay-as-seat-390")
    # another browser, holding no seat (or a forged token), opens the same link as spectators see it
    stranger = browser.new_context(viewport={"width": 1100, "height": 900}).new_page()
    stranger.goto(f"{live_server}/")
    stranger.evaluate("(id) => localStorage.setItem(`merchantry:table:${id}`, JSON.stringify({ token: 'forged', seat: 1 }))", table_id)
    stranger.goto(f"{live_server}/replay/{table_id}")
    stranger.wait_for_selector("#replay-seat")
    assert stranger.input_value("#replay-seat") == ""
    assert stranger.locator(".money .mine").count() == 0
    player.close()
