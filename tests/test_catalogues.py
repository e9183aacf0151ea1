"""Translation catalogues (i18next JSON): every key in every language with the same placeholders, every
event a game logs has a template that fills, and the log reads in each language."""

from __future__ import annotations

import json
import random
import re
import unicodedata
from pathlib import Path

import pytest

from merchantry import games
from merchantry.i18n import PLACEHOLDER, PLATFORM_LOCALES, Translator, log_lines, name_form
from merchantry.package import LANGUAGES
from tests.conformance.walks import random_walk

PLURAL = re.compile(r"_(zero|one|two|few|many|other)$")


def catalogue_folders() -> dict[str, Path]:
    return {"platform": PLATFORM_LOCALES} | {n: games.package(n).folder / "locales" for n in games.names()}


def shape(folder: Path, language: str) -> dict[str, set[str]]:
    """{section.key without plural suffix: the placeholders of all its forms}, a name's form ("family_of",
    from a section `termOf`) read as the name it bends: one language says "von der Levante" where another
    says "Levant"."""
    data = json.loads((folder / f"{language}.json").read_text(encoding="utf-8"))
    forms = "|".join(form for section in data if (form := name_form(section)))
    bent = re.compile(rf"_(?:{forms})$") if forms else None
    out: dict[str, set[str]] = {}
    for section, entries in data.items():
        for key, text in entries.items():
            names = {bent.sub("", name) if bent else name for name in PLACEHOLDER.findall(text)}
            out.setdefault(f"{section}.{PLURAL.sub('', key)}", set()).update(names)
    return out


@pytest.mark.parametrize("owner", list(catalogue_folders()))
def test_every_key_is_in_every_language_with_the_same_placeholders(owner):
    folder = catalogue_folders()[owner]
    english = shape(folder, "en")
    assert english, f"{owner} has an English catalogue"
    for language in LANGUAGES:
        other = shape(folder, language)
        assert set(other) == set(english), f"{owner}/{language}: keys differ from English"
        for key, placeholders in english.items():
            assert other[key] == placeholders, f"{owner}/{language}: {key} has other placeholders"


CLAUSE_ID = re.compile(r"\b[A-Z]{2}-[A-Z][0-9]+")


@pytest.mark.parametrize("owner", list(catalogue_folders()))
def test_no_text_a_person_reads_names_a_rules_clause_id(owner):
    """Clause ids ("GB-R7") are the rules spec's shorthand: a newcomer reading the log, a table's title or a
    hint does not know them, so no catalogue string shows one (the code and tests keep them)."""
    folder = catalogue_folders()[owner]
    for language in LANGUAGES:
        data = json.loads((folder / f"{language}.json").read_text(encoding="utf-8"))
        for section, entries in data.items():
            for key, text in entries.items():
                assert not CLAUSE_ID.search(text), f"{owner}/{language}: {section}.{key} reads {text!r}"


def events_of_random_games(name: str) -> list[dict]:
    game = games.get(name)
    seen: dict[str, dict] = {}
    for seed in range(6):
        players = game.min_players + seed % (game.max_players - game.min_players + 1)
        state = game.new_game(players=players, seed=seed)
        for _ in random_walk(state, random.Random(seed)):
            pass
        for seat in (*range(players), None):
            for event in state.view(seat)["log"]:
                seen.setdefault(event["type"], event)
    return list(seen.values())


@pytest.mark.parametrize("name", games.names())
def test_every_logged_event_reads_in_every_language(name):
    events = events_of_random_games(name)
    assert len(events) >= 4
    for language in LANGUAGES:
        translator = Translator(name, language)
        for event in events:
            text = translator.event(event)
            assert "{{" not in text and not text.startswith(event["type"] + " "), (language, text)
            names = set(event) - {"type", "audience", "others", "new_round"}
            template = json.loads((games.package(name).folder / "locales" / f"{language}.json").read_text())
            forms = [t for k, t in template["event"].items() if PLURAL.sub("", k) == event["type"]]
            # a name's form ("family_of", from a section `termOf`) reads the value it bends
            names |= {f"{n}_{form}" for n in names for section in template if (form := name_form(section))}
            assert forms and all(set(PLACEHOLDER.findall(t)) <= names for t in forms), (language, event)


