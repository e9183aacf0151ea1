"""Issue 32, the twelfth newcomer pass: what it found broken, pinned on the game it was found in."""

from __future__ import annotations

import json
from pathlib import Path

from merchantry import records
from merchantry.bots.analysis import analysis_recipe, decided, hint, judge
from merchantry.bots.ismcts import searcher

RECORD = Path(__file__).parent / "records" / "grand-bazaar-tie-settled-by-the-last-price-card.json"
LAST_ROUND_BUY = 340  # moves played before P1's "buy ruby" in round 27, the last price card known
HIDDEN_LEFT = 319  # before P1's "buy ruby" in round 25: price cards still to come


def replayed(upto: int):
    record = json.loads(RECORD.read_text())
    return record, records.replay(record, upto=upto)


def test_a_grand_bazaar_tie_settled_by_the_last_price_card_reads_50_percent_not_the_maps_39():
    """P1 and P3 were to end 51 to 51, a shared win, once the last price card was known: the hint said 39%
    (35-43%) and the chart held both at 39%, the calibration map's reading of the tie's raw 50%. Where
    nothing is hidden from the seat and every play-out ends alike, the chance is shown as measured."""
    record, state = replayed(LAST_ROUND_BUY)
    assert record["moves"][LAST_ROUND_BUY] == [0, "buy ruby"]
    assert records.replay(record).scores() == [51.0, 32.0, 51.0]
    advice = hint(state, 0, "grand_bazaar")
    assert (advice.chance, advice.low, advice.high) == (0.5, 0.5, 0.5), advice
    assert advice.certain  # the page then leaves out "it can change a lot once hidden cards are shown"


def test_worlds_that_agree_while_something_is_hidden_are_not_a_certainty():
    _, state = replayed(HIDDEN_LEFT)
    played = [state.game.parse_action(state, 0, "buy ruby")]
    _, outcomes = judge(state, 0, played, searcher("grand_bazaar", analysis_recipe("grand_bazaar")))
    unanimous = [[outcomes[0][0]] * len(outcomes[0])]  # as if every play-out had ended alike
    assert not decided(state, 0, unanimous), "price cards are still to come"
    _, settled = replayed(LAST_ROUND_BUY)
    assert decided(settled, 0, unanimous)
