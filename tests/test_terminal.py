"""Terminal play, driven by scripted input."""

from __future__ import annotations

import io
import itertools
import random
import re

import pytest
from rich.console import Console

from merchantry import records
from merchantry.i18n import Translator
from merchantry.terminal import TerminalTable


def scripted(lines):
    feed = iter(lines)

    def read(prompt: str) -> str:
        line = next(feed, None)
        if line is None:
            raise EOFError  # as input() does at the end of input
        return line

    return read


def table_for(inputs, seed=3, players=4, record_path=None, game="money", options=None, save_on_quit=False):
    out = io.StringIO()
    console = Console(file=out, width=140, color_system=None)
    session = records.Session(game, players, seed=seed, options=options)
    seat_bots = ["you"] + ["greedy"] * (players - 1)
    table = TerminalTable(
        session,
        0,
        seat_bots,
        console,
        scripted(inputs),
        random.Random(seed),
        record_path,
        save_on_quit=save_on_quit,
    )
    return table, out


def test_a_person_plays_money_to_the_end_with_numbers_and_notation(tmp_path):
    # numbers, notation, a shortcut and refused moves, over and over, until the game ends
    moves = itertools.cycle(["1", "bid COIN", "bid", "take right", "keep", "add NOPE", "99"])
    path = tmp_path / "game.json"
    table, out = table_for(moves, record_path=str(path))
    table.run()
    text = out.getvalue()
    assert table.state.is_over()
    assert "Your hand:" in text and "Right group:" in text
    assert "Not allowed:" in text  # refused moves are explained and asked again
    assert "Final scores" in text and "per currency" in text and "Winner:" in text
    replayed = records.replay(records.load(path))
    assert replayed.to_dict() == table.state.to_dict()


def test_an_illegal_move_is_explained_and_changes_nothing():
    table, out = table_for(["add EUR60", "quit"])
    before = table.state.view(0)["my_bid"]
    table.run()
    # the card by its name
    assert "Not allowed:" in out.getvalue() and "no EUR 60 in hand" in out.getvalue()
    assert table.state.view(0)["my_bid"] == before
    assert "Game abandoned." in out.getvalue()


def test_the_bid_shortcut_is_applied_whole_or_not_at_all():
    table, out = table_for(["quit"])
    hand = [c for c in table.state.view(0)["hand"] if c != "BLUFF"]
    table2, out2 = table_for([f"bid {hand[0]} EUR99", f"bid {hand[0]}", "quit"])
    table2.run()
    text = out2.getvalue()
    assert "'add EUR99' is not a Money move" in text
    # the first shortcut added nothing; the second, valid one sealed a one-card bid
    mine = [move for seat, move in table2.session.moves if seat == 0]
    assert mine == [f"add {hand[0]}", "bid"]


def test_moves_joined_as_the_hint_writes_them_are_played_whole_or_not_at_all():
    """A newcomer typed the terminal hint's "to type: buy emerald -> buy ruby -> done" and was refused."""
    table, _ = table_for(["quit"], game="grand_bazaar", players=3)
    buys = [str(a) for a in table.state.legal_actions(0) if str(a).startswith("buy")]
    table2, out = table_for(
        [f"{buys[0]} -> sell nothing", f"{buys[0]} -> done", "quit"], game="grand_bazaar", players=3
    )
    table2.run()
    assert "Not allowed:" in out.getvalue()  # the first line played nothing, not even its buy
    assert [move for seat, move in table2.session.moves if seat == 0][:2] == [buys[0], "done"]


def test_end_of_input_abandons_the_game_cleanly():
    table, out = table_for([])
    table.run()
    assert "Game abandoned." in out.getvalue()