def test_a_log_reads_in_german_with_german_card_names():
    game = games.get("byzanz")
    state = game.new_game(players=3, seed=2)
    for _ in random_walk(state, random.Random(2)):
        pass
    english, german = log_lines(state.view(None), "en"), log_lines(state.view(None), "de")
    assert len(english) == len(german) and english != german
    sales = [line for line in german if ", behält " in line]
    assert sales and all(re.search(r"(Tuch|Gewürz|Wein|Holz|Korn|Oliven|Händler)", line) for line in sales)
    assert any(line.startswith("Runde 1 von") for line in german)


@pytest.mark.parametrize(
    "language, three, two",
    [
        ("en", "P1 draws tea, myrrh and olives", "P2 bids EUR 20 and USD 50 = 70"),
        ("de", "P1 zieht Tee, Myrrhe und Oliven", "P2 bietet EUR 20 und USD 50 = 70"),
        ("pt", "P1 tira chá, mirra e azeitonas", "P2 licita EUR 20 e USD 50 = 70"),
        ("fr", "P1 pioche thé, myrrhe et olives", "P2 offre EUR 20 et USD 50 = 70"),
    ],
)
def test_a_list_in_a_log_line_is_joined_as_the_language_joins_one(language, three, two):
    """Every game's lists read alike, as the language lists ("tea, myrrh and olives"), never the bare
    "tea myrrh olives"; one item alone has no separator."""
    drew = {"type": "drew_cards", "seat": 0, "cards": ["tea", "myrrh", "olives"]}
    samarkand = Translator("samarkand", language)
    assert samarkand.event(drew) == three
    assert samarkand.event(drew | {"cards": ["tea"]}) == three.split(",")[0]
    bid = {"type": "bid", "seat": 1, "cards": ["EUR20", "USD50"], "value": 70}
    assert Translator("money", language).event(bid) == two


@pytest.mark.parametrize("name", games.names())
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_log_line_begins_as_a_sentence(name, language):
    """A log line starts with a capital letter (or with a name: a seat, a number), as a person writes a
    sentence; Money's first line began "new deal; ..."."""
    path = games.package(name).folder / "locales" / f"{language}.json"
    events = json.loads(path.read_text(encoding="utf-8")).get("event", {})
    lowercase = {key: text for key, text in events.items() if text[:1].isalpha() and not text[:1].isupper()}
    assert not lowercase, f"{name}/{language}: {lowercase}"


def test_plural_forms_follow_the_language():
    translator = Translator("money", "de")
    refill = {"type": "refilled", "right": 4, "left": 4}
    assert translator.event(refill | {"count": 1}).endswith("1 Karte im Stapel")
    assert translator.event(refill | {"count": 7}).endswith("7 Karten im Stapel")
    deal = {"type": "deal", "removed": [], "count": 0}
    assert translator.event(deal) == "Karten verteilt; keine Währung entfernt"
    assert (
        translator.event(deal | {"removed": ["EUR"], "count": 1}) == "Karten verteilt; entfernte Währung: EUR"
    )
    assert Translator("money", "en").event(deal | {"removed": ["EUR"], "count": 1}).endswith("removed: EUR")


@pytest.mark.parametrize("name", games.names())
def test_every_game_has_a_rules_page_in_every_language(name):
    package = games.package(name)
    for language in LANGUAGES:
        page = package.file("rules", f"{language}.html")
        assert page is not None, f"{name} has no {language} rules page"
        text = page.read_text(encoding="utf-8")
        assert text.startswith("<h1>") and "<html" not in text  # a body: the server frames it
        assert text.count("<h2>") >= 3


def test_german_card_and_good_names_are_capitalised_as_nouns_and_fit_a_card():
    from merchantry.games.byzanz.components import MERCHANT_NAME, TYPES
    from merchantry.games.grand_bazaar.components import GEMS
    from merchantry.games.samarkand.components import MAP

    names = {
        "byzanz": [*TYPES, MERCHANT_NAME],
        "grand_bazaar": list(GEMS),
        "samarkand": [*MAP.goods, *(f.name for f in MAP.families)],
    }
    for game, words in names.items():
        german = Translator(game, "de")
        for word in words:
            noun = german.term(word)
            assert noun != word or word[0].isupper(), f"{game}: {word} has no German name"
            assert noun[0].isupper(), f"{game}: {noun!r} is a noun and starts with a capital"
    byzanz = Translator("byzanz", "de")
    assert max(len(byzanz.term(t)) for t in TYPES) <= 6  # a card's label: "Gewürz", not "Gewürze"


