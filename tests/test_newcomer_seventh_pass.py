"""What a newcomer met on a seventh pass (issue 32): a followed Byzanz hint threw away a won game, and the
analysis said nothing of it, neither of the move (the hint and the analysis search alike, so the move was
the analysis' own) nor of the end (each seat's chances stopped at its last decision, at 78%)."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import pytest

from merchantry import records
from merchantry.bots.analysis import analysis_recipe, analyze, hint, judge, moments, turning_points
from merchantry.bots.ismcts import Node, searcher, unsettled, win_shares
from merchantry.cli import moment_in_words
from merchantry.i18n import Translator
from merchantry.package import LANGUAGES
from tests.test_search_bots import judged_decision

RECORD = Path(__file__).parent / "records" / "byzanz-hint-takes-wine-over-the-winning-wood.json"
WINE_AT = 161  # moves played before P1's "take wine" (move 162), P1 choosing first in round 8's market


def before_the_wine():
    record = json.loads(RECORD.read_text())
    assert record["moves"][WINE_AT] == [0, "take wine"]
    return record, records.replay(record, upto=WINE_AT)


def test_a_byzanz_hint_takes_the_wood_that_wins_more_not_the_more_visited_wine():
    """P1 led 30 to 26 holding wood 3; "take wood" makes a wood trio and keeps the wood from P3, who took
    it and won. At the hint's 150 iterations "take wine" was the most visited move (46 visits, 85%) and
    "take wood" won more (36 visits, 94%): the search now goes on until its visits agree with its means."""
    _, state = before_the_wine()
    assert hint(state, 0, "byzanz").plan == ["take wood"]
    # the old search, stopped at its iterations, hinted the wine: this position tests the settling
    unsettled_config = replace(analysis_recipe("byzanz"), settle=0.0)
    assert hint(state, 0, "byzanz", config=unsettled_config).plan == ["take wine"]


def test_the_analysis_prefers_the_wood_to_the_wine_played():
    _, state = before_the_wine()
    wine = state.game.parse_action(state, 0, "take wine")
    preferred, outcomes = judge(state, 0, [wine], searcher("byzanz", analysis_recipe("byzanz")))
    assert [str(step) for step in preferred] == ["take wood"]
    played, wood = ([shares[0] for shares in outcome] for outcome in outcomes)
    assert sum(wood) / len(wood) > sum(played) / len(played)  # measured on the same worlds


def node(visits: int, won: float) -> Node:
    return Node(mover=0, visits=visits, available=visits, reward=won, won=won)


def test_a_search_is_unsettled_while_a_well_visited_move_clearly_wins_more_than_the_most_visited():
    root = Node()
    root.children = {(0, "wine"): node(46, 39.3), (0, "wood"): node(36, 33.7), (1, "other"): node(60, 60)}
    assert unsettled(root, 0)  # 85% against 94%, 1.4 standard errors apart; the other seat's node ignored
    root.children[0, "wood"] = node(22, 20.6)  # the same mean on fewer than half the visits: noise
    assert not unsettled(root, 0)
    root.children[0, "wood"] = node(36, 31.5)  # 87.5% against 85%: within the noise
    assert not unsettled(root, 0)
    root.children = {(0, "wine"): node(46, 39.3)}  # one move: nothing to settle
    assert not unsettled(root, 0)


def test_a_seat_that_lost_after_its_last_move_is_told_where_its_chance_fell_to_the_end():
    decisions = [
        judged_decision(1, 0, [0.50, 0.50]),
        judged_decision(2, 1, [0.45, 0.55]),
        judged_decision(3, 0, [0.80, 0.20]),  # P1's last decision: 80%
        judged_decision(4, 1, [0.30, 0.70]),  # P2's last two moves win it the game
        judged_decision(5, 1, [0.10, 0.90]),
    ]
    p1, p2 = turning_points(decisions, 2, result=[0.0, 1.0])
    assert p1 == [
        {
            "move": 4,
            "round": 2,
            "by": [1],
            "moves": [{"seat": 1, "played": "move4"}, {"seat": 1, "played": "move5"}],
            "from": 80,
            "to": 0,
            "end": True,
        }
    ]
    assert p2 == []  # the winner's chance rose to the end
    assert turning_points(decisions, 2) == [[], []]  # without the result, nothing after the last decision
    # a seat whose own move ends the game has no one's moves to blame: no turning point
    assert turning_points(decisions[:3], 2, result=[0.0, 1.0]) == [[], []]
    said = moment_in_words({"kind": "turning", **p1[0]}, 0)
    assert said.endswith("fell from 80% to 0% (from their last move to the end)"), said


def test_the_byzanz_game_lost_after_the_wine_marks_the_wine_a_blunder():
    """The game the hint's wine lost: its analysis did not mark the wine (the fall came "from P1's last move
    to the end"). With the final selling played out as every player plays it (the eleventh pass), the
    wood's worlds win where the wine's lose: the wine is the game's key moment, a blunder."""
    record, _ = before_the_wine()
    final = records.replay(record)
    result = win_shares(final.winners(), final.num_players)
    assert result == [0.0, 0.0, 1.0]  # P3 won, 32 to P1's 30
    decisions = list(analyze(record))
    (wine,) = [d for d in decisions if d.moves == [WINE_AT + 1]]
    assert wine.preferred == "take wood" and wine.mark == "blunder", wine
    key = [m for m in moments(decisions, 3, result)[0] if m["kind"] == "key"]
    assert [(m["move"], m["played"], m["preferred"]) for m in key] == [
        (WINE_AT + 1, "take wine", "take wood")
    ]


