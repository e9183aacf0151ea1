"""Grand Bazaar (Sanan Mahmudov), 2-7 players. Rules: rules.py (clauses: ../shared/rules/grand_bazaar.md)."""

from pathlib import Path

from merchantry.games.grand_bazaar.actions import BazaarAction
from merchantry.games.grand_bazaar.closer import GrandBazaarCloserBot
from merchantry.games.grand_bazaar.evaluation import evaluate
from merchantry.games.grand_bazaar.game import GAME, GrandBazaarGame
from merchantry.games.grand_bazaar.greedy import GrandBazaarGreedyBot
from merchantry.games.grand_bazaar.levels import LEVELS
from merchantry.games.grand_bazaar.rules import BazaarState
from merchantry.games.grand_bazaar.scripted import SCRIPTED
from merchantry.games.grand_bazaar.speculator import GrandBazaarSpeculatorBot
from merchantry.games.grand_bazaar.trader import GrandBazaarTraderBot
from merchantry.package import GamePackage

PACKAGE = GamePackage(
    game=GAME,
    folder=Path(__file__).parent,
    bots={
        "greedy": GrandBazaarGreedyBot,
        "trader": GrandBazaarTraderBot,
        "speculator": GrandBazaarSpeculatorBot,
        "closer": GrandBazaarCloserBot,
        **SCRIPTED,
    },
    evaluate=evaluate,
    levels=LEVELS,
    terminal="merchantry.games.grand_bazaar.terminal",
    encoding="merchantry.games.grand_bazaar.encoding",
    rules_numbers="merchantry.games.grand_bazaar.rules_numbers",
)

__all__ = ["PACKAGE", "GAME", "BazaarAction", "BazaarState", "GrandBazaarGame"]
