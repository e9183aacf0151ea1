"""Rules pages a newcomer can learn from (issue 32): a picture, every number the game uses made from its
data files (so the page cannot drift from the game), and the variants where the rule they change is."""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

import pytest

from merchantry import games
from merchantry.arena.balance import _integer_ends
from merchantry.package import LANGUAGES
from merchantry.server.app import fill_numbers


class Tables(HTMLParser):
    """Every table of a page as {class: rows of cell texts}, and every variant paragraph's text."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, list[list[str]]] = {}
        self.variants: dict[str, str] = {}
        self.images: list[str] = []
        self._table: list[list[str]] | None = None
        self._cell: list[str] | None = None
        self._variant: str | None = None

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "table":
            self._table = self.tables.setdefault(attributes.get("class", "").split()[-1], [])
        elif tag == "tr" and self._table is not None:
            self._table.append([])
        elif tag in ("td", "th") and self._table is not None:
            self._cell = []
        elif tag == "p" and attributes.get("data-option"):
            self._variant = attributes["data-option"]
            self.variants[self._variant] = ""
        elif tag == "img":
            self.images.append(attributes["src"])

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None and self._table is not None:
            self._table[-1].append("".join(self._cell).strip())
            self._cell = None
        elif tag == "table":
            self._table = None
        elif tag == "p":
            self._variant = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)
        if self._variant is not None:
            self.variants[self._variant] += data


def page(client, game: str, language: str) -> Tables:
    response = client.get(f"/rules/{game}?lang={language}")
    assert response.status_code == 200
    assert "<!-- numbers:" not in response.text  # every place filled
    parsed = Tables()
    parsed.feed(response.text)
    return parsed


@pytest.mark.parametrize("game", games.names())
def test_every_rules_page_has_a_picture_that_is_served(client, game):
    for language in LANGUAGES:
        images = page(client, game, language).images
        assert images, f"{game} {language} has no picture"
        for src in images:
            response = client.get(src)
            assert response.status_code == 200 and response.headers["content-type"] == "image/png"
            assert len(response.content) > 10_000  # a real screenshot, not a placeholder


@pytest.mark.parametrize("game", games.names())
def test_every_variant_is_on_the_rules_page_with_its_numbers(client, game):
    known, allowed = games.get(game).options(), games.get(game).option_values()
    for language in LANGUAGES:
        variants = page(client, game, language).variants
        assert set(variants) == set(games.get(game).variants()), f"{game} {language}"
        for name, text in variants.items():
            accepted = [v for v in range(0, 1001) if allowed[name].accepts(v)]
            low, high = _integer_ends(allowed[name])
            after_gaps = {v for v in accepted if v != low and v - 1 not in accepted}  # 0, then 3..15
            ends = {low, high, known[name][0], *after_gaps}
            shown = {int(n) for n in re.findall(r"\d+", text)}
            assert ends <= shown, f"{game} {language} {name}: {sorted(ends - shown)} missing"


def test_samarkand_rules_give_every_marriage_cost_from_the_map(client):
    from merchantry.games.samarkand.components import MAP, START_MONEY

    for language in LANGUAGES:
        tables = page(client, "samarkand", language).tables
        costs = {row[2]: int(row[3]) for row in tables["samarkand-costs"][1:]}
        assert costs == {MAP.spaces[f.start].id: f.cost for f in MAP.families}
        numbers = tables["samarkand-numbers"]
        assert str(START_MONEY) == numbers[1][1]
        goods = tables["samarkand-goods"][1:]
        assert [(int(n), space) for n, _, space in goods] == [
            (s.good, s.id) for s in sorted((s for s in MAP.spaces if s.good), key=lambda s: s.good)
        ]


def test_money_rules_give_the_serials_and_the_card_distribution(client):
    from merchantry.games.money.components import CARD_CODES, CURRENCIES, NOTE_VALUES

    tables = page(client, "money", "en").tables
    rows = tables["money-serials"][1:]
    pairs = [(row[i], row[i + 1]) for i in range(0, len(rows[0]), 2) for row in rows if row[i]]
    assert pairs == [(f"FRED {n:03d}", code) for n, code in enumerate(CARD_CODES, 1)]
    distribution = {row[0]: row[1].split() for row in tables["money-distribution"][1:]}
    assert all(distribution[cur] == [str(v) for v in NOTE_VALUES] for cur in CURRENCIES)
    assert sum(1 for code in CARD_CODES if code == "COIN") == int(
        tables["money-distribution"][-2][1].split()[0]
    )


def test_byzanz_rules_give_the_offer_cards_for_every_player_count(client):
    from merchantry.games.byzanz.components import SETUP

    for language in LANGUAGES:
        rows = page(client, "byzanz", language).tables["byzanz-offers"][1:]
        assert {int(r[0]): [int(v) for v in r[1].split()] for r in rows} == {
            n: row["offers"] for n, row in SETUP.items()
        }


def test_a_rules_page_asking_for_numbers_its_game_does_not_make_is_a_clear_error():
    with pytest.raises(KeyError, match="numbers 'prices'"):
        fill_numbers("<p><!-- numbers:prices --></p>", {"costs": "<table></table>"})
    assert fill_numbers("<!-- numbers:costs -->", {"costs": "<table></table>"}) == "<table></table>"


CLAUSE = re.compile(r"\b[A-Z]{2}-[A-Z]\d")


@pytest.mark.parametrize("game", games.names())
def test_a_rules_page_shows_no_clause_ids(client, game):
    """What a person reads on a rules page names no clause ids ('BZ-A8' means nothing to a newcomer; the
    source keeps them, in comments and in the code)."""
    for language in LANGUAGES:
        text = client.get(f"/rules/{game}?lang={language}").text
        read = re.sub(r"<[^>]*>", " ", re.sub(r"<!--.*?-->", " ", text, flags=re.S))
        assert not CLAUSE.findall(read), f"{game} {language}: {sorted(set(CLAUSE.findall(read)))}"


@pytest.mark.parametrize("game", games.names())
def test_a_rules_page_picture_is_small_and_its_numbered_parts_are_named(client, game):
    """The board's picture (tools/rules_pictures.py) is at most 1280 px wide and small, and under it the
    page names each numbered part in its own language, as the game's images/labels.json lists them."""
    import json

    from merchantry.server.app import png_size

    folder = games.package(game).folder / "images"
    spec = json.loads((folder / "labels.json").read_text(encoding="utf-8"))
    for language in LANGUAGES:
        width, _ = png_size(folder / f"board-{language}.png")
        assert width <= 1280 and (folder / f"board-{language}.png").stat().st_size < 200_000
    for language in LANGUAGES:
        text = client.get(f"/rules/{game}?lang={language}").text
        listed = re.search(r'<ol class="rules-picture-parts">(.*?)</ol>', text, flags=re.S)
        assert listed, f"{game} {language}: the picture's parts are not named"
        items = re.findall(r"<li>(.*?)</li>", listed.group(1))
        assert len(items) == len(spec["labels"])
        for item, label in zip(items, spec["labels"], strict=True):
            assert item == html.escape(label[language]), f"{game} {language}: {item!r}"
            if language != "en":
                assert label[language] != label["en"], f"{game} {language}: {label['en']!r} untranslated"