# Brazilian forms that must not appear beside European Portuguese with tu (docs/engine.md, "Forms of each
# language"), each with the European form to use instead.
BRAZILIAN_PORTUGUESE = {
    r"\bvocês?\b": "tu / vós",
    r"\btelas?\b": "ecrã",
    r"\btimes?\b": "equipa",
    r"\bequipes?\b": "equipa",
    r"\busuári[oa]s?\b": "utilizador",
    r"\bregistr\w*": "registo, registar",
    r"\barquivos?\b": "ficheiro",
    r"\brodadas?\b": "ronda",
    r"\blances?\b": "licitação",
    r"\brobôs?\b": "bot",
    r"\bcédulas?\b": "nota",
    r"\bcuringas?\b": "joker",
    r"\btrincas?\b": "conjunto de três",
    r"\bsenhas?\b": "palavra-passe",
    r"\bcontatos?\b": "contacto",
    r"\bcelular(es)?\b": "telemóvel",
    r"\bcompartilh\w*": "partilhar",
    r"\bcadastr\w*": "registo, conta",
    r"\bmouse\b": "rato",
    # the Brazilian circumflex where European Portuguese writes an acute accent
    r"\b(prêmio|anônim|econômic|fenômen|gênio|tênis)\w*": "prémio, anónimo, económico",
    r"\baté o\b": "até ao",
    r"\b(est|fic|continu|and)\w*\s+\w+ndo\b": "estar a jogar, not estar jogando",
}


# The formal register (o senhor, você's third-person imperatives) beside the informal tu of the rest ("All
# legal moves" read "clique numa ou escreva-a"), each with the tu form: imperatives as only the formal
# address has them (a noun or a subjunctive of the same spelling, "um clique", "que P2 escolha", passes).
FORMAL_PORTUGUESE = {
    r"\bclique (em|n[oa]s?|aqui)\b": "clica",
    r"\bescreva-[ao]s?\b": "escreve-a",
    r"\b(carregue|digite|pressione|selecione|aguarde|experimente)\b": "carrega, escreve, escolhe, espera",
    # at the start of a sentence, not a noun ("escolha do lote"): "Escolha 2 cartas", not "escolhe 2 cartas"
    r"(^|[.:;!?]\s+)(escolha|faça|veja|tente|use|junte|leve|feche|jogue)\s+(?!d[aoe]s?\b)": "escolhe",
    r"\b(o senhor|a senhora)\b": "tu",
}


def texts_in(language: str) -> dict[str, str]:
    """{where: text} for every catalogue entry, rules page and rules picture label in one language."""
    texts = {}
    for owner, folder in catalogue_folders().items():
        data = json.loads((folder / f"{language}.json").read_text(encoding="utf-8"))
        for section, entries in data.items():
            texts |= {f"{owner}/{language}.json {section}.{key}": text for key, text in entries.items()}
    for name in games.names():
        page = games.package(name).file("rules", f"{language}.html")
        texts[f"{name}/rules/{language}.html"] = re.sub(r"<[^>]+>", " ", page.read_text(encoding="utf-8"))
        # the rules picture's caption and the names of its numbered parts
        labels = games.package(name).file("images", "labels.json")
        if labels is not None:
            spec = json.loads(labels.read_text(encoding="utf-8"))
            parts = [spec["caption"], *spec["labels"]]
            texts[f"{name}/images/labels.json"] = " ".join(part[language] for part in parts)
    return texts


def portuguese_texts() -> dict[str, str]:
    """{where: text} for every Portuguese catalogue entry and rules page."""
    return texts_in("pt")


def test_portuguese_is_european_with_tu_and_no_brazilian_or_formal_forms():
    texts = portuguese_texts()
    assert len(texts) > 400
    found = [
        f"{where}: {match.group(0)!r} (European: {european})"
        for where, text in texts.items()
        for marker, european in (BRAZILIAN_PORTUGUESE | FORMAL_PORTUGUESE).items()
        for match in re.finditer(marker, text, re.IGNORECASE)
    ]
    assert not found, "\n".join(found)


