"""Rough edges a newcomer met on a sixth pass, in every language: Money's seal button said "sit out" of a bid
holding the bluff card without saying why, and its currencies' totals counted the cards already in the bid."""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
import unicodedata
from importlib import resources
from pathlib import Path

import pytest

from merchantry import games
from merchantry.i18n import Translator
from merchantry.package import LANGUAGES
from tests.games.money_helpers import arrange

needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="needs node to run the page's module")

# the page's h() as plain objects: a tag, its attributes and its children, appended to as the page does
STUB = """
const h = (tag, attrs, ...children) => ({
  tag, attrs: attrs || {}, children: children.flat(Infinity),
  append(...more) { this.children.push(...more.flat(Infinity)); },
});
const seatLabel = (s) => `P${s + 1}`; const seatName = (table, s) => seatLabel(s);
"""

WALK = """
const text = (n) => (n === null || n === undefined || n === false ? ""
  : typeof n === "object" ? n.children.map(text).join("") : String(n));
const find = (n, cls) => (n && typeof n === "object"
  ? [...(String(n.attrs.class || "").split(" ").includes(cls) ? [n] : []),
     ...n.children.flatMap((c) => find(c, cls))]
  : []);
"""


def drawn(tmp_path: Path, game: str, payload: dict, words: dict[str, str], script: str) -> list[str]:
    """Run `script` (given `drawing` = the game's page's render of payload, `text` and `find`) in node on
    the game's drawing.js as the page loads it; the lines it prints."""
    source = (resources.files(f"merchantry.games.{game}") / "static" / "drawing.js").read_text(
        encoding="utf-8"
    )
    module = tmp_path / "drawing.mjs"
    module.write_text(
        source.replace('import { h, seatLabel, seatName } from "/static/dom.js";', STUB), encoding="utf-8"
    )
    run = f"""
        const {{ render }} = await import({json.dumps(module.as_uri())});
        const words = {json.dumps(words)};
        const t = (key, params = {{}}) => (words[key] ?? key).replace(/{{{{(\\w+)}}}}/g, (_, k) => params[k]);
        const drawing = render({json.dumps(payload)}, () => {{}}, t);
        {WALK}
        {script}
    """
    out = subprocess.run(
        ["node", "--input-type=module", "-e", run], capture_output=True, text=True, check=True
    )
    return out.stdout.splitlines()


def seat_one_payload(state, legal: bool = True) -> dict:
    """What the page is sent for P1 at `state` (its legal moves unless `legal` is False: a replay)."""
    moves = [str(a) for a in state.legal_actions(0)] if legal else []
    return {"view": state.view(0), "legal": moves, "seat": 0, "table": {}}


def money_words(language: str) -> dict[str, str]:
    tr = Translator("money", language)
    keys = ("seal", "sitOut", "bluffOnly", "totals", "totalsHelp", "colon", "hand", "yourBid", "bidValue")
    return {key: tr.ui(key) for key in keys}


# --- 1. a bid of only the bluff card: the page says why sealing it sits the round out (MO-R2) -------------


@needs_node
@pytest.mark.parametrize("language", LANGUAGES)
def test_mo_r2_the_page_says_a_bid_of_only_the_bluff_card_passes_this_round(language, tmp_path):
    words = money_words(language)
    assert words["bluffOnly"] != "bluffOnly" and words["bluffOnly"] not in (words["sitOut"], words["seal"])
    state = arrange(hands=[["EUR20", "GBP30"], ["AUD20"], ["BRL20"], ["CAD20"]])
    state.apply(0, "add BLUFF")
    payload = seat_one_payload(state)
    assert payload["view"]["my_bid"] == ["BLUFF"]
    script = """
        for (const n of find(drawing, "bluff-only")) console.log("note " + text(n));
        const seal = find(drawing, "primary").filter((b) => b.attrs["data-move"] === "bid");
        for (const n of seal) console.log("button " + text(n));
    """
    lines = drawn(tmp_path, "money", payload, words, script)
    assert lines == [f"note {words['bluffOnly']}", f"button {words['sitOut']}"], lines
    # a bid with a note in it: the button seals, and no line about the bluff card
    state.apply(0, "add EUR20")
    payload = seat_one_payload(state)
    assert drawn(tmp_path, "money", payload, words, script) == [f"button {words['seal']}"]