@pytest.mark.parametrize("game", games.names())
def test_a_rules_pages_picture_is_the_board_drawn_in_the_pages_language(client, game):
    """A German or Portuguese rules page showed the board as drawn in English: each page shows the picture
    tools/rules_pictures.py drew in its language (the PNG says which, and what its first numbered part
    read), and its words are not the English picture's."""
    from PIL import Image

    folder = games.package(game).folder / "images"

    def drawn(language: str) -> dict[str, str]:
        with Image.open(folder / f"board-{language}.png") as picture:
            return dict(picture.text)

    english = drawn("en")
    assert english["language"] == "en" and english["words"]
    for language in [code for code in LANGUAGES if code != "en"]:
        text = client.get(f"/rules/{game}?lang={language}").text
        (shown,) = re.findall(r'<figure class="rules-picture"[^>]*><img src="([^"]+)"', text)
        assert shown == f"/games/{game}/images/board-{language}.png", f"{game} {language}: {shown}"
        made = drawn(language)
        assert made["language"] == language, f"{game}: board-{language}.png was drawn in {made['language']}"
        assert made["words"] != english["words"], f"{game} {language}: its words are the English ones"
        assert client.get(shown).status_code == 200


@pytest.mark.parametrize("game", games.names())
def test_no_table_of_numbers_repeats_a_heading_of_its_page(client, game):
    # Grand Bazaar's read "The numbers" twice, as the section's heading and again as its table's caption
    for language in LANGUAGES:
        text = client.get(f"/rules/{game}?lang={language}").text
        headings = set(re.findall(r"<h2>(.*?)</h2>", text))
        captions = re.findall(r"<caption>(.*?)</caption>", text)
        assert captions and not headings & set(captions), f"{game} {language}"


