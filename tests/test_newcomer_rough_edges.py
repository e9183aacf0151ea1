"""Issue 32: rough edges a newcomer met in the text, the terminal and the analysis."""

from __future__ import annotations

import importlib
import io
import math
import random
import re
from pathlib import Path

import pytest
from rich.console import Console
from rich.text import Text

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


def _grand_bazaar_after(turns: int, players: int = 3, seed: int = 4):
    import random

    import merchantry.bots

    state = games.get("grand_bazaar").new_game(players=players, seed=seed)
    rng = random.Random(seed)
    greedy = merchantry.bots.get("greedy", "grand_bazaar")
    for _ in range(turns):
        if state.is_over():
            break
        seat = state.to_act()[0]
        state.apply(seat, merchantry.bots.play_turn(state, seat, greedy, rng))
    return state


def _terminal_worth(view, language="en") -> tuple[str, list[int]]:
    from merchantry.games.grand_bazaar.terminal import holdings_table

    console = Console(file=io.StringIO(), width=250, record=True, color_system=None)
    console.print(holdings_table(view, Translator("grand_bazaar", language)))
    text = console.export_text()
    rows = [line.split("│") for line in text.splitlines() if line.startswith("│")]
    return text, [int(cells[-2]) for cells in rows]


@pytest.mark.parametrize("turns", [25, 10_000])
def test_grand_bazaars_worth_is_one_figure_for_the_page_and_the_terminal(turns):
    """The page summed the gems at today's prices, the terminal at the cash-out's 10 a gem: now the engine
    says the figure (what the seat would have if the game ended now) and both show it."""
    state = _grand_bazaar_after(turns)
    view = state.view(0)
    worth = [row["worth"] for row in view["holdings"]]
    if state.is_over():
        assert worth == [int(s) for s in state.scores()]  # the gems are in the cash: not counted twice
    else:
        assert worth == list(state.worth_at_end()) and any(sum(g) for g in state.gems)
        assert worth != [
            row["cash"] + sum(n * p for n, p in zip(row["gems"], view["prices"], strict=True))
            for row in view["holdings"]
        ]  # the position tells the two old figures apart
    assert _terminal_worth(view)[1] == worth
    script = (Path(games.package("grand_bazaar").folder) / "static" / "drawing.js").read_text(
        encoding="utf-8"
    )
    body = re.search(r"function worth\(view, row\) \{(.*?)\n\}", script, re.S).group(1)
    assert body.strip() == "return row.worth;"  # the page shows the engine's figure, as the terminal does


@pytest.mark.parametrize("language", LANGUAGES)
def test_grand_bazaars_worth_is_worded_alike_on_the_page_and_in_the_terminal(language):
    tr = Translator("grand_bazaar", language)
    said = tr.ui("worthHelp", value=10)
    assert "10" in said and said in tr.terminal("playersTitle", value=10)
    text, _ = _terminal_worth(_grand_bazaar_after(5).view(0), language)
    assert " ".join(said.split()) in " ".join(text.split())


def _marked(move: int, seat: int, loss: float, chances: list[float] | None = None):
    from merchantry.bots.analysis import Decision

    chances = chances or [0.5, 0.5]
    return Decision(
        move=move, moves=[move], seat=seat, played=f"move{move}", preferred=f"better{move}",
        before=0.5, after=0.5 - loss, best=0.5, mark="mistake" if loss >= 0.1 else None,
        after_interval=(0.4 - loss, 0.6 - loss), best_interval=(0.4, 0.6),
        loss_interval=(loss - 0.02, loss + 0.02),
        chances=chances, round=move // 2, chance_intervals=[(c - 0.01, c + 0.01) for c in chances],
    )  # fmt: skip


def test_key_moments_are_the_costliest_three_listed_in_game_order():
    from merchantry.bots.analysis import key_moments

    losses = {3: 0.12, 5: 0.40, 9: 0.15, 11: 0.30, 15: 0.11}  # the costliest (5, 11, 9) out of order
    decisions = [_marked(move, 0, loss) for move, loss in losses.items()] + [_marked(7, 1, 0.2)]
    mine, theirs = key_moments(decisions, 2)
    assert [m["move"] for m in mine] == [5, 9, 11]  # round 2, then 4, then 5: not by the points lost
    assert [m["points"] for m in mine] == [40, 15, 30]
    assert [m["round"] for m in mine] == sorted(m["round"] for m in mine)
    assert [m["move"] for m in theirs] == [7]