# --- 2. the currencies' totals count the hand shown above them, not the cards moved into the bid ---------


@needs_node
@pytest.mark.parametrize("language", LANGUAGES)
def test_money_page_totals_count_what_is_still_in_the_hand_not_the_bid(language, tmp_path):
    words = money_words(language)
    state = arrange(hands=[["EUR20", "EUR50", "GBP30"], ["AUD20"], ["BRL20"], ["CAD20"]])
    state.apply(0, "add EUR50")
    state.apply(0, "add GBP30")
    payload = seat_one_payload(state)
    script = """for (const n of find(drawing, "money-total")) console.log(text(n));"""
    assert drawn(tmp_path, "money", payload, words, script) == ["EUR 20 / 200"]  # EUR 70 and GBP 30 before


# --- 3. a replay at move 0 from P1's point of view names P1 among the seats awaited ----------------------


@needs_node
@pytest.mark.parametrize("language", LANGUAGES)
def test_money_replay_at_move_0_waits_for_every_seat_the_viewers_too(language, tmp_path):
    words = money_words(language) | {"waitingFor": Translator("money", language)._find("ui.waitingFor") or ""}
    state = arrange(players=3, hands=[["EUR20"], ["AUD20"], ["CAD20"]])
    # the replay page draws a seat's point of view with no legal move (app.js, replayPage)
    payload = seat_one_payload(state, legal=False)
    script = """for (const n of find(drawing, "money-prompt")) console.log(text(n));"""
    lines = drawn(tmp_path, "money", payload, words, script)
    assert (
        len(lines) == 1 and lines[0] != words["waitingFor"] and all(f"P{p}" in lines[0] for p in (1, 2, 3))
    ), lines
    # at a live table the seat that may seal is told to, not listed as awaited
    live = seat_one_payload(state)
    assert drawn(tmp_path, "money", live, words | {"promptBid": "SEAL"}, script) == ["SEAL"]


# --- 4. a rules page's examples name the cards in the page's words, not by their English codes -----------


@pytest.mark.parametrize("language", [language for language in LANGUAGES if language != "en"])
@pytest.mark.parametrize("game", games.names())
def test_a_rules_pages_examples_name_cards_in_its_language_not_by_english_codes(game, language):
    # Byzanz's French example: "un lot de cinq (grain3, olive3, cloth2, ...)" where the page says "céréales"
    folder = games.package(game).folder
    terms = json.loads((folder / "locales" / f"{language}.json").read_text(encoding="utf-8")).get("term", {})
    codes = {
        code
        for code, word in terms.items()
        if re.fullmatch(r"[A-Za-z]+\d+", code) and word.replace(" ", "") != code
    }
    page = (folder / "rules" / f"{language}.html").read_text(encoding="utf-8")
    prose = re.sub(
        r"<em>.*?</em>|<code>.*?</code>", "", page, flags=re.S
    )  # typed moves are the moves' syntax
    assert not sorted({word for word in re.findall(r"\b[A-Za-z]+\d+\b", prose) if word in codes})


# --- 5. French names Byzanz's kept cards one way: "profit", as its score's heading says ------------------


def french_texts(game: str) -> list[str]:
    """Every French text of a game: its catalogue, its rules page, its picture's labels."""
    folder = games.package(game).folder

    def strings(node: object) -> list[str]:
        if isinstance(node, dict):
            return [text for value in node.values() for text in strings(value)]
        return [node] if isinstance(node, str) else []

    texts = strings(json.loads((folder / "locales" / "fr.json").read_text(encoding="utf-8")))
    texts.append((folder / "rules" / "fr.html").read_text(encoding="utf-8"))
    labels = folder / "images" / "labels.json"
    if labels.exists():
        texts += [label["fr"] for label in json.loads(labels.read_text(encoding="utf-8"))["labels"]]
    return texts


