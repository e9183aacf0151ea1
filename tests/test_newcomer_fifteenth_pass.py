"""Issue 32, the fifteenth newcomer pass: its rough edges (grammar of generated text, notation), pinned."""

from __future__ import annotations

import json
import shutil
import subprocess
from importlib import resources

import pytest

from merchantry.i18n import Translator, name_form

FAMILIES = (
    "byzantium",
    "caucasus",
    "khwarezm",
    "sogdiana",
    "china",
    "egypt",
    "levant",
    "arabia",
    "persia",
    "india",
)

# Samarkand's move text for every family: a marriage and a camel, as each language bends the name after its
# preposition ("un chameau de Arabie", "s'allier à Chine" in French; "in Levante einheiraten" in German;
# "um camelo de China" in Portuguese)
MARRY = {
    "fr": [
        "s'allier à Byzance",
        "s'allier au Caucase",
        "s'allier au Khwarezm",
        "s'allier à la Sogdiane",
        "s'allier à la Chine",
        "s'allier à l'Égypte",
        "s'allier au Levant",
        "s'allier à l'Arabie",
        "s'allier à la Perse",
        "s'allier à l'Inde",
    ],
    "de": [
        "in Byzanz einheiraten",
        "in den Kaukasus einheiraten",
        "in Choresmien einheiraten",
        "in Sogdien einheiraten",
        "in China einheiraten",
        "in Ägypten einheiraten",
        "in die Levante einheiraten",
        "in Arabien einheiraten",
        "in Persien einheiraten",
        "in Indien einheiraten",
    ],
    "pt": [
        "casar com Bizâncio",
        "casar com o Cáucaso",
        "casar com a Corásmia",
        "casar com a Sogdiana",
        "casar com a China",
        "casar com o Egito",
        "casar com o Levante",
        "casar com a Arábia",
        "casar com a Pérsia",
        "casar com a Índia",
    ],
}
EXPAND = {
    "fr": [
        "un chameau de Byzance en K2",
        "un chameau du Caucase en K2",
        "un chameau du Khwarezm en K2",
        "un chameau de Sogdiane en K2",
        "un chameau de Chine en K2",
        "un chameau d'Égypte en K2",
        "un chameau du Levant en K2",
        "un chameau d'Arabie en K2",
        "un chameau de Perse en K2",
        "un chameau d'Inde en K2",
    ],
    "de": [
        "ein Kamel von Byzanz auf K2",
        "ein Kamel vom Kaukasus auf K2",
        "ein Kamel von Choresmien auf K2",
        "ein Kamel von Sogdien auf K2",
        "ein Kamel von China auf K2",
        "ein Kamel von Ägypten auf K2",
        "ein Kamel von der Levante auf K2",
        "ein Kamel von Arabien auf K2",
        "ein Kamel von Persien auf K2",
        "ein Kamel von Indien auf K2",
    ],
    "pt": [
        "um camelo de Bizâncio em K2",
        "um camelo do Cáucaso em K2",
        "um camelo da Corásmia em K2",
        "um camelo da Sogdiana em K2",
        "um camelo da China em K2",
        "um camelo do Egito em K2",
        "um camelo do Levante em K2",
        "um camelo da Arábia em K2",
        "um camelo da Pérsia em K2",
        "um camelo da Índia em K2",
    ],
}
MOVES = [f"marry {family}" for family in FAMILIES] + [f"expand {family} K2" for family in FAMILIES]


def test_samarkand_families_are_the_ten_the_move_text_is_checked_for():
    from merchantry.games.samarkand.actions import FAMILY_WORDS

    assert sorted(FAMILY_WORDS) == sorted(FAMILIES)


@pytest.mark.parametrize("language", sorted(MARRY))
def test_samarkand_move_text_bends_every_familys_name_after_its_preposition(language):
    tr = Translator("samarkand", language)
    assert [tr.move(m) for m in MOVES] == MARRY[language] + EXPAND[language]


