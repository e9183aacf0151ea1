"""Samarkand: Routes to Riches (Peters & Wu), 2-5 players. Rules: rules.py (clauses:
../shared/rules/samarkand.md); the project's own map: data/map.json, checked by components.py."""

from pathlib import Path

from merchantry.engine import State
from merchantry.games.samarkand.actions import SamarkandAction
from merchantry.games.samarkand.closer import SamarkandCloserBot
from merchantry.games.samarkand.evaluation import evaluate
from merchantry.games.samarkand.game import GAME, SamarkandGame
from merchantry.games.samarkand.greedy import SamarkandGreedyBot
from merchantry.games.samarkand.investor import SamarkandInvestorBot
from merchantry.games.samarkand.levels import LEVELS
from merchantry.games.samarkand.rules import SamarkandState
from merchantry.games.samarkand.scripted import SCRIPTED
from merchantry.package import GamePackage, PlayOutCut

PACKAGE = GamePackage(
    game=GAME,
    folder=Path(__file__).parent,
    bots={
        "greedy": SamarkandGreedyBot,
        "investor": SamarkandInvestorBot,
        "closer": SamarkandCloserBot,
        **SCRIPTED,
    },
    evaluate=evaluate,
    levels=LEVELS,
    terminal="merchantry.games.samarkand.terminal",
    encoding="merchantry.games.samarkand.encoding",
    rules_numbers="merchantry.games.samarkand.rules_numbers",
    # an analysis' play-outs stop after 32 actions (about two rounds of 4 players), the world then judged by
    # the investor's evaluation, a seat 3 points ahead weighing e times more: played out to the end, a
    # whole-game analysis took ~1.6 CPU s per decision (issue 28's 30 s out of reach). On 150 positions of
    # exploration games (seeds 150001+, never fitted or measured on), cut at 32 the calibrated chances
    # predicted the winner as well as to the end (cross-validated Brier skill 0.20-0.21 against 0.16) at
    # 29% of the play-outs' actions (benchmarks/results/calibration/samarkand-cut-exploration.txt)
    analysis_cut=PlayOutCut(actions=32, spread=3.0),
)


def goods_card_points(state: State, seat: int, good: int) -> int:
    """SK-E2 for one goods card: what the card `good` (1..33) is worth to `seat` in `state` now."""
    if not isinstance(state, SamarkandState):
        raise TypeError(f"not a Samarkand state: {type(state).__name__}")
    state.check_seat(seat)
    if not isinstance(good, int) or not 1 <= good <= 33:
        raise ValueError(f"goods are numbered 1..33, not {good!r}")
    return state.goods_card_points(seat, good)


__all__ = ["PACKAGE", "GAME", "SamarkandAction", "SamarkandGame", "SamarkandState", "goods_card_points"]
