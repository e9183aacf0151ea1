"""Words a newcomer misread (issue 32), in every language: Byzanz's market button counted cards read as a
value, its held bid's line read as if a card had to go back, Money's rules page left out what a bid is worth
and what the lobby's options mean, and the log's note on lines without a number was jargon."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from merchantry.games.money.game import GAME as MONEY
from merchantry.i18n import Translator
from merchantry.package import LANGUAGES

CARDS = {"en": "cards", "de": "Karten", "fr": "cartes", "pt": "cartas"}
CARD = {"en": "card", "de": "Karte", "fr": "carte", "pt": "carta"}


@pytest.mark.parametrize("language", LANGUAGES)
def test_byzanz_take_says_how_many_cards_and_the_held_bid_says_to_press_bid(language):
    tr = Translator("byzanz", language)
    two, one = tr.ui("takeType", kind="x", count=2), tr.ui("takeType", kind="x", count=1)
    assert f"(2 {CARDS[language]})" in two and f"(1 {CARD[language]})" in one, (two, one)
    held = tr.ui("takeBackHelp")
    bid = tr.ui("move_bid")
    # Bid comes first, as what to do; taking a card back is the aside after it
    assert bid in held and held.index(bid) < len(held) // 2, held


MONEY_RULES_WORDS = {  # what a bid is worth: the sum of its values, whatever the currency; a coin is 10
    "en": ("sum", "whatever their currencies", "coin counts 10"),
    "de": ("Summe", "gleich welcher Währung", "Münze zählt 10"),
    "fr": ("somme", "quelles que soient leurs devises", "pièce compte 10"),
    "pt": ("soma", "seja qual for a divisa", "conta 10"),
}


def test_money_rules_page_says_what_a_bid_is_worth_and_explains_the_lobby_options(client):
    lobby_only = [name for name in MONEY.options() if name not in MONEY.variants()]
    assert set(lobby_only) == {"max_rounds", "removed_currencies", "match_games"}
    for language in LANGUAGES:
        page = client.get(f"/rules/money?lang={language}")
        assert page.status_code == 200
        text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", page.text))
        for words in MONEY_RULES_WORDS[language]:
            assert words in text, f"{language}: {words!r}"
        tr = Translator("money", language)
        for name in lobby_only:  # each by its name in the lobby
            label = tr.option(name)
            assert label.lower() in text.lower(), f"{language}: {label!r} is not explained"
        # the list of the lobby's options names all five, the variants too (it listed three of the five)
        listed = re.search(r"<h2>[^<]*</h2>\s*<ul>(.*?)</ul>", page.text, re.S)
        assert listed, f"{language}: no list of the lobby's options"
        items = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", listed.group(1))).lower()
        for name in MONEY.options():
            assert tr.option(name).lower() in items, f"{language}: {tr.option(name)!r} not in the list"
        # the lobby's "standard" for the currencies left out says what it is (MO-S1), not "none"
        standard = tr._find("optionDefault.removed_currencies")
        assert standard and all(n in standard for n in "435"), f"{language}: {standard!r}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_log_note_on_lines_without_a_number_is_short_and_plain(language):
    note = Translator(None, language).ui("logNumbersLater")
    assert len(note) < 130 and "since a move" not in note, note


SIMPLE_BOTS = {"en": "simple bots", "de": "einfache Bots", "fr": "bots simples", "pt": "bots simples"}


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_lobbys_measured_strength_names_the_opponents_in_plain_words(language):
    # "won 68% … against three greedy bots": greedy is a script's name, not words a newcomer knows
    tr = Translator(None, language)
    line = tr.ui("levelMeasured", rate=68, games=400, low=63, high=72)
    assert "greedy" not in line.lower() and SIMPLE_BOTS[language] in line, line
    assert "68" in line and "400" in line and "63" in line and "72" in line, line
    # a newcomer read "Easy wins 13% against simple bots" as odd: the line says what an even share is
    assert "25" in line and line.index("68") < line.index("25"), line


LIKELY = {
    "en": "likely between",
    "de": "wahrscheinlich zwischen",
    "fr": "probablement entre",
    "pt": "provavelmente entre",
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_measured_number_says_its_range_in_plain_words(language):
    """The lobby's measured strength, the page's hint and the terminal's hint, and the analysis page's chance
    column and mean loss, gave their uncertainty as a "95% interval 63-72%" or a bare "(63-72%)",
    statisticians' words: they say "likely between 63% and 72%", the numbers kept."""
    import json

    from merchantry.i18n import PLATFORM_LOCALES

    catalogue = json.loads((PLATFORM_LOCALES / f"{language}.json").read_text(encoding="utf-8"))
    tr = Translator(None, language)
    said = [
        tr.ui("levelMeasured", rate=68, games=400, low=63, high=72),
        tr.ui("hintChance", chance=68, low=63, high=72),
        catalogue["terminal"]["chance"].replace("{{chance}}", "68%").replace("{{low}}", "63%"),
        tr.ui("chanceCell", before=80, after=68, low=63, high=72),  # the analysis' marks: "80% → 68% (...)"
        tr.ui("likelyRange", low="63", high="72"),  # the analysis' mean loss: "67.5 (likely between ...)"
    ]
    for line in said:
        line = line.replace("{{high}}", "72%")
        assert LIKELY[language] in line and "63" in line and "72" in line, line
        assert "95" not in line and "interval" not in line.lower(), line
    assert "80" in said[3] and "68" in said[3]


