"""The moves panel ("All legal moves … click one or type it") as a keyboard player meets it (issue 32): it
stays open, with the focus in its box, from one typed move to the next, and a move typed there is the move the
page's own controls build (Byzanz's `bid` typed beside a bid held on the page bids it)."""

# ruff: noqa: F811  (the fixtures imported from test_browser are parameters here)
from __future__ import annotations

import re

from tests.server.test_browser import (  # noqa: F401
    browser,
    create_table,
    joined_by_bob,
    live_server,
    shot,
)
from tests.server.test_browser import pytestmark as browser_needed
from tests.server.test_browser_rough_edges import my_turn_to_bid_in_byzanz

pytestmark = browser_needed


def test_the_moves_panel_stays_open_with_the_focus_in_its_box_after_a_typed_move(live_server, browser):
    page = browser.new_page(viewport={"width": 390, "height": 844})
    create_table(page, live_server, "Ann", ["human", "bot:greedy", "bot:greedy"])
    page.wait_for_selector(".money .hand button.card[data-move^='add ']")
    assert page.locator("details.moves-panel[open]").count() == 0  # closed at first beside a drawing
    page.click(".moves-panel summary")
    cards = page.locator(".money .hand button.card[data-move^='add ']")
    first, second = (cards.nth(i).get_attribute("data-move") for i in (0, 1))
    for n, move in enumerate((first, second), 1):  # Money's bid is built card by card: Ann stays on turn
        page.fill("#move", move)
        page.press("#move", "Enter")
        page.wait_for_function(f"document.querySelectorAll('.money .my-bid [data-card]').length === {n}")
        # the bots may move between two looks (a redraw each): one look at the panel and the focus
        state = page.evaluate(
            "(() => ({ open: !!document.querySelector('details.moves-panel[open]'),"
            " focus: document.activeElement && document.activeElement.id }))()"
        )
        assert state == {"open": True, "focus": "move"}, (move, state)
    shot(page, "32-money-moves-panel-open-after-typed-moves")
    # closed by its reader, it stays closed
    page.click(".moves-panel summary")
    page.click(".money .hand button.card[data-move^='add ']")
    page.wait_for_function("document.querySelectorAll('.money .my-bid [data-card]').length === 3")
    assert page.locator("details.moves-panel[open]").count() == 0


def test_a_move_typed_but_not_yet_sent_survives_another_seats_move(live_server, browser):
    host = browser.new_context(viewport={"width": 1100, "height": 900}).new_page()
    create_table(host, live_server, "Ann", ["human", "human", "bot:greedy"])
    guest = joined_by_bob(host, browser, {"width": 390, "height": 844})
    guest.wait_for_selector(".money .hand button.card[data-move^='add ']")
    host.wait_for_selector(".money .hand button.card[data-move^='add ']")
    host.click(".moves-panel summary")
    move = host.locator(".money .hand button.card[data-move^='add ']").first.get_attribute("data-move")
    host.fill("#move", move[:-1])  # half typed, the caret at its end
    # Bob seals his bid: Ann's page is drawn again (his seat reads "sealed"), her box with it (ci32: a redraw
    # between typing and Enter sent an empty box, and the move typed was lost)
    guest.locator(".money .hand button.card[data-move^='add ']").first.click()
    guest.click("button.primary:has-text('Seal')")
    host.wait_for_selector(".seat:has-text('Bob') .ok")
    assert host.input_value("#move") == move[:-1]
    assert host.evaluate("document.activeElement.id") == "move"
    host.keyboard.type(move[-1])  # typing goes on where it stopped
    host.press("#move", "Enter")
    host.wait_for_function("document.querySelectorAll('.money .my-bid [data-card]').length === 1")
    assert host.input_value("#move") == "", "a move sent leaves the box empty for the next"


def test_a_typed_bid_in_byzanz_bids_the_cards_held_on_the_page(live_server, browser):
    page = browser.new_page(viewport={"width": 390, "height": 844})
    create_table(page, live_server, "Ann", ["human", "bot:greedy", "bot:greedy"], game="byzanz")
    assert my_turn_to_bid_in_byzanz(page), "no turn to bid came"
    held = []
    while page.locator("#bz-bid:not([disabled])").count() == 0:  # held on the page until the bid beats
        card = page.locator(".byzanz .mine [data-move^='add ']").first
        if not card.count():
            break
        held.append(card.get_attribute("data-move")[4:])
        card.click()
    if page.locator("#bz-bid:not([disabled])").count() == 0:  # a hand that cannot beat the highest bid
        return
    total = sum(int(re.search(r"\d+$", code).group(0)) for code in held)
    assert f"Your bid: {total}" in page.inner_text(".bz-building")
    assert "—" in page.inner_text(".seat.me .bz-bid"), "nothing sent yet: the bid is the page's"
    page.evaluate("document.querySelector('.moves-panel').open = true")
    shot(page, "32-byzanz-bid-held-before-a-typed-bid")
    page.fill("#move", "bid")
    page.press("#move", "Enter")
    # the held cards and the bid went together, as Bid sends them; no refusal ("a bid must beat")
    page.wait_for_selector(f".log li:has-text('P1 Ann bids {total} (')")
    assert not [t for t in page.locator("#toasts .toast").all_inner_texts() if "bid must beat" in t]
    assert page.locator(".bz-building [data-take-back]").count() == 0


