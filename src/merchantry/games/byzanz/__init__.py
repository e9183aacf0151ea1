"""Byzanz (Emanuele Ornella), 3-6 players. Rules: rules.py (clauses: ../shared/rules/byzanz.md)."""

from merchantry.games.byzanz.actions import ByzanzAction
from merchantry.games.byzanz.components import sale_profit
from merchantry.games.byzanz.game import GAME, ByzanzGame
from merchantry.games.byzanz.rules import ByzanzState

__all__ = ["GAME", "ByzanzAction", "ByzanzGame", "ByzanzState", "sale_profit"]
