"""Grand Bazaar as a `merchantry.engine.Game`."""

from __future__ import annotations

import random
from typing import Any

from merchantry.engine import JSON, Allowed, EventLog, Game, State, integers
from merchantry.errors import InvalidOption, InvalidRecord
from merchantry.games.grand_bazaar import actions
from merchantry.games.grand_bazaar.components import GEM_CARDS_PER_TYPE, GEMS, PRICE_CARDS, START_CASH
from merchantry.games.grand_bazaar.rules import FORMAT_VERSION, BazaarState, market_size, setup


class GrandBazaarGame(Game):
    name = "grand_bazaar"
    title = "Grand Bazaar"
    min_players = 2
    max_players = 7
    state_version = FORMAT_VERSION

    def options(self) -> dict[str, tuple[Any, str]]:
        return {
            "start_cash": (
                START_CASH,
                f"variant of GB-S1: the grands each player starts with (the rulebook: {START_CASH})",
            ),
            "market_size": (
                GEM_CARDS_PER_TYPE,
                "variant of GB-C1: gem cards of each type in the bazaar "
                f"(the rulebook: {GEM_CARDS_PER_TYPE})",
            ),
        }

    def option_values(self) -> dict[str, Allowed]:
        return {"start_cash": integers(10, 100), "market_size": integers(5, 20)}

    def variants(self) -> tuple[str, ...]:
        return ("start_cash", "market_size")

    def _new_game(self, players: int, seed: int, options: dict[str, Any]) -> BazaarState:
        state = BazaarState.__new__(BazaarState)
        state.num_players = players
        setup(state, random.Random(f"grand_bazaar:{seed}"), options)
        return state

    def parse_action(self, state: State, player: Any, text: Any) -> actions.BazaarAction:
        return actions.parse(text)

    def _from_dict(self, data: dict[str, JSON], n: int) -> BazaarState:
        s = BazaarState.__new__(BazaarState)
        s.num_players = n
        s.deck = tuple(int(c) for c in data["deck"])
        s.revealed = tuple(int(c) for c in data["revealed"])
        s.prices = tuple(int(p) for p in data["prices"])
        s.stock = tuple(int(x) for x in data["stock"])
        s.gems = tuple(tuple(int(x) for x in hand) for hand in data["gems"])
        s.cash = tuple(int(c) for c in data["cash"])
        s.round = int(data["round"])
        s.turn = int(data["turn"])
        s.current = int(data["current"])
        s.bought = tuple(bool(x) for x in data["bought"])
        s.sold = tuple(bool(x) for x in data["sold"])
        s.bought_any = bool(data["bought_any"])
        s.over = bool(data["over"])
        s.log = EventLog.of(data["log"])
        s.position_changed()
        try:
            s.options = self.resolve_options(dict(data.get("options", {})))
        except InvalidOption as exc:
            raise InvalidRecord(f"not a Grand Bazaar state: {exc}") from None
        _check(s)
        return s


def _check(s: BazaarState) -> None:
    """The numbers must describe a game that could have been played."""
    n, kinds = s.num_players, len(GEMS)
    if sorted(s.deck + s.revealed) != list(range(len(PRICE_CARDS))):
        raise InvalidRecord("not a Grand Bazaar state: deck and revealed cards are not the 27 price cards")
    if s.round != len(s.revealed) or list(s.prices) != s.price_history()[-1]:
        raise InvalidRecord("not a Grand Bazaar state: prices do not follow the revealed cards")
    if len(s.gems) != n or len(s.cash) != n or any(len(hand) != kinds for hand in s.gems):
        raise InvalidRecord(f"not a Grand Bazaar state: gems and cash must be given for {n} players")
    for g in range(kinds):
        if s.stock[g] < 0 or s.stock[g] + sum(hand[g] for hand in s.gems) != market_size(s.options):
            raise InvalidRecord(f"not a Grand Bazaar state: the {GEMS[g]} cards do not add up")
    if any(c < 0 for c in s.cash) or not 0 <= s.current < n or not 0 <= s.turn <= n:
        raise InvalidRecord("not a Grand Bazaar state: cash, turn or current player out of range")
    if len(s.bought) != kinds or len(s.sold) != kinds:
        raise InvalidRecord("not a Grand Bazaar state: bought/sold flags must be given per gem")


GAME = GrandBazaarGame()
BazaarState.game = GAME
BazaarState.action_type = actions.BazaarAction
