"""Knizia's Money, 3-5 players. Rules: rules.py (clauses in ../shared/rules/money.md)."""

from merchantry.games.money.actions import MoneyAction
from merchantry.games.money.game import GAME, MoneyGame
from merchantry.games.money.rules import MoneyState
from merchantry.games.money.scoring import HandScore, score_breakdown, score_hand

__all__ = ["GAME", "HandScore", "MoneyAction", "MoneyGame", "MoneyState", "score_breakdown", "score_hand"]