def test_french_byzanz_says_profit_points_everywhere_never_benefice():
    # the picture's parts said "points de bénéfice", the score's heading "Points de profit"
    texts = french_texts("byzanz")
    assert Translator("byzanz", "fr").ui("profitPoints") == "Points de profit"
    assert not [text for text in texts if re.search(r"bénéfice", text, flags=re.I)]


# --- 6. French puts a space before ":" ";" "!" "?" in every string, and the page writes its colons so too --

FRENCH_MARK_UNSPACED = re.compile(r"(?<=[^\s\u00a0\u202f])[:;!?](?!//)")  # not "https://"


def all_strings(node: object) -> list[str]:
    if isinstance(node, dict):
        return [text for value in node.values() for text in all_strings(value)]
    if isinstance(node, list):
        return [text for value in node for text in all_strings(value)]
    return [node] if isinstance(node, str) else []


def test_every_french_string_has_a_space_before_its_colons_and_other_high_marks():
    from merchantry.i18n import PLATFORM_LOCALES

    texts = all_strings(json.loads((PLATFORM_LOCALES / "fr.json").read_text(encoding="utf-8")))
    for game in games.names():
        texts += french_texts(game)
    assert len(texts) > 500
    unspaced = []
    for text in texts:
        prose = re.sub(r"\{\{\w+\}\}", "x", text)  # a placeholder's braces
        prose = html.unescape(re.sub(r"<[^>]+>", "", prose))  # a rules page's tags and entities ("&amp;")
        unspaced += [
            prose[max(0, m.start() - 30) : m.end() + 10] for m in FRENCH_MARK_UNSPACED.finditer(prose)
        ]
    assert not unspaced, unspaced
    assert Translator(None, "fr").ui("colon") == " : "


# a separator the code writes itself (`${t("winner")}: ${...}`), not the catalogue's (French " : ")
COLON_IN_CODE = re.compile(r"""\$\{[^{}]*\}: |[(,]\s*": "\s*[,)]""")
NOT_MINE: tuple[str, ...] = ()  # functions left out of the check (none now)


def test_the_platforms_pages_take_their_colons_from_the_catalogue_gagnant_space_colon():
    # the end of a French table read "Gagnant: P2": app.js wrote ": " after t("winner")
    static = Path(games.__file__).resolve().parents[1] / "server" / "static"
    found = []
    for script in sorted(static.glob("*.js")):
        skipping = False
        for number, line in enumerate(script.read_text(encoding="utf-8").splitlines(), 1):
            if re.match(r"(async )?function \w+", line):
                skipping = any(re.match(rf"(async )?function {name}\(", line) for name in NOT_MINE)
            code = line.split("//")[0] if not line.lstrip().startswith("//") else ""
            if not skipping and COLON_IN_CODE.search(code) and "throw new Error" not in code:
                found.append(f"{script.name}:{number}: {line.strip()}")
    assert not found, found


# --- 7. a turning point spanning two rounds names each seat once, with its moves ---------------------------

SPANNING = {  # P1's chance fell while P2 ended round 3 and began round 4 (Grand Bazaar's turn order moves on)
    "kind": "turning",
    "move": 9,
    "round": 3,
    "by": [1, 2],
    "moves": [
        {"seat": 1, "played": "buy ruby"},
        {"seat": 2, "played": "pass"},
        {"seat": 1, "played": "sell emerald"},
    ],
    "from": 60,
    "to": 20,
}


