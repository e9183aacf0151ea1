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
from typing import Any

from merchantry.errors import IllegalAction
from merchantry.games.byzanz.actions import ADD, BID, DISCARD, DONE, PASS, TAKE, TO_MARKET, sell
from merchantry.games.byzanz.components import CODE_TYPE, CODES, MERCHANT
from merchantry.games.byzanz.rules import PHASE_NAMES
from merchantry.rl.encoding import one_hot, padded, relative

SLOTS = 6
PER_SEAT = 2 + 3 * len(CODES) + 1 + len(CODES) + 2


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


ENCODING = ByzanzEncoding()
