"""Accounts in a real browser (Playwright, Debian's chromium): a guest plays, signs up and keeps the seat;
the page sends the CSRF token with every change; another guest still joins by invite link."""

from __future__ import annotations

import random
import time

import pytest

from merchantry.server.app import create_app
from tests.server.conftest import serving
from tests.server.test_browser import (  # noqa: F401  (fixtures)
    browser,
    create_table,
    free_port,
    live_server,
    pytestmark,
    shot,
)
from tests.server.test_turns import eventually, time_passes


def test_a_guest_signs_up_keeps_the_seat_and_a_guest_still_joins_by_link(live_server, browser):  # noqa: F811
    host = browser.new_context(viewport={"width": 1100, "height": 900}).new_page()
    create_table(host, live_server, "Ann", ["human", "human", "bot:greedy"])  # as a guest
    host.wait_for_selector(".money")
    table_path = host.url.removeprefix(live_server)
    invite = host.input_value("input.invite[data-seat='1']")

    host.click("#signup-link")  # signing up is a form of its own, beside logging in
    host.wait_for_selector("#tab-signup[aria-selected=true]")
    host.fill("#signup-name", "Ann")
    host.fill("#signup-password", "a long enough password")
    host.fill("#signup-repeat", "another password")
    host.click("#create-account")
    host.wait_for_selector(".toast:has-text('The two passwords differ')")  # nothing sent
    host.fill("#signup-repeat", "a long enough password")
    host.click("#create-account")
    host.wait_for_selector("#welcome h1:has-text('Welcome, Ann!')")  # a welcome, and where to go next
    assert "Seats kept with your account: 1" in host.inner_text("#seats-kept")
    host.wait_for_selector("#log-out")  # logged in: the bar shows the name and "Log out"
    assert host.inner_text("#account-link") == "Ann"
    shot(host, "accounts-00-welcome")
    cookies = {c["name"]: c for c in host.context.cookies()}
    assert cookies["merchantry_session"]["httpOnly"] and cookies["merchantry_session"]["sameSite"] == "Lax"
    assert "merchantry_session" not in host.evaluate("document.cookie")  # not readable by scripts
    host.click("#account-link")
    host.wait_for_selector("#account-seats li")
    seat_line = host.inner_text("#account-seats li")  # the seat was kept, as a person reads it
    assert seat_line.startswith("Money · ") and "P1 Ann, P2 … and P3 greedy (bot)" in seat_line
    assert "waiting for players" in seat_line and table_path.removeprefix("/table/") not in seat_line
    assert host.get_attribute("#account-seats li a", "href") == table_path
    shot(host, "accounts-01-account-page")
    host.click("#password-change summary")  # a new password, given the current one
    host.fill("#current-password", "a long enough password")
    host.fill("#new-password", "an even longer password")
    host.fill("#new-repeat", "an even longer password")
    host.click("#change-password")
    host.wait_for_selector(".toast:has-text('Password changed')")

    # a logged-in change goes through (the page sends the CSRF header): a new table from the lobby
    create_table(host, live_server, "ignored: the account's name is used", ["human", "human", "bot:greedy"])
    host.wait_for_selector(".seat.me:has-text('Ann')")

    guest = browser.new_context().new_page()  # a guest with no account joins by the invite link
    guest.goto(invite)
    guest.fill("#join-name", "Bob")
    guest.click("#join button[type=submit]")
    guest.wait_for_selector(".seat.me:has-text('Bob')")
    assert guest.context.cookies() == [] or all(
        c["name"] != "merchantry_session" for c in guest.context.cookies()
    )


def test_a_seat_left_open_is_taken_from_the_lobby(live_server, browser):  # noqa: F811
    host = browser.new_context().new_page()
    create_table(host, live_server, "Ann", ["human", "open", "bot:greedy"])
    host.wait_for_selector(".money")
    table_id = host.url.rsplit("/", 1)[1]
    other = browser.new_context().new_page()
    other.goto(live_server + "/")
    other.select_option("#lobby-pace", "realtime")
    row = other.locator(f"#open-seats tr[data-table='{table_id}']")
    row.wait_for()
    assert "Ann, … and Simple bot 25.0 ± 2.0" in row.inner_text()  # each seat's rating beside its name
    row.locator("button.take-seat").click()
    other.wait_for_selector(".seat.me")
    host.wait_for_selector(".banner:has-text('Your turn')")  # the table filled and the game began
    other.goto(live_server + "/")
    other.wait_for_selector("#open-seats td[colspan]")  # nothing open any more


