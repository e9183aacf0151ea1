"""Issue 32: rough edges a newcomer met in the text, the terminal and the analysis."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from rich.console import Console

from merchantry import games
from merchantry.i18n import Translator
from merchantry.package import LANGUAGES

SAMARKAND = Path(games.package("samarkand").folder)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(
    ("section", "key"),
    [("ui", "cardScored"), ("ui", "pointsNow"), ("ui", "offerWorth"), ("terminal", "card")],
)
def test_a_samarkand_cards_points_are_said_in_the_singular_for_one_and_the_plural_for_more(
    language, section, key
):
    tr = Translator("samarkand", language)
    say = tr.ui if section == "ui" else tr.terminal
    values = {"good": 7, "name": "Silk"}
    one, four = say(key, count=1, **values), say(key, count=4, **values)
    assert "1" in one and "4" in four and "{{" not in one + four
    assert one.replace("1", "4") != four  # a word changes with the number: never "(1 pts)"
    assert "pts" not in one + four


def test_english_samarkand_says_1_point_and_4_points():
    tr = Translator("samarkand", "en")
    assert tr.ui("cardScored", count=1) == "1 point"
    assert tr.ui("cardScored", count=4) == "4 points"
    assert tr.ui("cardScored", count=0) == "0 points"
    assert Translator("samarkand", "pt").ui("cardScored", count=0) == "0 pontos"
    assert Translator("samarkand", "de").ui("cardScored", count=1) == "1 Punkt"


def test_the_samarkand_page_and_terminal_give_the_points_as_the_plural_count():
    script = (SAMARKAND / "static" / "drawing.js").read_text(encoding="utf-8")
    for key in ("cardScored", "pointsNow", "offerWorth"):
        assert re.search(rf't\("{key}", \{{ count: card\.points \}}\)', script), key
    from merchantry.games.samarkand.terminal import draw_own

    view = {
        "hand": [{"good": 3, "name": "Silk", "points": 1}, {"good": 9, "name": "Cinnamon", "points": 4}],
        "hand_limit": 5,
        "offer": None,
        "current": 1,
        "seat": 0,
        "expanding": None,
        "phase": "main",
    }
    out = io.StringIO()
    draw_own(view, Console(file=out, width=200, color_system=None), Translator("samarkand", "en"))
    text = out.getvalue().replace("\u00a0", " ")
    assert "(1 point now)" in text and "(4 points now)" in text
