"""Byzanz as numbers for reinforcement learning (merchantry.rl.encoding).

Actions (290, any player count): `add C` (25 card codes), `bid`, `pass`, `market C` (25), `take T` (6 goods
types and `merchant`), `sell A B C` (every set of three cards of one type, merchants as jokers, and three
merchants: 205), `discard C` (25), `done`.

Observation (804 numbers; seats are relative: slot 0 is the observer, slot 1 the next seat clockwise, ...;
slots past the player count are 0). A "card vector" counts each of the 25 codes, / 4:
- the phase, one-hot (auction, lot_choice, market, final_selling, over); round / rounds; deck / 100;
- dealer, round opener and first player, each one-hot over 6 relative slots;
- the offer cards still to auction and the offer stack, 6 values each / 10 (0 past the end);
- card vectors of the lot and of the market;
- the auction: highest bid / 50, highest bidder, whose turn, who is still in (6 relative slots each);
- the seat choosing the lot card, the seat over the hand limit, each one-hot over 6; each seat's place in the
  market order / 6;
- card vectors of the observer's hand and of its own discards;
- per relative seat (6 x 105): present, cards in hand / 15, its cards known to all (card vector), cards
  known to be in its hand or among its discards (card vector), its bid (card vector), its offer card / 10,
  its profit cards (card vector), its score / 50, its discards / 10.
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from itertools import combinations_with_replacement
from typing import Any, Final

import numpy as np

from merchantry.errors import IllegalAction
from merchantry.games.byzanz.actions import ADD, BID, DISCARD, DONE, PASS, TAKE, TO_MARKET, sell
from merchantry.games.byzanz.components import CODE_TYPE, CODES, MERCHANT
from merchantry.games.byzanz.rules import AUCTION, LOT_CHOICE, MARKET, PHASE_NAMES, ByzanzState
from merchantry.rl.encoding import (
    Counts,
    Numbers,
    OneHot,
    Scaled,
    listed,
    numbers_of,
    one_hot,
    padded,
    relative,
)

SLOTS: Final = 6
PER_SEAT: Final = 2 + 3 * len(CODES) + 1 + len(CODES) + 2
OFFERS: Final = 6  # offer cards shown, and offer stack
# Where each part of the observation starts (the order of `observe` below)
DEALER: Final = len(PHASE_NAMES) + 2
OPENER: Final = DEALER + SLOTS
FIRST: Final = DEALER + 2 * SLOTS
OFFER_CARDS: Final = DEALER + 3 * SLOTS
STACK: Final = OFFER_CARDS + OFFERS
LOT: Final = OFFER_CARDS + 2 * OFFERS
MARKET_CARDS: Final = LOT + len(CODES)
HIGH: Final = LOT + 2 * len(CODES)
HIGH_BIDDER: Final = HIGH + 1
BID_TURN: Final = HIGH + 1 + SLOTS
INSIDE: Final = HIGH + 1 + 2 * SLOTS
CHOOSER: Final = INSIDE + SLOTS
LIMIT: Final = INSIDE + 2 * SLOTS
ORDER: Final = INSIDE + 3 * SLOTS
HAND: Final = ORDER + SLOTS
DISCARDS: Final = ORDER + SLOTS + len(CODES)
SEATS: Final = DISCARDS + len(CODES)
SIZE: Final = SEATS + SLOTS * PER_SEAT
# within a seat's slot
KNOWN: Final = 2
MAYBE: Final = 2 + len(CODES)
BIDS: Final = 2 + 2 * len(CODES)
OFFER: Final = 2 + 3 * len(CODES)
PROFITS: Final = 3 + 3 * len(CODES)
SCORE: Final = PROFITS + len(CODES)
DISCARDED: Final = PROFITS + len(CODES) + 1


@cache
def every_sale() -> tuple[str, ...]:
    """Every set of three that BZ-V1/BZ-V2 allow, in canonical notation."""
    found: dict[str, None] = {}
    for kind in sorted({CODE_TYPE[c] for c in range(len(CODES)) if c != MERCHANT}):
        cards = [c for c in range(len(CODES)) if c != MERCHANT and CODE_TYPE[c] == kind] + [MERCHANT]
        for three in combinations_with_replacement(cards, 3):
            try:
                found[str(sell(three))] = None
            except IllegalAction:
                continue
    return tuple(found)


def cards(names: list[str] | None) -> list[float]:
    counts = Counter(names or [])
    return [counts[code] / 4 for code in CODES]


def slot(seat: int | None, me: int, players: int) -> list[float]:
    return one_hot(None if seat is None else relative(seat, me, players), SLOTS)


class ByzanzEncoding:
    def actions(self, players: int) -> list[str]:
        fixed = [*ADD, BID, PASS, *TO_MARKET, *TAKE.values(), *DISCARD, DONE]
        return [*(str(a) for a in fixed), *every_sale()]

    def observation_size(self, players: int) -> int:
        return (
            len(PHASE_NAMES)
            + 2
            + 3 * SLOTS
            + 12
            + 2 * len(CODES)
            + 19
            + 3 * SLOTS
            + 2 * len(CODES)
            + SLOTS * PER_SEAT
        )

    def observe(self, view: dict[str, Any], players: int) -> list[float]:
        me = view["seat"] or 0
        out = one_hot(PHASE_NAMES.index(view["phase"]), len(PHASE_NAMES))
        out += [view["round"] / view["rounds"], view["deck"] / 100]
        out += slot(view["dealer"], me, players) + slot(view["round_opener"], me, players)
        out += slot(view["first_player"], me, players)
        out += padded([o / 10 for o in view["offers"]], 6) + padded([o / 10 for o in view["offer_stack"]], 6)
        out += cards(view["lot"]) + cards(view["market"])
        auction = view["auction"] or {}
        out.append(auction.get("high", 0) / 50)
        out += slot(auction.get("high_bidder"), me, players) + slot(auction.get("turn"), me, players)
        inside = [0.0] * SLOTS
        for seat in auction.get("in", []):
            inside[relative(seat, me, players)] = 1.0
        out += inside
        out += slot(view["chooser"], me, players) + slot(view["hand_limit_player"], me, players)
        order = [0.0] * SLOTS
        for place, seat in enumerate(view["market_order"] or []):
            order[relative(seat, me, players)] = (place + 1) / SLOTS
        out += order
        out += cards(view.get("hand")) + cards(view.get("my_discards"))
        slots = [[0.0] * PER_SEAT for _ in range(SLOTS)]
        for row in view["seats"]:
            slots[relative(row["seat"], me, players)] = [
                1.0,
                row["hand_size"] / 15,
                *cards(row["known"]),
                *cards(row["known_or_discarded"]),
                *cards(row["bid"]),
                (row["offer"] or 0) / 10,
                *cards(row["profits"]),
                row["score"] / 50,
                row["discarded"] / 10,
            ]
        out += [x for s in slots for x in s]
        return out

    def observer(self, players: int, seat: int) -> ByzanzObserver:
        return ByzanzObserver(players, seat)


class ByzanzSeat:
    """One seat's slot of a Byzanz observation and what it was last written from."""

    def __init__(self, numbers: Numbers, start: int):
        self.start = start
        # what the slot's numbers were last written from, each apart: compiled, a tuple of them built and
        # compared for every seat on every step cost more than these checks
        self.hand: tuple[int, ...] | None = None  # by identity: summed when new
        self.offer_held = -1
        self.discarded = -1
        self.known = Scaled(numbers, start + KNOWN, 4)
        self.maybe = Counts(numbers, start + MAYBE, 4, len(CODES))
        self.maybe_from: object = None
        self.bid = Counts(numbers, start + BIDS, 4, len(CODES))
        self.bid_from: object = None
        self.profits = Counts(numbers, start + PROFITS, 4, len(CODES))
        self.profits_from: object = None