def test_bz_a4_an_add_typed_or_clicked_in_the_moves_list_is_held_on_the_page_as_a_click_on_the_card(
    live_server, browser
):
    """nc17: a card clicked in the hand was held on the page (it could go back until Bid), while the same
    `add` typed, or clicked in the moves list, went to the table for good (BZ-A4 has no taking back); and the
    list's `add` of a card held by a click sent it. Every `add` now holds the card on the page, once."""
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    create_table(page, live_server, "Ann", ["human", "bot:greedy", "bot:greedy"], game="byzanz")
    assert my_turn_to_bid_in_byzanz(page), "no turn to bid came"
    code = page.locator(".byzanz .mine [data-move^='add ']").first.get_attribute("data-move")[4:]
    copies = page.locator(f".byzanz .mine [data-move='add {code}']").count()
    page.evaluate("document.querySelector('.moves-panel').open = true")
    page.fill("#move", f"add {code}")
    page.press("#move", "Enter")
    page.wait_for_selector(f".bz-building [data-take-back='{code}']")
    assert "—" in page.inner_text(".seat.me .bz-bid"), "nothing sent: the card is the page's"
    if copies == 1:  # the list's add of a card held already holds nothing more, and sends nothing
        page.evaluate("document.querySelector('.moves-panel').open = true")
        page.click(f".moves-panel button[data-move='add {code}']")
        page.wait_for_timeout(300)
        assert page.locator(f".bz-building [data-take-back='{code}']").count() == 1
        assert "—" in page.inner_text(".seat.me .bz-bid")
    page.click(f".bz-building [data-take-back='{code}']")  # and it goes back to the hand
    page.wait_for_selector(f".byzanz .mine [data-move='add {code}']")
    assert page.locator(".bz-building [data-take-back]").count() == 0
    assert "—" in page.inner_text(".seat.me .bz-bid")


def test_a_byzanz_hint_says_only_what_is_left_of_its_bid_once_the_page_holds_some_of_it(live_server, browser):
    """nc20: the hint "add wood2 → add wood3 → bid", wood 2 clicked (held on the page, not yet sent), asked
    again, said "add wood2" first again, and typing it did nothing. The server knows no held card, so the
    page shows what is left of the plan. (The hint's plan is rewritten to two cards of the hand and Bid, so
    that it starts with cards whatever the search prefers here.)"""
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    create_table(page, live_server, "Ann", ["human", "bot:greedy", "bot:greedy"], game="byzanz")
    assert my_turn_to_bid_in_byzanz(page), "no turn to bid came"
    hand = page.locator(".byzanz .mine [data-move^='add ']")
    cards = hand.evaluate_all("bs => bs.map((b) => b.dataset.move)")
    if len(cards) < 2:
        return  # one card to bid with: no plan of two
    plan = [cards[0], cards[1], "bid"]

    def two_cards_and_bid(route):
        body = route.fetch().json()
        route.fulfill(json={**body, "plan": plan})

    page.route("**/hint", two_cards_and_bid)
    steps = "document.querySelectorAll('.hint-box:not(.renewing) .notation code')"
    page.click("#hint")
    page.wait_for_function(f"{steps}.length === 3")
    page.click(f".byzanz .mine [data-move='{cards[0]}']")  # held on the page: the box says the rest at once
    page.wait_for_function(f"{steps}.length === 2")
    assert page.locator(".hint-box .notation code").all_inner_texts() == plan[1:]
    page.click("#hint")  # asked again, the server's plan is the whole bid; the page shows what is left
    page.wait_for_selector("#hint:not([disabled])")
    assert page.locator(".hint-box .notation code").all_inner_texts() == plan[1:]
    page.evaluate("document.querySelector('.moves-panel').open = true")
    page.fill("#move", plan[1])  # typed, the next card is held too, and the box is ready for the next move
    page.press("#move", "Enter")
    page.wait_for_function(f"{steps}.length === 1")
    assert page.locator(".hint-box .notation code").all_inner_texts() == ["bid"]
    assert page.input_value("#move") == ""
    assert "—" in page.inner_text(".seat.me .bz-bid"), "nothing sent yet"


def test_the_list_names_samarkand_s_cards_and_the_lobby_says_what_money_s_standard_leaves_out(
    live_server, browser
):
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(live_server + "/")
    page.select_option("#game", "money")
    page.dispatch_event("#game", "change")
    field = page.locator("label.option:has(input[data-option='removed_currencies'])")
    # MO-S1: the standard game leaves one currency out with 4 players, two with 3 (it read "standard: none")
    assert "standard: one drawn at random with 4 players, two with 3, none with 5" in field.inner_text()
    # Samarkand's `discard 10` and `sell 2` in the moves list: the notation, then the card it names
    labels = page.evaluate(
        "(async () => { const d = await import('/games/samarkand/static/drawing.js');"
        " const tr = { term: (w) => w };"
        " return ['discard 10', 'sell 2', 'marry levant', 'discard 99'].map((m) => d.label(m, tr)); })()"
    )
    assert labels == ["discard 10 (tea)", "sell 2 (linen)", "marry levant", "discard 99"]