def test_the_brazilian_markers_catch_brazilian_text_and_pass_european_text():
    def flagged(text: str) -> bool:
        markers = BRAZILIAN_PORTUGUESE | FORMAL_PORTUGUESE
        return any(re.search(marker, text, re.IGNORECASE) for marker in markers)

    brazilian = [
        "Agora é com você.",
        "Os outros jogadores estão jogando…",
        "Vou continuar jogando",
        "Um robô joga no seu lugar até o fim.",
        "Dê o seu lance.",
        "Registro salvo.",
        "Todas as jogadas permitidas (3): clique numa ou escreva-a",
        "Escolha uma carta e carregue em Licitar.",
        "Senha atual",
        "Compartilhe o link pelo celular.",
        "O prêmio do jogador anônimo",
    ]
    european = [
        "Agora é contigo.",
        "Os outros jogadores estão a jogar…",
        "Um bot joga até ao fim.",
        "Registo guardado.",
        "Todas as jogadas permitidas (3): clica numa ou escreve-a",
        "Um clique devolve uma carta; à espera que P2 escolha um tipo.",
        "Palavra-passe atual",
        "Partilha o link pelo telemóvel.",
        "O prémio do jogador anónimo; baixar o preço",
    ]
    assert all(flagged(text) for text in brazilian)
    assert not any(flagged(text) for text in european)


# French addresses the reader as "vous" throughout (docs/engine.md, "Forms of each language"): the tu forms
# that must not appear beside it, each with the vous form to use. Pronouns and possessives, and the tu
# imperatives spelt unlike any vous form or noun ("choisis", "prends"; "clique" is also "il clique", so an -er
# verb's is not listed, its vous form "cliquez" is what the catalogues use).
FRENCH_TU = {
    r"(?i)\b(tu|toi|ton|tes|tiens|tienne|tiennes)\b": "vous, votre, vos, les vôtres",
    r"(?i)\b(te|ta)\s": "vous, votre",
    r"(?i)\bt['’][aeiouyéèêh]": "vous",
    r"(?i)-toi\b": "-vous",
    r"(?i)\b(choisis|prends|reprends|mets|remets|fais|vends|attends|écris|lis|finis|sois|aie|dis|vois|viens"
    r"|reviens|bats)\b": "choisissez, prenez",
    # an -er verb's tu imperative opening a sentence ("ouvre cette manche" after a seat's name is "il ouvre")
    r"(^|[.:;!?]\s+)(Ouvre|Clique|Joue|Regarde|Essaie|Laisse|Donne|Envoie|Copie|Garde|Ajoute|Retire|Appuie|Tape"
    r"|Commence|Continue|Lance|Utilise)\s": "Ouvrez",
}


def french_texts() -> dict[str, str]:
    """{where: text} for every French catalogue entry and rules page."""
    return texts_in("fr")


def test_french_says_vous_throughout_and_never_tu():
    texts = french_texts()
    assert len(texts) > 400
    found = [
        f"{where}: {match.group(0)!r} (vous: {vous})"
        for where, text in texts.items()
        for marker, vous in FRENCH_TU.items()
        for match in re.finditer(marker, text)
    ]
    assert not found, "\n".join(found)
    assert sum("vous" in text.lower() or "votre" in text.lower() for text in texts.values()) > 40


def test_the_french_tu_markers_catch_tu_and_pass_vous():
    def flagged(text: str) -> bool:
        return any(re.search(marker, text) for marker in FRENCH_TU)

    tu = [
        "Ton compte est prêt. Ouvre une table ou prends une place ouverte.",
        "Un nouveau compte : choisis un nom ; tu peux prendre des places.",
        "Mot de passe changé : tes autres sessions sont déconnectées",
        "Les places restent les tiennes.",
        "Connecte-toi pour jouer.",
        "C'est à toi de jouer, t'as une minute.",
        "Bienvenue. Clique sur une carte.",
    ]
    vous = [
        "Votre compte est prêt. Ouvrez une table ou prenez une place ouverte.",
        "Choisissez un nom ; vous pouvez prendre des places ouvertes.",
        "Mot de passe changé : vos autres sessions sont déconnectées",
        "Une offre vide passe ce tour ; l'offre de P2 est scellée.",
        "Vendre tissu 4 → 3 points · Tour 2 · temps total, tout est joué.",
        "Le tour de P3 : il clique, puis passe. Une case ouvre une vente. P2 ouvre cette manche.",
    ]
    assert all(flagged(text) for text in tu)
    assert not any(flagged(text) for text in vous)


