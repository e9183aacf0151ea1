"""Byzanz as a `merchantry.engine.Game`."""

from __future__ import annotations

import random
from typing import Any

from merchantry.engine import JSON, Allowed, EventLog, Game, State, integers
from merchantry.errors import InvalidOption, InvalidRecord
from merchantry.games.byzanz import actions
from merchantry.games.byzanz.components import HAND_LIMIT, MERCHANT_PROFIT, NUM_CODES
from merchantry.games.byzanz.rules import (
    _FLAT_LISTS,
    _NESTED_LISTS,
    _SCALARS,
    FORMAT_VERSION,
    PHASE_NAMES,
    ByzanzState,
    check_cards,
    knowledge_error,
    setup,
)


class ByzanzGame(Game):
    name = "byzanz"
    title = "Byzanz"
    min_players = 3
    max_players = 6
    state_version = FORMAT_VERSION

    def options(self) -> dict[str, tuple[Any, str]]:
        return {
            "hand_limit": (
                HAND_LIMIT,
                f"variant of BZ-H1: the most cards a hand may hold (the rulebook: {HAND_LIMIT})",
            ),
            "merchant_profit": (
                MERCHANT_PROFIT,
                f"variant of BZ-E2: points for a merchant profit card (the rulebook: {MERCHANT_PROFIT})",
            ),
        }

    def option_values(self) -> dict[str, Allowed]:
        return {"hand_limit": integers(4, 12), "merchant_profit": integers(0, 10)}

    def variants(self) -> tuple[str, ...]:
        return ("hand_limit", "merchant_profit")

    def _new_game(self, players: int, seed: int, options: dict[str, Any]) -> ByzanzState:
        state = ByzanzState.__new__(ByzanzState)
        state.num_players = players
        setup(state, random.Random(f"byzanz:{seed}"), options)
        return state

    def parse_action(self, state: State, player: Any, text: Any) -> actions.ByzanzAction:
        return actions.parse(text)

    def _from_dict(self, data: dict[str, JSON], n: int) -> ByzanzState:
        s = ByzanzState.__new__(ByzanzState)
        s.num_players = n
        for slot in _SCALARS:
            if slot in ("num_players", "log", "phase", "offers"):
                continue
            setattr(s, slot, int(data[slot]))
        s.offers = tuple(int(v) for v in data["offers"])
        s.phase = PHASE_NAMES.index(data["phase"])
        for slot in _FLAT_LISTS:
            setattr(s, slot, _flat(slot, data[slot]))
        for slot in _NESTED_LISTS:
            lists = [[int(v) for v in inner] for inner in data[slot]]
            if len(lists) != n:
                raise InvalidRecord(f"not a Byzanz state: {slot} must have {n} entries")
            setattr(s, slot, [tuple(inner) for inner in lists])
        s.maybe = [tuple((int(e), int(c)) for e, c in cards) for cards in data["maybe"]]
        if len(s.maybe) != n or any(not 0 <= c < NUM_CODES for cards in s.maybe for _, c in cards):
            raise InvalidRecord(f"not a Byzanz state: maybe must have {n} lists of (epoch, card) pairs")
        s.log = EventLog.of(data["log"])
        try:
            s.options = self.resolve_options(dict(data.get("options", {})))
        except InvalidOption as exc:
            raise InvalidRecord(f"not a Byzanz state: {exc}") from None
        for counts in (*s.hands, *s.known, s.market, s.boxed):
            if len(counts) != NUM_CODES:
                raise InvalidRecord(f"not a Byzanz state: card counts must have {NUM_CODES} entries")
        if not check_cards(s):
            raise InvalidRecord("not a Byzanz state: the cards do not add up to one full game")
        problem = knowledge_error(s)
        if problem:
            raise InvalidRecord(f"not a Byzanz state: {problem}")
        return s


def _flat(slot: str, values: list[Any]) -> tuple[int, ...] | tuple[bool, ...]:
    """One flat table: flags for in_auction, ints for the others. (Not one `int | bool` per value: that
    type is plain int to mypy, and the compiled build would turn the flags into 0 and 1.)"""
    if slot == "in_auction":
        return tuple(bool(v) for v in values)
    return tuple(int(v) for v in values)


GAME = ByzanzGame()
ByzanzState.game = GAME
ByzanzState.action_type = actions.ByzanzAction
