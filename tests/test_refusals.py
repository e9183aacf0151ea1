"""Why a move is refused, in every language (issue 32): every reason a game's rules give carries a key, its
values and its clause ids (errors.IllegalAction), keeps its English sentence for the API and logs, and reads
in each language from the game's catalogue (section `reason`) with its clause ids after it; the terminal
says it in the player's language. The reasons are found in the games' sources, not listed here."""

from __future__ import annotations

import ast
import io
import json
import pickle
import random
from pathlib import Path

import pytest
from rich.console import Console

import merchantry
from merchantry import games, records
from merchantry.errors import IllegalAction, Reason, refusal
from merchantry.i18n import CLAUSE_ID, PLACEHOLDER, Translator, name_form
from merchantry.package import LANGUAGES
from merchantry.terminal import TerminalTable
from tests.conformance.walks import random_walk
from tests.test_terminal import scripted


def reasons_given(name: str) -> dict[str, list[set[str]]]:
    """{key: the names of the values each `Reason(...)` with that key passes} over a game's modules."""
    found: dict[str, list[set[str]]] = {}
    for path in sorted(Path(games.package(name).folder).glob("*.py")):
        source = path.read_text(encoding="utf-8")
        if "Reason(" not in source:
            continue
        for node in ast.walk(ast.parse(source)):
            if not (
                isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Reason"
            ):
                continue
            where = f"{path.name}:{node.lineno}"
            key = node.args[0] if node.args else None
            assert isinstance(key, ast.Constant) and isinstance(key.value, str), (
                f"{where}: a literal key first"
            )
            assert all(kw.arg is not None for kw in node.keywords), f"{where}: every value by its name"
            found.setdefault(key.value, []).append({kw.arg for kw in node.keywords if kw.arg})
    return found


def catalogue_reasons(name: str, language: str) -> dict[str, str]:
    path = Path(games.package(name).folder) / "locales" / f"{language}.json"
    return json.loads(path.read_text(encoding="utf-8")).get("reason", {})


@pytest.mark.parametrize("name", games.names())
def test_every_reason_a_game_gives_reads_in_every_language_with_the_values_it_is_given(name):
    given = reasons_given(name)
    assert len(given) >= 10, f"{name}: its rules say why with keyed reasons"
    for language in LANGUAGES:
        texts = catalogue_reasons(name, language)
        assert set(texts) == set(given), f"{name}/{language}: reasons without text, or texts no rule gives"
        path = Path(games.package(name).folder) / "locales" / f"{language}.json"
        sections = json.loads(path.read_text(encoding="utf-8"))
        forms = [form for section in sections if (form := name_form(section))]
        for key, sites in given.items():
            wanted = set(PLACEHOLDER.findall(texts[key]))
            for passed in sites:
                # a name's form ("family_of", from a section `termOf`) reads the value it bends
                passed = passed | {f"{n}_{form}" for n in passed for form in forms}
                assert wanted <= passed, f"{name}/{language}: reason.{key} reads {wanted - passed} not given"


