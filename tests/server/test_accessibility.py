"""Accessibility: axe-core (from npm, installed by `make test` into tests/accessibility/node_modules, never
committed) checks the lobby, each game's table page in play and a rules page in chromium. Every serious or
critical finding fails the test with axe's own description."""

from __future__ import annotations

from pathlib import Path

import pytest

from merchantry import games
from tests.server.live_tables import wait_until_finished
from tests.server.test_browser import REQUIRED, browser, create_table, live_server  # noqa: F401

AXE = Path(__file__).resolve().parents[1] / "accessibility" / "node_modules" / "axe-core" / "axe.min.js"

pytestmark = pytest.mark.skipif(
    not AXE.exists() and not REQUIRED, reason="axe-core is not installed (make test installs it with npm)"
)


def serious_findings(page) -> list[str]:
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("async () => await axe.run(document, { resultTypes: ['violations'] })")
    return [
        f"{v['impact']}: {v['id']} — {v['help']} ({len(v['nodes'])}x, e.g. {v['nodes'][0]['target']})"
        for v in result["violations"]
        if v["impact"] in ("serious", "critical")
    ]


def test_the_lobby_has_no_serious_accessibility_findings(live_server, browser):  # noqa: F811
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    page.goto(live_server + "/")
    page.wait_for_selector("#create")
    assert serious_findings(page) == []


def test_the_account_pages_forms_have_no_serious_accessibility_findings(live_server, browser):  # noqa: F811
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    for tab, form in (("", "#login-form"), ("?tab=signup", "#signup-form")):  # log in; sign up
        page.goto(live_server + "/account" + tab)
        page.wait_for_selector(form)
        assert serious_findings(page) == [], tab


@pytest.mark.parametrize("game", games.names())
def test_each_game_page_has_no_serious_accessibility_findings(live_server, browser, game):  # noqa: F811
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    players = max(3, games.get(game).min_players)
    create_table(page, live_server, "Ann", ["human", *["bot:greedy"] * (players - 1)], game=game)
    page.wait_for_selector(f"section.{game.replace('_', '-')}")
    page.wait_for_timeout(1500)  # a few bot moves: the page as it is in play
    assert serious_findings(page) == []
    page.goto(f"{live_server}/rules/{game}?lang=de")
    assert serious_findings(page) == []


def test_the_analysis_panel_has_no_serious_accessibility_findings(live_server, browser):  # noqa: F811

    import httpx

    seats = [{"kind": "bot", "bot": "random"}] * 2
    created = httpx.post(
        live_server + "/api/tables", json={"game": "grand_bazaar", "players": 2, "seats": seats}
    ).json()
    wait_until_finished(live_server, created["id"], 60)
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    page.goto(f"{live_server}/replay/{created['id']}")
    page.click("#analyse")
    page.wait_for_selector("#analysis h2")
    assert serious_findings(page) == []  # as it goes (its progress, the chart filling in) or done
    page.wait_for_selector("#analysis .analysis-summary", timeout=120_000)
    assert serious_findings(page) == []