LIKELY_WORD = {"en": "likely", "de": "wahrscheinlich", "fr": "probablement", "pt": "provavelmente"}
MARKS = {
    "en": ("Inaccuracy", "mistake", "blunder"),
    "de": ("Ungenauigkeit", "Fehler", "grober Fehler"),
    "fr": ("Imprécision", "erreur", "gaffe"),
    "pt": ("Imprecisão", "erro", "erro grave"),
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_analysis_explains_its_ranges_and_its_marking_rule_in_plain_words(language):
    """The analysis page's help said each chance came "with its 95% interval" and that a move is marked only
    when "the low end of its 95% interval is above 0": it says the range each chance likely lies in (the
    chart's shaded band says so too), and the rule keeps its meaning: the thresholds 5, 10 and 20, and a mark
    only when the low end of the loss's likely range is above 0."""
    tr = Translator(None, language)
    help_text, band = tr.ui("analysisHelp"), tr.ui("chartBand")
    for text in (help_text, band):
        assert LIKELY_WORD[language] in text, text
        assert "95" not in text and "interval" not in text.lower(), text
    for threshold in ("5", "10", "20"):
        assert re.search(rf"\b{threshold}\b", help_text), threshold
    assert all(mark in help_text for mark in MARKS[language])
    assert re.search(r"\b0\)", help_text), "the rule's bound: above 0"


COIN_NAMES = {"en": "coin", "de": "münze", "fr": "pièce", "pt": "moeda"}


@pytest.mark.parametrize("language", LANGUAGES)
def test_money_names_a_note_as_its_card_reads_and_the_coin_in_the_language(language):
    """The German page's cards read "USD", its totals "USD 270", while its log said "US-Dollar 20" (Portuguese
    and French alike: "dólar 20", which could be any of three dollars), and the coin and the bluff card read
    COIN and BLUFF in every language: a note is named by its code and value everywhere, as its card reads,
    the lesson gives the names of the codes it starts from, and the coin's face is in the language."""
    import json

    from merchantry import games
    from merchantry.games.money.components import CURRENCIES as CODES

    tr = Translator("money", language)
    for code in CODES:
        assert tr.term(code) == code
        for value in (20, 30, 40, 50, 60):
            assert tr.term(f"{code}{value}") == f"{code} {value}"
    assert tr.term("COIN").lower().startswith(COIN_NAMES[language])
    assert tr.ui("coinLabel").lower() == COIN_NAMES[language] and tr.ui("bluffLabel")
    if (
        language == "pt"
    ):  # a coin is a "moeda chinesa", as the Portuguese rulebook has it, wherever words name
        # it (the round card's face is a coin to see); a currency is a "divisa" (test_money_pt_...)
        assert tr.term("COIN") == "moeda chinesa 10" and "moedas chinesas" in tr.ui("coins")
        assert tr.ui("coinTitle").startswith("moeda chinesa")
    path = games.package("money").folder / "locales" / f"{language}.json"
    hand = json.loads(path.read_text(encoding="utf-8"))["tutorial"]["hand"]
    assert "GBP" in hand and "USD" in hand, hand
    drawing = (games.package("money").folder / "static" / "drawing.js").read_text(encoding="utf-8")
    assert 't("coinLabel")' in drawing and 't("bluffLabel")' in drawing


def _strings(node, path=""):
    """Every string of a catalogue with its dotted key."""
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _strings(value, f"{path}.{key}" if path else key)
    elif isinstance(node, str):
        yield path, node


def test_money_pt_says_divisa_for_a_currency_and_moeda_only_for_the_coin():
    """Portuguese Money said "moeda" for a currency ("As tuas moedas", "Moedas fora do jogo", the rules page's
    "fica de fora uma moeda") and for the coin card (MOEDA, "moeda chinesa"), while its log said "divisa":
    as the Portuguese rulebook does, a currency is a "divisa" everywhere (interface, log, lesson, terminal,
    options, rules page, the rules picture's labels) and "moeda" names the coin only ("moeda chinesa", the
    coin card's face MOEDA)."""
    import json

    from merchantry import games

    folder = games.package("money").folder
    english = dict(_strings(json.loads((folder / "locales" / "en.json").read_text(encoding="utf-8"))))
    texts = dict(_strings(json.loads((folder / "locales" / "pt.json").read_text(encoding="utf-8"))))
    texts["rules page"] = (folder / "rules" / "pt.html").read_text(encoding="utf-8")
    labels = json.loads((folder / "images" / "labels.json").read_text(encoding="utf-8"))
    texts.update((f"picture label {key}", text) for key, text in _strings(labels) if key.endswith(".pt"))
    platform = Path(games.__file__).parent.parent / "locales" / "pt.json"
    texts.update(_strings(json.loads(platform.read_text(encoding="utf-8")), "platform"))
    for key, text in texts.items():
        if key == "ui.coinLabel":  # the coin card's face
            assert text == "MOEDA"
            continue
        for found in re.finditer(r"\bmoedas?\b(?!\s+chinesas?\b)", text, re.I):
            raise AssertionError(f"{key}: {text[max(0, found.start() - 40) : found.end() + 40]!r}")
    for key, text in english.items():  # where English says currency, Portuguese says divisa
        if re.search(r"\bcurrenc", text, re.I) and "{{currency}}" not in text:
            assert re.search(r"\bdivisas?\b", texts[key], re.I), f"{key}: {texts[key]!r}"
    tr = Translator("money", "pt")
    assert tr.rules("currency") == "Divisa" and tr.ui("removed") == "Divisas fora do jogo"
    assert "moeda chinesa" in tr.rules("coins").lower() or tr.rules("coins") == "Moedas chinesas"
    assert "divisa" in tr.event({"type": "deal", "removed": ["EUR"], "count": 1})


def test_french_analysis_says_the_played_move_and_each_game_its_own_word_for_a_bid():
    """The French analysis headed its column of played moves "Jouées" (the profile's games played: the two
    shared a key) and said a Byzanz bid "l'offre" ("mettre olive2 dans l'offre", "confirmer l'offre") where
    the Byzanz page calls a bid a "mise" (Miser, "Votre mise") and "l'offre" is the offer card: the column
    says "Coup joué" beside "Coup préféré", and each game's moves, terminal and page use one word for its
    bid: a "mise" in Byzanz, an "offre" in Money (its page's "Sceller l'offre")."""
    fr = Translator(None, "fr")
    assert fr.ui("playedMove") == "Coup joué" and fr.ui("preferred") == "Coup préféré"
    assert fr.ui("played") == "Jouées"  # the profile's and the leaderboard's games played
    for language in LANGUAGES:
        assert Translator(None, language).ui("playedMove")
    app = (Path(__file__).parents[2] / "src" / "merchantry" / "server" / "static" / "app.js").read_text()
    assert '["move", "seat", "playedMove", "preferred", "chance", "mark"]' in app

    import json

    from merchantry import games

    byzanz = Translator("byzanz", "fr")
    assert "mise" in byzanz.move("add wine3") and "mise" in byzanz.move("bid") and byzanz.ui("bid") == "Mise"
    folder = games.package("byzanz").folder
    english = dict(_strings(json.loads((folder / "locales" / "en.json").read_text(encoding="utf-8"))))
    french = dict(_strings(json.loads((folder / "locales" / "fr.json").read_text(encoding="utf-8"))))
    for key, text in english.items():  # where English says bid, French never says offre (the offer card's)
        if re.search(r"\bbid", text, re.I):
            said = re.sub(r"cartes? d'offre|l'offre \{\{offer\}\}", "", french[key])
            assert not re.search(r"\boffr", said, re.I), f"{key}: {french[key]!r}"
    money = Translator("money", "fr")
    assert "l'offre" in money.move("bid") and "l'offre" in money.ui("seal")


BID_WORDS = {
    "en": r"\bbid",
    "fr": r"\b(offre(?! de vente)|mise|enchère)",
    "pt": r"\blicita",
    "de": r"\bGebot",
}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", ["money", "byzanz", "grand_bazaar", "samarkand"])
def test_the_analysis_intro_says_what_a_decision_is_in_its_own_game(game, language):
    """The analysis' intro said "a whole move: a bid of several cards, a turn of several steps" for every
    game, a bid in Grand Bazaar and Samarkand, which have none: each game says what one of its decisions
    is (analysisDecision in its own catalogue, in every language), the intro names it, and the page asks
    the game's catalogue for it (the platform's own words, for any game, name no game's moves)."""
    import json

    from merchantry import games

    own = json.loads(
        (games.package(game).folder / "locales" / f"{language}.json").read_text(encoding="utf-8")
    )
    decision = own["ui"]["analysisDecision"]
    tr = Translator(game, language)
    intro = tr.ui("analysisHelp", decision=tr.ui("analysisDecision"))
    assert f"({decision})" in intro and "{{" not in intro
    bids = game in ("money", "byzanz")
    assert bool(re.search(BID_WORDS[language], decision, re.I)) == bids, decision
    assert bids or "cards" not in Translator(game, "en").ui("analysisDecision")
    generic = Translator(None, language).ui("analysisDecision")
    assert generic != decision and not re.search(BID_WORDS[language], generic, re.I)
    app = (Path(__file__).parents[2] / "src" / "merchantry" / "server" / "static" / "app.js").read_text()
    assert (
        app.count("}, analysisHelp(tr)),") == 2
        and 'ui("analysisHelp", { decision: ui("analysisDecision") })' in app
    )