class ByzanzObserver:
    """`observe(view(seat))` from the state, reading only what the seat's view shows: its own hand and
    discards, every seat's cards known to all and bids (BZ-I1), hand sizes, the lot, the market and the
    auction. Each part is rewritten, number by number, only when what it comes from changed (the state
    replaces a tuple that changes)."""

    def __init__(self, players: int, seat: int):
        self.players, self.seat = players, seat
        self.out = np.zeros(SIZE, np.float32)
        self.numbers = numbers = numbers_of(self.out)
        self.slot_of = [(p - seat) % players for p in range(players)]
        self.phase = OneHot(numbers, 0, len(PHASE_NAMES))
        # one attribute per one-hot slot part (a dict of them cost a string lookup per write)
        self.dealer = OneHot(numbers, DEALER, SLOTS)
        self.opener = OneHot(numbers, OPENER, SLOTS)
        self.first = OneHot(numbers, FIRST, SLOTS)
        self.high_bidder = OneHot(numbers, HIGH_BIDDER, SLOTS)
        self.turn = OneHot(numbers, BID_TURN, SLOTS)
        self.chooser = OneHot(numbers, CHOOSER, SLOTS)
        self.limit = OneHot(numbers, LIMIT, SLOTS)
        self.header: tuple[int, int] | None = None  # the round and the deck's size, as last written
        self.offers: tuple[Any, ...] | None = None
        self.lot = Counts(numbers, LOT, 4, len(CODES))
        self.lot_from: tuple[int, ...] | None = None
        self.market = Scaled(numbers, MARKET_CARDS, 4)
        self.auction: tuple[Any, ...] | None = None
        self.order: tuple[int, ...] | None = None
        self.hand = Scaled(numbers, HAND, 4)
        self.discards = Counts(numbers, DISCARDS, 4, len(CODES))
        self.discards_from: tuple[int, ...] | None = None
        self.seats = [ByzanzSeat(numbers, SEATS + self.slot_of[p] * PER_SEAT) for p in range(players)]
        for part in self.seats:
            numbers[part.start] = 1.0  # present

    def _slot(self, seat: int) -> int | None:
        return None if seat < 0 else self.slot_of[seat]

    def observe(self, state: ByzanzState) -> np.ndarray:
        """The seat's numbers of `state` (a new array)."""
        self.update(state)
        return self.out.copy()

    def listed(self, state: ByzanzState) -> list[float]:
        """The same numbers as a new list of floats (OpenSpiel's tensors)."""
        self.update(state)
        return listed(self.numbers, self.out)

    def update(self, state: ByzanzState) -> None:
        """Rewrite the numbers (`out`, and their list) that changed since the last call."""
        numbers, me, phase = self.numbers, self.seat, state.phase
        self.phase.write(phase)
        header = (state.round, len(state.deck))
        if header != self.header:  # most actions change neither: no write then
            self.header = header
            numbers[len(PHASE_NAMES)] = state.round / state.rounds
            numbers[len(PHASE_NAMES) + 1] = len(state.deck) / 100
        self.dealer.write(self.slot_of[state.dealer])
        self.opener.write(self.slot_of[state.round_opener])
        self.first.write(self.slot_of[(state.dealer + 1) % self.players])
        if (state.offers, state.offer_stack) != self.offers:
            self.offers = (state.offers, state.offer_stack)
            for start, values in ((OFFER_CARDS, state.offers), (STACK, state.offer_stack)):
                for index in range(OFFERS):
                    numbers[start + index] = values[index] / 10 if index < len(values) else 0.0
        if state.lot is not self.lot_from:
            self.lot_from = state.lot
            self.lot.write(state.lot)
        self.market.write(state.market)
        self._auction(state, phase)
        self.chooser.write(self.slot_of[state.chooser] if phase == LOT_CHOICE else None)
        self.limit.write(self._slot(state.limit_player))
        order = state.market_order if phase == MARKET else ()
        if order != self.order:
            self.order = order
            for index in range(SLOTS):
                numbers[ORDER + index] = 0.0
            for place, seat in enumerate(order):
                numbers[ORDER + self.slot_of[seat]] = (place + 1) / SLOTS
        self.hand.write(state.hands[me])
        if state.discards[me] is not self.discards_from:
            self.discards_from = state.discards[me]
            self.discards.write(state.discards[me])
        for p in range(self.players):
            self._seat(state, p)

    def _auction(self, state: ByzanzState, phase: int) -> None:
        """The auction's part: only while one runs (the view shows none otherwise)."""
        if phase == AUCTION:
            auction = (state.high, state.high_bidder, state.bid_turn, state.in_auction)
        else:
            auction = (0, -1, -1, ())
        if auction == self.auction:
            return
        self.auction = auction
        high, high_bidder, turn, inside = auction
        self.numbers[HIGH] = high / 50
        self.high_bidder.write(self._slot(high_bidder))
        self.turn.write(self._slot(turn))
        for p in range(self.players):
            self.numbers[INSIDE + self.slot_of[p]] = 1.0 if inside and inside[p] else 0.0

    def _seat(self, state: ByzanzState, p: int) -> None:
        part, numbers = self.seats[p], self.numbers
        hand = state.hands[p]
        if hand is not part.hand:
            part.hand = hand
            numbers[part.start + 1] = sum(hand) / 15
        offer_held = state.offer_held[p]
        if offer_held != part.offer_held:
            part.offer_held = offer_held
            numbers[part.start + OFFER] = offer_held / 10
        discarded = len(state.discards[p])
        if discarded != part.discarded:
            part.discarded = discarded
            numbers[part.start + DISCARDED] = discarded / 10
        part.known.write(state.known[p])
        if state.maybe[p] is not part.maybe_from:
            part.maybe_from = state.maybe[p]
            part.maybe.write([code for _, code in state.maybe[p]])
        if state.bids[p] is not part.bid_from:
            part.bid_from = state.bids[p]
            part.bid.write(state.bids[p])
        if state.profits[p] is not part.profits_from:
            part.profits_from = profits = state.profits[p]
            part.profits.write(profits)
            numbers[part.start + SCORE] = sum(state.points(code) for code in profits) / 50


ENCODING: Final = ByzanzEncoding()
