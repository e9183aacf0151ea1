"""Levers for designers (issue 34): every game declares variants (options that change the rulebook's
rules, each defaulting to the rulebook), and `merchantry balance --compare` studies them; bad settings
and output paths are refused before any game runs; tables reach pipes whole."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from merchantry import cli, games
from merchantry.arena import balance, tournament
from merchantry.errors import InvalidOption
from merchantry.games.byzanz.components import MERCHANT

# a value of each variant that is not the rulebook's, and what it must change
OTHER_VALUE = {
    "money": {"penalty": 0, "trio_bonus": 0},
    "byzanz": {"hand_limit": 5, "merchant_profit": 0},
    "grand_bazaar": {"start_cash": 50, "market_size": 6},
    "samarkand": {"late_start_money": 2, "hand_limit": 5},
}


def play_out(state, seed: int = 1):
    rng = random.Random(seed)
    while not state.is_over():
        seat = state.to_act()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return state


@pytest.mark.parametrize("name", games.names())
def test_every_game_declares_two_variants_that_default_to_the_rulebook(name):
    game = games.get(name)
    variants = game.variants()
    assert len(variants) >= 2 and set(variants) == set(OTHER_VALUE[name])
    for variant in variants:
        default, description = game.options()[variant]
        assert "variant" in description  # documented as a variant, not as the rulebook's rule
    players = game.min_players + 1
    rulebook = game.new_game(players=players, seed=5)
    spelled_out = game.new_game(players=players, seed=5, **{v: game.options()[v][0] for v in variants})
    assert spelled_out.to_dict() == rulebook.to_dict()
    assert "variants" not in rulebook.view(None)


@pytest.mark.parametrize("name", games.names())
def test_a_variant_is_public_kept_by_records_and_sampled_worlds(name):
    game = games.get(name)
    chosen = OTHER_VALUE[name]
    state = game.new_game(players=game.min_players + 1, seed=5, **chosen)
    assert state.view(None)["variants"] == chosen and state.view(0)["variants"] == chosen
    again = game.from_dict(state.to_dict())
    assert again.to_dict() == state.to_dict()
    world = state.sample_hidden(0, random.Random(2))
    assert world.view(0)["variants"] == chosen
    assert game.new_game(players=game.min_players + 1, seed=5).to_dict() != state.to_dict()


def test_samarkand_late_start_money_pays_later_players_more():
    game = games.get("samarkand")
    state = game.new_game(players=4, seed=3, late_start_money=2)
    first = state.first_player
    assert [state.money[(first + k) % 4] for k in range(4)] == [10, 12, 14, 16]
    assert game.new_game(players=4, seed=3, hand_limit=5).view(0)["hand_limit"] == 5


def test_byzanz_variants_change_the_hand_limit_and_the_merchants_worth():
    game = games.get("byzanz")
    limited = play_out(game.new_game(players=4, seed=2, hand_limit=5))
    limits = {e["limit"] for e in limited.view(None)["log"] if e["type"] == "over_limit"}
    assert limits == {5}
    rulebook = play_out(game.new_game(players=4, seed=8))  # a game in which a merchant set is sold
    free = play_out(game.new_game(players=4, seed=8, merchant_profit=0))
    assert free.profits == rulebook.profits  # the same game: only what a merchant scores differs
    merchants = [sum(1 for c in profits if c == MERCHANT) for profits in free.profits]
    assert sum(merchants) > 0
    assert [r - f for r, f in zip(rulebook.scores(), free.scores(), strict=True)] == [
        5.0 * m for m in merchants
    ]


def test_grand_bazaar_variants_set_the_starting_cash_and_the_market():
    state = games.get("grand_bazaar").new_game(players=3, seed=1, start_cash=50, market_size=6)
    assert state.cash == (50, 50, 50) and state.stock == (6, 6, 6)


def test_money_scoring_variants_change_the_final_scores():
    game = games.get("money")
    rulebook = play_out(game.new_game(players=4, seed=9))
    no_bonus = play_out(game.new_game(players=4, seed=9, trio_bonus=0, penalty=0))
    assert rulebook.hands == no_bonus.hands  # the same game: only its scoring differs
    assert rulebook.scores() != no_bonus.scores()


def test_option_values_outside_their_range_are_refused_with_the_range():
    with pytest.raises(InvalidOption, match="max_rounds must be an integer from 1 to 200"):
        games.get("money").new_game(players=4, max_rounds=10**30)
    with pytest.raises(InvalidOption, match="late_start_money must be an integer from 0 to 5"):
        games.get("samarkand").new_game(players=4, late_start_money=9)
    with pytest.raises(InvalidOption, match="options are: late_start_money, hand_limit"):
        games.get("samarkand").new_game(players=4, max_rounds=1)


def test_compare_a_variant_by_name_and_values_that_hold_commas():
    found = balance.variants("samarkand", 4, {}, "late_start_money")
    assert [dict(v.options)["late_start_money"] for v in found] == [0, 5]
    found = balance.variants("money", 3, {}, "removed_currencies=EUR,JPY|USD,GBP")
    assert [dict(v.options)["removed_currencies"] for v in found] == ["EUR,JPY", "USD,GBP"]
    with pytest.raises(ValueError, match="no variant of money"):
        balance.variants("money", 3, {}, "max_rounds")


def test_balance_compares_a_variant_and_shows_its_effect(capsys):
    argv = ["balance", "samarkand", "--players", "3", "--games", "6", "--compare", "late_start_money=0,5"]
    assert cli.main(argv) == 0
    out = capsys.readouterr().out
    assert "late_start_money=0" in out and "late_start_money=5" in out


def refuse_to_play(*args, **kwargs):
    raise AssertionError("no game may run")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["balance", "samarkand", "--compare", "max_rounds=1,2"], "options are: late_start_money"),
        (["balance", "money", "--players", "4", "--compare", "removed_currencies=EUR,JPY|USD"], "remove 1"),
        (["balance", "byzanz", "--compare", "hand_limit=7,99"], "hand_limit must be an integer from 4 to 12"),
        (["balance", "money", "--option", "max_rounds=1000000000000000000000000000000"], "from 1 to 200"),
    ],
)
def test_bad_variants_are_refused_before_any_game(argv, message, monkeypatch, capsys):
    monkeypatch.setattr(balance, "run", refuse_to_play)
    assert cli.main(argv) == 2
    captured = capsys.readouterr()
    assert message in captured.err and captured.err.count("\n") == 1
    assert captured.out == ""


def test_output_paths_are_checked_before_the_run(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(tournament, "run", refuse_to_play)
    monkeypatch.setattr(balance, "run", refuse_to_play)
    existing = tmp_path / "x.html"
    existing.write_text("mine")
    base = ["tournament", "money", "--bots", "random,greedy", "--games", "4"]
    assert cli.main([*base, "--report", str(existing)]) == 2
    assert "is a file" in capsys.readouterr().err
    assert cli.main([*base, "--records", "/proc/nope/records"]) == 2
    assert "cannot write" in capsys.readouterr().err
    assert cli.main(["balance", "money", "--report", str(existing)]) == 2
    assert "is a file" in capsys.readouterr().err
    assert cli.main(["simulate", "money", "--records", "/proc/nope/x.jsonl", "--games", "1"]) == 2
    assert "cannot write" in capsys.readouterr().err
    assert existing.read_text() == "mine"


def test_simulate_without_players_takes_the_games_minimum(capsys):
    assert cli.main(["simulate", "money", "--bots", "random", "--games", "2"]) == 0
    assert "3 players" in capsys.readouterr().out


def test_tables_reach_a_pipe_whole(capsys, monkeypatch):
    monkeypatch.syspath_prepend(
        str(Path(__file__).parent.parent / "examples" / "merchantry-example-bot" / "src")
    )
    long_bot = "merchantry_example_bot:make"
    argv = ["tournament", "money", "--players", "3", "--bots", f"random,{long_bot}", "--games", "4"]
    assert cli.main(argv) == 0
    out = capsys.readouterr().out
    assert "…" not in out
    assert long_bot in out and "openskill rating" in out
