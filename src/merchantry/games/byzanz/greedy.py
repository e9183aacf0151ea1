"""The `greedy` Byzanz bot: values cards by the sets they complete.

It reads only its seat's view. A hand is worth the profit of the sets it holds or nearly holds (BZ-V1,
merchants as jokers, BZ-V2) plus a little for the bidding power of its goods. It bids for a lot while the
lot adds more than the cards it must give up, puts the lot card it needs least into the market, takes the
market type that adds most, sells a set when it needs room (or at the end), and discards its least
useful card.
"""

from __future__ import annotations

import random
from collections import Counter
from functools import lru_cache
from typing import Any

from merchantry.engine import State
from merchantry.games.byzanz.actions import ADD, BID, DONE, PASS, ByzanzAction
from merchantry.games.byzanz.components import (
    CODE_INDEX,
    CODE_TYPE,
    CODE_VALUE,
    HAND_LIMIT,
    MERCHANT,
    MERCHANT_PROFIT,
    TYPES,
    profit_points,
)

PAIR_SHARE = 0.6  # two of a type are most of a set
SINGLE_SHARE = 0.25
BID_POWER = 0.15  # a goods card is also money for the auctions
LOOSE_MERCHANT = 1.0
OVER_LIMIT = 3.0  # each card over the hand limit will have to go
SELL_FROM = HAND_LIMIT - 1  # sell sets when the hand is this full


@lru_cache(maxsize=65536)
def hand_value(cards: tuple[int, ...]) -> float:
    """Expected profit from these cards (a sorted tuple of codes)."""
    merchants = cards.count(MERCHANT)
    value = 0.0
    partials: list[tuple[int, int]] = []  # (cards short of a set, best value) per type
    for t in range(len(TYPES)):
        values = sorted((CODE_VALUE[c] for c in cards if CODE_TYPE[c] == t), reverse=True)
        full, rest = divmod(len(values), 3)
        value += sum(values[3 * i] for i in range(full))
        if rest:
            partials.append((3 - rest, values[3 * full]))
        value += BID_POWER * sum(values)
    for missing, best in sorted(partials):  # merchants complete the nearest sets first
        if merchants >= missing:
            merchants -= missing
            value += best
        else:
            value += best * (PAIR_SHARE if missing == 1 else SINGLE_SHARE)
    value += (merchants // 3) * MERCHANT_PROFIT + (merchants % 3) * LOOSE_MERCHANT
    return value - OVER_LIMIT * max(0, len(cards) - HAND_LIMIT)


def value_of(codes: list[int]) -> float:
    return hand_value(tuple(sorted(codes)))


def without(codes: list[int], gone: list[int]) -> list[int]:
    return list((Counter(codes) - Counter(gone)).elements())


def codes(names: list[str]) -> list[int]:
    return [CODE_INDEX[name] for name in names]


class ByzanzGreedyBot:
    name = "greedy"

    def choose(self, world: State, seat: int, rng: random.Random) -> ByzanzAction:
        return self.decide(world.view(seat), seat, world.legal_actions(seat))

    def decide(self, view: dict[str, Any], seat: int, legal: list[ByzanzAction]) -> ByzanzAction:
        """Greedy's choice among `legal` (all the legal moves, or those a scripted bot allows itself)."""
        hand = codes(view["hand"])
        sells = [a for a in legal if a.verb == "sell"]
        over_limit = view["hand_limit_player"] == seat
        if sells and (over_limit or view["phase"] == "final_selling" or len(hand) >= SELL_FROM):
            return max(sells, key=lambda a: self._sale_gain(hand, a))
        if over_limit:
            return max(
                (a for a in legal if a.verb == "discard"),
                key=lambda a: value_of(without(hand, list(a.codes))),
            )
        if view["phase"] == "auction":
            return self._auction_step(view, seat, hand, legal)
        if view["phase"] == "lot_choice":
            lot = codes(view["lot"])
            return max(
                (a for a in legal if a.verb == "market"),
                key=lambda a: value_of(hand + without(lot, list(a.codes))),
            )
        if view["phase"] == "market":
            market = codes(view["market"])
            return max(
                (a for a in legal if a.verb == "take"),
                key=lambda a: value_of(hand + [c for c in market if CODE_TYPE[c] == a.codes[0]]),
            )
        return DONE

    @staticmethod
    def _sale_gain(hand: list[int], sale: ByzanzAction) -> float:
        return profit_points(max(sale.codes, key=lambda c: (c != MERCHANT, CODE_VALUE[c]))) + value_of(
            without(hand, list(sale.codes))
        )

    def _auction_step(
        self, view: dict[str, Any], seat: int, hand: list[int], legal: list[ByzanzAction]
    ) -> ByzanzAction:
        """Raise with the cards that cost least while winning the lot beats passing (and keeping the bid)."""
        high = view["auction"]["high"]
        my_bid = codes(view["seats"][seat]["bid"])
        total = sum(CODE_VALUE[c] for c in my_bid)
        if total > high:
            return BID
        base = value_of(hand)
        goods = [c for c in hand if c != MERCHANT]
        by_cost = sorted(goods, key=lambda c: (base - value_of(without(hand, [c]))) / CODE_VALUE[c])
        plan: list[int] = []
        for card in by_cost:
            if total > high:
                break
            plan.append(card)
            total += CODE_VALUE[card]
        if total <= high:
            return PASS
        lot = codes(view["lot"])
        kept = without(hand, plan)
        win = max(value_of(kept + without(lot, [c])) for c in lot)
        if win - value_of(hand + my_bid) > 0.5 and ADD[plan[0]] in legal:
            return ADD[plan[0]]
        return PASS
