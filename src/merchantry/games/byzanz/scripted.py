"""Scripted Byzanz strategies: what a clever newcomer tries in a few lines, to test that the levels have
no cheap exploit (issue 29; hard's results against each are in docs/bots.md).

Each plays like `greedy` but for the habit that names it:
- `focus`: bids only on a lot that holds the goods type it holds most of, raising with its least useful
  cards just past the highest bid (BZ-A4), and sells only sets of one type without merchants that keep a
  card of the top value (BZ-V1), until the final selling (BZ-E1) or the hand limit (BZ-H1) makes it sell
  as greedy does. (A fixed strategy of this kind beat three hard bots 41-24-18 before issue 29.)
- `minimum`: always raises, with its least useful cards, just past the highest bid, whatever the lot.
- `hoarder`: never sells before the final selling unless the hand limit forces it.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from merchantry.engine import State
from merchantry.games.byzanz.actions import ADD, BID, PASS, ByzanzAction
from merchantry.games.byzanz.components import CODE_TYPE, CODE_VALUE, MERCHANT
from merchantry.games.byzanz.greedy import ByzanzGreedyBot, codes, value_of, without

TOP_VALUE = max(CODE_VALUE)  # the highest value a goods card has


def raise_past(view: dict[str, Any], seat: int, legal: list[ByzanzAction]) -> ByzanzAction:
    """Add the least useful goods card until the bid beats the highest (BZ-A4), then confirm it; pass when
    the hand cannot beat it."""
    high = view["auction"]["high"]
    total = sum(CODE_VALUE[c] for c in codes(view["seats"][seat]["bid"]))
    if total > high and BID in legal:
        return BID
    hand = codes(view["hand"])
    goods = [c for c in hand if c != MERCHANT and ADD[c] in legal]
    if not goods or total + sum(CODE_VALUE[c] for c in goods) <= high:
        return PASS
    base = value_of(hand)
    return ADD[min(goods, key=lambda c: (base - value_of(without(hand, [c]))) / CODE_VALUE[c])]


def most_held_type(hand: list[int]) -> int | None:
    counts = Counter(CODE_TYPE[c] for c in hand if c != MERCHANT)
    return max(counts, key=lambda t: (counts[t], -t)) if counts else None


def top_valued(sale: ByzanzAction) -> bool:
    return max(CODE_VALUE[c] for c in sale.codes) == TOP_VALUE


def bidding(view: dict[str, Any], seat: int, legal: list[ByzanzAction]) -> bool:
    return view["phase"] == "auction" and PASS in legal


class ByzanzScripted(ByzanzGreedyBot):
    """Greedy, but for the decisions `habit` takes, and among the moves `allowed` leaves it."""

    def choose(self, world: State, seat: int, rng: random.Random) -> ByzanzAction:
        view = world.view(seat)
        legal: list[ByzanzAction] = world.legal_actions(seat)
        if view["hand_limit_player"] == seat or view["phase"] == "final_selling":
            return self.decide(view, seat, legal)  # forced to sell or discard: greedy's way
        return self.habit(view, seat, legal) or self.decide(view, seat, self.allowed(legal) or legal)

    def habit(self, view: dict[str, Any], seat: int, legal: list[ByzanzAction]) -> ByzanzAction | None:
        return None

    def allowed(self, legal: list[ByzanzAction]) -> list[ByzanzAction]:
        return legal


def no_sales(legal: list[ByzanzAction]) -> list[ByzanzAction]:
    return [a for a in legal if a.verb != "sell"]


class ByzanzFocusBot(ByzanzScripted):
    name = "focus"

    def habit(self, view: dict[str, Any], seat: int, legal: list[ByzanzAction]) -> ByzanzAction | None:
        for sale in legal:
            if sale.verb == "sell" and MERCHANT not in sale.codes and top_valued(sale):
                return sale
        if bidding(view, seat, legal):
            focus = most_held_type(codes(view["hand"]))
            if focus is not None and any(CODE_TYPE[c] == focus for c in codes(view["lot"])):
                return raise_past(view, seat, legal)
            return PASS
        return None

    def allowed(self, legal: list[ByzanzAction]) -> list[ByzanzAction]:
        return no_sales(legal)


class ByzanzMinimumBot(ByzanzScripted):
    name = "minimum"

    def habit(self, view: dict[str, Any], seat: int, legal: list[ByzanzAction]) -> ByzanzAction | None:
        return raise_past(view, seat, legal) if bidding(view, seat, legal) else None


class ByzanzHoarderBot(ByzanzScripted):
    name = "hoarder"

    def allowed(self, legal: list[ByzanzAction]) -> list[ByzanzAction]:
        return no_sales(legal)


SCRIPTED = {bot.name: bot for bot in (ByzanzFocusBot, ByzanzMinimumBot, ByzanzHoarderBot)}
