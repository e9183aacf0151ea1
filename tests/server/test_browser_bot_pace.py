"""While a bot's turn lasts the page says so (issue 32, item 4): "P2 is thinking…" in the banner, by the
seat on turn, in the page's language, gone once it is the person's turn again."""

# ruff: noqa: F811  (the fixtures imported from test_browser are parameters here)
from __future__ import annotations

import re
import time

import pytest

from merchantry.server.app import create_app
from tests.server.conftest import serving
from tests.server.test_browser import browser, create_table, free_port  # noqa: F401
from tests.server.test_browser import pytestmark as browser_needed

pytestmark = browser_needed


@pytest.fixture
def slow_bots_server(tmp_path):
    """A live server whose bots' moves are published a second after their thinking began (greedy bots)."""
    app = create_app(f"sqlite:///{tmp_path / 'pace.db'}", bot_delay=1.0)
    with serving(app) as base:
        yield base


def wait_for_a_bot_s_turn(page) -> str:
    """Play the person's moves (the first legal one) until the banner says a bot is thinking; its text."""
    deadline = time.time() + 60
    while time.time() < deadline:
        thinking = page.locator(".banner .bot-thinking")
        if thinking.count():
            return thinking.first.inner_text()
        page.evaluate("document.querySelector('.legal button[data-move]')?.click()")  # the person's turn
        page.wait_for_timeout(50)
    raise AssertionError("no bot's turn showed")


@pytest.mark.parametrize(
    ("lang", "one", "several"),
    [("en", "is thinking…", "are thinking…"), ("de", "denkt nach…", "denken nach…")],
)
def test_the_page_says_which_bot_is_thinking_while_its_turn_lasts(
    slow_bots_server, browser, lang, one, several
):
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    page.goto(slow_bots_server + "/")
    page.evaluate(f"localStorage.setItem('merchantry:lang', '{lang}')")
    create_table(page, slow_bots_server, "Ann", ["human", "bot:greedy", "bot:greedy"], game="samarkand")
    page.wait_for_selector(".banner")
    said = wait_for_a_bot_s_turn(page)
    # one bot, or both at once (answering a sale offer): the verb agrees
    assert re.fullmatch(rf"P[23] {one}|P2, P3 {several}", said), said
    # the sign lasts while the bots' turns do, and goes once the person is to act again
    page.wait_for_function(
        "!document.querySelector('.banner .bot-thinking') && !!document.querySelector('.legal button')",
        timeout=30_000,
    )