def test_analyze_game_lists_a_seats_moments_and_turning_point_in_game_order(monkeypatch, tmp_path, capsys):
    """The command prints each seat's key moments and where its chance fell in the order of the game."""
    from dataclasses import replace

    from merchantry import cli
    from merchantry.bots import analysis

    decisions = [
        replace(_marked(3, 0, 0.0, [0.9, 0.1]), after=0.9, after_interval=(0.85, 0.95)),
        _marked(4, 1, 0.0, [0.2, 0.8]),  # P1's chance falls 40 points (90 -> 50) while P2 plays move 4
        _marked(9, 0, 0.12),
        _marked(5, 0, 0.40),
    ]
    assert analysis.key_moments(decisions, 2)[0] and analysis.turning_points(decisions, 2)[0]
    monkeypatch.setattr(
        analysis, "analyze", lambda *args, **kwargs: decisions
    )  # the judging is not tested here
    from merchantry import records, simulate

    path = tmp_path / "game.json"
    records.save(simulate.play_one("grand_bazaar", ["greedy", "random"], run_seed=4, index=0).record, path)
    code = cli.main(["analyze-game", str(path), "--iterations", "4", "--workers", "1"])
    text = capsys.readouterr().out
    assert code == 0, text
    lines = [line for line in text.splitlines() if line.startswith("P1, round")]
    moves = [int(re.search(r"move(\d+)", line).group(1)) for line in lines]
    assert moves == [4, 5, 9], lines


def _played_to_the_end(name: str, players: int, seed: int):
    import random

    import merchantry.bots

    state = games.get(name).new_game(players=players, seed=seed)
    rng = random.Random(seed)
    greedy = merchantry.bots.get("greedy", name)
    while not state.is_over():
        seat = state.to_act()[0]
        state.apply(seat, merchantry.bots.play_turn(state, seat, greedy, rng))
    return state


def _final_text(name: str, view, language: str = "en") -> str:
    renderer = importlib.import_module(f"merchantry.games.{name}.terminal")
    out = io.StringIO()
    renderer.draw_final(view, Console(file=out, width=200, color_system=None), Translator(name, language))
    return out.getvalue().replace("\u00a0", " ")


@pytest.mark.parametrize("seed", [1, 2])
def test_samarkands_terminal_end_shows_every_hand_and_its_points_add_up_to_the_scores(seed):
    """The page lays every hand face up at the end, each card with what it scored; the terminal showed only
    the totals. Each seat's line lists its cards with their points, adding up to its goods cards, and the
    table's totals are the engine's scores()."""
    state = _played_to_the_end("samarkand", 3, seed)
    view = state.view(0)
    text = _final_text("samarkand", view)
    assert "Every hand at the end" in text
    scores = state.scores()
    lines = {int(m.group(1)) - 1: m.group(2) for m in re.finditer(r"^P(\d)(?: \(you\))?: (.*)$", text, re.M)}
    assert set(lines) == set(range(3))
    for row in view["seats"]:
        seat, part = row["seat"], view["breakdown"][row["seat"]]
        said, total = lines[seat].rsplit(" = ", 1)
        cards = re.findall(r"(\d+) [A-Za-z ]+? \((\d+)\)", said)
        assert [(int(g), int(p)) for g, p in cards] == [(c["good"], c["points"]) for c in row["hand"]]
        assert int(total) == sum(int(p) for _, p in cards) == part["goods_cards"]
        assert (
            part["goods_cards"] + part["goods_markers"] + part["relation_markers"] + part["money"]
            == part["total"]
            == scores[seat]
        )
        row_in_table = [line for line in text.splitlines() if re.match(rf"│ +P{seat + 1}\b", line)]
        assert len(row_in_table) == 1 and int(row_in_table[0].split("│")[-2]) == scores[seat]


@pytest.mark.parametrize("language", LANGUAGES)
def test_byzanzs_terminal_end_shows_every_hand_as_the_page_does(language):
    state = _played_to_the_end("byzanz", 3, 5)
    view = state.view(None)
    text = _final_text("byzanz", view, language)
    tr = Translator("byzanz", language)
    from merchantry.games.byzanz.terminal import cards

    for seat in view["seats"]:
        assert seat["hand"] is not None and len(seat["hand"]) == seat["hand_size"] == state.hand_size(
            seat["seat"]
        )
        said = tr.terminal(
            "finalHand", seat=f"P{seat['seat'] + 1}", count=seat["hand_size"], cards=cards(seat["hand"], tr)
        )
        assert Text.from_markup(said).plain.replace("\u00a0", " ") in text
        assert seat["score"] == state.scores()[seat["seat"]]


def _position_in_range(point: float, low: float, high: float) -> float:
    assert low <= point <= high and high > low, (low, point, high)
    return (point - low) / (high - low)


