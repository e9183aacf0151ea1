"""The arena: balanced seatings, tournaments that give the same results with any number of workers and
resume after an interruption, ratings, the statistics, and the report."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from merchantry import cli
from merchantry.arena import balance, schedule, tournament
from merchantry.arena.statistics import chi_square_uniform, wilson


@pytest.mark.parametrize(("bots", "seats"), [(3, 4), (5, 4), (2, 2), (4, 4)])
def test_every_bot_sits_in_every_seat_equally_often(bots, seats):
    names = [f"b{i}" for i in range(bots)]
    games = schedule.balanced_length(names, 1)
    per_seat = [Counter(schedule.seating(names, seats, i)[s] for i in range(games)) for s in range(seats)]
    assert all(counts == Counter(dict.fromkeys(names, games // bots)) for counts in per_seat)


def test_more_bots_than_seats_still_meet_every_other_bot():
    names = ["a", "b", "c", "d", "e"]
    games = schedule.balanced_length(names, 1)
    met = {frozenset(p) for i in range(games) for p in _pairs(schedule.seating(names, 3, i))}
    assert met == {frozenset(p) for p in _pairs(names)}


def _pairs(items):
    return [(a, b) for i, a in enumerate(items) for b in items[i + 1 :] if a != b]


def small() -> tournament.Tournament:
    return tournament.Tournament("grand_bazaar", 3, ("random", "greedy"), 8, seed=5)


def results_of(contest: tournament.Tournament, workers: int = 1, done=()) -> dict:
    found = {}
    tournament.run(contest, workers, done=done, on_result=lambda r: found.__setitem__(r.index, r))
    return found


def test_the_same_seed_gives_the_same_games_with_any_number_of_workers():
    one, two = results_of(small(), 1), results_of(small(), 2)
    assert sorted(one) == sorted(two) == list(range(8))
    assert [one[i].scores for i in range(8)] == [two[i].scores for i in range(8)]
    analysis = [tournament.analyse(small(), list(r.values())) for r in (one, two)]
    assert analysis[0]["ratings"] == analysis[1]["ratings"]


def test_a_run_resumes_from_its_records_and_ends_as_an_uninterrupted_one(tmp_path):
    first = tournament.Tournament("grand_bazaar", 3, ("random", "greedy"), 4, seed=5)
    tournament.save_settings(tmp_path, first)
    tournament.run(first, on_result=lambda r: tournament.append_record(tmp_path, r))
    with (tmp_path / tournament.RECORDS_FILE).open("a") as file:
        file.write('{"index": 4, "seat_bots": ["ran')  # a line cut short by Ctrl-C
    kept = tournament.load_records(tmp_path)
    assert sorted(kept) == [0, 1, 2, 3]
    played = []
    tournament.run(small(), done=kept, on_result=played.append)
    assert sorted(r.index for r in played) == [4, 5, 6, 7]
    resumed = tournament.analyse(small(), [*kept.values(), *played])
    fresh = tournament.analyse(small(), list(results_of(small()).values()))
    assert resumed["ratings"] == fresh["ratings"] and resumed["by_seat"] == fresh["by_seat"]


def test_records_of_another_tournament_are_not_mixed_in(tmp_path):
    tournament.save_settings(tmp_path, small())
    other = tournament.Tournament("grand_bazaar", 4, ("random", "greedy"), 8, seed=5)
    with pytest.raises(ValueError, match="another tournament"):
        tournament.save_settings(tmp_path, other)


def test_the_stronger_bot_is_rated_higher_and_wins_its_meetings():
    contest = tournament.Tournament("grand_bazaar", 4, ("random", "greedy"), 40, seed=1)
    analysis = tournament.analyse(contest, list(results_of(contest, 2).values()))
    assert analysis["ratings"]["greedy"]["ordinal"] > analysis["ratings"]["random"]["mu"]
    assert analysis["head_to_head"]["greedy"]["random"]["ahead"] > 0.7
    assert analysis["by_bot"]["greedy"]["win_low"] > analysis["by_bot"]["random"]["win_high"]


def test_wilson_intervals_and_the_seat_test():
    low, high = wilson(0, 20)
    assert low == 0 and 0.1 < high < 0.2  # a rate of 0 is not certain
    low, high = wilson(10, 20)
    assert low < 0.5 < high and abs((low + high) / 2 - 0.5) < 1e-9
    assert chi_square_uniform([25, 25, 25, 25])[2] == pytest.approx(1.0)
    assert chi_square_uniform([40, 20, 20, 20])[2] < 0.01


def test_the_command_prints_ratings_and_writes_the_report(tmp_path, capsys):
    report = tmp_path / "report"
    code = cli.main(
        [
            "tournament",
            "money",
            "--players",
            "3",
            "--bots",
            "random,greedy",
            "--games",
            "6",
            "--report",
            str(report),
        ]
    )
    assert code == 0
    out = capsys.readouterr().out
    assert "Bots, most wins first" in out and "Head to head" in out
    names = {p.name for p in report.iterdir()}
    assert {"report.html", "report.md", "win_rate_by_bot.png", "ratings.png", "win_rate_by_seat.png"} <= names
    markdown = (report / "report.md").read_text()
    assert "| greedy |" in markdown and "![" in markdown and "How to read this" in markdown
    assert markdown.index("win_rate_by_bot.png") < markdown.index("ratings.png")  # win rates first
    page = (report / "report.html").read_text()
    assert "data:image/png;base64," in page
    assert "<pre>" not in page and "<li>Win rates: a shared win counts as a fraction" in page  # real HTML


def test_ctrl_c_keeps_what_finished_and_resume_completes_it(tmp_path, monkeypatch, capsys):
    records = tmp_path / "records"
    original = tournament.run

    def interrupted(contest, workers, done, on_result, backend, address):
        finished = []

        def stop_after_three(result):  # Ctrl-C arrives while the fourth game is played
            on_result(result)
            finished.append(result)
            if len(finished) == 3:
                raise KeyboardInterrupt

        original(contest, workers, done=done, on_result=stop_after_three)

    monkeypatch.setattr(tournament, "run", interrupted)
    argv = [
        "tournament",
        "grand_bazaar",
        "--bots",
        "random,greedy",
        "--games",
        "8",
        "--records",
        str(records),
    ]
    assert cli.main(argv) == 130
    assert "Interrupted" in capsys.readouterr().out
    lines = (records / tournament.RECORDS_FILE).read_text().splitlines()
    assert len(lines) == 3 and all(json.loads(line)["record"]["game"] == "grand_bazaar" for line in lines)
    monkeypatch.setattr(tournament, "run", original)
    assert cli.main([*argv, "--resume"]) == 0
    assert len((records / tournament.RECORDS_FILE).read_text().splitlines()) == 8


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["tournament", "money", "--bots", "random,nobody"], "no bot 'nobody'"),
        (["tournament", "money", "--bots", "random"], "at least two different bots"),
        (["tournament", "money", "--bots", "random,greedy", "--resume"], "--resume continues"),
    ],
)
def test_bad_tournament_arguments_give_a_one_line_error(argv, message, capsys):
    assert cli.main(argv) == 2
    assert message in capsys.readouterr().err


def test_a_tournament_game_replays_from_its_records(tmp_path, capsys):
    records = tmp_path / "records"
    argv = [
        "tournament",
        "grand_bazaar",
        "--bots",
        "random,greedy",
        "--games",
        "4",
        "--records",
        str(records),
    ]
    assert cli.main(argv) == 0
    capsys.readouterr()
    assert cli.main(["replay", str(records / tournament.RECORDS_FILE), "--game", "2"]) == 0
    assert "grand_bazaar, 2 players" in capsys.readouterr().out
    assert cli.main(["replay", str(records / tournament.RECORDS_FILE)]) == 2
    assert "holds 4 games" in capsys.readouterr().err


def test_a_local_ray_cluster_plays_the_same_games_as_local_processes(tmp_path, monkeypatch):
    ray = pytest.importorskip("ray")  # an optional extra, installed by make test: a real cluster, no mock
    # a local ray.init() writes ~/.ray/auth_token and turns token mode on for the whole process: keep both
    # to this test (a HOME of its own; RAY_AUTH_MODE is put back by monkeypatch)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("RAY_AUTH_MODE", "disabled")
    contest = small()
    on_ray: dict = {}
    try:
        tournament.run(contest, on_result=lambda r: on_ray.__setitem__(r.index, r), backend="ray")
    finally:
        ray.shutdown()
    here = results_of(contest, 1)
    assert sorted(on_ray) == sorted(here)
    assert [on_ray[i].scores for i in sorted(here)] == [here[i].scores for i in sorted(here)]
    assert [on_ray[i].record for i in sorted(here)] == [here[i].record for i in sorted(here)]


# --- balance studies --------------------------------------------------------------------------------


def test_compare_makes_one_variant_per_player_count_or_option_value():
    found = balance.variants("money", 4, {}, "players=3,5")
    assert [(v.players, v.options) for v in found] == [(3, ()), (5, ())]
    found = balance.variants("money", 4, {"removed_currencies": "EUR"}, "max_rounds=5,60")
    assert [dict(v.options) for v in found] == [
        {"max_rounds": 5, "removed_currencies": "EUR"},
        {"max_rounds": 60, "removed_currencies": "EUR"},
    ]
    with pytest.raises(ValueError, match="name=value1,value2"):
        balance.variants("money", 4, {}, "players=3")


def test_variants_play_the_same_deals_so_only_the_variant_differs():
    study = balance.Study("money", "random", 3, 2, balance.variants("money", 3, {}, "max_rounds=2,60"))
    found: dict = {}
    balance.run(study, lambda label, r: found.setdefault(label, []).append(r))
    short, full = (sorted(found[v.label], key=lambda r: r.index) for v in study.variants)
    assert [r.record["seed"] for r in short] == [r.record["seed"] for r in full]
    assert all(s.rounds <= 2 < f.rounds for s, f in zip(short, full, strict=True))


def test_the_balance_command_reports_seat_advantage_and_writes_its_report(tmp_path, capsys):
    argv = ["balance", "grand_bazaar", "--compare", "players=2,3", "--games", "6", "--bot", "random"]
    assert cli.main([*argv, "--report", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "Seat advantage" in out and "2 players" in out and "3 players" in out
    markdown = (tmp_path / "report.md").read_text()
    assert "p (no seat advantage)" in markdown and "seat_win_rates.png" in markdown
    assert (tmp_path / "scores.png").stat().st_size > 1000


def test_a_balance_study_refuses_an_unknown_option_with_the_reason(capsys):
    assert cli.main(["balance", "money", "--compare", "speed=1,2", "--games", "2"]) == 2
    assert "unknown option" in capsys.readouterr().err


def test_a_game_that_draws_its_first_player_is_also_judged_by_turn_order():
    study = balance.Study("samarkand", "random", 6, 1, balance.variants("samarkand", 3, {}, None))
    found: dict = {}
    balance.run(study, lambda label, r: found.setdefault(label, []).append(r))
    analysis = balance.analyse(study, found)
    (variant,) = analysis["variants"].values()
    results = found[study.variants[0].label]
    first_wins = sum(1 / len(r.winners) for r in results if r.first_player in r.winners)
    assert variant["turn_order"]["positions"][0]["win_rate"] == pytest.approx(first_wins / 6)
    money = balance.Study("money", "random", 2, 1, balance.variants("money", 3, {}, None))
    found = {}
    balance.run(money, lambda label, r: found.setdefault(label, []).append(r))
    assert (
        next(iter(balance.analyse(money, found)["variants"].values()))["turn_order"] is None
    )  # no first player