@pytest.mark.parametrize(
    ("game", "language", "move", "words"),
    [
        ("samarkand", "de", "expand levant D5", "ein Kamel von der Levante auf D5"),
        ("samarkand", "pt", "marry levant", "casar com o Levante"),
        ("byzanz", "de", "sell cloth4 cloth1 merchant", "Tuch 4, Tuch 1, Händler verkaufen"),
        ("money", "fr", "take right", "prendre le groupe de droite"),
        ("money", "de", "take P3", "das Gebot von P3 nehmen"),
        ("grand_bazaar", "en", "buy ruby", "buy one ruby"),
        ("grand_bazaar", "en", "sell emerald", "sell one emerald"),  # never "a emerald"
    ],
)
def test_a_move_reads_in_words_in_every_language(game, language, move, words):
    assert Translator(game, language).move(move) == words


def test_every_move_a_game_offers_reads_in_words_in_every_language():
    for name in games.names():
        game = games.get(name)
        state = game.new_game(players=game.min_players, seed=1)
        moves = set()
        for _seat, action in random_walk(state, random.Random(1)):
            moves.add(str(action))
        folder = games.package(name).folder / "locales"
        for language in LANGUAGES:
            templates = json.loads((folder / f"{language}.json").read_text(encoding="utf-8"))["move"]
            unread = sorted(
                m
                for m in moves
                if m.split()[0] not in templates and "_".join(m.split()).lower() not in templates
            )
            assert not unread, f"{name}/{language}: no words for {unread[:5]}"
            assert all("{{" not in Translator(name, language).move(m) for m in moves)


@pytest.mark.parametrize("name", games.names())
def test_the_final_tables_rank_and_seat_headings_differ_in_every_language(name):
    # German Money read "Platz | Platz" over its end table: rank and seat were one word
    for language in LANGUAGES:
        words: dict[str, str] = {}
        for folder in (PLATFORM_LOCALES, games.package(name).folder / "locales"):
            words |= json.loads((folder / f"{language}.json").read_text(encoding="utf-8")).get("ui", {})
        if "rank" in words and "seat" in words:
            same = f"{name} in {language}: rank and seat both read {words['rank']!r}"
            assert words["rank"] != words["seat"], same


@pytest.mark.parametrize("name", ["byzanz", "grand_bazaar"])
def test_a_lessons_steps_call_a_round_by_the_word_the_board_uses(name):
    # French Grand Bazaar's lesson said "Tour 2" and "après 27 tours" under a board reading "Manche 2 / 27"
    # (in French a "tour" is a player's turn): every step whose English speaks of a round uses the board's
    # word for it, in every language
    english = json.loads((games.package(name).folder / "locales" / "en.json").read_text(encoding="utf-8"))
    about_rounds = [key for key, text in english["tutorial"].items() if re.search(r"\bround", text, re.I)]
    assert about_rounds, f"{name}: no step speaks of a round"
    for language in LANGUAGES:
        platform = json.loads((PLATFORM_LOCALES / f"{language}.json").read_text(encoding="utf-8"))
        lesson = json.loads((games.package(name).folder / "locales" / f"{language}.json").read_text("utf-8"))
        word = platform["ui"]["round"].lower()
        for key in about_rounds:
            assert word in lesson["tutorial"][key].lower(), f"{name}/{language} {key}: no {word!r}"


# One word for one thing in French (issue 32): Samarkand's buttons say "S'allier" while its lesson said
# "épousez une famille", its end table "Jetons" while the lesson said "marqueurs", and the lobby "Bot facile"
# while the lesson's button said "Laisser un robot finir". Each word that must not appear, with the one to
# use.
FRENCH_ONE_WORD = {
    r"(?i)\b(épous\w*|mari(er|é|ée|és|ées|age|ages|ant)|se marier)\b": "s'allier, allié, alliance",
    r"(?i)\b(marqueurs?|marq\.)": "jeton",
}
FRENCH_BOT = {r"(?i)\brobots?\b": "bot"}