@pytest.mark.parametrize(
    ("game", "players", "expected", "unit"),
    [
        ("money", 3, "Final scores", "points"),
        ("grand_bazaar", 3, "Final ranking", "grands"),  # it said "with 52 points" of a game of grands
        ("byzanz", 4, "Final scores", "points"),
        ("samarkand", 4, "Final scores", "points"),
    ],
)
def test_every_game_is_playable_to_the_end_at_the_terminal(game, players, expected, unit):
    table, out = table_for(itertools.cycle(["1", "done", "bid", "keep"]), players=players, game=game)
    table.run()
    assert table.state.is_over()
    # the Money game of seed 3 ends in a win P2 and P3 share: "Winners: P2 and P3 with 880 points each."
    shared = len(table.state.winners()) > 1
    said = rf"Winners: .+ with [\d.]+ {unit} each\." if shared else rf"Winner: .+ with [\d.]+ {unit}\."
    assert expected in out.getvalue() and re.search(said, out.getvalue())


class SharedByTheFirstTwo:
    """A finished game as if seats P1 and P2 had tied for the best score (the rest as it ended)."""

    def __init__(self, state):
        self.state = state

    def __getattr__(self, name):
        return getattr(self.state, name)

    def winners(self):
        return [0, 1]

    def scores(self):
        best = max(self.state.scores())
        return [best, best, *(min(score, best - 1) for score in self.state.scores()[2:])]


@pytest.mark.parametrize(
    ("game", "language", "shared"),
    [
        ("money", "en", "Winners: you and P2 with"),
        ("money", "de", "Gewonnen haben du und P2 mit je"),
        ("grand_bazaar", "pt", "Vencedores: tu e P2 com"),
        ("grand_bazaar", "fr", "Victoire partagée : vous et P2 avec"),
    ],
)
def test_a_shared_win_is_said_in_the_plural_at_the_terminal(game, language, shared):
    # "Winner: you and P2 with 40 points." read as one winner (the sixteenth newcomer's pass, on the page)
    table, out = table_for(itertools.cycle(["1", "done", "bid", "keep"]), players=3, game=game)
    table.translator = Translator(game, language)
    table.run()
    table.session.state = SharedByTheFirstTwo(table.state)
    table.show_final()
    assert shared in out.getvalue().splitlines()[-1], out.getvalue().splitlines()[-1]


def test_samarkand_asks_a_person_about_a_sale_only_when_they_hold_the_card():
    offers_asked = []

    def read(prompt: str) -> str:
        if table.state.view(0)["phase"] == "offer":
            offers_asked.append([str(a) for a in table.state.legal_actions(0)])
        return "1"

    session = records.Session("samarkand", 3, seed=4)
    console = Console(file=io.StringIO(), width=140, color_system=None)
    table = TerminalTable(session, 0, ["you", "greedy", "greedy"], console, read, random.Random(4))
    table.run()
    assert table.state.is_over()
    answers = [
        text for seat, text in session.record()["moves"] if seat == 0 and text.split()[0] in ("keep", "sell")
    ]
    assert all(moves[0].startswith("sell ") for moves in offers_asked)  # asked only as the card's holder
    assert len(answers) > len(offers_asked)  # the other offers were answered 'keep' without asking


def test_hint_shows_what_the_hard_bot_would_play_and_makes_no_move():
    table, out = table_for(["hint", "quit"], game="grand_bazaar", players=2)
    legal = {str(a) for a in table.state.legal_actions(0)}
    before = table.state.to_dict()
    table.run()
    text = out.getvalue()
    assert "Hint: the hard bot would play" in text and "chance to win" in text
    said = text.split("would play ")[1]
    words, notation = said.split(" (")[0], said.split(" (")[1].split(")")[0]
    assert notation.startswith("to type: ")  # the notation, said as what one types
    notation = notation.removeprefix("to type: ")
    assert notation.split(" -> ")[0] in legal  # the notation one would type
    assert words.startswith(("buy one ", "sell one "))  # and the move in words
    assert table.state.to_dict() == before  # asking is not moving


def test_a_sign_says_which_bot_is_thinking_for_every_bot_move(monkeypatch):
    table, out = table_for(["1", "done"] * 3 + ["quit"], game="grand_bazaar", players=3)
    signs = []
    real_status = table.console.status

    def status(text, *args, **kwargs):
        signs.append((text, len(table.session.moves)))
        return real_status(text, *args, **kwargs)

    monkeypatch.setattr(table.console, "status", status)
    table.run()
    bot_moves = [i for i, (seat, _) in enumerate(table.session.moves) if seat != 0]
    assert bot_moves and len(signs) == len(bot_moves)
    assert {text for text, _ in signs} >= {"P2 (greedy) is thinking…", "P3 (greedy) is thinking…"}
    assert [at for _, at in signs] == bot_moves  # each sign shown before that bot's move, not after


