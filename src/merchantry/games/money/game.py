"""Money as a `merchantry.engine.Game`: options, construction, parsing and loading of states."""

from __future__ import annotations

import random
from typing import Any

from merchantry.engine import JSON, Allowed, EventLog, Game, State, integers
from merchantry.errors import InvalidOption, InvalidRecord
from merchantry.games.money import actions
from merchantry.games.money.components import CARD_CURRENCY, CURRENCIES, NUM_CARDS
from merchantry.games.money.rules import (
    FORMAT_VERSION,
    PHASE_NAMES,
    MoneyState,
    deal,
    removed_currency_count,
)
from merchantry.games.money.scoring import PENALTY, TRIO_BONUS


class MoneyGame(Game):
    name = "money"
    title = "Money"
    min_players = 3
    max_players = 5
    state_version = FORMAT_VERSION

    def options(self) -> dict[str, tuple[Any, str]]:
        return {
            "max_rounds": (
                60,
                "MO-E2: score the game after this many rounds (digital safeguard, not in the rules)",
            ),
            "removed_currencies": (
                "",
                "MO-S1: currencies to leave out, e.g. 'EUR' or 'EUR,JPY'; empty: drawn",
            ),
            "match_games": (1, "MO-E6: games in a match, scores added up (the rules suggest 3)"),
            "penalty": (
                PENALTY,
                "variant of MO-E3: points lost by a currency below 200 (the rulebook: 100; 0: no penalty)",
            ),
            "trio_bonus": (
                TRIO_BONUS,
                "variant of MO-E4: points for each trio of 20s or of 30s (the rulebook: 100)",
            ),
        }

    def option_values(self) -> dict[str, Allowed]:
        return {
            "max_rounds": integers(1, 200),
            "removed_currencies": Allowed(
                f"text naming distinct currencies from {', '.join(CURRENCIES)}, "
                "e.g. 'EUR,JPY' (empty: drawn)",
                _names_currencies,
            ),
            "match_games": integers(1, 10),
            "penalty": integers(0, 200),
            "trio_bonus": integers(0, 300),
        }

    def variants(self) -> tuple[str, ...]:
        return ("penalty", "trio_bonus")

    def _check_options(self, players: int, options: dict[str, Any]) -> None:
        """What depends on the player count (each value's range is checked by resolve_options)."""
        named = options["removed_currencies"]
        if not isinstance(named, str):
            raise InvalidOption(f"removed_currencies must be text like 'EUR,JPY', not {named!r:.40}")
        if named:
            removed = named.split(",")
            bad = [c for c in removed if c not in CURRENCIES]
            if bad or len(set(removed)) != len(removed):
                raise InvalidOption(
                    f"removed_currencies {named!r:.40}: name distinct currencies from {', '.join(CURRENCIES)}"
                )
            if len(removed) != removed_currency_count(players):
                count = removed_currency_count(players)
                raise InvalidOption(f"with {players} players remove {count} currencies, not {len(removed)}")

    def _new_game(self, players: int, seed: int, options: dict[str, Any]) -> MoneyState:
        if isinstance(options["removed_currencies"], str):
            options["removed_currencies"] = options["removed_currencies"].replace(" ", "").upper()
        self._check_options(players, options)
        state = MoneyState.__new__(MoneyState)
        state.num_players = players
        state.options = options
        state.deal_seed = seed
        state.match_index = 0
        state.match_results = ()
        state.log = EventLog()
        deal(state, random.Random(f"money:{seed}:0"))
        state.derive_kept()
        return state

    def parse_action(self, state: State, player: Any, text: Any) -> actions.MoneyAction:
        return actions.parse(text, state.num_players)

    def _from_dict(self, data: dict[str, JSON], n: int) -> MoneyState:
        try:
            options = self.resolve_options(dict(data["options"]))
            self._check_options(n, options)
        except InvalidOption as exc:
            raise InvalidRecord(str(exc)) from None
        s = MoneyState.__new__(MoneyState)
        s.num_players = n
        s.options = options
        s.deal_seed = int(data["deal_seed"])
        s.match_index = int(data["match_index"])
        s.match_results = tuple(
            (tuple(int(x) for x in r["scores"]), tuple(tuple(int(c) for c in h) for h in r["hands"]))
            for r in data["match_results"]
        )
        s.removed = tuple(str(c) for c in data["removed"])
        s.round = int(data["round"])
        s.phase = PHASE_NAMES.index(data["phase"])
        s.hands = _seat_lists(data["hands"], n)
        s.known = _seat_lists(data["known"], n)
        s.bids = _seat_lists(data["bids"], n)
        s.bluff_bid = [bool(x) for x in data["bluff_bid"]]
        s.committed = [bool(x) for x in data["committed"]]
        s.acted = [bool(x) for x in data["acted"]]
        s.order = [int(x) for x in data["order"]]
        s.current = int(data["current"])
        s.market = _seat_lists(data["market"], 2)
        s.deck = tuple(int(c) for c in data["deck"])
        s.initial_deck = int(data["initial_deck"])
        s.final_round = bool(data["final_round"])
        s.log = EventLog.of(data["log"])
        if not all(len(x) == n for x in (s.bluff_bid, s.committed, s.acted)):
            raise InvalidRecord(f"per-seat lists must have {n} entries")
        s.derive_kept()
        if s.phase == 1 and not 0 <= s.current < n:
            raise InvalidRecord(f"no seat {s.current} to act")
        _check_cards(s)
        return s


def _names_currencies(value: Any) -> bool:
    """removed_currencies: text of currency names, commas between (case and spaces are free)."""
    if not isinstance(value, str):
        return False
    named = value.replace(" ", "").upper()
    return not named or all(c in CURRENCIES for c in named.split(","))


def _seat_lists(value: JSON, count: int) -> list[tuple[int, ...]]:
    if not isinstance(value, list) or len(value) != count:
        raise InvalidRecord(f"expected {count} card lists, got {value!r:.60}")
    return [tuple(int(c) for c in cards) for cards in value]


def _check_cards(s: MoneyState) -> None:
    """Every card of the deal is in exactly one place; removed currencies are nowhere."""
    places = [*s.hands, *s.bids, *s.market, s.deck]
    seen = sorted(c for cards in places for c in cards)
    expected = [c for c in range(NUM_CARDS) if CARD_CURRENCY[c] not in s.removed]
    if seen != expected:
        raise InvalidRecord(
            "not a Money state: the cards in hands, bids, market and deck are not one full deal"
        )
    for p in range(s.num_players):
        if any(c not in s.hands[p] + s.bids[p] for c in s.known[p]):
            raise InvalidRecord(f"not a Money state: seat {p} is known to hold a card it does not have")


GAME = MoneyGame()
MoneyState.game = GAME
MoneyState.action_type = actions.MoneyAction