def test_a_browser_with_no_seat_is_told_it_is_watching_and_how_to_play(live_server, browser):  # noqa: F811
    """Issue 32, fourteenth pass: a newcomer who opened the table's address in another browser was a
    spectator with no sign of it; while a seat was open the page even told them to send invite links."""
    host = browser.new_context().new_page()
    create_table(host, live_server, "Ann", ["human", "human", "bot:greedy"])
    host.wait_for_selector(".money")
    assert "Waiting for" in host.inner_text(".banner")  # the host is asked to send the links
    fan = browser.new_context().new_page()
    fan.goto(host.url)
    fan.wait_for_selector(".money")
    said = fan.inner_text(".banner")
    assert "You are watching" in said and "no seat at this table" in said and "invite link" in said
    assert "send each friend" not in said


def test_players_chat_beside_the_table_markup_stays_text_and_spectators_only_read(live_server, browser):  # noqa: F811
    host = browser.new_context().new_page()
    create_table(host, live_server, "Ann", ["human", "human", "bot:greedy"])
    host.wait_for_selector(".money")
    invite = host.input_value("input.invite[data-seat='1']")
    guest = browser.new_context().new_page()
    guest.goto(invite)
    guest.fill("#join-name", "Bob")
    guest.click("#join button[type=submit]")
    guest.wait_for_selector(".seat.me:has-text('Bob')")
    fan = browser.new_context().new_page()
    fan.goto(host.url)
    fan.wait_for_selector(".money")

    markup = "<img src=x onerror=\"document.title='owned'\"><b>bold?</b>"
    host.fill("#chat-text", markup)
    host.click("#chat-form button[type=submit]")
    for page in (host, guest, fan):
        page.wait_for_selector(".chat-messages li:has-text('bold?')")
        assert page.inner_text(".chat-messages .chat-text") == markup  # shown as the characters typed
        assert page.locator(".chat-messages img, .chat-messages b").count() == 0  # no element was made
        assert page.title() != "owned"
    assert fan.is_disabled("#chat-text")  # a spectator reads, and cannot write
    guest.click(".chat-messages li[data-seat='0'] button.mute")  # Bob mutes Ann
    guest.wait_for_selector("button.unmute")
    assert guest.locator(".chat-messages li").count() == 0
    host.fill("#chat-text", "Bob cannot hear this")
    host.click("#chat-form button[type=submit]")
    host.wait_for_selector(".chat-messages li:has-text('Bob cannot hear this')")
    fan.wait_for_selector(".chat-messages li:has-text('Bob cannot hear this')")
    guest.fill("#chat-text", "hello from Bob")
    guest.click("#chat-form button[type=submit]")
    host.wait_for_selector(".chat-messages li:has-text('hello from Bob')")
    assert "Bob cannot hear this" not in guest.inner_text(".chat-messages")
    shot(host, "accounts-02-chat")


@pytest.fixture
def served(tmp_path):
    """A live server and its app (the test plays moves through the app's own service)."""
    app = create_app(f"sqlite:///{tmp_path / 'web.db'}", bot_delay=0.05)
    with serving(app) as base:
        yield base, app


def sign_up_in(page, base: str, name: str) -> None:
    page.goto(base + "/account?tab=signup")
    page.fill("#signup-name", name)
    page.fill("#signup-password", f"{name} has a long password")
    page.fill("#signup-repeat", f"{name} has a long password")
    page.click("#create-account")
    page.wait_for_selector("#welcome")
    page.wait_for_selector("#log-out")