def refusals_of_random_games(name: str) -> list[IllegalAction]:
    """Moves seats may not make, tried at a few positions of random games (and once they are over): the
    moves legal anywhere in the game, offered to every seat."""
    game = games.get(name)
    seen: list[IllegalAction] = []
    for seed in range(2):
        players = game.min_players + seed % (game.max_players - game.min_players + 1)
        state = game.new_game(players=players, seed=seed)
        positions, actions = [], {}
        for step, (_seat, action) in enumerate(random_walk(state, random.Random(seed))):
            actions.setdefault(str(action), action)
            if step % 23 == 0 and len(positions) < 12:
                positions.append(state.clone())
        positions.append(state)
        tried = list(actions.values())[:: max(1, len(actions) // 40)]
        for position in positions:
            for seat in range(players):
                for action in tried:
                    trial = position.clone()
                    try:
                        trial.apply(seat, action)
                    except IllegalAction as refused:
                        seen.append(refused)
    return seen


@pytest.mark.parametrize("name", games.names())
def test_every_refusal_by_the_rules_has_its_key_and_reads_whole_in_every_language(name):
    refused = refusals_of_random_games(name)
    keys = {r.key for r in refused}
    assert None not in keys, "every refusal by the rules carries a key"
    assert len(keys) >= 4, f"{name}: the walk meets several reasons ({sorted(keys)})"  # type: ignore[arg-type]
    texts = {language: catalogue_reasons(name, language) for language in LANGUAGES}
    translators = {language: Translator(name, language) for language in LANGUAGES}
    for error in {r.key: r for r in refused}.values():
        suffix = f" ({', '.join(error.clauses)})" if error.clauses else ""
        assert str(error).endswith(suffix) and "(" not in suffix[2:-1]  # the English sentence, as before
        assert json.loads(json.dumps(error.reason())) == error.reason()  # JSON as the page is sent it
        for language in LANGUAGES:
            said = translators[language].refusal(error)
            # a player reads the reason in words: the clause ids stay in the English sentence for the logs
            assert error.key in texts[language] and "{" not in said and not CLAUSE_ID.search(said), (
                language,
                said,
            )


def test_a_reason_keeps_its_english_sentence_clauses_and_values_through_a_copy():
    why = Reason("must_buy_gem", "you must buy at least one gem", "GB-R3", "GB-R7", gem="ruby")
    error = refusal(why)
    assert str(error) == "you must buy at least one gem (GB-R3, GB-R7)" == str(why)
    copied = pickle.loads(pickle.dumps(error))
    assert (copied.key, copied.params, copied.clauses, str(copied)) == (
        "must_buy_gem",
        {"gem": "ruby"},
        ("GB-R3", "GB-R7"),
        str(error),
    )
    assert str(refusal("a sentence only")) == "a sentence only" and refusal("x").reason() is None
    # a refusal without a key, or a key the catalogue cannot say, reads as its own English sentence, in words
    assert Translator("grand_bazaar", "de").refusal(IllegalAction("plain", "no_such_key")) == "plain"
    assert Translator("grand_bazaar", "de").refusal(IllegalAction("plain (GB-R3)", "no_such_key")) == "plain"


def test_gb_r3_a_refusal_reads_in_german_without_its_clause_and_the_english_sentence_is_unchanged():
    state = games.get("grand_bazaar").new_game(players=2, seed=1)
    seat = state.to_act()[0]
    with pytest.raises(merchantry.IllegalAction) as refused:
        state.apply(seat, "done")
    error = refused.value
    assert str(error) == "you must buy at least one gem this turn before you are done (GB-R3)"
    assert (error.key, error.clauses) == ("must_buy_gem", ("GB-R3",))
    german = "du musst in diesem Zug mindestens einen Edelstein kaufen, bevor du fertig bist"
    assert Translator("grand_bazaar", "de").refusal(error) == german


def test_a_refusals_values_read_in_the_language_seats_and_cards_included():
    state = games.get("money").new_game(players=3, seed=3)
    hand = state.view(0)["hand"]
    card = next(c for c in ("EUR60", "JPY60", "USD60", "GBP60", "BRL60") if c not in hand)
    with pytest.raises(IllegalAction) as refused:
        state.apply(0, f"add {card}")
    error = refused.value
    assert str(error) == f"P1 has no {card} in hand to add to the bid" and error.params == {
        "seat": 0,
        "card": card,
    }
    german = Translator("money", "de")
    assert (
        german.refusal(error) == f"P1 hat keine Karte {german.term(card)} auf der Hand, die ins Gebot könnte"
    )
    assert german.term(card) != card  # the card by its German name ("Euro 60")


def terminal(game: str, players: int, lines: list[str], language: str, seed: int = 1) -> str:
    out = io.StringIO()
    session = records.Session(game, players, seed=seed)
    seat_bots = ["you"] + ["greedy"] * (players - 1)
    console = Console(file=out, width=140, color_system=None)
    table = TerminalTable(
        session,
        0,
        seat_bots,
        console,
        scripted(lines),
        random.Random(seed),
        language=language,
        save_on_quit=False,
    )
    table.run()
    return out.getvalue()


@pytest.mark.parametrize(
    ("language", "said"),
    [
        (
            "de",
            "Nicht erlaubt: du musst in diesem Zug mindestens einen Edelstein kaufen, bevor du fertig bist",
        ),
        ("fr", "vous devez acheter au moins une gemme ce tour-ci avant de terminer"),
        ("pt", "tens de comprar pelo menos uma gema nesta vez antes de terminar"),
        ("en", "Not allowed: you must buy at least one gem this turn before you are done"),
    ],
)
def test_gb_r3_the_terminal_says_why_a_move_is_refused_in_the_chosen_language(language, said):
    text = " ".join(terminal("grand_bazaar", 2, ["done", "quit"], language).split())
    assert said in text and "GB-R3" not in text  # in words: the clause id is the developers'