@pytest.mark.parametrize("language", ["en", *sorted(MARRY)])
def test_every_samarkand_family_has_each_form_its_language_uses(language):
    catalogue = json.loads(
        (resources.files("merchantry.games.samarkand") / "locales" / f"{language}.json").read_text("utf-8")
    )
    english = json.loads(
        (resources.files("merchantry.games.samarkand") / "locales" / "en.json").read_text("utf-8")
    )
    families = {name for name in english["term"] if name.lower() in FAMILIES}
    assert len(families) == 10
    forms = [section for section in catalogue if name_form(section)]
    assert sorted(forms) == ["termInto", "termOf"]
    for form in forms:
        assert set(catalogue[form]) == families, form


def test_samarkand_german_log_bends_the_familys_name():
    tr = Translator("samarkand", "de")
    camel = tr.event({"type": "camel_one", "seat": 0, "family": "Levant", "space": "K2"})
    assert camel == "P1 setzt ein Kamel von der Levante auf K2"
    met = {"type": "relationship", "seat": 0, "family": "Caucasus", "other": "Levant", "count": 2}
    said = tr.event({**met, "active_seats": [0], "passive_seats": [1]})
    assert "Eingeheiratet in den Kaukasus: P1" in said and "Eingeheiratet in die Levante: P2" in said, said
    unheld = tr.event({**met, "type": "relationship_unheld", "active_seats": [0]})
    assert "Niemand hat in die Levante eingeheiratet." in unheld, unheld


def test_a_language_without_a_form_of_a_name_says_the_name_itself():
    tr = Translator("samarkand", "en")
    assert tr.move("marry levant") == "marry into Levant"
    assert tr.move("expand egypt B2") == "a camel of Egypt on B2"


# two families meet: one seat married into the first, two into the second; then two into the first, none
# into the second
MEETINGS = [
    {"type": "relationship", "seat": 1, "family": "Arabia", "other": "Levant", "count": 2}
    | {"active_seats": [1], "passive_seats": [1, 2]},
    {"type": "relationship_unheld", "seat": 1, "family": "Arabia", "other": "Levant", "count": 1}
    | {"active_seats": [0, 1]},
]
PAID = {
    "en": (
        "Married into Arabia: P2, 3 dirhams.",
        "Married into Levant: P2 and P3, 1 dirham each.",
        "Married into Arabia: P1 and P2, 3 dirhams each.",
    ),
    "fr": (
        "Allié à la famille Arabie : P2, 3 dirhams.",
        "Alliés à la famille Levant : P2 et P3, 1 dirham chacun.",
        "Alliés à la famille Arabie : P1 et P2, 3 dirhams chacun.",
    ),
    "de": (
        "Eingeheiratet in Arabien: P2, 3 Dirham.",
        "Eingeheiratet in die Levante: P2 und P3, je 1 Dirham.",
        "Eingeheiratet in Arabien: P1 und P2, je 3 Dirham.",
    ),
    "pt": (
        "Casado com a família Arábia: P2, 3 dirhams.",
        "Casados com a família Levante: P2 e P3, 1 dirham cada.",
        "Casados com a família Arábia: P1 e P2, 3 dirhams cada.",
    ),
}


@pytest.mark.parametrize("language", sorted(PAID))
def test_samarkand_sk_r2_relationship_payouts_say_each_only_for_more_than_one_player_paid(language):
    """The log read "Married into Arabia: P2 Medium bot, 3 dirhams each" when one player was paid."""
    tr = Translator("samarkand", language)
    one_paid, two_paid, both_first = PAID[language]
    first, unheld = (tr.event(event) for event in MEETINGS)
    assert one_paid in first and two_paid in first, first
    assert both_first in unheld, unheld


