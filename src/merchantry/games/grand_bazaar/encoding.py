"""Grand Bazaar as numbers for reinforcement learning (merchantry.rl.encoding).

Actions (7, any player count): `buy sapphire`, `buy ruby`, `buy emerald`, `sell sapphire`, `sell ruby`,
`sell emerald`, `done`.

Observation (60 numbers, any player count; seats are relative: slot 0 is the observer, slot 1 the next seat
clockwise, ...; slots past the player count are 0):
- round / 27; 1 if it is the observer's turn;
- the round's opener, one-hot over 7 relative slots;
- each gem's price / 19;
- each gem's stock in the bazaar / 20;
- each gem's mean price change over the unrevealed price cards, and unrevealed cards / 27 (GB-I1: public);
- per relative seat (7 slots): present, its gems of each type / 4, its cash / 100;
- this turn: gems bought (3 flags), gems sold (3 flags).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Final

import numpy as np

from merchantry.games.grand_bazaar.actions import BUY, DONE, SELL
from merchantry.games.grand_bazaar.components import GEMS, PRICE_CARDS, ROUNDS
from merchantry.games.grand_bazaar.rules import BazaarState
from merchantry.rl.encoding import listed, numbers_of, one_hot, relative

SLOTS: Final = 7  # the most players
PER_SLOT: Final = 2 + len(GEMS)
# Where each part of the observation starts (the order of `observe` below)
OPENER: Final = 2
PRICES: Final = 2 + SLOTS
STOCK: Final = 2 + SLOTS + 3
MOVES: Final = 2 + SLOTS + 6
LEFT: Final = 2 + SLOTS + 9
HOLDINGS: Final = LEFT + 1
BOUGHT: Final = HOLDINGS + SLOTS * PER_SLOT
SOLD: Final = BOUGHT + len(GEMS)
SIZE: Final = SOLD + len(GEMS)
GEM_RANGE: Final = range(len(GEMS))


class GrandBazaarEncoding:
    def actions(self, players: int) -> list[str]:
        return [str(a) for a in (*BUY, *SELL, DONE)]

    def observation_size(self, players: int) -> int:
        return 2 + SLOTS + 3 * len(GEMS) + 1 + SLOTS * (1 + len(GEMS) + 1) + 2 * len(GEMS)

    def observe(self, view: dict[str, Any], players: int) -> list[float]:
        me = view["seat"] or 0
        remaining = view["remaining_cards"]
        out = [view["round"] / ROUNDS, 1.0 if view["current"] == me else 0.0]
        out += one_hot(relative(view["opener"], me, players), SLOTS)
        out += [price / 19 for price in view["prices"]]
        out += [stock / 20 for stock in view["stock"]]
        out += [
            sum(card[g] for card in remaining) / len(remaining) if remaining else 0.0
            for g in range(len(GEMS))
        ]
        out.append(len(remaining) / ROUNDS)
        slots = [[0.0] * (2 + len(GEMS)) for _ in range(SLOTS)]
        for row in view["holdings"]:
            slots[relative(row["seat"], me, players)] = [
                1.0,
                *(n / 4 for n in row["gems"]),
                row["cash"] / 100,
            ]
        out += [x for slot in slots for x in slot]
        out += [1.0 if gem in view["turn"]["bought"] else 0.0 for gem in GEMS]
        out += [1.0 if gem in view["turn"]["sold"] else 0.0 for gem in GEMS]
        return out

    def observer(self, players: int, seat: int) -> BazaarObserver:
        return BazaarObserver(players, seat)


@lru_cache(maxsize=64)
def expected_moves(deck: tuple[int, ...]) -> tuple[float, ...]:
    """Each gem's mean price change over the cards left (as `observe` works it out), for every seat's
    observer of the round at once."""
    return tuple(sum(PRICE_CARDS[c][gem] for c in deck) / len(deck) if deck else 0.0 for gem in GEM_RANGE)


class BazaarObserver:
    """`observe(view(seat))` from the state: every part of Grand Bazaar is public but the deck's order
    (GB-I1), and the deck is read only as the set of cards left. A part is rewritten, number by number,
    only when the state's value it comes from is another object (the state replaces a tuple that changes):
    a buy changes a dozen numbers, and writing those few costs less than any array operation."""

    def __init__(self, players: int, seat: int):
        self.players, self.seat = players, seat
        self.out = np.zeros(SIZE, np.float32)
        self.numbers = numbers_of(self.out)  # one number written costs a tenth of numpy's item write
        self.slot_of = [(p - seat) % players for p in range(players)]
        for slot in range(players):
            self.numbers[HOLDINGS + slot * PER_SLOT] = 1.0  # present
        self.header: tuple[int, int] | None = None
        self.prices: tuple[int, ...] | None = None
        self.stock: tuple[int, ...] | None = None
        self.deck: tuple[int, ...] | None = None
        self.gems: list[Any] = [None] * players  # per seat: its gems and cash last written
        self.cash: list[int | None] = [None] * players
        self.bought: tuple[bool, ...] | None = None
        self.sold: tuple[bool, ...] | None = None

    def observe(self, state: BazaarState) -> np.ndarray:
        """The seat's numbers of `state` (a new array)."""
        self.update(state)
        return self.out.copy()

    def listed(self, state: BazaarState) -> list[float]:
        """The same numbers as a new list of floats (OpenSpiel's tensors)."""
        self.update(state)
        return listed(self.numbers, self.out)

    def update(self, state: BazaarState) -> None:
        """Rewrite the numbers (`out`, and their list) that changed since the last call."""
        numbers = self.numbers
        current = -1 if state.over else state.current
        if self.header != (state.round, current):
            self.header = (state.round, current)
            numbers[0] = state.round / ROUNDS
            numbers[1] = 1.0 if current == self.seat else 0.0
            opener = OPENER + self.slot_of[state.opener()]
            for index in range(OPENER, PRICES):
                numbers[index] = 1.0 if index == opener else 0.0
        if self.prices is not state.prices:
            self.prices = prices = state.prices
            for gem in GEM_RANGE:
                numbers[PRICES + gem] = prices[gem] / 19
        if self.stock is not state.stock:
            self.stock = stock = state.stock
            for gem in GEM_RANGE:
                numbers[STOCK + gem] = stock[gem] / 20
        if self.deck is not state.deck:
            self.deck = deck = state.deck
            for gem, move in enumerate(expected_moves(deck)):
                numbers[MOVES + gem] = move
            numbers[LEFT] = len(deck) / ROUNDS
        if self.bought is not state.bought or self.sold is not state.sold:
            self.bought, self.sold = state.bought, state.sold
            for gem in GEM_RANGE:
                numbers[BOUGHT + gem] = 1.0 if state.bought[gem] else 0.0
                numbers[SOLD + gem] = 1.0 if state.sold[gem] else 0.0
        all_gems, all_cash = state.gems, state.cash
        for seat in range(self.players):
            gems, cash = all_gems[seat], all_cash[seat]
            if gems is not self.gems[seat] or cash != self.cash[seat]:
                self.gems[seat], self.cash[seat] = gems, cash
                start = HOLDINGS + self.slot_of[seat] * PER_SLOT
                for gem in GEM_RANGE:
                    numbers[start + 1 + gem] = gems[gem] / 4
                numbers[start + 1 + len(GEMS)] = cash / 100


ENCODING: Final = GrandBazaarEncoding()
