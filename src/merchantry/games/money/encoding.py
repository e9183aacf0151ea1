"""Money as numbers for reinforcement learning (merchantry.rl.encoding).

Actions (76 + players): `add CODE` and `remove CODE` for each of the 36 card codes and BLUFF, `bid`
(seal), `keep`, `take right`, `take left`, and `take P1` .. `take Pn` (seats by their absolute label: the
observation says which seat the observer is).

Observation (571 numbers; other seats are relative: slot 0 is the observer, slot 1 the next seat clockwise,
...; slots past the player count are 0). A "card vector" counts each of the 37 codes (36 + BLUFF), / 4:
- the phase, one-hot (bidding, exchange, over); round / 20; 1 in the final round; deck / 50;
- the currencies left out (MO-S1), a flag per currency; the observer's seat, one-hot over 5;
- card vectors of the observer's hand, the observer's sealed bid (while bidding), the right and the left
  market group;
- per relative seat (5 x 81): present, cards in hand / 15, bid sealed, acted in the exchange, is acting now,
  place in the exchange order / 5, its revealed bid (card vector) and bid value / 500, and its public cards
  (card vector). A sealed bid is never shown before all are revealed (MO-R1): `view(seat)` hides it.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Final

import numpy as np

from merchantry.engine import seat_label
from merchantry.games.money.actions import ADD, KEEP, REMOVE, SEAL, TAKE_GROUP
from merchantry.games.money.components import ALL_CODES, BLUFF, CARD_CODES, CARD_VALUES, CURRENCIES
from merchantry.games.money.rules import BIDDING, EXCHANGE, PHASE_NAMES, MoneyState
from merchantry.rl.encoding import Counts, Numbers, OneHot, listed, numbers_of, one_hot, relative

SLOTS: Final = 5
CODES: Final = (*ALL_CODES, BLUFF)
PER_SEAT: Final = 6 + len(CODES) + 1 + len(CODES)
CODE_OF_CARD: Final = tuple(CODES.index(code) for code in CARD_CODES)  # card id -> index in a card vector
BLUFF_CODE: Final = CODES.index(BLUFF)
# Where each part of the observation starts (the order of `observe` below)
REMOVED: Final = len(PHASE_NAMES) + 3
SEAT: Final = REMOVED + len(CURRENCIES)
HAND: Final = SEAT + SLOTS
MY_BID: Final = HAND + len(CODES)
MARKET: Final = MY_BID + len(CODES)  # right, then left
SEATS: Final = MARKET + 2 * len(CODES)
SIZE: Final = SEATS + SLOTS * PER_SEAT
BID: Final = 6  # within a seat's slot
BID_VALUE: Final = 6 + len(CODES)
KNOWN: Final = 7 + len(CODES)


def cards(codes: list[str] | None) -> list[float]:
    counts = Counter(codes or [])
    return [counts[code] / 4 for code in CODES]


class MoneyEncoding:
    def actions(self, players: int) -> list[str]:
        takes = [f"take {seat_label(seat)}" for seat in range(players)]
        return [
            *(str(ADD[code]) for code in CODES),
            *(str(REMOVE[code]) for code in CODES),
            str(SEAL),
            str(KEEP),
            *(str(a) for a in TAKE_GROUP),
            *takes,
        ]

    def observation_size(self, players: int) -> int:
        return len(PHASE_NAMES) + 3 + len(CURRENCIES) + SLOTS + 4 * len(CODES) + SLOTS * PER_SEAT

    def observe(self, view: dict[str, Any], players: int) -> list[float]:
        me = view["seat"] or 0
        out = one_hot(PHASE_NAMES.index(view["phase"]), len(PHASE_NAMES))
        out += [view["round"] / 20, float(view["final_round"]), view["deck"] / 50]
        out += [1.0 if currency in view["removed_currencies"] else 0.0 for currency in CURRENCIES]
        out += one_hot(me, SLOTS)
        out += cards(view.get("hand")) + cards(view.get("my_bid"))
        out += cards(view["market"]["right"]) + cards(view["market"]["left"])
        order = view["order"]
        slots = [[0.0] * PER_SEAT for _ in range(SLOTS)]
        for row in view["seats"]:
            seat = row["seat"]
            slots[relative(seat, me, players)] = [
                1.0,
                row["hand_size"] / 15,
                float(bool(row.get("sealed"))),
                float(bool(row.get("acted"))),
                float(view["current"] == seat),
                (order.index(seat) + 1) / SLOTS if seat in order else 0.0,
                *cards(row.get("bid")),
                (row.get("bid_value") or 0) / 500,
                *cards(row["known"]),
            ]
        out += [x for slot in slots for x in slot]
        return out

    def observer(self, players: int, seat: int) -> MoneyObserver:
        return MoneyObserver(players, seat)


def codes_of(cards: tuple[int, ...]) -> list[int]:
    """Cards (ids) as indices of a card vector."""
    return [CODE_OF_CARD[card] for card in cards]


class SeatPart:
    """One seat's slot of a Money observation and what it was last written from."""

    def __init__(self, numbers: Numbers, start: int):
        self.start = start
        # the slot's numbers as last written, each apart (-1: not yet): compiled, comparing ints costs
        # nothing, where a tuple of them built and compared for every seat on every step did
        self.size = -1  # cards in hand, the bid being built counted in
        self.sealed = -1
        self.acted = -1
        self.acting = -1
        self.place = -1  # in the exchange order, 1 first (0: none)
        self.bid: tuple[int, ...] | None = None
        self.bid_cards = Counts(numbers, start + BID, 4, len(CODES))
        self.known: tuple[int, ...] | None = None
        self.known_cards = Counts(numbers, start + KNOWN, 4, len(CODES))


