"""Issue 32, the eleventh newcomer pass: what it found broken, pinned on the game it was found in."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from merchantry import games, records
from merchantry.bots import analysis
from merchantry.bots.analysis import analysis_recipe, judge, loss_of
from merchantry.bots.ismcts import searcher

RECORD = Path(__file__).parent / "records" / "byzanz-final-sale-a-move-earlier.json"
OLIVE_AT = 129  # moves played before P3's "take olive" (move 130), round 8's market


def before_the_olive():
    record = json.loads(RECORD.read_text())
    assert record["moves"][OLIVE_AT] == [2, "take olive"]
    return records.replay(record, upto=OLIVE_AT)


def test_byzanz_a_sale_made_at_the_end_is_no_loss_against_the_same_sale_a_move_earlier(monkeypatch):
    """P3 took the olives and sold olive 3, olive 1 and the merchant in the final selling; the analysis
    preferred selling grain 3, grain 2 and the merchant first, then the olives: 32 points and 2 cards either
    way, in every deal. It called the move a blunder (69% → 42%): its play-outs played the final selling
    by random moves, which sold the set in one line and threw it away in the other. A chance's play-out now
    plays BZ-E1's final selling by the greedy bot, who sells every set, as every player does."""
    state = before_the_olive()
    played = [state.game.parse_action(state, 2, "take olive")]
    calibrate = analysis.calibration("byzanz", 3)

    def judged():
        return judge(state, 2, played, searcher("byzanz", analysis_recipe("byzanz")), calibrate=calibrate)

    preferred, outcomes = judged()
    assert [str(step) for step in preferred] == ["sell grain3 grain2 merchant", "take olive"]
    assert loss_of(outcomes, 2).value == 0 and not analysis.markable(outcomes, 2, calibrate)
    # played out by random moves to the very end, the same two moves read a blunder
    shipped = games.package
    monkeypatch.setattr(games, "package", lambda name: replace(shipped(name), greedy_ending=None))
    _, outcomes = judged()
    assert loss_of(outcomes, 2).low > 0.1 and analysis.markable(outcomes, 2, calibrate)