def test_a_turning_point_quotes_each_seats_first_move_and_counts_the_rest():
    """The Byzanz game's P3 fall listed eleven whole turns of P1 and P2: each seat's first is quoted."""
    moment = {
        "kind": "turning",
        "moves": [{"seat": 1, "played": f"take {good}"} for good in ("wine", "wood", "cloth", "grain")]
        + [{"seat": 2, "played": "pass"}],
        "from": 71,
        "to": 36,
    }
    said = moment_in_words(moment, 0)
    assert "P2 played take wine and 3 other moves; P3 played pass" in said, said
    assert "wood" not in said


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_pages_count_of_the_other_moves_has_its_plural_forms(language):
    tr = Translator(None, language)
    one, many = tr.ui("morePlays", count=1), tr.ui("morePlays", count=9)
    assert "1" in one and "9" in many and one != many and "morePlays" not in one + many


def test_a_key_moments_points_are_the_marks_tables_difference_in_whole_percent():
    """Samarkand: "cost about 9 points" stood beside the marks table's "35% → 27%" (a loss of 8.8)."""
    from merchantry.bots.analysis import key_moments

    (costly,) = (replace(judged_decision(3, 0, [0.266, 0.734]), before=0.354, best=0.354, mark="inaccuracy"),)
    mine, _ = key_moments([costly], 2)
    assert [m["points"] for m in mine] == [35 - 27]


def test_a_loss_that_may_be_a_mark_is_played_out_in_every_world():
    """Ninth pass: a Money group choice was called a 65-point blunder from 16 worlds, where 400 show the two
    moves alike. Play-outs stop early only where no mark can come of them."""
    from merchantry.bots.analysis import settled

    def outcome(wins: list[float]) -> list[list[float]]:
        return [[w, 1 - w] for w in wins]

    played = outcome([0.0, 1.0] * 8)
    clearly_worse = [played, outcome([1.0] * 16)]  # the preferred move wins every world: a clear loss
    assert not settled(clearly_worse, 0)  # a mark may come of it: played out in all the worlds
    alike = [played, outcome([0.0, 1.0] * 8)]  # the same results: no mark can come of more worlds
    assert settled(alike, 0)


def test_a_mark_stands_only_on_more_worlds_where_the_first_ones_may_be_a_fluke(monkeypatch):
    """Tenth pass: the same Money choice still read 63% → 30% on 48 worlds (a blunder) where 400 show the two
    moves alike. A loss the first worlds would mark is played out in new worlds, up to `CONFIRM` times as
    many, while it would: here the first 48 worlds favour the preferred move by chance, the rest do not."""
    from merchantry.bots import analysis

    class World:
        def __init__(self, number: int):
            self.number = number

        def clone(self):
            return self

        def apply(self, seat, action):
            pass

    class Position:
        drawn = 0

        def sample_hidden(self, seat, rng):
            self.drawn += 1
            return World(self.drawn)

    def shares_after(trial, seat, search, rng):
        preferred = trial is shares_after.last  # the second move played in the same world
        shares_after.last = trial
        # in the first worlds, by chance, the preferred move wins 8 the move played lost
        lucky = trial.number <= analysis.WORLDS and trial.number % 6 == 2 and preferred
        won = 1.0 if lucky else float(trial.number % 2)
        return [won, 1 - won]

    shares_after.last = None
    monkeypatch.setattr(analysis, "shares_after", shares_after)
    moves = [["played"], ["preferred"]]
    first = analysis.play_outs(Position(), 0, moves, None, random.Random(1), analysis.WORLDS, 16)
    assert len(first[1]) == analysis.WORLDS and analysis.markable(first, 0), "48 worlds alone mark it"
    shares_after.last = None
    confirmed = analysis.play_outs(
        Position(), 0, moves, None, random.Random(1), analysis.WORLDS, 16, confirm=analysis.CONFIRM
    )
    assert analysis.WORLDS < len(confirmed[0]) == len(confirmed[1]) <= analysis.WORLDS * analysis.CONFIRM
    assert not analysis.markable(confirmed, 0), "on the worlds after, the two moves are alike: no mark"