def test_quit_saves_the_game_and_play_resume_carries_it_on(tmp_path, monkeypatch):
    from merchantry import cli

    monkeypatch.chdir(tmp_path)
    table, out = table_for(["1", "1", "quit"], game="grand_bazaar", players=3, seed=8, save_on_quit=True)
    table.run()
    path = tmp_path / "merchantry-grand_bazaar-seed8.json"
    assert f"carry on with: merchantry play --resume {path.name}" in out.getvalue()
    # a saved game is paused, not "abandoned" just before the line saying how to carry it on
    assert "abandoned" not in out.getvalue() and "Game paused and saved" in out.getvalue()
    saved = records.load(path)
    assert saved["terminal"] == {"seat": 0, "bots": ["you", "greedy", "greedy"]}
    assert saved["moves"] == table.session.moves and saved["moves"]

    typed = iter(["quit"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(typed))
    assert cli.main(["play", "--resume", str(path)]) == 0
    again = records.load(path)
    assert again["moves"][: len(saved["moves"])] == saved["moves"]  # carried on, nothing lost
    assert records.replay(again).view(0)["round"] >= records.replay(saved).view(0)["round"]


def test_resume_refuses_a_file_not_saved_by_the_terminal(tmp_path, capsys):
    from merchantry import cli

    path = tmp_path / "game.json"
    records.save(records.Session("money", 3, seed=1).record(), path)
    assert cli.main(["play", "--resume", str(path)]) == 2
    assert "does not say who sat where" in capsys.readouterr().err


def test_the_variants_in_effect_are_shown_when_the_game_starts():
    table, out = table_for(["quit"], options={"penalty": 50, "trio_bonus": 0})
    table.run()
    said = "Variant: points lost by a currency below 200: 50; points for a trio of 20s or of 30s: 0"
    assert said in out.getvalue()  # in words, as the page says them
    plain, out = table_for(["quit"])
    plain.run()
    assert "Variant:" not in out.getvalue()


@pytest.mark.parametrize(
    ("game", "players", "german"),
    [
        ("money", 3, ["Deine Hand:", "Rechte Auslage:", "Platz", "Endstand"]),
        ("byzanz", 3, ["Deine Hand", "Versteigert wird: Angebotskarte", "Gebot", "Endstand"]),
        ("grand_bazaar", 2, ["Preise", "Bargeld", "Wert", "Endwertung"]),
        ("samarkand", 3, ["Familien", "Heiratskosten", "Deine Hand", "Endstand"]),
    ],
)
def test_lang_de_translates_the_whole_terminal_not_only_the_log(game, players, german):
    from merchantry.i18n import Translator

    out = io.StringIO()
    console = Console(file=out, width=140, color_system=None)
    session = records.Session(game, players, seed=2)
    seat_bots = ["you"] + ["greedy"] * (players - 1)
    moves = itertools.chain(["help", "add NOPE", "99"], itertools.cycle(["1", "done", "bid", "keep"]))
    table = TerminalTable(
        session, 0, seat_bots, console, scripted(moves), random.Random(2), language="de", save_on_quit=False
    )
    table.run()
    text = out.getvalue()
    assert table.state.is_over()
    for words in [*german, "Nicht erlaubt:", "Gib die Nummer eines Zugs", "Gewonnen hat"]:
        assert words in text, words
    english = Translator(game, "en")
    for catalogue in english.catalogues:  # no sentence of the English terminal is left
        for key, sentence in catalogue.get("terminal", {}).items():
            fixed = sentence.split("{{")[0].strip()
            if len(fixed) > 12 and key != "help":
                assert fixed not in text, f"{key}: {fixed!r} is still English"


def test_a_hint_in_german_says_the_move_in_words_and_in_the_notation_one_types():
    out = io.StringIO()
    console = Console(file=out, width=200, color_system=None)
    session = records.Session("grand_bazaar", 2, seed=3)
    table = TerminalTable(
        session,
        0,
        ["you", "hard"],
        console,
        scripted(["hint", "quit"]),
        random.Random(3),
        language="de",
        save_on_quit=False,
    )
    table.run()
    text = out.getvalue()
    assert "Tipp: der schwere Bot würde spielen: " in text and "wahrscheinlich zwischen" in text
    assert "P2 Schwerer Bot" in text  # the level's name in German
    # the plan is said whole after the colon: it once read "würde einen Saphir kaufen spielen", two verbs
    assert not re.search(r"(kaufen|verkaufen|beenden) spielen", text), text
    said = text.split("würde spielen: ")[1]
    words, notation = said.split(" (")[0], said.split(" (")[1].split(")")[0]
    assert notation.startswith("zum Tippen: ")
    notation = notation.removeprefix("zum Tippen: ")
    assert words.startswith("einen ") and notation.split(" -> ")[0] in {
        str(a) for a in session.state.legal_actions(0)
    }


def byzanz_screen(state, seat=0) -> str:
    from merchantry.games.byzanz import terminal as byzanz_terminal

    out = io.StringIO()
    byzanz_terminal.draw(state.view(seat), Console(file=out, width=140, color_system=None))
    return out.getvalue()


def test_byzanz_shows_the_offer_card_up_for_auction_and_the_next_not_the_whole_stack():
    state = records.Session("byzanz", 4, seed=3).state  # offer cards 2, 3, 4, 5 (BZ-X1)
    screen = byzanz_screen(state)
    assert "Up for auction: offer card 5 · 3 offer cards to come this round, next 4" in screen
    assert "5 4 3 2" not in screen and "4 3 2" not in screen
    rng = random.Random(3)
    while state.view(None)["phase"] != "market":  # every auction of the first round
        seat = state.to_act()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        view = state.view(None)
        if view["phase"] == "auction" and len(view["offer_stack"]) == 1:
            assert "Up for auction: offer card 2 · the last offer card of the round" in byzanz_screen(state)
        if view["phase"] == "auction" and len(view["offer_stack"]) == 2:
            assert "Up for auction: offer card 3 · 1 offer card to come this round: 2" in byzanz_screen(state)
    assert "offer card" not in byzanz_screen(state)  # in the market none is to come
    while not state.is_over():
        seat = state.to_act()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert "offer card" not in byzanz_screen(state)


@pytest.mark.parametrize(("game", "board", "steps"), [("money", "Right group:", 3), ("byzanz", "Market:", 2)])
def test_a_bid_built_card_by_card_redraws_only_the_hand_and_the_bid_and_board_shows_the_rest(
    game, board, steps
):
    added = []

    def read(prompt: str) -> str:
        legal = [str(a) for a in table.state.legal_actions(0)]
        adds = [a for a in legal if a.startswith("add ") and a != "add BLUFF"]
        if len(added) < steps and adds:
            added.append(adds[0])
            return adds[0]
        if len(added) == steps:
            added.append("board")
            return "board"
        raise EOFError

    players = 4
    out = io.StringIO()
    session = records.Session(game, players, seed=3)
    table = TerminalTable(
        session,
        0,
        ["you"] + ["greedy"] * 3,
        Console(file=out, width=140, color_system=None),
        read,
        random.Random(3),
        save_on_quit=False,
    )
    table.run()
    assert len(added) == steps + 1
    text = out.getvalue()
    screens = text.split("Your hand")
    assert text.count(board) == 2  # the whole board before the first card and on 'board', not per card
    assert text.count("Your hand") == steps + 2
    assert all(board not in screen for screen in screens[1:-2])  # each step: hand and bid so far only
    cards = [a.split()[1] for a in added[:steps]]
    if game == "byzanz":  # (a Byzanz bid reads as its log names it, BZ-I1: the highest value first)
        cards = list(table.state.view(0)["seats"][0]["bid"])
        assert sorted(cards) == sorted(a.split()[1] for a in added[:steps])
    # the cards by their names, as the log names them ("USD 30", "wine 4"), each kept whole on a line
    bid = ", ".join(Translator(game).term(card).replace(" ", "\u00a0") for card in cards)
    assert "Your bid so far: " + bid in text


@pytest.mark.parametrize(
    ("game", "language"), [("byzanz", "en"), ("byzanz", "de"), ("money", "en"), ("money", "fr")]
)
def test_the_terminal_names_cards_in_words_as_the_log_does_and_its_moves_list_keeps_the_notation(
    game, language
):
    """The board names each card as the log does ("wine 4", "Wein 4", "USD 30", "dollar 30"), not by the
    code one types ("wine4", "USD30"); the numbered moves list beneath it is that notation."""
    out = io.StringIO()
    session = records.Session(game, 3, seed=5)
    table = TerminalTable(
        session,
        0,
        ["you", "greedy", "greedy"],
        Console(file=out, width=120, color_system=None),
        scripted(["quit"]),
        random.Random(5),
        language=language,
        save_on_quit=False,
    )
    table.run()
    text = out.getvalue()
    hand = session.state.view(0)["hand"]
    named = Translator(game, language)
    board = text.split("Your hand")[-1] if language == "en" else text
    for code in hand:
        if code == "BLUFF":
            continue
        assert named.term(code) != code, f"{code} has a name in {language}"
        assert named.term(code).replace(" ", "\u00a0") in board
        assert not re.search(rf"(?<![\w ]){code}(?!\w)", board.split("\n  1 ")[0]), f"{code} shown as a code"
    legal = [str(a) for a in session.state.legal_actions(0)]
    assert any(move in text for move in legal)  # the moves list: what one types


def near_the_end(game: str, players: int, left: int = 12) -> records.Session:
    """A game of random moves, `left` moves short of its end (the terminal plays those): a whole game at the
    terminal's pace would take seconds."""
    rng, trial = random.Random(2), records.Session(game, players, seed=2)
    moves = []
    while not trial.state.is_over():
        seat = trial.state.to_act()[0]
        move = rng.choice(trial.state.legal_actions(seat))
        trial.apply(seat, move)
        moves.append((seat, move))
    session = records.Session(game, players, seed=2)
    for seat, move in moves[: max(0, len(moves) - left)]:
        session.apply(seat, move)
    return session


TITLES_AT_80 = {
    "grand_bazaar": ("Final ranking (gems cashed out at 10)", "Players (worth: grands + 10 per gem"),
    "byzanz": ("Final scores (ties: most cards in hand)",),
    "money": ("Final scores",),
    "samarkand": ("Final scores",),
}


@pytest.mark.parametrize("game", list(TITLES_AT_80))
def test_at_80_columns_every_title_is_one_line_and_the_end_table_is_what_stays_on_screen(game):
    """A narrow table wrapped its title over lines ("Final ranking (gems cashed" / "out at 10)"); the end
    table and the winner are the last thing printed, with nothing after them that moves the cursor back
    or clears the screen (no alternate screen, no live display left over), so they stay when the program
    ends."""
    out = io.StringIO()
    session = near_the_end(game, 2 if game == "grand_bazaar" else 3)
    players = session.state.num_players
    console = Console(file=out, width=80, force_terminal=True, color_system=None)

    def last_move(prompt: str) -> str:  # the list's last move: a bid sealed as it stands, done, ...
        return str(len(session.state.legal_actions(0)))

    table = TerminalTable(
        session,
        0,
        ["you"] + ["greedy"] * (players - 1),
        console,
        last_move,
        random.Random(2),
        save_on_quit=False,
    )
    table.run()
    text = out.getvalue()
    assert session.state.is_over()
    plain = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text)
    lines = plain.splitlines()
    for title in TITLES_AT_80[game]:
        assert any(title in line for line in lines), f"{title!r} is not on one line"
    end = text.rindex(TITLES_AT_80[game][0].split(" (")[0])
    assert not re.search(r"\x1b\[(\?1049|\?47|2J|\d*A|\d*F|2K)", text[end:]), "the end screen is moved over"
    assert lines[-1].startswith("Winner:")