NODE_SCRIPT = """
import {{ readFileSync }} from "node:fs";
globalThis.location = {{ search: "?lang={language}" }};
globalThis.localStorage = {{ getItem: () => null }};
globalThis.navigator = {{ language: "en" }};
const root = {root};
globalThis.fetch = async (url) => {{
  const path = url.startsWith("/games/") ? `${{root}}/games/${{url.slice(7)}}` : `${{root}}${{url}}`;
  try {{
    const text = readFileSync(path, "utf-8");
    return {{ ok: true, json: async () => JSON.parse(text) }};
  }}
  catch {{ return {{ ok: false }}; }}
}};
const i18n = await import(`${{root}}/server/static/i18n.js`);
await i18n.loadLanguage();
const tr = await i18n.gameTranslator("samarkand");
console.log(JSON.stringify({{
  moves: {moves}.map((m) => tr.move(m)),
  camel: tr.event({{ type: "camel_one", seat: 0, family: "Levant", space: "K2" }}),
  met: {met}.map((event) => tr.event(event)),
  start: tr.ui("start", tr.named("family", "Levant")),
  second: tr.ui("promptSecond", tr.named("family", "Caucasus")),
}}));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node to run the page's module")
@pytest.mark.parametrize("language", ["en", *sorted(MARRY)])
def test_the_pages_samarkand_move_text_bends_family_names_as_the_server_does(language):
    root = str(resources.files("merchantry"))
    script = NODE_SCRIPT.format(
        language=language, root=json.dumps(root), moves=json.dumps(MOVES), met=json.dumps(MEETINGS)
    )
    out = subprocess.run(
        ["node", "--input-type=module", "-e", script], capture_output=True, text=True, check=True
    )
    said = json.loads(out.stdout)
    tr = Translator("samarkand", language)
    assert said["moves"] == [tr.move(m) for m in MOVES]
    assert said["camel"] == tr.event({"type": "camel_one", "seat": 0, "family": "Levant", "space": "K2"})
    assert said["met"] == [tr.event(event) for event in MEETINGS]
    if language == "de":  # the page's own sentences with a family's name bend it too
        assert said["start"] == "Start von der Levante"
        assert said["second"].startswith("Setze ein zweites Kamel vom Kaukasus ("), said["second"]


# a chart's caption and a turning point after a shared win: the winners' lines end at their share
SHARED_WIN = {
    "en": "shared win",
    "de": "geteilten Sieg",
    "fr": "victoire partagée",
    "pt": "vitória partilhada",
}


@pytest.mark.parametrize("language", sorted(SHARED_WIN))
def test_the_analysis_charts_caption_says_a_shared_win_ends_a_line_at_the_winners_share(language):
    caption = Translator(None, language).ui("chartPerspective")
    assert SHARED_WIN[language] in caption and "50" in caption, caption


def test_a_turning_point_to_a_shared_win_says_it_was_a_shared_win():
    from merchantry.bots.analysis import turning_points
    from merchantry.cli import moment_in_words
    from tests.test_search_bots import judged_decision

    decisions = [
        judged_decision(1, 0, [0.50, 0.50]),
        judged_decision(2, 1, [0.20, 0.80]),  # P2's last decision: 80%
        judged_decision(3, 0, [0.50, 0.50]),  # P1's last move catches up: the two share the win
    ]
    p1, p2 = turning_points(decisions, 2, result=[0.5, 0.5])
    assert p1 == []
    assert p2 == [
        {
            "move": 3,
            "round": 1,
            "by": [0],
            "moves": [{"seat": 0, "played": "move3"}],
            "from": 80,
            "to": 50,
            "end": True,
            "shared": True,
        }
    ]
    said = moment_in_words({"kind": "turning", **p2[0]}, 1)
    assert said.endswith(
        "fell from 80% to 50%, a shared win, not a win alone (from their last move to the end)"
    )
    # a loss at the end is no shared win
    lost = turning_points(decisions, 2, result=[1.0, 0.0])[1]
    assert lost and "shared" not in lost[0]


@pytest.mark.parametrize("language", sorted(SHARED_WIN))
def test_the_pages_turning_point_to_a_shared_win_has_its_own_words(language):
    said = Translator(None, language).ui("turningPointShared", round=3, seats="P1", whose="P2", to=50)
    assert SHARED_WIN[language].split()[-1] in said and "50" in said, said
    app = (resources.files("merchantry.server") / "static" / "app.js").read_text(encoding="utf-8")
    assert 'm.shared ? "turningPointShared"' in app


def run_page_module(tmp_path, body: str) -> str:
    """`body` run by node as a module of the page, its "/static/..." imports read from the package."""
    static = (resources.files("merchantry.server") / "static").as_uri()
    hooks = tmp_path / "hooks.mjs"
    hooks.write_text(
        "export async function resolve(spec, ctx, next) {\n"
        f'  if (spec.startsWith("/static/")) return next({json.dumps(static)} + spec.slice(7), ctx);\n'
        "  return next(spec, ctx);\n}\n"
    )
    script = f"""
        import {{ register }} from "node:module";
        register({json.dumps(hooks.as_uri())});
        globalThis.location = {{ search: "" }};
        globalThis.localStorage = {{ getItem: () => null }};
        globalThis.navigator = {{ language: "en" }};
        {body}
    """
    out = subprocess.run(
        ["node", "--input-type=module", "-e", script], capture_output=True, text=True, check=True
    )
    return out.stdout


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node to run the page's module")
def test_money_mo_e3_a_currency_the_penalty_takes_to_0_is_written_one_way(tmp_path):
    """ "GBP 100 − 100 (under 200) = 0" stood beside "EUR 90 − 100 (under 200) → 0": two forms of one rule."""
    drawing = (resources.files("merchantry.games.money") / "static" / "drawing.js").as_uri()
    hands = [(100, 0), (90, 0), (150, 0), (100, 1), (90, 1), (250, 0), (250, 1)]
    said = run_page_module(
        tmp_path,
        f"""
        const {{ currencyScore }} = await import({json.dumps(drawing)});
        const t = (key) => ({{ under200: "under 200", trios: "trio" }})[key] ?? key;
        for (const [total, trios] of {json.dumps(hands)}) {{
          const score = Math.max(0, total - (total < 200 ? 100 : 0)) + 100 * trios;
          console.log(currencyScore({{}}, "GBP", {{ total, trios, score }}, t));
        }}
        """,
    ).splitlines()
    assert said == [
        "GBP 100 − 100 (under 200) → 0",
        "GBP 90 − 100 (under 200) → 0",
        "GBP 150 − 100 (under 200) = 50",
        "GBP 100 − 100 (under 200) → 0 + 100 (trio) = 100",
        "GBP 90 − 100 (under 200) → 0 + 100 (trio) = 100",
        "GBP 250",
        "GBP 250 + 100 (trio) = 350",
    ]


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node to run the page's module")
@pytest.mark.parametrize("language", ["en", "de", "fr", "pt"])
def test_money_currencies_in_your_hand_keep_a_separator_between_them_as_text(language, tmp_path):
    """ "Currencies in your hand" read "BRL 30 / 200CAD 50 / 200" as text (a screen reader's, a copy's)."""
    from tests.games.money_helpers import arrange
    from tests.test_newcomer_sixth_pass import drawn, money_words, seat_one_payload

    tr = Translator("money", language)
    words = money_words(language) | {"listSeparator": tr.ui("listSeparator")}
    state = arrange(hands=[["BRL30", "CAD50", "EUR20"], ["AUD20"], ["GBP20"], ["USD20"]])
    script = """for (const n of find(drawing, "money-totals")) console.log(text(n));"""
    said = drawn(tmp_path, "money", seat_one_payload(state), words, script)
    sep = words["listSeparator"]
    assert said == [f"{words['totals']}{words['colon']}BRL 30 / 200{sep}CAD 50 / 200{sep}EUR 20 / 200"], said


def test_samarkand_page_sentences_naming_a_family_give_it_with_its_forms():
    """The board's "Start von Levante", "ein Kamel von Kaukasus" (German): the page passes a family's name
    with its forms (tr.named), and the sentences that name one family say "the family" where the language
    puts an article before a name ("Mais uma relação de Levante")."""
    drawing = (resources.files("merchantry.games.samarkand") / "static" / "drawing.js").read_text("utf-8")
    for key in ("start", "promptSecond", "promptChooseFamily"):
        assert f't("{key}", named(tr, "family", ' in drawing, key
    last = {"de": "der Familie Levante", "fr": "pour la famille Levant", "pt": "da família Levante"}
    for language, words in last.items():
        tr = Translator("samarkand", language)
        said = tr.ui("endNearLastMarker", count=1, families=tr.term("Levant"))
        assert words in said, said
