"""The merchantry command: simulate, replay, errors."""

from __future__ import annotations

import json

import pytest

from merchantry import cli, records, simulate


def test_simulate_prints_win_rates_scores_and_speed(capsys):
    code = cli.main(
        [
            "simulate",
            "money",
            "--players",
            "4",
            "--games",
            "8",
            "--bots",
            "greedy,random,random,random",
            "--seed",
            "1",
        ]
    )
    assert code == 0
    text = capsys.readouterr().out
    for needle in ("By bot", "By seat", "win rate", "greedy", "random", "games/s", "mean rounds"):
        assert needle in text


def test_simulate_json_summary(capsys):
    cli.main(["simulate", "money", "--games", "6", "--bots", "greedy,random,random", "--seed", "2", "--json"])
    summary = json.loads(capsys.readouterr().out)
    assert summary["players"] == 3 and summary["games"] == 6
    assert summary["by_bot"]["greedy"]["seats"] == 6 and summary["by_bot"]["random"]["seats"] == 12
    assert sum(seat["win_rate"] for seat in summary["by_seat"]) == pytest.approx(1.0)


def test_simulate_gives_the_same_games_with_any_number_of_workers():
    lineup = ["greedy", "random", "random"]
    one, _ = simulate.run("money", lineup, 6, seed=5, workers=1)
    two, _ = simulate.run("money", lineup, 6, seed=5, workers=2)
    assert [r.record for r in one] == [r.record for r in two]
    # the line-up is rotated so every bot sits in every seat
    assert {r.seat_bots.index("greedy") for r in one} == {0, 1, 2}


def test_replay_prints_the_final_position_and_scores(tmp_path, capsys):
    results, _ = simulate.run("money", ["random"] * 3, 1, seed=3)
    path = tmp_path / "record.json"
    records.save(results[0].record, path)
    assert cli.main(["replay", str(path)]) == 0
    text = capsys.readouterr().out
    assert "Final scores" in text and "Winners:" in text
    assert cli.main(["replay", str(path), "--upto", "3", "--seat", "1"]) == 0
    assert "not over" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["play", "chess"], "unknown game 'chess'"),
        (["simulate", "money", "--bots", "genius,random,random"], "no bot 'genius'"),
        (["simulate", "money", "--players", "9", "--bots", "random"], "3-5 players"),
        (["play", "money", "--option", "max_rounds"], "name=value"),
        (["replay", "/no/such/file.json"], "cannot read"),
    ],
)
def test_bad_input_gives_a_one_line_error(argv, message, capsys):
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_a_malformed_record_file_gives_a_one_line_error(tmp_path, capsys):
    bad_json = tmp_path / "bad.json"
    bad_json.write_text("{not json")
    assert cli.main(["replay", str(bad_json)]) == 2
    assert "is not JSON" in capsys.readouterr().err
    bad_move = tmp_path / "move.json"
    bad_move.write_text(
        json.dumps({"game": "money", "players": 3, "seed": 1, "options": {}, "moves": [[0, "keep"]]})
    )
    assert cli.main(["replay", str(bad_move)]) == 2
    assert "move 1 (P1 'keep') is refused" in capsys.readouterr().err


def test_options_reach_the_game(capsys):
    results, _ = simulate.run("money", ["random"] * 3, 1, seed=1)
    assert cli.parse_options(["max_rounds=3", "removed_currencies=EUR,JPY"]) == {
        "max_rounds": 3,
        "removed_currencies": "EUR,JPY",
    }


def test_analyze_game_judges_a_record_and_writes_its_analysis(tmp_path, capsys):
    result = simulate.play_one("grand_bazaar", ["greedy", "random"], run_seed=4, index=0)
    path = tmp_path / "game.json"
    records.save(result.record, path)
    out = tmp_path / "analysis.json"
    code = cli.main(["analyze-game", str(path), "--iterations", "8", "--all", "--json", str(out)])
    assert code == 0
    text = capsys.readouterr().out
    assert "whole move" in text and "By seat" in text and "mean loss" in text
    decisions = json.loads(out.read_text())
    assert decisions and {d["seat"] for d in decisions} == {0, 1}
    assert all(d["move"] <= len(result.record["moves"]) for d in decisions)
    assert all(d["mark"] in (None, "inaccuracy", "mistake", "blunder") for d in decisions)
    for d in decisions:  # whole turns, each chance with its interval, the seats' chances adding up to 1
        assert d["played"].split(", ")[-1] == "done" and d["move"] == d["moves"][-1]
        assert d["after_interval"][0] <= d["after"] <= d["after_interval"][1]
        assert abs(sum(d["chances"]) - 1) < 1e-6


def test_analyze_game_refuses_a_broken_record(tmp_path, capsys):
    result = simulate.play_one("grand_bazaar", ["greedy", "random"], run_seed=4, index=0)
    result.record["moves"][2][1] = "buy gold"
    path = tmp_path / "broken.json"
    records.save(result.record, path)
    assert cli.main(["analyze-game", str(path), "--iterations", "4"]) != 0
    assert "move 3" in capsys.readouterr().err