def test_a_card_name_is_never_cut_at_the_end_of_a_line_at_80_columns():
    """rich breaks a line at any whitespace, the no-break space that joins a card's name too: at 80 columns
    Money's hand read "... CAD" / "20#66" and Samarkand's "16" / "honey (4 points now)". Each card's name
    (with its serial, or its worth now) now stays whole on one line, in a printed line as in a table, and a
    currency's total beside its last note."""
    from rich.table import Table

    from merchantry.games.money.terminal import hand_by_currency
    from merchantry.games.samarkand.terminal import draw_own

    hand = ["AUD40", "BRL40", "BRL60"] + ["CAD20"] * 3 + ["CAD30", "CAD40", "CAD50", "GBP50", "BLUFF"]
    serials = [19, 51, 23, 30, 63, 66, 12, 50, 33, 42]
    for language in ("en", "de"):
        tr = Translator("money", language)
        out = io.StringIO()
        console = Console(file=out, width=80, color_system=None)
        console.print(hand_by_currency(hand, serials, tr))
        table = Table()
        table.add_column("hand", max_width=30)
        table.add_row(hand_by_currency(hand, serials, tr))
        console.print(table)
        text = out.getvalue()
        for code, serial in zip(hand, serials, strict=False):
            name = tr.term(code)
            assert f"{name}#{serial}".replace(" ", "\u00a0") in text.replace(" ", "\u00a0"), (name, text)
            assert not re.search(rf"{re.escape(name.split()[0])} *\n", text), text  # no name cut in two
        assert not re.search(r"^\W*\(\d+\)", text, re.MULTILINE), text  # nor a currency's total alone
    view = samarkand_view_with_a_long_hand()
    for language in ("en", "de"):
        tr = Translator("samarkand", language)
        out = io.StringIO()
        draw_own(view, Console(file=out, width=80, color_system=None), tr)
        lines = out.getvalue().splitlines()
        for held in view["hand"]:
            item = tr.terminal("card", good=held["good"], name=tr.term(held["name"]), count=held["points"])
            assert any(item in line.replace("\u00a0", " ") for line in lines), (item, lines)


