"""Small findings of a newcomer's pass (issue 32), each checked where it can regress."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
from importlib import resources

import pytest
from rich.console import Console

from merchantry.i18n import Translator
from merchantry.package import LANGUAGES

SAMARKAND_FAMILIES = (
    "Byzantium",
    "Caucasus",
    "Khwarezm",
    "Sogdiana",
    "China",
    "Egypt",
    "Levant",
    "Arabia",
    "Persia",
    "India",
)


@pytest.mark.parametrize("family", SAMARKAND_FAMILIES)
def test_samarkand_expand_move_reads_as_english_for_every_family(family):
    # "a India camel on I4" read wrong: the words must not need an article chosen by the name
    text = Translator("samarkand", "en").move(f"expand {family.lower()} E5")
    assert family in text and "E5" in text, text
    assert not re.search(r"\ba [AEIOUaeiou]", text), text


def test_the_default_player_name_is_in_the_pages_language():
    # "P1 Host (du)": the name a person did not type is chosen from the page's catalogue
    names = {language: Translator(None, language).ui("defaultName") for language in LANGUAGES}
    assert names["en"] == "Host" and len(set(names.values())) == len(LANGUAGES), names
    app = (resources.files("merchantry.server") / "static" / "app.js").read_text(encoding="utf-8")
    assert '"Host"' not in app and 't("defaultName")' in app


@pytest.mark.parametrize("game", ["byzanz", "grand_bazaar", "money", "samarkand"])
def test_every_game_marks_your_own_seat_with_you(game):
    # Money said "P1 Host (you)" where Byzanz said only "P1 Host": the same marker in every game's seats
    drawing = (resources.files(f"merchantry.games.{game}") / "static" / "drawing.js").read_text(
        encoding="utf-8"
    )
    assert re.search(r'=== seat \? ` \(\$\{t\("you"\)\}\)` : ""', drawing), game
    assert all(Translator(game, language).ui("you") != "you" or language == "en" for language in LANGUAGES)


@pytest.mark.parametrize("language", LANGUAGES)
def test_money_lesson_says_which_real_at_first_mention(language):
    # "It is your only real" read as "genuine": the currency is named, with its code, where it first comes
    tr = Translator("money", language)
    first = tr._find("tutorial.addReal")
    assert first and "(BRL)" in first, first
    if language == "en":
        later = " ".join(tr._find(f"tutorial.{key}") or "" for key in ("takeRight", "bluff"))
        assert not re.search(r"\b(the|only) real\b", first + later), later


def test_byzanz_terminal_totals_every_bid_not_only_the_highest():
    from merchantry.games.byzanz.terminal import seats_table

    def seat(number, bid):
        return {
            "seat": number,
            "hand_size": 5,
            "discarded": 0,
            "known": [],
            "bid": bid,
            "offer": None,
            "profits": [],
            "score": 0,
        }

    view = {
        "seat": 0,
        "to_act": [0],
        "phase": "auction",
        "chooser": None,
        "offer_stack": [],
        "auction": {"in": [0, 1], "high_bidder": 1, "high": 4},
        "seats": [seat(0, ["olive2"]), seat(1, ["cloth3", "wood1"])],
    }
    out = io.StringIO()
    Console(file=out, width=200, color_system=None).print(seats_table(view, Translator("byzanz", "en")))
    text = out.getvalue()
    assert "= 4 (high)" in text and "= 2 " in text, text  # your own "olive 2" totalled too


DECIMALS = {
    "en": ("0.00", "+0.50", "\u22121.25"),
    "de": ("0,00", "+0,50", "\u22121,25"),
    "fr": ("0,00", "+0,50", "\u22121,25"),
    "pt": ("0,00", "+0,50", "\u22121,25"),
}


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node to run the page's module")
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_pages_decimals_are_written_as_the_language_writes_them(language):
    # Grand Bazaar in Portuguese said "variação esperada: 0.00": the page's helper, run as the page runs it
    i18n = (resources.files("merchantry.server") / "static" / "i18n.js").as_uri()
    script = f"""
        globalThis.location = {{search: "?lang={language}"}};
        globalThis.localStorage = {{getItem: () => null}};
        globalThis.navigator = {{language: "en"}};
        const {{decimal}} = await import("{i18n}");
        console.log([decimal(0, 2, true), decimal(0.5, 2, true), decimal(-1.25, 2, true)].join(" "));
    """
    out = subprocess.run(
        ["node", "--input-type=module", "-e", script], capture_output=True, text=True, check=True
    )
    assert out.stdout.split() == list(DECIMALS[language]), out.stdout
    drawing = resources.files("merchantry.games.grand_bazaar") / "static" / "drawing.js"
    assert "toFixed" not in drawing.read_text(encoding="utf-8")


def test_samarkand_says_a_marriage_and_its_draw_in_one_line_to_the_drawer_and_hides_the_cards_from_others():
    from merchantry.games.samarkand.game import GAME as SAMARKAND

    state = SAMARKAND.new_game(players=3, seed=7)
    seat = state.to_act()[0]
    marry = next(str(a) for a in state.legal_actions(seat) if str(a).startswith("marry"))
    state.apply(seat, marry)
    tr = Translator("samarkand", "en")
    own = [tr.event(e) for e in state.view(seat)["log"] if e["seat"] == seat]
    assert len(own) == 1 and re.search(r"marries into \w+ for \d+ dirhams and draws \w+", own[0]), own
    assert "goods cards" not in own[0], own  # not counted, then named again on a line of its own
    for other in [s for s in range(3) if s != seat] + [None]:
        lines = [tr.event(e) for e in state.view(other)["log"]]
        assert lines == [own[0].split(" and draws ")[0] + " and draws 3 goods cards"], lines