@needs_node
def test_a_turning_point_across_two_rounds_names_each_seat_once_on_the_page():
    i18n = (resources.files("merchantry.server") / "static" / "i18n.js").as_uri()
    script = f"""
        globalThis.location = {{search: "?lang=en"}};
        globalThis.localStorage = {{getItem: () => null}};
        globalThis.navigator = {{language: "en"}};
        const {{ playsBySeat }} = await import("{i18n}");
        console.log(JSON.stringify(playsBySeat({json.dumps(SPANNING["moves"])})));
    """
    out = subprocess.run(
        ["node", "--input-type=module", "-e", script], capture_output=True, text=True, check=True
    )
    assert json.loads(out.stdout) == [[1, ["buy ruby", "sell emerald"]], [2, ["pass"]]]
    app = (resources.files("merchantry.server") / "static" / "app.js").read_text(encoding="utf-8")
    button = app[app.index("function momentButton(") : app.index("function wholeMove(")]
    assert "playsBySeat(m.moves)" in button and "m.moves.map((other) =>\n" not in button


def test_a_turning_point_across_two_rounds_names_each_seat_once_in_the_terminal():
    from merchantry.cli import moment_in_words

    said = moment_in_words(SPANNING, 0)
    assert said.count("P2") == 1 and said.count("P3") == 1, said
    assert "P2 played buy ruby and 1 other move; P3 played pass" in said, said  # its first move quoted


# --- 8. a negative figure is written with the minus sign "−", not a hyphen ---------------------------------


@needs_node
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_pages_negative_figures_use_the_minus_sign(language):
    # Grand Bazaar's expected change read "-0.04": the page's decimal() (the worth figures, the analysis)
    i18n = (resources.files("merchantry.server") / "static" / "i18n.js").as_uri()
    script = f"""
        globalThis.location = {{search: "?lang={language}"}};
        globalThis.localStorage = {{getItem: () => null}};
        globalThis.navigator = {{language: "en"}};
        const {{ decimal }} = await import("{i18n}");
        console.log([decimal(-0.04, 2, true), decimal(-12.5, 1), decimal(0.04, 2, true)].join(" "));
    """
    out = subprocess.run(
        ["node", "--input-type=module", "-e", script], capture_output=True, text=True, check=True
    )
    shown = out.stdout.split()
    assert [s[0] for s in shown] == ["\u2212", "\u2212", "+"] and "-" not in out.stdout, shown


def test_grand_bazaars_terminal_writes_a_negative_expected_change_with_the_minus_sign():
    from rich.console import Console

    from merchantry.games.grand_bazaar.game import GAME
    from merchantry.games.grand_bazaar.terminal import price_board

    view = GAME.new_game(players=3, seed=1).view(0)
    gems = len(view["gems"])
    view["remaining_cards"] = [[-1] * gems, [0] * gems, [0] * gems]  # an expected change of −0.33 for each
    console = Console(width=120, record=True)
    console.print(price_board(view))
    text = console.export_text()
    assert "\u22120.33" in text and "-0.33" not in text, text


# --- 9. a Samarkand sale offer says from the start that it is answered within 30 s, clock or none ----------


def samarkand_module(tmp_path: Path) -> Path:
    """Samarkand's drawing.js as a module node runs: h() as plain objects, its map read from the file."""
    source = (resources.files("merchantry.games.samarkand") / "static" / "drawing.js").read_text(
        encoding="utf-8"
    )
    map_json = (resources.files("merchantry.games.samarkand") / "data" / "map.json").as_uri()
    module = tmp_path / "samarkand.mjs"
    module.write_text(
        source.replace('import { h, seatName } from "/static/dom.js";', STUB).replace(
            'await (await fetch("/games/samarkand/data/map.json")).json()',
            f'JSON.parse((await import("node:fs")).readFileSync(new URL({json.dumps(map_json)}), "utf-8"))',
        ),
        encoding="utf-8",
    )
    return module