def samarkand_view_with_a_long_hand():
    from merchantry import bots

    session = records.Session("samarkand", 3, seed=5)
    greedy, rng = bots.get("greedy", "samarkand"), random.Random(1)
    while len(session.state.view(0)["hand"]) < 5:
        seat = session.state.to_act()[0]
        session.apply(seat, bots.play_turn(session.state, seat, greedy, rng))
    return session.state.view(0)


ENGLISH_NOTATION = {"pt": "notação inglesa", "fr": "notation anglaise", "de": "englischer Notation"}


@pytest.mark.parametrize("language", ["en", "pt", "fr", "de"])
def test_the_terminals_commands_have_words_in_its_language_and_say_moves_are_typed_as_listed(language):
    """Under --lang pt the commands were English only (hint, help, board, quit) and nothing said so: each has
    a word in the language (typed, it does what the English one does, which still works), the commands line
    names both, and it says that a move is typed as the list shows it (the games' notation is English)."""
    tr = Translator(None, language)
    said = tr.terminal("commands")
    words = {command: tr.terminal(f"cmd_{command}") for command in ("hint", "help", "log", "board", "quit")}
    assert all(re.search(rf"\b{word}\b", said) for word in words.values()), said
    assert all(re.search(rf"\b{english}\b", said) for english in words), said
    if language != "en":
        assert sum(word != english for english, word in words.items()) >= 4, words
        assert ENGLISH_NOTATION[language] in said, said  # moves are typed in English: it says so
    out = io.StringIO()
    console = Console(file=out, width=140, color_system=None)
    table = TerminalTable(
        records.Session("grand_bazaar", 2, seed=2),
        0,
        ["you", "greedy"],
        console,
        scripted([words["help"], words["board"], "help", words["quit"]]),
        random.Random(2),
        language=language,
        save_on_quit=False,
    )
    table.run()
    text = out.getvalue()
    help_text = Translator("grand_bazaar", language).terminal("help").split("\n")[0]
    assert text.count(help_text) == 2, text  # the help, asked in the language and in English
    assert Translator(None, language).terminal("notAllowed") not in text  # no command taken for a move
    assert text.count(tr.terminal("abandoned")) == 1 and not table.state.is_over()  # and the quit, quit
