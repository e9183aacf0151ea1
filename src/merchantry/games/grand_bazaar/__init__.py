"""Grand Bazaar (Sanan Mahmudov), 2-7 players. Rules: rules.py (clauses: ../shared/rules/grand_bazaar.md)."""

from merchantry.games.grand_bazaar.actions import BazaarAction
from merchantry.games.grand_bazaar.game import GAME, GrandBazaarGame
from merchantry.games.grand_bazaar.rules import BazaarState

__all__ = ["GAME", "BazaarAction", "BazaarState", "GrandBazaarGame"]