def test_the_payload_says_how_long_a_step_with_unseen_answers_waits_at_a_table_without_a_clock(tmp_path):
    import random as chance

    from merchantry.server.db import open_database
    from merchantry.server.tables import UNSEEN_ANSWER_SECONDS, TableService
    from tests.server.test_bot_secrecy import samarkand_offer

    service = TableService(open_database(f"sqlite:///{tmp_path / 'merchantry.db'}"))
    table_id = samarkand_offer(service, chance.Random(3))  # a table made without a clock
    table = service.payload(table_id, 0)["table"]
    assert not table["turn_seconds"] and not table["total_seconds"]
    assert table["decision_deadline"] is not None  # a sale offer is open, and counted down
    assert table["decision_seconds"] == UNSEEN_ANSWER_SECONDS == 30


@needs_node
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("clock", [0, 60])
def test_samarkands_sale_offer_says_it_is_answered_within_30_s_at_a_table_with_or_without_a_clock(
    language, clock, tmp_path
):
    tr = Translator("samarkand", language)
    keys = (
        "offerTitle",
        "offerWaitTitle",
        "offerDeadlineRule",
        "offerDeadlineRuleNoClock",
        "keep",
        "sell",
        "colon",
    )
    words = {key: tr._find(f"ui.{key}") or key for key in keys}
    module = samarkand_module(tmp_path)
    script = f"""
        globalThis.document = {{ activeElement: null, body: null }};
        const {{ offerPanel }} = await import({json.dumps(module.as_uri())});
        const words = {json.dumps(words)};
        const t = (key, params = {{}}) => (words[key] ?? key).replace(/{{{{(\\w+)}}}}/g, (_, k) => params[k]);
        const tr = {{ term: (w) => w }};
        {WALK}
        const view = {{ offer: {{ good: 3, name: "brown" }}, hand: [], over: false, log: [] }};
        const table = {{ decision_seconds: 30, turn_seconds: {clock}, total_seconds: 0 }};
        for (const answering of [false, true]) {{
          const moves = {{ sell: new Set(answering ? [3] : []) }};
          const panel = offerPanel(view, moves, () => {{}}, "", t, tr, table);
          for (const n of find(panel, "sk-offer-rule")) console.log(text(n));
        }}
    """
    out = subprocess.run(
        ["node", "--input-type=module", "-e", script], capture_output=True, text=True, check=True
    )
    rule = tr.ui("offerDeadlineRule" if clock else "offerDeadlineRuleNoClock", seconds=30)
    assert out.stdout.splitlines() == [rule, rule]
    assert "30 s" in rule


# --- 10. Samarkand's camel marks are told apart at a glance: never "A" and "Ä" ---------------------------


def glance(mark: str) -> str:
    """A mark as the eye takes it in at a glance: without accents, any case."""
    return "".join(c for c in unicodedata.normalize("NFD", mark) if not unicodedata.combining(c)).lower()


@pytest.mark.parametrize("language", LANGUAGES)
def test_samarkands_terminal_marks_differ_at_a_glance_not_only_by_an_accent(language):
    from merchantry.games.samarkand.components import MAP
    from merchantry.games.samarkand.terminal import marks

    tr = Translator("samarkand", language)
    names = [tr.term(f.name) for f in MAP.families]
    marked = marks(names)
    assert len({glance(m) for m in marked}) == len(marked), dict(zip(names, marked, strict=True))
    if language == "de":
        assert {marked[names.index("Ägypten")], marked[names.index("Arabien")]} == {"Äg", "Ar"}


@needs_node
@pytest.mark.parametrize("language", LANGUAGES)
def test_samarkands_page_marks_differ_at_a_glance_as_the_terminals_do(language, tmp_path):
    from merchantry.games.samarkand.components import MAP
    from merchantry.games.samarkand.terminal import marks

    tr = Translator("samarkand", language)
    names = [tr.term(f.name) for f in MAP.families]
    module = samarkand_module(tmp_path)
    script = f"""
        const {{ marks }} = await import({json.dumps(module.as_uri())});
        console.log(JSON.stringify(marks({json.dumps(names)})));
    """
    out = subprocess.run(
        ["node", "--input-type=module", "-e", script], capture_output=True, text=True, check=True
    )
    assert json.loads(out.stdout) == marks(names)
