"""The page's words behind the API (issue 32): the lobby is told each game's options with the values they
accept and each bot level's measured strength; a table says the options it is played with; a rules page has
the language menu and says its picture is a picture."""

from __future__ import annotations

import html
import json
import re

import pytest

from merchantry import games
from merchantry.arena.statistics import wilson
from merchantry.i18n import CLAUSE_ID, PLATFORM_LOCALES, without_clause_ids
from merchantry.package import LANGUAGES


def test_the_games_list_declares_each_option_with_the_values_it_accepts(client):
    listed = {g["name"]: g for g in client.get("/api/games").json()}
    for name in games.names():
        game = games.get(name)
        allowed = game.option_values()
        for option, (default, help_text) in game.options().items():
            declared = listed[name]["options"][option]
            assert declared["default"] == default and declared["help"] == without_clause_ids(help_text)
            # the lobby's help in words: no rules clause id ("variant of XX-A1: ...") shown to a player
            assert declared["help"] and not CLAUSE_ID.search(declared["help"]), declared["help"]
            assert declared["allowed"] == allowed[option].text
            if declared["low"] is not None:  # a whole number's bounds: the ends accepted, one past refused
                assert allowed[option].accepts(declared["low"]) and allowed[option].accepts(declared["high"])
                assert not allowed[option].accepts(declared["high"] + 1)
                assert not allowed[option].accepts(declared["low"] - 1)
            else:
                assert isinstance(default, str), f"{name} {option}: a number without bounds"


def test_an_options_help_keeps_its_words_without_the_clause_ids():
    assert without_clause_ids("variant of XX-H1: the most cards a hand may hold (the rulebook: 7)") == (
        "variant: the most cards a hand may hold (the rulebook: 7)"
    )
    assert without_clause_ids("XX-E2: score after this many rounds") == "score after this many rounds"
    assert without_clause_ids("a bid must beat the best (XX-A4, XX-B1)") == "a bid must beat the best"


def test_a_value_past_an_option_bound_is_refused_in_words(client):
    option = client.get("/api/games").json()[0]
    name, declared = next((n, o) for n, o in option["options"].items() if o["high"] is not None)
    seats = [{"kind": "human"}] + [{"kind": "bot", "bot": "greedy"}] * (option["min_players"] - 1)
    refused = client.post(
        "/api/tables",
        json={
            "game": option["name"],
            "players": len(seats),
            "seats": seats,
            "options": {name: declared["high"] + 1},
        },
    )
    assert refused.status_code == 422 and declared["allowed"] in refused.json()["error"]


def test_each_level_carries_its_measured_win_rate_with_its_interval(client):
    for listed in client.get("/api/games").json():
        data = games.package(listed["name"]).folder / "data" / "bot_ratings.json"
        measured = json.loads(data.read_text())
        assert set(listed["levels"]) == {"easy", "medium", "hard"}
        for level, shown in listed["levels"].items():
            kept = measured[level]
            low, high = wilson(kept["win_rate_vs_greedy"] * kept["games"], kept["games"])
            assert (
                shown["win_rate"] == pytest.approx(kept["win_rate_vs_greedy"])
                and shown["games"] == kept["games"]
            )
            assert shown["low"] == pytest.approx(low, abs=1e-3) and shown["high"] == pytest.approx(
                high, abs=1e-3
            )
            assert shown["low"] <= shown["win_rate"] <= shown["high"]


def test_a_table_says_the_options_it_is_played_with_and_the_defaults(client):
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]
    created = client.post(
        "/api/tables",
        json={"game": "grand_bazaar", "players": 2, "seats": seats, "options": {"start_cash": 20}},
    ).json()
    table = client.get(f"/api/tables/{created['id']}").json()["table"]
    assert table["options"] == {"start_cash": 20}
    assert table["defaults"] == {k: d for k, (d, _) in games.get("grand_bazaar").options().items()}


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_rules_page_has_the_language_menu_and_a_picture_said_to_be_one(client, language):
    text = client.get(f"/rules/byzanz?lang={language}").text
    menu = re.search(r'<select id="lang"[^>]*>(.*?)</select>', text, re.S)
    assert menu, "no language menu"
    assert re.findall(r'<option value="(\w+)"', menu.group(1)) == list(LANGUAGES)
    assert re.findall(r'<option value="(\w+)" selected', menu.group(1)) == [language]
    catalogue = json.loads((PLATFORM_LOCALES / f"{language}.json").read_text(encoding="utf-8"))
    label = catalogue["ui"]["rulesPicture"]
    assert text.count('<figure class="rules-picture">') == 0  # every picture labelled
    assert f'data-label="{html.escape(label)}"' in text
    assert f'<a href="/">{catalogue["ui"]["lobby"]}</a>' in text  # the bar in the page's language too
