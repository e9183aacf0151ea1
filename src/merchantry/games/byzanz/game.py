"""Byzanz as a `merchantry.engine.Game`."""

from __future__ import annotations

import random
from typing import Any

from merchantry.engine import JSON, EventLog, Game, State
from merchantry.errors import InvalidRecord
from merchantry.games.byzanz import actions
from merchantry.games.byzanz.components import NUM_CODES, SETUP
from merchantry.games.byzanz.rules import (
    _FLAT_LISTS,
    _NESTED_LISTS,
    _SCALARS,
    FORMAT_VERSION,
    PHASE_NAMES,
    ByzanzState,
    check_cards,
    setup,
)


class ByzanzGame(Game):
    name = "byzanz"
    title = "Byzanz"
    min_players = 3
    max_players = 6

    def options(self) -> dict[str, tuple[Any, str]]:
        return {}

    def _new_game(self, players: int, seed: int, options: dict[str, Any]) -> ByzanzState:
        state = ByzanzState.__new__(ByzanzState)
        state.num_players = players
        state.seed = seed
        setup(state, random.Random(f"byzanz:{seed}"))
        return state

    def parse_action(self, state: State, player: int, text: str) -> actions.ByzanzAction:
        return actions.parse(text)

    def from_dict(self, data: dict[str, JSON]) -> ByzanzState:
        try:
            state = self._build(data)
        except InvalidRecord:
            raise
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            raise InvalidRecord(f"not a Byzanz state: {type(exc).__name__} {exc}") from None
        if not check_cards(state):
            raise InvalidRecord("not a Byzanz state: the cards do not add up to one full game")
        return state

    def _build(self, data: dict[str, JSON]) -> ByzanzState:
        if not isinstance(data, dict) or data.get("game") != "byzanz":
            raise InvalidRecord("not a Byzanz state: 'game' must be 'byzanz'")
        if data.get("version") != FORMAT_VERSION:
            raise InvalidRecord(f"Byzanz state version {data.get('version')!r} is not {FORMAT_VERSION}")
        n = data["players"]
        if n not in SETUP:
            raise InvalidRecord(f"players must be {self.min_players}-{self.max_players}, not {n!r}")
        s = ByzanzState.__new__(ByzanzState)
        s.num_players = n
        for slot in _SCALARS:
            if slot in ("num_players", "log", "phase", "offers"):
                continue
            setattr(s, slot, int(data[slot]))
        s.offers = tuple(int(v) for v in data["offers"])
        s.phase = PHASE_NAMES.index(data["phase"])
        for slot in _FLAT_LISTS:
            setattr(s, slot, [_scalar(slot, v) for v in data[slot]])
        for slot in _NESTED_LISTS:
            lists = [[int(v) for v in inner] for inner in data[slot]]
            if len(lists) != n:
                raise InvalidRecord(f"not a Byzanz state: {slot} must have {n} entries")
            setattr(s, slot, lists if slot in _COUNTED else [tuple(inner) for inner in lists])
        s.log = EventLog.of([str(line) for line in data["log"]])
        for counts in (*s.hands, *s.known, s.market, s.boxed):
            if len(counts) != NUM_CODES:
                raise InvalidRecord(f"not a Byzanz state: card counts must have {NUM_CODES} entries")
        return s


_COUNTED = ("hands", "known")  # per-code counts, mutated in place; the others are tuples of cards


def _scalar(slot: str, value: Any) -> int | bool:
    return bool(value) if slot == "in_auction" else int(value)


GAME = ByzanzGame()
ByzanzState.game = GAME
