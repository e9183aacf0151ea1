"""A person to answer a step the server answers for whoever has not answered by a deadline (Samarkand's sale
offer) is told plainly in the table's banner that it is their turn to answer: the banner read "P2, P3 and P4
are thinking… · 30 s left to answer; then a bot answers for you", the person missed it and a bot answered."""

# ruff: noqa: F811  (the fixtures imported from test_browser are parameters here)
from __future__ import annotations

import json
import re

from tests.server.test_browser import browser, create_table, live_server  # noqa: F401
from tests.server.test_browser import pytestmark as browser_needed
from tests.server.test_browser_rough_edges import offered_the_first_card_of_the_hand

pytestmark = browser_needed


def answering_a_sale_offer(message: str) -> str:
    """A table's update as if a sale offer for the first card of this seat's hand had just opened, as the
    server sends it: every seat may still answer as far as this one knows, and the step has a deadline."""
    data = json.loads(offered_the_first_card_of_the_hand(message))
    if data.get("type") != "state" or not (data.get("view") or {}).get("offer"):
        return message
    data["view"]["to_act"] = list(range(len(data["table"]["seats"])))
    data["table"]["decision_deadline"] = 30
    return json.dumps(data)


def updates_rewritten(page, rewrite) -> None:
    """The page's table updates pass through `rewrite` on their way from the server."""

    def through(ws):
        server = ws.connect_to_server()
        server.on_message(lambda message: ws.send(rewrite(message)))
        ws.on_message(lambda message: server.send(message))

    page.route_web_socket(re.compile(r"/ws/tables/"), through)


def test_the_banner_says_it_is_your_turn_to_answer_the_sale_offer(live_server, browser):
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    updates_rewritten(page, answering_a_sale_offer)
    create_table(page, live_server, "Ann", ["human", "bot:greedy", "bot:greedy"], game="samarkand")
    page.locator(".samarkand .sk-offer.answering").wait_for()
    banner = page.locator(".table-head .banner")
    page.wait_for_function(
        "document.querySelector('.table-head .banner')?.textContent.includes('then a bot answers')"
    )
    text = banner.inner_text()
    assert text.startswith("Your turn: answer the sale offer"), text
    assert "thinking" not in text, text


def answered_for_this_seat(message: str) -> str:
    """The same offer for a card this seat does not hold: the server answers for it (keep is its only
    answer), after the same pause as everyone's."""
    data = json.loads(answering_a_sale_offer(message))
    if data.get("type") == "state" and (data.get("view") or {}).get("offer"):
        held = {card["good"] for card in data["view"]["hand"]}
        data["view"]["offer"]["good"] = next(g for g in range(1, 34) if g not in held)
        data["legal"], data["answered_for_you"] = ["keep"], True
    return json.dumps(data)


def test_a_seat_the_server_answers_for_is_not_told_a_bot_answers_for_it(live_server, browser):
    # the banner named only the others ("P2 and P3 are thinking…") and the clock said "then a bot answers
    # for you": it read as a turn the person had missed, though they had nothing to choose
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    updates_rewritten(page, answered_for_this_seat)
    create_table(page, live_server, "Ann", ["human", "bot:greedy", "bot:greedy"], game="samarkand")
    page.wait_for_function(
        "document.querySelector('.table-head .banner')?.textContent.includes('at the latest')"
    )
    text = page.locator(".table-head .banner").inner_text()
    assert "answers for you" not in text and not text.startswith("Your turn"), text
