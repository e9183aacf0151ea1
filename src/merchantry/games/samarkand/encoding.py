"""Samarkand as numbers for reinforcement learning (merchantry.rl.encoding).

Actions (926, any player count), by notation: `marry F` (10 families), `expand F S` (10 x 77 spaces),
`camel S` (77), `discard G` (33 goods), `sell G` (33), `done`, `keep`, `pass`.

Observation (1,085 numbers; seats are relative: slot 0 is the observer, slot 1 the next seat clockwise, ...;
slots past the player count are 0):
- the phase, one-hot (act, discard, offer, second, over); 1 if it is the observer's turn; 1 if the observer
  must answer a sale offer;
- the first player and the current player, one-hot over 5 relative slots; turn / 100;
- the map: for every space and family, 1 if a camel of that family stands there (77 x 10);
- per family (10 x 7): cost / 6, treasury / 10, camels left / 11, tiles on its domain / 2, relationship
  markers left / 5, families met / 9, tiles of it the observer holds / 2;
- per relative seat (5 x 16): present, dirhams / 50, cards in hand / 10, sold cards / 10, goods markers / 10,
  relationship markers / 10, and its tiles per family (10);
- the observer's hand: per good, 1 if held (33), and the card's worth now / 8 (33);
- sold cards, face up: per good, 1 if sold by anyone (33);
- the good on sale, one-hot (33); the expanding family, one-hot (10); camels placed this turn / 2;
  cards discarded this turn / 2;
- deck / 33, discard pile / 33, tiles in the bag / 10.
Only `view(seat)` is read: other seats' hands appear only as their sizes.
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np

from merchantry.games.samarkand.actions import CAMEL, DISCARD, DONE, EXPAND, KEEP, MARRY, PASS, SELL
from merchantry.games.samarkand.components import MAP, NUM_GOODS
from merchantry.games.samarkand.rules import PHASES, SamarkandState
from merchantry.rl.encoding import OneHot, listed, numbers_of, one_hot, relative

SLOTS: Final = 5  # the most players
FAMILY_INDEX: Final = {family.name: family.index for family in MAP.families}
FAMILIES: Final = len(MAP.families)
SPACES: Final = len(MAP.spaces)
PER_SEAT: Final = 6 + FAMILIES
PER_FAMILY: Final = 7
# Where each part of the observation starts (the order of `observe` below)
FIRST: Final = 7
CURRENT: Final = 7 + SLOTS
TURN: Final = 7 + 2 * SLOTS
CAMELS: Final = 8 + 2 * SLOTS
FAMILY_ROWS: Final = CAMELS + SPACES * FAMILIES
SEATS: Final = FAMILY_ROWS + FAMILIES * PER_FAMILY
HELD: Final = SEATS + SLOTS * PER_SEAT
WORTH: Final = HELD + NUM_GOODS
SOLD: Final = HELD + 2 * NUM_GOODS
OFFER: Final = HELD + 3 * NUM_GOODS
EXPANDING: Final = OFFER + NUM_GOODS
COUNTS: Final = EXPANDING + FAMILIES
SIZE: Final = COUNTS + 5


class SamarkandEncoding:
    def actions(self, players: int) -> list[str]:
        every = [*MARRY, *(a for row in EXPAND for a in row), *CAMEL, *DISCARD.values(), *SELL.values()]
        return [str(a) for a in (*every, DONE, KEEP, PASS)]

    def observer(self, players: int, seat: int) -> SamarkandObserver:
        return SamarkandObserver(players, seat)

    def observation_size(self, players: int) -> int:
        return len(self.observe(_empty_view(), SLOTS))

    def observe(self, view: dict[str, Any], players: int) -> list[float]:
        me = view["seat"] or 0
        offer = view["offer"]
        out = one_hot(PHASES.index(view["phase"]), len(PHASES))
        out += [float(view["current"] == me), float(bool(offer) and not offer["answered"])]
        out += one_hot(relative(view["first_player"], me, players), SLOTS)
        current = view["current"]
        out += one_hot(None if current is None else relative(current, me, players), SLOTS)
        out.append(view["turn"] / 100)
        for present in view["camels"]:
            out += [1.0 if f in present else 0.0 for f in range(FAMILIES)]
        for family in view["families"]:
            mine = sum(1 for seat in family["held_by"] if seat == me)
            out += [
                family["cost"] / 6,
                family["treasury"] / 10,
                family["camels_left"] / 11,
                family["domain_tiles"] / 2,
                family["markers_left"] / 5,
                len(family["met"]) / 9,
                mine / 2,
            ]
        slots = [[0.0] * (6 + FAMILIES) for _ in range(SLOTS)]
        for row in view["seats"]:
            tiles = [0.0] * FAMILIES
            for name in row["tiles"]:
                tiles[FAMILY_INDEX[name]] += 1.0
            slots[relative(row["seat"], me, players)] = [
                1.0,
                row["money"] / 50,
                row["hand_size"] / 10,
                len(row["sold"]) / 10,
                row["goods_markers"] / 10,
                row["relation_markers"] / 10,
                *tiles,
            ]
        out += [x for slot in slots for x in slot]
        held, worth = [0.0] * NUM_GOODS, [0.0] * NUM_GOODS
        for card in view["hand"] or []:
            held[card["good"] - 1] = 1.0
            worth[card["good"] - 1] = card["points"] / 8
        sold = [0.0] * NUM_GOODS
        for row in view["seats"]:
            for good in row["sold"]:
                sold[good - 1] = 1.0
        out += held + worth + sold
        out += one_hot(offer["good"] - 1 if offer else None, NUM_GOODS)
        expanding = view["expanding"]
        out += one_hot(FAMILY_INDEX[expanding] if expanding else None, FAMILIES)
        out += [view["camels_placed"] / 2, view["discarded"] / 2]
        out += [view["deck_size"] / NUM_GOODS, view["discard_size"] / NUM_GOODS, view["bag_size"] / 10]
        return out


class SamarkandObserver:
    """`observe(view(seat))` from the state, reading only what the seat's view shows: the map, the
    families, every seat's money, tiles, sold cards and hand size, its own hand (SK-I1). Each part is
    rewritten, number by number, only when the state's tuple it comes from is another object (the state
    replaces a tuple that changes): a camel placed rewrites one space of the map, not the map."""

    def __init__(self, players: int, seat: int):
        self.players, self.seat = players, seat
        self.out = np.zeros(SIZE, np.float32)
        self.numbers = numbers = numbers_of(self.out)
        self.slot_of = [(p - seat) % players for p in range(players)]
        for p in range(players):
            numbers[SEATS + self.slot_of[p] * PER_SEAT] = 1.0  # present
        for family in range(FAMILIES):
            numbers[FAMILY_ROWS + family * PER_FAMILY] = MAP.families[family].cost / 6
        self.phase, self.first = OneHot(numbers, 0, len(PHASES)), OneHot(numbers, FIRST, SLOTS)
        self.current = OneHot(numbers, CURRENT, SLOTS)
        self.offer, self.expanding = OneHot(numbers, OFFER, NUM_GOODS), OneHot(numbers, EXPANDING, FAMILIES)
        self.header: tuple[Any, ...] | None = None
        self.counts: tuple[Any, ...] | None = None  # its own answer, this turn's counts, the piles' sizes
        self.camels: tuple[int, ...] = (0,) * SPACES
        # per part of the state read: the object last written from (None: nothing yet)
        self.camels_from: object = None
        self.hand_from: object = None
        self.worth_from: tuple[int, ...] = ()
        self.own_from: object = None
        self.family_from: list[tuple[int, ...] | None] = [None] * 5  # the columns of `_families`, in order
        self.met_from: object = None
        self.seat_from: list[tuple[int, ...] | None] = [None] * 3  # the columns of `_seats`, in its order
        self.hands_from: object = None
        self.sold_from: object = None
        self.tiles_from: object = None
        self.seat_tiles_from: list[object] = [None] * players
        self.held: tuple[int, ...] = ()
        self.sold: set[int] = set()

    def observe(self, state: SamarkandState) -> np.ndarray:
        """The seat's numbers of `state` (a new array)."""
        self.update(state)
        return self.out.copy()

    def listed(self, state: SamarkandState) -> list[float]:
        """The same numbers as a new list of floats (OpenSpiel's tensors)."""
        self.update(state)
        return listed(self.numbers, self.out)

    def update(self, state: SamarkandState) -> None:
        """Rewrite the numbers (`out`, and their list) that changed since the last call."""
        numbers, me = self.numbers, self.seat
        over = state.over
        header = (state.phase, state.current, state.first_player, state.turns, over, state.offer_good)
        if header != self.header:
            self.header = header
            self.phase.write(PHASES.index(state.phase))
            numbers[5] = float(not over and state.current == me)
            self.first.write(self.slot_of[state.first_player])
            self.current.write(None if over else self.slot_of[state.current])
            numbers[TURN] = (state.turns + (0 if over else 1)) / 100
            self.offer.write(state.offer_good - 1 if state.offer_good else None)
        self.expanding.write(state.family if state.family >= 0 else None)
        counts = (
            bool(state.offer_good) and state.offer_waiting[me],  # only its own answer
            state.camels_placed,
            state.discarded,
            len(state.deck),
            len(state.discards),
            len(state.bag),
        )
        if counts != self.counts:  # most actions change none of them: no write then
            self.counts = counts
            numbers[6] = float(counts[0])
            numbers[COUNTS], numbers[COUNTS + 1] = counts[1] / 2, counts[2] / 2
            numbers[COUNTS + 2] = counts[3] / NUM_GOODS
            numbers[COUNTS + 3] = counts[4] / NUM_GOODS
            numbers[COUNTS + 4] = counts[5] / 10
        if state.camels is not self.camels_from:
            self.camels_from = state.camels
            self._map(state.camels)
        self._families(state)
        self._seats(state)
        mine, camels, own = state.hands[me], state.camels, state.tiles_held[me]
        # a card's worth changes with the camels and the observer's tiles
        if mine is not self.hand_from or own is not self.own_from:
            self.hand_from, self.worth_from, self.own_from = mine, camels, own
            self._hand(state)
        elif camels is not self.worth_from:  # only the camels moved: the worth of the cards they reach
            self._worth(state, self.worth_from)
            self.worth_from = camels

    def _map(self, camels: tuple[int, ...]) -> None:
        numbers, before = self.numbers, self.camels
        for space in range(SPACES):  # indexed, not zipped: compiled, a zip iterates generically
            now = camels[space]
            changed = now ^ before[space]
            if changed:  # only the families whose camel came or went (a placement: one number)
                start = CAMELS + space * FAMILIES
                for family in range(FAMILIES):
                    if changed & (1 << family):
                        numbers[start + family] = 1.0 if now & (1 << family) else 0.0
        self.camels = camels

    def _families(self, state: SamarkandState) -> None:
        # a call per column, not a loop over a tuple of them: compiled, building that tuple on every
        # observation cost more than the checks
        self._family_column(0, 1, state.treasury, 10)
        self._family_column(1, 2, state.camels_left, 11)
        self._family_column(2, 3, state.domain_tiles, 2)
        self._family_column(3, 4, state.stack, 5)
        self._family_column(4, 6, state.tiles_held[self.seat], 2)  # the observer's own tiles of each family
        numbers = self.numbers
        if state.met is not self.met_from:
            self.met_from = state.met
            every = (1 << FAMILIES) - 1
            for family in range(FAMILIES):
                met = bin(state.met[family] & every).count("1")
                numbers[FAMILY_ROWS + family * PER_FAMILY + 5] = met / 9

    def _family_column(self, part: int, column: int, values: tuple[int, ...], divisor: int) -> None:
        """One number per family (column `column` of the family rows) from `values`, rewritten where it
        changed since the tuple last written (a camel placed changes one family's camels left)."""
        seen = self.family_from
        before = seen[part]
        if values is before:
            return
        seen[part] = values
        numbers = self.numbers
        for family in range(FAMILIES):
            if before is None or values[family] != before[family]:
                numbers[FAMILY_ROWS + family * PER_FAMILY + column] = values[family] / divisor

    def _seat_column(self, part: int, column: int, values: tuple[int, ...], divisor: int) -> None:
        """One number per seat (column `column` of its slot) from `values`, rewritten where it changed."""
        seen = self.seat_from
        before = seen[part]
        if values is before:
            return
        seen[part] = values
        numbers, slot_of = self.numbers, self.slot_of
        for p in range(self.players):
            if before is None or values[p] != before[p]:  # only the seats whose number changed
                numbers[SEATS + slot_of[p] * PER_SEAT + column] = values[p] / divisor

    def _seats(self, state: SamarkandState) -> None:
        numbers, slot_of = self.numbers, self.slot_of
        self._seat_column(0, 1, state.money, 50)
        self._seat_column(1, 4, state.goods_markers, 10)
        self._seat_column(2, 5, state.relation_markers, 10)
        if state.hands is not self.hands_from:
            self.hands_from = state.hands
            for p in range(self.players):
                numbers[SEATS + slot_of[p] * PER_SEAT + 2] = len(state.hands[p]) / 10
        if state.sold is not self.sold_from:
            self.sold_from = state.sold
            sold: set[int] = set()
            for p in range(self.players):
                numbers[SEATS + slot_of[p] * PER_SEAT + 3] = len(state.sold[p]) / 10
                sold.update(state.sold[p])
            for good in sold ^ self.sold:
                numbers[SOLD + good - 1] = 1.0 if good in sold else 0.0
            self.sold = sold
        if state.tiles_held is not self.tiles_from:
            self.tiles_from = state.tiles_held
            seat_tiles = self.seat_tiles_from
            for p in range(self.players):
                tiles = state.tiles_held[p]
                if tiles is seat_tiles[p]:  # another seat's tiles changed, not this one's
                    continue
                seat_tiles[p] = tiles
                start = SEATS + slot_of[p] * PER_SEAT + 6
                for family in range(FAMILIES):
                    numbers[start + family] = float(tiles[family])

    def _worth(self, state: SamarkandState, before: tuple[int, ...]) -> None:
        """The worth of the observer's cards whose space's camels changed since `before` (SK-E2)."""
        numbers, camels, space_of = self.numbers, state.camels, MAP.goods_space
        for good in state.hands[self.seat]:
            space = space_of[good - 1]
            if camels[space] != before[space]:
                numbers[WORTH + good - 1] = state.goods_card_points(self.seat, good) / 8

    def _hand(self, state: SamarkandState) -> None:
        """The observer's cards, each with its worth now (SK-E2): it changes with the camels."""
        numbers, hand = self.numbers, state.hands[self.seat]
        for good in self.held:
            numbers[HELD + good - 1] = numbers[WORTH + good - 1] = 0.0
        for good in hand:
            numbers[HELD + good - 1] = 1.0
            numbers[WORTH + good - 1] = state.goods_card_points(self.seat, good) / 8
        self.held = hand


def _empty_view() -> dict[str, Any]:
    """A view of the right shape, for counting the observation's numbers."""
    family = {
        "cost": 0,
        "treasury": 0,
        "camels_left": 0,
        "domain_tiles": 0,
        "markers_left": 0,
        "met": [],
        "held_by": [],
    }
    return {
        "seat": 0,
        "phase": "act",
        "current": 0,
        "offer": None,
        "first_player": 0,
        "turn": 1,
        "camels": [[] for _ in range(SPACES)],
        "families": [family] * FAMILIES,
        "seats": [],
        "hand": [],
        "expanding": None,
        "camels_placed": 0,
        "discarded": 0,
        "deck_size": 0,
        "discard_size": 0,
        "bag_size": 0,
    }


ENCODING: Final = SamarkandEncoding()
