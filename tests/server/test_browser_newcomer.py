"""A newcomer's rough edges, batch A of issue 32, pinned in chromium: the lobby's clock units sit with their
fields, the Samarkand sale offer counts down to its deadline, and the replay a player opens from their
finished table shows their own seat."""

# ruff: noqa: F811  (the fixtures imported from test_browser are parameters here)
from __future__ import annotations

import json
import re
import time

import httpx
import pytest

from tests.server.test_browser import browser, create_table, live_server, shot  # noqa: F401
from tests.server.test_browser import pytestmark as browser_needed
from tests.server.test_browser_rough_edges import offered_the_first_card_of_the_hand

pytestmark = browser_needed


def same_line(page, first: str, second: str) -> bool:
    """Whether two elements sit on one line: each one's vertical middle within the other's height."""
    a, b = page.locator(first).bounding_box(), page.locator(second).bounding_box()
    return (
        a["y"] <= b["y"] + b["height"] / 2 <= a["y"] + a["height"]
        and b["y"] <= a["y"] + a["height"] / 2 <= b["y"] + b["height"]
    )


@pytest.mark.parametrize(
    ("language", "viewport"),
    [("en", {"width": 1100, "height": 900}), ("de", {"width": 390, "height": 844})],
    ids=["en-desktop", "de-phone"],
)
def test_the_lobbys_clock_units_sit_beside_their_fields(live_server, browser, viewport, language):
    page = browser.new_page(viewport=viewport)
    page.goto(f"{live_server}/?lang={language}")
    page.wait_for_selector("#total-unit")
    assert same_line(page, "#total-time", "#total-unit"), "the total's unit menu wrapped onto its own line"
    assert same_line(page, "#turn-seconds", "#turn-unit")
    assert (
        page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    )  # nothing widens the page
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
        httpx.post(
            f"{base}/api/tables/{table_id}/act", json={"action": move}, headers={"X-Seat-Token": token}
        )


def test_a_player_replays_their_finished_table_as_their_seat_and_a_spectator_as_spectators(
    live_server, browser
):
    table_id, token = finished_table_with_a_person(live_server)
    player = browser.new_context(viewport={"width": 1100, "height": 900})
    page = player.new_page()
    page.goto(f"{live_server}/")
    page.evaluate(
        "([id, token]) => localStorage.setItem(`merchantry:table:${id}`, JSON.stringify({ token, seat: 0 }))",
        [table_id, token],
    )
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
    stranger.evaluate(
        "(id) => localStorage.setItem(`merchantry:table:${id}`,"
        " JSON.stringify({ token: 'forged', seat: 1 }))",
        table_id,
    )
    stranger.goto(f"{live_server}/replay/{table_id}")
    stranger.wait_for_selector("#replay-seat")
    assert stranger.input_value("#replay-seat") == ""
    assert stranger.locator(".money .mine").count() == 0
    player.close()


def with_a_deadline(message: str) -> str:
    """An offer for the first card of the hand (as the rough edges' test fakes one), 20 s before the server
    answers for whoever has not (the table's `decision_deadline`)."""
    data = json.loads(offered_the_first_card_of_the_hand(message))
    if data.get("type") == "state" and (data.get("view") or {}).get("offer"):
        data["table"]["decision_deadline"] = 20.0
    return json.dumps(data)


def test_a_sale_offer_counts_down_to_its_deadline_in_the_holders_panel(live_server, browser):
    viewport = {"width": 390, "height": 844}  # a phone, where the panel has least room
    page = browser.new_page(viewport=viewport)

    def offering(ws):  # the server's updates, each with an offer for the first card of the hand
        server = ws.connect_to_server()
        server.on_message(lambda message: ws.send(with_a_deadline(message)))
        ws.on_message(lambda message: server.send(message))

    page.route_web_socket(re.compile(r"/ws/tables/"), offering)
    create_table(page, live_server, "Ann", ["human", "bot:greedy", "bot:greedy"], game="samarkand")
    countdown = page.locator(".samarkand .sk-offer.answering .decision-countdown")
    countdown.wait_for()
    said = re.fullmatch(r"(\d+) s left to answer; then a bot answers for you", countdown.inner_text())
    assert said and 1 <= int(said.group(1)) <= 20, countdown.inner_text()
    first = int(said.group(1))
    page.wait_for_function(
        "(n) => { const m = document.querySelector('.sk-offer .decision-countdown')"
        "?.textContent.match(/^(\\d+) s/); return m && Number(m[1]) < n; }",
        arg=first,
        timeout=5000,
    )  # it counts down between the server's messages
    box = countdown.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"]  # in sight with Sell and Keep
    shot(page, "newcomer-samarkand-offer-deadline-390")
    page.set_viewport_size({"width": 1100, "height": 900})
    shot(page, "newcomer-samarkand-offer-deadline-1100")
    page.close()