@pytest.mark.parametrize(
    ("game", "players"), [("samarkand", 3), ("money", 4), ("grand_bazaar", 3), ("byzanz", 4)]
)
@pytest.mark.parametrize("band", [(0.02, 0.3), (0.3, 0.7), (0.7, 0.98)])
def test_a_chance_shown_sits_inside_its_range_and_not_at_one_end(game, players, band):
    """A hint read "9% (likely between 8% and 16%)": play-outs cut short and judged by their standing (or
    shared ties) vary less than won-or-lost ones, and Wilson's pull towards one half was the pull of n
    won-or-lost play-outs while its width was their variance's: every low chance sat at the low end of its
    range, every high one at the top. Now the range is Wilson's on the effective number of play-outs, the
    chance and both ends mapped by the same calibration: over chances low, middling and high, the chance
    shown lies inside its range, on average near its middle, and seldom at an end."""
    from merchantry.bots.analysis import Estimate, calibration

    calibrate, rng, n = calibration(game, players), random.Random(7), 48
    raw_positions, shown_positions = [], []
    for i in range(60):
        mean = band[0] + (band[1] - band[0]) * i / 59
        shares = [min(1.0, max(0.0, rng.gauss(mean, 0.05))) for _ in range(n)]
        raw = Estimate.of_chance(shares)
        raw_positions.append(_position_in_range(raw.value, raw.low, raw.high))
        shown_positions.append(_position_in_range(calibrate(raw.value), *calibrate.interval(raw, n)))
    assert all(0.3 < p < 0.7 for p in raw_positions), (min(raw_positions), max(raw_positions))
    average = sum(shown_positions) / len(shown_positions)
    at_an_end = sum(p < 0.1 or p > 0.9 for p in shown_positions) / len(shown_positions)
    assert 0.35 < average < 0.65 and at_an_end <= 0.25, (average, at_an_end)


def test_won_or_lost_play_outs_keep_wilsons_interval_and_agreeing_ones_are_no_point():
    from merchantry.bots.analysis import Estimate

    mixed = Estimate.of_chance([1.0] * 30 + [0.0] * 18)  # Wilson's own, for 30 of 48
    z2n = 1.96**2 / 48
    centre, half = (30 / 48 + z2n / 2) / (1 + z2n), 1.96 * math.sqrt(30 * 18 / 48**3 + z2n / 192) / (1 + z2n)
    assert (mixed.low, mixed.high) == (pytest.approx(centre - half), pytest.approx(centre + half))
    shared = Estimate.of_chance([0.25] * 48)  # every play-out the same share: narrow, not a point
    assert 0.18 < shared.low < 0.25 < shared.high < 0.32
    assert _position_in_range(shared.value, shared.low, shared.high) > 0.35


def test_a_samarkand_hints_chance_lies_inside_its_range_and_not_at_its_low_end():
    """The newcomer's case: Samarkand's play-outs are cut short and judged by their standing."""
    from merchantry.bots.analysis import hint
    from merchantry.bots.ismcts import SearchConfig

    positions = []
    for seed in (1, 2, 3):
        state = games.get("samarkand").new_game(players=3, seed=seed)
        advice = hint(
            state, state.to_act()[0], "samarkand", config=SearchConfig(iterations=12, rollout_depth=8)
        )
        positions.append(_position_in_range(advice.chance, advice.low, advice.high))
    assert 0.2 < sum(positions) / len(positions) < 0.8, positions


def _terminal_lines(game: str, language: str, inputs: list[str], players: int = 3) -> tuple[str, object]:
    from merchantry import records
    from merchantry.terminal import TerminalTable

    feed = iter(inputs)

    def read(prompt: str) -> str:
        line = next(feed, None)
        if line is None:
            raise EOFError
        return line

    out = io.StringIO()
    session = records.Session(game, players, seed=2)
    table = TerminalTable(
        session,
        0,
        ["you"] + ["greedy"] * (players - 1),
        Console(file=out, width=200, color_system=None),
        read,
        random.Random(2),
        language=language,
        save_on_quit=False,
    )
    table.run()
    return out.getvalue(), session


@pytest.mark.parametrize("game", ["grand_bazaar", "samarkand", "money", "byzanz"])
@pytest.mark.parametrize("language", ["de", "fr", "pt"])
def test_the_terminals_moves_are_listed_with_their_words_in_the_players_language(game, language):
    """A German terminal listed 'buy ruby', 'add cloth2': the notation, what one types, stays, and the move
    in words in the player's language stands beside it."""
    text, session = _terminal_lines(game, language, ["quit"], players=2 if game == "grand_bazaar" else 3)
    tr = Translator(game, language)
    listed = [str(a) for a in session.state.legal_actions(0)]
    assert listed
    flat = " ".join(text.split())
    for move in listed:
        said = tr.move(move)
        assert said != move and f"{move} ({' '.join(said.split())})" in flat, (move, said)