def test_french_samarkand_says_s_allier_and_jeton_and_french_says_bot_throughout():
    texts = french_texts()
    labels = json.loads(games.package("samarkand").file("images", "labels.json").read_text(encoding="utf-8"))
    texts["samarkand/images/labels.json"] = " ".join(
        entry["fr"] for entry in [labels["caption"], *labels["labels"]]
    )
    samarkand = {where: text for where, text in texts.items() if where.startswith("samarkand/")}
    assert len(samarkand) > 100
    found = [
        f"{where}: {match.group(0)!r} (say: {say})"
        for markers, chosen in ((FRENCH_ONE_WORD, samarkand), (FRENCH_BOT, texts))
        for where, text in chosen.items()
        for marker, say in markers.items()
        for match in re.finditer(marker, text)
    ]
    assert not found, "\n".join(found)
    assert "S'allier" in Translator("samarkand", "fr").ui("marry")
    assert "Jetons" in Translator("samarkand", "fr").ui("relationMarkers")


# A Byzanz take read "levar todo o azeitona do mercado" (issue 32): the quantifier agreed with no good's
# gender in Portuguese ("todo o" before feminine goods), nor in French ("tout épices") or German ("alle
# Gewürz"). The take counts the cards of the good, whose words agree whatever the good.
TAKE_EVERY = {
    "en": ("every {} card", r"\bevery\s+{}\s+from"),
    "de": ("alle {}-Karten", r"\balle\s+{}(?![-\w])"),  # "alle Händler-Karten" ("Karten der Sorte" was stiff)
    "fr": ("toutes les cartes {}", r"\b(tout|toute|tous|toutes)\s+(les?\s+|la\s+|l')?{}\b"),
    "pt": ("todas as cartas de {}", r"\b(todo|toda|todos|todas)\s+(o|a|os|as)\s+{}\b"),
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_byzanz_take_agrees_with_every_good_in_every_language(language):
    tr = Translator("byzanz", language)
    for good in ("cloth", "spice", "wine", "wood", "grain", "olive", "merchant"):
        words, disagreeing = TAKE_EVERY[language]
        term = tr.term(good)
        text = tr.move(f"take {good}")
        assert words.format(term) in text, f"{language} {good}: {text!r}"
        assert not re.search(disagreeing.format(re.escape(term)), text, re.I), f"{language}: {text!r}"
    if language == "de":  # "alle Karten der Sorte Händler" read as an office form
        german = json.dumps(Translator("byzanz", "de").catalogues[0], ensure_ascii=False)
        assert "der Sorte" not in german


@pytest.mark.parametrize("language", LANGUAGES)
def test_grand_bazaars_gem_letters_are_unique_and_begin_each_gems_name(language):
    """The letter on a gem's track and column (colour is never the only sign): German read "E" for the
    emerald, a Smaragd, whose S was the Saphir's too."""
    tr = Translator("grand_bazaar", language)
    fold = lambda text: unicodedata.normalize("NFD", text).encode("ascii", "ignore").decode().lower()  # noqa: E731
    letters = {gem: tr.ui(f"letter_{gem}") for gem in ("sapphire", "ruby", "emerald")}
    assert len(set(letters.values())) == 3, letters
    for gem, letter in letters.items():
        assert fold(tr.term(gem)).startswith(fold(letter)), f"{language}: {letter} for {tr.term(gem)}"


# a separator written into a game's drawing (`${t("deck")}: ${n}`), not the catalogue's (French " : ")
COLON_IN_CODE = re.compile(r"""\$\{[^{}]*\}: |[(,]\s*": "\s*[,)]""")


@pytest.mark.parametrize("game", games.names())
def test_a_games_drawing_takes_its_colons_from_the_catalogue(game):
    """French typography puts a space before a colon ("à venir : 3 5"); Byzanz's drawing wrote ": " itself.
    Every drawing writes `t("colon")`: ": " in English, German and Portuguese, " : " in French."""
    for script in (games.package(game).folder / "static").glob("*.js"):
        for number, line in enumerate(script.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("//")[0] if not line.lstrip().startswith("//") else ""
            assert not COLON_IN_CODE.search(code), f"{script.name}:{number}: {line.strip()}"
    colons = {language: Translator(game, language).ui("colon") for language in LANGUAGES}
    assert colons == {"en": ": ", "pt": ": ", "fr": " : ", "de": ": "}