def test_grand_bazaar_rules_give_every_price_card_with_the_texts_minus_sign(client):
    from merchantry.games.grand_bazaar.components import PRICE_CARDS

    for language in LANGUAGES:
        rows = page(client, "grand_bazaar", language).tables["gb-price-cards"][1:]
        said = {"+1": 1, "0": 0, "\N{MINUS SIGN}1": -1}
        assert [tuple(said[cell] for cell in row[1:]) for row in rows] == [tuple(c) for c in PRICE_CARDS]


@pytest.mark.parametrize("game", games.names())
def test_every_variant_opens_with_its_name_as_the_lobby_says_it_not_its_id(client, game):
    from merchantry.i18n import Translator

    for language in LANGUAGES:
        variants = page(client, game, language).variants
        tr = Translator(game, language)
        for name, text in variants.items():
            label = tr.option(name)
            opening = text.split("”")[0]
            assert label.lower() in opening.lower() and name not in opening, f"{game} {language}: {opening!r}"
            assert f"--option {name}=N" in text  # the id stays where it is typed


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "the discard pile is shuffled into a new deck"),
        ("fr", "la défausse est mélangée pour former une nouvelle pioche"),
        ("de", "wird der Ablagestapel zu\n  einem neuen Nachziehstapel gemischt"),
        ("pt", "o monte de descarte é baralhado num novo\n  baralho"),
    ],
)
def test_sk_t2_the_rules_page_says_the_discards_are_shuffled_into_a_new_deck(client, language, said):
    """SK-T2: discards form a face-down pile, shuffled into a new deck when the deck runs out. The game's
    log said so ("the discard pile is shuffled into a new deck of 7 cards") while its rules page did not (the
    sixth newcomer's pass)."""
    response = client.get(f"/rules/samarkand?lang={language}")
    assert said in response.text


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "with 3-4 players they put one of its two cards\n  into the market and take the other"),
        ("fr", "à 3-4 joueurs il place l'une de ses deux cartes\n  au marché et prend l'autre"),
        ("de", "bei 3-4 Spielern legt er eine seiner zwei\n  Karten auf den Markt und nimmt die andere"),
        ("pt", "com 3-4 jogadores põe\n  uma das suas duas cartas no mercado e leva a outra"),
    ],
)
def test_bz_a9_the_rules_page_says_where_the_last_lot_without_bidding_goes(client, language, said):
    """BZ-A9: the last player of a round takes the last lot without bidding, and with 3-4 players still puts
    one of its two cards into the market (with 5-6 its one card goes there). The page said only "without
    bidding", and the game then asked for a card to put into the market (the sixth newcomer's pass)."""
    response = client.get(f"/rules/byzanz?lang={language}")
    assert said in response.text and "5-6" in response.text
