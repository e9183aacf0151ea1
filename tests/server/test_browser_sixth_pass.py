"""A rough edge a newcomer met in chromium on a sixth pass: Samarkand's families table was cut at a 1280 px
wide window (its last columns past the column's edge), in German, once both Marry and Expand were offered."""

# ruff: noqa: F811  (the fixtures imported from test_browser are parameters here)
from __future__ import annotations

import json

import pytest

from merchantry.package import LANGUAGES
from tests.server.test_browser import browser, create_table, live_server, shot  # noqa: F401
from tests.server.test_browser import pytestmark as browser_needed
from tests.server.test_browser_answer_banner import updates_rewritten

pytestmark = browser_needed


def crowded(message: str) -> str:
    """A table's update as late in a game: every family has met six others, is held by two seats, and may be
    married into and expanded (both buttons in its row)."""
    data = json.loads(message)
    view = data.get("view") or {}
    if data.get("type") != "state" or "families" not in view:
        return message
    names = [family["name"] for family in view["families"]]
    for family in view["families"]:
        family["met"] = [name for name in names if name != family["name"]][:6]
        family["held_by"] = [0, 1]
        family["treasury"] = 123
    words = [name.lower() for name in names]
    data["legal"] = [f"marry {w}" for w in words] + [f"expand {w} 1" for w in words]
    return json.dumps(data)


@pytest.mark.parametrize("language", LANGUAGES)
def test_samarkands_families_table_is_whole_in_a_1280_by_800_window(live_server, browser, language):
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(live_server + "/")
    page.evaluate("lang => localStorage.setItem('merchantry:lang', lang)", language)
    updates_rewritten(page, crowded)
    create_table(page, live_server, "Ann", ["human", "bot:greedy", "bot:greedy"], game="samarkand")
    page.wait_for_selector(".samarkand .sk-families [data-expand]")
    page.wait_for_timeout(300)  # the scroll cue's observer
    sizes = page.evaluate(
        "(() => { const box = document.querySelector('.sk-families').closest('.sk-scroll');"
        " const area = box.closest('.sk-cue-area');"
        " return { scroll: box.scrollWidth, shown: box.clientWidth,"
        " cue: area.classList.contains('overflows'),"
        " right: document.querySelector('.sk-families').getBoundingClientRect().right }; })()"
    )
    shot(page, f"sixth-pass-samarkand-families-1280-{language}")
    # every column in sight, the last one's right edge inside the window: nothing to scroll to
    assert sizes["scroll"] <= sizes["shown"] + 1 and sizes["right"] <= 1280, sizes
    assert not sizes["cue"], sizes
    # and every column says what it is: the one of Marry and Expand stood without a heading
    headings = page.locator(".sk-families thead th").all_inner_texts()
    assert all(text.strip() for text in headings), headings
