"""Byzanz (Emanuele Ornella), 3-6 players. Rules: rules.py (clauses: ../shared/rules/byzanz.md)."""

from pathlib import Path

from merchantry.games.byzanz.actions import ByzanzAction
from merchantry.games.byzanz.components import sale_profit
from merchantry.games.byzanz.game import GAME, ByzanzGame
from merchantry.games.byzanz.greedy import ByzanzGreedyBot
from merchantry.games.byzanz.rules import ByzanzState, in_final_selling
from merchantry.games.byzanz.scripted import SCRIPTED
from merchantry.package import GamePackage

PACKAGE = GamePackage(
    game=GAME,
    folder=Path(__file__).parent,
    bots={"greedy": ByzanzGreedyBot, **SCRIPTED},
    terminal="merchantry.games.byzanz.terminal",
    encoding="merchantry.games.byzanz.encoding",
    rules_numbers="merchantry.games.byzanz.rules_numbers",
    # what the others know of each hand: the cards seen entering it ("known"), and those seen before a
    # face-down discard ("maybe"); a bid taken back by a pass moves its cards from "maybe" to "known", so
    # without both an "add, add, pass" late in the game looked like a different move from the pass alone
    knowledge=("known", "maybe"),
    # BZ-E1's final selling: a chance played out by random moves sold some sets and threw others away, so
    # a move that took a lot and sold it at the end read 27 points below the same sale made a move earlier
    # (issue 32, the eleventh pass); greedy sells every set it can, as every player does
    greedy_ending=in_final_selling,
)

__all__ = ["PACKAGE", "GAME", "ByzanzAction", "ByzanzGame", "ByzanzState", "sale_profit"]
