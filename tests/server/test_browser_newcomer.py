"""A newcomer's rough edges, batch A of issue 32, pinned in chromium: the lobby's clock units sit with their
fields, the Samarkand sale offer counts down to its deadline, and the replay a player opens from their
finished table shows their own seat."""

# ruff: noqa: F811  (the fixtures imported from test_browser are parameters here)
from __future__ import annotations

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
