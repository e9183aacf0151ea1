"""Knizia's Money, 3-5 players. Rules: rules.py (clauses in ../shared/rules/money.md)."""

from pathlib import Path

from merchantry.games.money.actions import MoneyAction
from merchantry.games.money.collector import MoneyCollectorBot
from merchantry.games.money.evaluation import evaluate
from merchantry.games.money.game import GAME, MoneyGame
from merchantry.games.money.greedy import MoneyGreedyBot
from merchantry.games.money.levels import LEVELS
from merchantry.games.money.opponent_model import redraw_sealed_bids
from merchantry.games.money.rules import MoneyState
from merchantry.games.money.scoring import HandScore, score_breakdown, score_hand
from merchantry.games.money.scripted import SCRIPTED
from merchantry.package import GamePackage

PACKAGE = GamePackage(
    game=GAME,
    folder=Path(__file__).parent,
    bots={"greedy": MoneyGreedyBot, "collector": MoneyCollectorBot, **SCRIPTED},
    evaluate=evaluate,
    levels=LEVELS,
    terminal="merchantry.games.money.terminal",
    encoding="merchantry.games.money.encoding",
    rules_numbers="merchantry.games.money.rules_numbers",
    hidden_model=redraw_sealed_bids,
)

__all__ = [
    "PACKAGE",
    "GAME",
    "HandScore",
    "MoneyAction",
    "MoneyGame",
    "MoneyState",
    "score_breakdown",
    "score_hand",
]