class MoneyObserver:
    """`observe(view(seat))` from the state, reading only what the seat's view shows: its own hand and
    bid, the market, every seat's public cards (MO-I1), hand size and, once revealed, bid (MO-R1). Each part
    is rewritten only when the state's value it comes from changed (its card tuples are replaced when
    they change), number by number: a card added to a bid changes a handful of numbers."""

    def __init__(self, players: int, seat: int):
        self.players, self.seat = players, seat
        self.out = np.zeros(SIZE, np.float32)
        self.numbers = numbers = numbers_of(self.out)
        numbers[SEAT + seat] = 1.0
        self.phase = OneHot(numbers, 0, len(PHASE_NAMES))
        self.header: tuple[Any, ...] | None = None
        self.removed: tuple[str, ...] | None = None
        self.hand: tuple[int, ...] | None = None
        self.hand_bluff = True  # whether the hand encoded holds the bluff card
        self.hand_cards = Counts(numbers, HAND, 4, len(CODES))
        self.my_bid: tuple[int, ...] | None = None
        self.my_bluff = False
        self.my_bid_cards = Counts(numbers, MY_BID, 4, len(CODES))
        self.market: list[tuple[int, ...] | None] = [None, None]
        self.market_cards = [Counts(numbers, MARKET + side * len(CODES), 4, len(CODES)) for side in range(2)]
        self.parts = [SeatPart(numbers, SEATS + (p - seat) % players * PER_SEAT) for p in range(players)]
        for part in self.parts:
            numbers[part.start] = 1.0  # present

    def observe(self, state: MoneyState) -> np.ndarray:
        """The seat's numbers of `state` (a new array)."""
        self.update(state)
        return self.out.copy()

    def listed(self, state: MoneyState) -> list[float]:
        """The same numbers as a new list of floats (OpenSpiel's tensors)."""
        self.update(state)
        return listed(self.numbers, self.out)

    def update(self, state: MoneyState) -> None:
        """Rewrite the numbers (`out`, and their list) that changed since the last call."""
        numbers, me, phase = self.numbers, self.seat, state.phase
        header = (phase, state.round, state.final_round, len(state.deck))
        if header != self.header:
            self.header = header
            self.phase.write(phase)
            numbers[3], numbers[4], numbers[5] = (
                state.round / 20,
                float(state.final_round),
                len(state.deck) / 50,
            )
        if state.removed is not self.removed:
            self.removed = state.removed
            for index, currency in enumerate(CURRENCIES):
                numbers[REMOVED + index] = 1.0 if currency in state.removed else 0.0
        # the bid being built: its cards (by identity: a tuple replaced when it changes) and the bluff card,
        # which is in the hand while it is not in the bid (as the view's hand, MO-R2)
        my_bid = state.bids[me] if phase == BIDDING else None
        bluff = phase == BIDDING and state.bluff_bid[me]
        if state.hands[me] is not self.hand or bluff == self.hand_bluff:
            self.hand, self.hand_bluff = state.hands[me], not bluff
            hand = codes_of(self.hand)
            if not bluff:
                hand.append(BLUFF_CODE)
            self.hand_cards.write(hand)
        if my_bid is not self.my_bid or bluff != self.my_bluff:
            self.my_bid, self.my_bluff = my_bid, bluff
            bid = codes_of(my_bid) if my_bid is not None else []
            if bluff:
                bid.append(BLUFF_CODE)
            self.my_bid_cards.write(bid)
        for side in range(2):
            if state.market[side] is not self.market[side]:
                self.market[side] = state.market[side]
                self.market_cards[side].write(codes_of(state.market[side]))
        for p in range(self.players):
            self._seat(state, p, phase)

    def _seat(self, state: MoneyState, p: int, phase: int) -> None:
        """A seat's slot: what the view's `seats[p]` shows."""
        part, numbers = self.parts[p], self.numbers
        bids = state.bids[p]
        start = part.start
        size = len(state.hands[p]) + (len(bids) if phase == BIDDING else 0) + 1
        if size != part.size:
            part.size = size
            numbers[start + 1] = size / 15
        sealed = 1 if phase == BIDDING and state.committed[p] else 0
        if sealed != part.sealed:
            part.sealed = sealed
            numbers[start + 2] = float(sealed)
        acted = 1 if phase == EXCHANGE and state.acted[p] else 0
        if acted != part.acted:
            part.acted = acted
            numbers[start + 3] = float(acted)
        acting = 1 if phase == EXCHANGE and state.current == p else 0
        if acting != part.acting:
            part.acting = acting
            numbers[start + 4] = float(acting)
        order = state.order
        place = order.index(p) + 1 if p in order else 0
        if place != part.place:
            part.place = place
            numbers[start + 5] = place / SLOTS
        shown = bids if phase == EXCHANGE else ()  # MO-R1: a bid is seen once all are revealed
        if shown is not part.bid:
            part.bid = shown
            part.bid_cards.write(codes_of(shown))
            numbers[part.start + BID_VALUE] = sum(CARD_VALUES[c] for c in shown) / 500
        if state.known[p] is not part.known:
            part.known = state.known[p]
            part.known_cards.write(codes_of(part.known))


ENCODING: Final = MoneyEncoding()
