"""Accounts in a real browser (Playwright, Debian's chromium): a guest plays, signs up and keeps the seat;
the page sends the CSRF token with every change; another guest still joins by invite link."""

from __future__ import annotations

from tests.server.test_browser import (  # noqa: F401  (fixtures)
    browser,
    create_table,
    live_server,
    pytestmark,
    shot,
)


def test_a_guest_signs_up_keeps_the_seat_and_a_guest_still_joins_by_link(live_server, browser):  # noqa: F811
    host = browser.new_context(viewport={"width": 1100, "height": 900}).new_page()
    create_table(host, live_server, "Ann", ["human", "human", "bot:greedy"])  # as a guest
    host.wait_for_selector(".money")
    table_path = host.url.removeprefix(live_server)
    invite = host.input_value("input.invite[data-seat='1']")

    host.click("#account-link")
    host.fill("#account-name", "Ann")
    host.fill("#account-password", "a long enough password")
    host.click("#sign-up")
    host.wait_for_selector("#log-out")  # logged in: the bar shows the name and "Log out"
    assert host.inner_text("#account-link") == "Ann"
    cookies = {c["name"]: c for c in host.context.cookies()}
    assert cookies["merchantry_session"]["httpOnly"] and cookies["merchantry_session"]["sameSite"] == "Lax"
    assert "merchantry_session" not in host.evaluate("document.cookie")  # not readable by scripts
    host.click("#account-link")
    host.wait_for_selector("#account-seats li")
    assert table_path.removeprefix("/table/") in host.inner_text("#account-seats")  # the seat was kept
    shot(host, "accounts-01-account-page")

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
    assert "Ann" in row.inner_text()
    row.locator("button.take-seat").click()
    other.wait_for_selector(".seat.me")
    host.wait_for_selector(".banner:has-text('Your turn')")  # the table filled and the game began
    other.goto(live_server + "/")
    other.wait_for_selector("#open-seats td[colspan]")  # nothing open any more


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