def test_two_accounts_play_a_rated_turn_based_game_from_the_lobby_to_their_ratings(served, browser):  # noqa: F811
    base, app = served
    service, run = app.state.service, app.state.in_database
    ann = browser.new_context().new_page()
    bea = browser.new_context().new_page()
    sign_up_in(ann, base, "Ann")
    sign_up_in(bea, base, "Bea")

    # Ann opens a rated Samarkand table, two days a move, its second seat open to anyone
    ann.goto(base + "/")
    ann.select_option("#game", "samarkand")
    ann.dispatch_event("#game", "change")
    ann.fill("#players", "2")
    ann.dispatch_event("#players", "change")
    ann.select_option("select[data-seat='1']", "open")
    ann.fill("#turn-seconds", "2")
    ann.select_option("#turn-unit", "86400")
    ann.check("#rated")
    assert ann.input_value("#name") == "Ann"  # the account's name, kept since signing up
    ann.click("#create button[type=submit]")
    ann.wait_for_url("**/table/*")
    ann.wait_for_selector(".samarkand")
    table_id = ann.url.rsplit("/", 1)[1]

    # Bea finds it in the lobby among rated turn-based tables and takes the seat
    bea.goto(base + "/")
    bea.select_option("#lobby-pace", "turn-based")
    bea.select_option("#lobby-rated", "true")
    row = bea.locator(f"#open-seats tr[data-table='{table_id}']")
    row.wait_for()
    assert "rated" in row.inner_text() and "turn-based" in row.inner_text()
    row.locator("button.take-seat").click()
    bea.wait_for_url(f"**/table/{table_id}")
    bea.wait_for_selector(".samarkand")
    assert run(service.table, table_id).seats[1].name == "Bea"

    ann.fill("#chat-text", "good luck, Bea")
    ann.click("#chat-form button[type=submit]")
    bea.wait_for_selector(".chat-messages li:has-text('good luck, Bea')")
    bea.fill("#chat-text", "you too")
    bea.click("#chat-form button[type=submit]")
    ann.wait_for_selector(".chat-messages li:has-text('you too')")

    # whoever is to act sees it in the title, and on the account page
    first = run(service.table, table_id).state.to_act()[0]
    mover = ann if first == 0 else bea
    mover.goto(base + "/account")
    mover.wait_for_selector(f"#your-turns a[href='/table/{table_id}']")
    mover.wait_for_function("document.title.startsWith('(1) ')")
    shot(mover, "accounts-03-your-turn")

    # the game, moves days apart: each seat moves a little before its two days run out, and once a seat
    # lets them run out (a bot moves for it, said to everyone)
    rng = random.Random(3)
    timed_out, last = False, None
    while (table := run(service.table, table_id)).status == "playing":
        running = run(service.clock, table_id, time.monotonic())  # the turn starts on the clock
        if not timed_out and len(table.session.moves) >= 10 and running:  # (none in a step of unseen answers)
            time_passes(run, service, table_id, 2 * 86400 + 1)
            eventually(lambda: run(service.table, table_id).timeouts)  # the server's clock gives it to a bot
            timed_out = True
            continue
        seat = table.state.to_act()[0]
        if seat != last:  # days pass before a turn's first move: still in time
            time_passes(run, service, table_id, 86400 * rng.uniform(0.1, 1.9))
        last = seat
        run(service.act, table_id, seat, str(rng.choice(table.state.legal_actions(seat))))
    assert timed_out
    ann.goto(base + f"/table/{table_id}")
    ann.wait_for_selector("table.scores")
    ann.wait_for_selector("#table-ratings:has-text('±')")  # each seat's rating, at the table
    assert "P1" in ann.inner_text("#table-ratings") and "P2" in ann.inner_text("#table-ratings")

    # both profiles and the leaderboard show the rated game
    for page, name in ((ann, "Ann"), (bea, "Bea")):
        page.goto(base + f"/player/{name}")
        page.wait_for_selector("#profile-games td.rating")
        games_row = page.inner_text("#profile-games tbody")
        assert "1" in games_row and "±" in games_row
        assert page.locator(f"#profile-recent a[href='/replay/{table_id}']").count() == 1
        assert page.locator(f"#profile-recent a[href='/table/{table_id}']").count() == 1
        recent = page.inner_text("#profile-recent tbody tr")  # the game's name, who played and the scores
        scores = run(service.table, table_id).state.scores()
        assert "Samarkand: Routes to Riches" in recent and "samarkand" not in recent
        assert table_id not in recent
        assert f"P1 Ann {scores[0]:g} and P2 Bea {scores[1]:g}" in recent
    ann.goto(base + "/leaderboard/samarkand")
    ann.wait_for_selector("#leaderboard td.rating")
    board = ann.inner_text("#leaderboard")
    assert "Ann" in board and "Bea" in board
    shot(ann, "accounts-04-leaderboard")