def test_the_english_terminal_lists_only_the_notation():
    text, session = _terminal_lines("grand_bazaar", "en", ["quit"], players=2)
    assert "buy ruby" in text and "(buy one ruby)" not in text


def test_a_move_measured_above_the_one_preferred_is_the_seats_chance_before_it(monkeypatch):
    """The analysis' chance before a move is the seat's chance with its best known move: where the same worlds
    measured the move played above the search's preferred one, that is the move played. Before, "before" was
    the preferred move's chance alone, and the chart drew a seat's own unmarked move as raising its chance
    (Money's lesson: "26% → 60%")."""
    from merchantry.bots import analysis

    game = games.get("money")
    state = game.new_game(players=3, seed=5)
    seat = state.to_act()[0]
    played = [next(a for a in state.legal_actions(seat) if str(a) == "pass" or str(a).startswith("add"))]
    won, lost = [float(p == seat) for p in range(3)], [0.0 if p == seat else 0.5 for p in range(3)]
    wins = lambda n: [won if w < n else lost for w in range(20)]  # noqa: E731  (n of 20 worlds won)
    for played_wins, preferred_wins in ((16, 6), (6, 16)):
        outcomes = [wins(played_wins), wins(preferred_wins)]
        judged = lambda *_args, outcomes=outcomes, **_kw: (["elsewhere"], outcomes)  # noqa: E731
        monkeypatch.setattr(analysis, "judge", judged)
        d = analysis._decision("money", analysis.analysis_recipe("money"), state, seat, [1], played, 20, None)
        assert d.before == max(d.best, d.after)
        if played_wins > preferred_wins:
            assert d.after > d.best and d.before == d.after and d.before_interval == d.after_interval
            assert d.mark is None
        else:
            assert d.before == d.best > d.after and d.before_interval == d.best_interval


def test_steps_that_take_themselves_back_are_part_of_the_decision_that_follows():
    """A seat that puts a note into its sealed bid and takes it out again has not decided yet: the analysis
    judges one decision, its steps from the first `add` to the seal, as "add X, bid" (a newcomer read a
    medium bot's "add GBP 20, take it back" as a move of nothing, “”, in a turning point)."""
    from merchantry import records
    from merchantry.bots.analysis import decisions_in

    session = records.Session("money", 3, seed=5)
    seat = session.state.to_act()[0]
    note = next(a for a in session.state.legal_actions(seat) if str(a).startswith("add"))
    for text in (str(note), str(note).replace("add", "remove"), str(note), "bid"):
        session.apply(seat, session.game.parse_action(session.state, seat, text))
    record = {"game": "money", "players": 3, "seed": 5, "options": {}, "moves": session.moves}
    (before, decider, steps), *_ = decisions_in(record)
    assert decider == seat and [n for n, _ in steps] == [1, 2, 3, 4]
    assert [str(a) for a in before.net_move(seat, [a for _, a in steps])] == [str(note), "bid"]


def test_analyze_game_says_when_it_has_no_key_moments(monkeypatch, tmp_path, capsys):
    """Issue 32, twelfth pass: with no moment to tell, the page's section and the terminal's list were
    absent, read as a missing feature. Both say there are none."""
    from dataclasses import replace

    from merchantry import cli, records, simulate
    from merchantry.bots import analysis

    record = simulate.play_one("grand_bazaar", ["greedy", "random"], run_seed=4, index=0).record
    final = records.replay(record)
    shares = [
        1.0 if seat in final.winners() else 0.0 for seat in range(2)
    ]  # each seat's line ends at its result
    decisions = [_marked(3, 0, 0.0, shares), _marked(4, 1, 0.0, shares)]
    decisions = [
        replace(
            d, before=shares[d.seat], after=shares[d.seat], best=shares[d.seat], after_interval=(0.0, 1.0)
        )
        for d in decisions
    ]
    assert not any(analysis.moments(decisions, 2, shares))
    monkeypatch.setattr(analysis, "analyze", lambda *args, **kwargs: decisions)
    path = tmp_path / "game.json"
    records.save(record, path)
    assert cli.main(["analyze-game", str(path), "--iterations", "4", "--workers", "1"]) == 0
    said = " ".join(capsys.readouterr().out.split())  # as wrapped at the console's width
    none = Translator(None, "en").ui("noKeyMoments")
    assert none.startswith("None: no player's move was marked") and f"Key moments: {none}" in said
