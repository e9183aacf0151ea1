"""The total per player on the page: chosen in the lobby's form (a bad one refused with the reason), every
seat's time bank shown at the table in a readable format, counting down for the seat on turn."""

from __future__ import annotations

import re

from tests.server.test_browser import (  # noqa: F401  (fixtures)
    browser,
    live_server,
    pytestmark,
    shot,
)


def fill_form(page, base: str, turn: tuple[str, str], total: tuple[str, str]) -> None:
    page.goto(base + "/")
    page.select_option("#game", "grand_bazaar")
    page.dispatch_event("#game", "change")
    page.fill("#name", "Ann")
    page.fill("#players", "2")
    page.dispatch_event("#players", "change")
    page.select_option("select[data-seat='1']", "bot:medium")
    page.fill("#turn-seconds", turn[0])
    page.select_option("#turn-unit", turn[1])
    page.fill("#total-time", total[0])
    page.select_option("#total-unit", total[1])
    page.click("#create button[type=submit]")


def test_the_time_banks_show_for_every_seat_in_days_hours_and_minutes(live_server, browser):  # noqa: F811
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    fill_form(page, live_server, ("0", "1"), ("2", "86400"))  # a total without a clock per move
    page.wait_for_selector(".toast:has-text('needs a turn clock')")
    fill_form(page, live_server, ("1", "3600"), ("2", "86400"))  # an hour a move, two days in all
    banks = page.wait_for_selector("#time-banks")
    assert re.search(r"P1 Ann (2 d 0 h|1 d 23 h)", banks.inner_text()), banks.inner_text()
    page.wait_for_selector(".table-head .banner:has-text('left')")
    assert re.search(r"(59:\d\d|1 h 0 min) left", page.inner_text(".table-head .banner"))  # not in seconds
    shot(page, "clock-01-time-banks")
    shown = page.evaluate(
        """async () => {
            const { duration } = await import("/static/clock.js");
            const { t } = await import("/static/i18n.js");
            const seconds = [0, 65, 4 * 60 + 5, 3 * 3600 + 5 * 60 + 59, 2 * 86400 + 3 * 3600 + 59];
            return seconds.map((s) => duration(s, t));
        }"""
    )
    assert shown == ["0:00", "1:05", "4:05", "3 h 5 min", "2 d 3 h"]
