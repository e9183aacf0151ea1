"""Words a newcomer misread on a fifth pass, in every language: a move's words said "your" of any seat's move,
the hard bot had three names in one language, Byzanz's rules page named a good otherwise than the game,
Portuguese said "0 carta", Grand Bazaar's worth was explained as what the gems "would be worth now", and
Samarkand's camel marks came from the English names of the families."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from merchantry import games
from merchantry.i18n import PLATFORM_LOCALES, Translator
from merchantry.package import LANGUAGES

STATIC = Path(__file__).resolve().parents[1] / "src" / "merchantry" / "server" / "static"


def catalogue(folder: Path, language: str) -> dict[str, dict[str, str]]:
    return json.loads((folder / f"{language}.json").read_text(encoding="utf-8"))


# --- 1. a move's words are said of any seat's move (analysis, key moments, turning points, replay) ----------

SECOND_PERSON = {
    "en": r"\b(you|your|yours|yourself)\b",
    "pt": r"\b(tu|te|ti|contigo|teu|teus|tua|tuas|você|vocês"
    r"|vos|vosso|vossa|vossos|vossas)\b",
    "fr": r"\b(tu|te|toi|ton|ta|tes|vous|votre|vos)\b|\bt'",
    "de": r"\b(du|dich|dir|dein|deine|deinen|deinem|deiner|deines|euch|euer|eure"
    r"|Sie|Ihr|Ihre|Ihren|Ihrem)\b",
}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", games.names())
def test_a_moves_words_speak_to_nobody_so_they_read_right_for_any_seat(game, language):
    # Portuguese Money's keep read "recuperar a tua licitação", said of P4 in "while P4 (...) played"
    moves = catalogue(games.package(game).folder / "locales", language).get("move", {})
    assert moves, f"{game}/{language}: no move words"
    flags = 0 if language == "de" else re.IGNORECASE  # German "Sie"/"Ihr" are second person capitalised only
    for key, text in moves.items():
        found = re.search(SECOND_PERSON[language], text, flags)
        assert not found, f"{game}/{language}: move.{key} reads {text!r} ({found.group(0)!r})"


def test_moneys_keep_reads_for_another_seat():
    said = {language: Translator("money", language).move("keep") for language in LANGUAGES}
    assert said == {
        "en": "take back one's own bid",
        "pt": "recuperar a própria licitação",
        "fr": "reprendre sa propre offre",
        "de": "das eigene Gebot zurücknehmen",
    }


# --- 2. the hard bot has one name in each language ----------------------------------------------------------

HARD_BOT = {  # the name, as each language inflects it
    "en": r"hard bot",
    "pt": r"bot difícil",
    "fr": r"bot difficile",
    "de": r"schwere[rn]? Bot",
}
OTHER_NAMES = {  # what it was also called
    "en": r"strong(est)? bot|bot: hard",
    "pt": r"bot (forte|mais forte)|bot: difícil",
    "fr": r"bot (fort|le plus fort)|bot : difficile",
    "de": r"stark\w* Bot|Bot: schwer",
}
NAMES_THE_HARD_BOT = [  # every platform text that names it
    "ui.bot_hard",
    "ui.seatBot_hard",
    "ui.hintHelp",
    "ui.hintSays",
    "ui.analyseHelp",
    "ui.analysisHelp",
    "terminal.commands",
    "terminal.hintThinking",
    "terminal.hint",
]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_hard_bot_has_one_name_in_each_language(language):
    # German read "Bot: schwer" in the lobby, "Der starke Bot würde spielen" at a hint, "Schwerer Bot" at
    # the table; French "bot difficile" and "bot fort"
    data = catalogue(PLATFORM_LOCALES, language)
    for path in NAMES_THE_HARD_BOT:
        section, key = path.split(".")
        text = data[section][key]
        assert re.search(HARD_BOT[language], text, re.IGNORECASE), f"{language}: {path} reads {text!r}"
    folders = {"platform": PLATFORM_LOCALES} | {n: games.package(n).folder / "locales" for n in games.names()}
    for owner, folder in folders.items():
        for section, entries in catalogue(folder, language).items():
            for key, text in entries.items():
                other = re.search(OTHER_NAMES[language], text, re.IGNORECASE)
                assert not other, f"{owner}/{language}: {section}.{key} calls it {other.group(0)!r}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_lobby_and_the_table_name_every_level_alike(language):
    tr = Translator(None, language)
    for level in ("easy", "medium", "hard"):
        assert tr.ui(f"bot_{level}") == tr.ui(f"seatBot_{level}"), (language, level)


# --- 3. Byzanz's rules page names the goods as the game does ----------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_byzanz_rules_page_names_the_goods_as_the_game_does(language):
    # the French page listed "grain" where the game and its table say "céréales"
    from merchantry.games.byzanz.components import TYPES

    folder = games.package("byzanz").folder
    page = (folder / "rules" / f"{language}.html").read_text(encoding="utf-8")
    tr = Translator("byzanz", language)
    named = [tr.term(good) for good in TYPES]
    listed = re.search(r"\((" + r", ".join([r"[^,()]+"] * len(TYPES)) + r")\)", page)
    assert listed, f"{language}: the page lists no goods"
    assert [g.strip() for g in listed.group(1).split(",")] == named, (language, listed.group(1), named)


# --- 4. a count of 0 takes the plural in Portuguese, English and German (the singular in French) ---------


@pytest.mark.parametrize(
    ("language", "zero", "one", "two"),
    [
        ("en", "0 in the deck", "1 in the deck", "2 in the deck"),  # one form: the plural rule below
        ("pt", "0 cartas no baralho", "1 carta no baralho", "2 cartas no baralho"),
        ("fr", "0 carte", "1 carte", "2 cartes"),
        ("de", "0 Karten", "1 Karte", "2 Karten"),
    ],
)
def test_a_count_of_zero_is_plural_but_in_french(language, zero, one, two):
    tr = Translator("money", language)
    said = [tr.event({"type": "refilled", "right": 1, "left": 1, "count": n}) for n in (0, 1, 2)]
    for words, line in zip((zero, one, two), said, strict=True):
        assert words in line, (language, line)
    assert tr.plural(0) == ("one" if language == "fr" else "other")


def test_the_page_chooses_plurals_by_the_same_rules():
    # the page's i18n.js picks a plural form with Intl.PluralRules: "pt" alone is Brazilian Portuguese
    # there too (0 singular), so it maps pt to European Portuguese as merchantry/i18n.py does
    from merchantry.i18n import PLURAL_LOCALE

    script = (STATIC / "i18n.js").read_text(encoding="utf-8")
    table = re.search(r"const PLURAL_LOCALE = \{([^}]*)\}", script)
    assert table and "Intl.PluralRules(PLURAL_LOCALE[lang] || lang)" in script
    pairs = dict(re.findall(r"(\w+): \"([\w-]+)\"", table.group(1)))
    assert {k: v.replace("-", "_") for k, v in pairs.items()} == PLURAL_LOCALE


# --- 5. Grand Bazaar's worth says what it is ----------------------------------------------------------------

WORTH_SAYS = {  # grands + 10 per gem held: what the player would have if the game ended now
    "en": ("grands + 10 per gem", "if the game ended now"),
    "pt": ("grands + 10 por gema", "se o jogo acabasse agora"),
    "fr": ("grands + 10 par gemme", "si la partie finissait maintenant"),
    "de": ("Grands + 10 je", "wenn das Spiel jetzt endete"),
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_grand_bazaars_worth_is_said_as_what_it_is_everywhere(language):
    # "what they would be worth now" read as the gems' worth at today's prices; worth is the grands and 10
    # for each gem held, what the player would have if the game ended now
    folder = games.package("grand_bazaar").folder
    labels = json.loads((folder / "images" / "labels.json").read_text(encoding="utf-8"))["labels"]
    legend = next(label[language] for label in labels if "scores" in label["point"])
    tr = Translator("grand_bazaar", language)
    for text in (legend, tr.ui("worthHelp", value=10), tr.terminal("playersTitle", value=10)):
        for words in WORTH_SAYS[language]:
            assert words in text, f"{language}: {words!r} not in {text!r}"
        assert not re.search(r"would be worth|valeriam|vaudraient|wert wären", text), text


# --- 7. Samarkand's camel marks come from the family names in the reader's language ----------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_samarkands_family_marks_are_distinct_and_come_from_the_names_read(language):
    # German marked Choresmien "K" and Kaukasus "Ca", from the English Khwarezm and Caucasus
    from merchantry.games.samarkand.components import MAP
    from merchantry.games.samarkand.terminal import letter, marks

    tr = Translator("samarkand", language)
    names = [tr.term(f.name) for f in MAP.families]
    marked = marks(names)
    assert len({m.lower() for m in marked}) == len(marked), (language, marked)
    for name, mark in zip(names, marked, strict=True):
        assert name.startswith(mark[0]) and mark[1:].lower() in name[1:].lower(), (name, mark)
    assert [letter(i, tr) for i in range(len(names))] == [m.lower() for m in marked]


def test_samarkands_marks_in_german_and_english():
    from merchantry.games.samarkand.components import MAP
    from merchantry.games.samarkand.terminal import marks

    def of(language: str) -> dict[str, str]:
        tr = Translator("samarkand", language)
        names = [tr.term(f.name) for f in MAP.families]
        return {f.name: m for f, m in zip(MAP.families, marks(names), strict=True)}

    de, en = of("de"), of("en")
    assert (de["Khwarezm"], de["Caucasus"], de["China"]) == ("Co", "K", "Ci")
    assert (en["Khwarezm"], en["Caucasus"], en["China"]) == ("K", "Ca", "Ch")


@pytest.mark.parametrize("language", LANGUAGES)
def test_samarkands_terminal_map_marks_camels_and_start_cities_in_the_readers_language(language):
    from rich.console import Console

    from merchantry.games.samarkand.components import MAP
    from merchantry.games.samarkand.game import GAME
    from merchantry.games.samarkand.terminal import map_text, marks

    tr = Translator("samarkand", language)
    names = [tr.term(f.name) for f in MAP.families]
    view = GAME.new_game(players=3, seed=1).view(0)
    console = Console(width=120, record=True, color_system=None)
    console.print(map_text(view, tr))
    text = console.export_text()
    starts = {name[:3].upper() for name in names}
    assert len(starts) == len(names) and all(start in text for start in starts), (language, starts)
    camels = {marks(names)[f].lower() for cell in view["camels"] for f in cell}
    assert camels and all(mark in text for mark in camels), (language, camels)


def test_the_page_marks_samarkands_families_from_the_names_read():
    script = (games.package("samarkand").folder / "static" / "drawing.js").read_text(encoding="utf-8")
    assert "MARKS = marks(MAP.families.map((f) => tr.term(f.name)));" in script
