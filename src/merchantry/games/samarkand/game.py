"""Samarkand as a `merchantry.engine.Game`."""

from __future__ import annotations

import random
from typing import Any

from merchantry.engine import JSON, Allowed, EventLog, Game, State, integers
from merchantry.errors import InvalidOption, InvalidRecord
from merchantry.games.samarkand import actions
from merchantry.games.samarkand.components import (
    CAMELS_PER_FAMILY,
    MAP,
    MARKERS_PER_FAMILY,
    NUM_GOODS,
    TILES_PER_FAMILY,
)
from merchantry.games.samarkand.rules import (
    FORMAT_VERSION,
    PHASES,
    SERIALISED,
    SamarkandState,
    frontiers_of,
    routes_of,
    setup,
)


class SamarkandGame(Game):
    name = "samarkand"
    title = "Samarkand: Routes to Riches"
    min_players = 2
    max_players = 5
    state_version = FORMAT_VERSION

    def options(self) -> dict[str, tuple[Any, str]]:
        return {
            "late_start_money": (
                0,
                "variant (turn-order compensation, not in the rules): each player after the first starts "
                "with this many dirhams more than the one before (2nd +n, 3rd +2n, ...)",
            ),
            "hand_limit": (
                0,
                "variant of SK-S4: the hand limit for every player count; 0: the rulebook's (10, 10, 7, 6)",
            ),
        }

    def option_values(self) -> dict[str, Allowed]:
        return {
            "late_start_money": integers(0, 5),
            "hand_limit": Allowed(
                "0 (the rulebook's) or an integer from 3 to 15",
                lambda v: type(v) is int and (v == 0 or 3 <= v <= 15),
                0,
                15,
            ),
        }

    def variants(self) -> tuple[str, ...]:
        return ("late_start_money", "hand_limit")

    def _new_game(self, players: int, seed: int, options: dict[str, Any]) -> SamarkandState:
        state = SamarkandState.__new__(SamarkandState)
        state.num_players = players
        setup(state, random.Random(f"samarkand:{seed}"), options)
        return state

    def parse_action(self, state: State, player: Any, text: Any) -> actions.SamarkandAction:
        return actions.parse(text)

    def _from_dict(self, data: dict[str, JSON], n: int) -> SamarkandState:
        s = SamarkandState.__new__(SamarkandState)
        s.num_players = n
        for field in SERIALISED:  # every table and pile a tuple (principle 4: clones share them)
            setattr(s, field, _table(_typed(data[field])))
        s.log = EventLog.of(data["log"])
        try:
            s.options = self.resolve_options(dict(data.get("options", {})))
        except InvalidOption as exc:
            raise InvalidRecord(f"not a Samarkand state: {exc}") from None
        _check(s)
        s.routes = routes_of(s.camels, len(s.domain_tiles))
        s.frontiers = frontiers_of(s.camels, s.routes)
        return s


def _table(value: Any) -> Any:
    """A JSON list as the state's tuple, a list of lists as a tuple of tuples (the compiled build accepts
    nothing else in a tuple field); other values as they are."""
    if isinstance(value, list):
        return tuple(tuple(v) if isinstance(v, list) else v for v in value)
    return value


def _typed(value: Any) -> Any:
    """JSON back to the state's types: ints stay ints, booleans booleans, strings strings, lists lists."""
    if isinstance(value, list):
        return [_typed(v) for v in value]
    if isinstance(value, bool | int | str):
        return value
    raise InvalidRecord(f"not a Samarkand state: unexpected value {value!r:.40}")


def _check(s: SamarkandState) -> None:
    """The numbers must describe a game that could have been played."""
    n, families, spaces = s.num_players, len(MAP.families), len(MAP.spaces)

    def fail(why: str) -> None:
        raise InvalidRecord(f"not a Samarkand state: {why}")

    per_seat = (s.money, s.hands, s.sold, s.tiles_held, s.goods_markers, s.relation_markers, s.offer_waiting)
    if any(len(values) != n for values in per_seat):
        fail(f"money, hands, tiles and markers must be given for {n} players")
    per_family = (s.domain_tiles, s.treasury, s.camels_left, s.met, s.stack)
    if any(len(values) != families for values in per_family) or any(len(t) != families for t in s.tiles_held):
        fail(f"family values must be given for {families} families")
    cards = [
        *(g for hand in s.hands for g in hand),
        *(g for sold in s.sold for g in sold),
        *s.deck,
        *s.discards,
    ]
    if sorted(cards) != list(range(1, NUM_GOODS + 1)):
        fail(f"hands, sold cards, deck and discards are not the {NUM_GOODS} goods cards")
    if len(s.discarders) != len(s.discards) or any(not 0 <= p < n for p in s.discarders):
        fail("every discarded card needs the seat that discarded it")
    if len(s.camels) != spaces or any(mask < 0 or mask.bit_count() > 2 for mask in s.camels):
        fail("a space holds at most 2 camels (SK-T4)")
    for f in range(families):
        on_board = sum(1 for mask in s.camels if mask & (1 << f))
        if on_board + s.camels_left[f] != CAMELS_PER_FAMILY or not s.camels[MAP.families[f].start] & (1 << f):
            fail(f"{MAP.families[f].name}'s camels do not add up")
        tiles = s.domain_tiles[f] + sum(held[f] for held in s.tiles_held) + s.bag.count(f)
        if tiles + s.removed_tiles.count(f) != TILES_PER_FAMILY:
            fail(f"{MAP.families[f].name}'s tiles do not add up")
        if not 0 <= s.stack[f] <= MARKERS_PER_FAMILY or s.treasury[f] < 0:
            fail(f"{MAP.families[f].name}'s markers or treasury out of range")
    if any(m < 0 for m in s.money) or not 0 <= s.current < n or not 0 <= s.first_player < n:
        fail("money, current player or first player out of range")
    if s.phase not in PHASES or s.over != (s.phase == "over") or not -1 <= s.family < families:
        fail(f"phase must be one of {', '.join(PHASES)}, and 'over' exactly when the game is over")
    if s.phase == "offer" and not (1 <= s.offer_good <= NUM_GOODS and any(s.offer_waiting)):
        fail("an open offer needs its good and someone to answer it")


GAME = SamarkandGame()
SamarkandState.game = GAME
SamarkandState.action_type = actions.SamarkandAction
