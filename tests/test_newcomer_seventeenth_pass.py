"""Issue 32, the seventeenth newcomer pass: what it found, pinned."""

from __future__ import annotations

import pytest

from merchantry.bots.analysis import markable, played_and_best
from merchantry.i18n import Translator

# the mark rule's second half, in each language's no-marks sentence: a cost whose likely range reaches 0
RANGE_RULE = {"en": "reaches 0", "fr": "atteint 0", "pt": "chega a 0", "de": "bis 0 reicht"}
# nc20: "no player's chance fell clearly by 10 points" beside an 18-point fall on the chart: a fall is a
# turning point only when the ranges before and after it do not meet (analysis.turning_points); it says so
APART = {
    "en": "ranges before and after apart",
    "fr": "disjointes",
    "pt": "separados",
    "de": "getrennten Bereichen",
}
OLD_CLAIM = {
    "en": "every decision was within 5 points",
    "fr": "chaque décision était à moins de 5 points",
    "pt": "todas as decisões ficaram a menos de 5 pontos",
    "de": "jede Entscheidung lag höchstens 5 Punkte",
}


def test_a_decision_that_cost_more_than_5_points_may_go_unmarked():
    # 16 worlds, two seats: the move played wins 3 of them for seat 0, the preferred move 6 (the same 3 and 3
    # more): a loss of 19 points whose range, on 16 worlds, still reaches 0
    played = [[1.0, 0.0]] * 3 + [[0.0, 1.0]] * 13
    preferred = [[1.0, 0.0]] * 6 + [[0.0, 1.0]] * 10
    _, _, loss = played_and_best([played, preferred], 0)
    assert loss.value >= 0.05 and loss.low <= 0
    assert not markable([played, preferred], 0)


@pytest.mark.parametrize("language", sorted(RANGE_RULE))
def test_the_analysis_with_no_marks_or_no_key_moment_says_what_it_leaves_out(language):
    # "No marked moves: every decision was within 5 points of the bot's choice." under a chart showing a
    # 17-point drop and a mean loss made of it (nc17, Byzanz in German): unmarked is not cheap (test above)
    said = Translator(None, language).ui("noMarks")
    assert OLD_CLAIM[language] not in said
    assert RANGE_RULE[language] in said, said
    none = Translator(None, language).ui("noKeyMoments")
    assert APART[language] in none, none
