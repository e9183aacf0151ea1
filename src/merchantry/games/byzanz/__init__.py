"""Byzanz (Emanuele Ornella), 3-6 players. Rules: rules.py (clauses: ../shared/rules/byzanz.md)."""

from pathlib import Path

from merchantry.games.byzanz.actions import ByzanzAction
from merchantry.games.byzanz.components import sale_profit
from merchantry.games.byzanz.game import GAME, ByzanzGame
from merchantry.games.byzanz.greedy import ByzanzGreedyBot
from merchantry.games.byzanz.rules import ByzanzState
from merchantry.games.byzanz.scripted import SCRIPTED
from merchantry.package import GamePackage

PACKAGE = GamePackage(
    game=GAME,
    folder=Path(__file__).parent,
    bots={"greedy": ByzanzGreedyBot, **SCRIPTED},
    terminal="merchantry.games.byzanz.terminal",
    encoding="merchantry.games.byzanz.encoding",
    rules_numbers="merchantry.games.byzanz.rules_numbers",
    knowledge=("known",),  # the cards each seat has seen in others' bids (a pass hands a bid back)
)

__all__ = ["PACKAGE", "GAME", "ByzanzAction", "ByzanzGame", "ByzanzState", "sale_profit"]
