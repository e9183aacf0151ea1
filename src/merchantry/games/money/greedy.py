"""The `greedy` Money bot: judges every hand it could end up with by what it does to its score.

It reads only `world.view(seat)`, so it cannot learn anything its seat may not know. Early in a deal a
hand is judged by its promise (a currency close to 200 is worth nearly its face value, a scattered one
little: the value grows with the square of the total), late in the deal by its exact score (MO-E3..E5).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from merchantry.engine import State
from merchantry.games.money.actions import ADD, KEEP, SEAL, TAKE_BID, TAKE_GROUP, MoneyAction
from merchantry.games.money.components import ALL_CODES, BLUFF, COIN, COIN_VALUE, TRIO_VALUES
from merchantry.games.money.scoring import THRESHOLD, TRIO_BONUS, currency_score

PARTIAL_TRIO = 25  # two notes of a trio already held are worth something before the third arrives
SURE_BID = 120  # a bid this large usually acts first (a guess, tuned against the random bot)


@dataclass(frozen=True)
class Outlook:
    """How a bot weighs what it cannot know yet; the greedy and collector bots differ only here."""

    exact_weight: float = 1.0  # how much the exact score counts at the deal's end (the rest: the promise)
    # what a bid that does not act first expects: these shares of the better and the worse group's gains
    better_if_late: float = 0.0
    worse_if_late: float = 0.5


GREEDY = Outlook()


# per banknote code: its currency and face value, read once (a search judges hands thousands of times a
# second)
NOTE_INFO: dict[str, tuple[str, int]] = {
    code: (code[:3], int(code[3:])) for code in ALL_CODES if code not in (COIN, BLUFF)
}
# per currency: the codes of its trio notes (MO-E4), in the order of TRIO_VALUES
TRIO_CODES: dict[str, tuple[str, ...]] = {
    currency: tuple(f"{currency}{value}" for value in TRIO_VALUES) for currency, _ in NOTE_INFO.values()
}


def hand_value(cards: list[str], progress: float) -> float:
    """Blend of the hand's promise (early) and its exact final score (late); progress runs 0 -> 1."""
    counts: dict[str, int] = {}
    for code in cards:
        counts[code] = counts.get(code, 0) + 1
    totals: dict[str, int] = {}  # currencies in the order the hand first shows them, as the sums below add
    for code, n in counts.items():
        note = NOTE_INFO.get(code)
        if note is not None:
            totals[note[0]] = totals.get(note[0], 0) + note[1] * n
    exact = promise = float(counts.get(COIN, 0) * COIN_VALUE)
    for currency, total in totals.items():
        trios = pairs = 0
        for code in TRIO_CODES[currency]:
            held = counts.get(code, 0)
            trios += held == 3
            pairs += held == 2
        exact += currency_score(total, trios)
        promise += total if total >= THRESHOLD else total * total / THRESHOLD
        promise += TRIO_BONUS * trios + PARTIAL_TRIO * pairs
    return progress * exact + (1 - progress) * promise


def remove(cards: list[str], gone: list[str]) -> list[str]:
    """`cards` without `gone` (one copy per listed card), grouped by code in the order they first appear."""
    rest: dict[str, int] = {}
    for code in cards:
        rest[code] = rest.get(code, 0) + 1
    for code in gone:
        if code in rest:
            rest[code] -= 1
    return [code for code, n in rest.items() for _ in range(n)]


def bid_worth(cards: list[str]) -> int:
    return sum(COIN_VALUE if c == COIN else int(c[3:]) for c in cards if c != BLUFF)


@lru_cache(maxsize=4096)
def wanted_bid(
    holding: tuple[str, ...],
    right: tuple[str, ...],
    left: tuple[str, ...],
    progress: float,
    outlook: Outlook = GREEDY,
) -> tuple[str, ...]:
    """The bid with the best expected gain over the market groups, built from the cheapest cards.

    Pure, so cached: a bid is built over several calls from the same position."""
    cards = list(holding)
    base = hand_value(cards, progress)
    cheapest = sorted(cards, key=lambda c: base - hand_value(remove(cards, [c]), progress))
    best_bid: list[str] = []
    best_gain = 0.0
    for size in range(1, len(cheapest) + 1):
        bid = cheapest[:size]
        kept = cheapest[size:]
        gains = sorted(hand_value(kept + list(group), progress) - base for group in (right, left))
        first = min(1.0, bid_worth(bid) / SURE_BID)
        late = max(0.0, outlook.better_if_late * gains[1] + outlook.worse_if_late * gains[0])
        expected = first * gains[1] + (1 - first) * late
        if expected > best_gain:
            best_bid, best_gain = bid, expected
    return tuple(best_bid)


class MoneyGreedyBot:
    name = "greedy"
    outlook = GREEDY

    def choose(self, world: State, seat: int, rng: random.Random) -> MoneyAction:
        view = world.view(seat)
        legal = world.legal_actions(seat)
        progress = (1 - view["deck"] / view["deck_at_deal"]) * self.outlook.exact_weight
        if view["phase"] == "bidding":
            return self._next_bid_step(view, legal, progress)
        return self._best_exchange(view, seat, legal, progress)

    # --- bidding --------------------------------------------------------------------------------------

    def _next_bid_step(self, view: dict[str, Any], legal: list[MoneyAction], progress: float) -> MoneyAction:
        """Build the bid `wanted` decides on, one card at a time, then seal it."""
        missing = remove(self.wanted(view, progress), [c for c in view["my_bid"] if c != BLUFF])
        for code in sorted(missing):
            if ADD[code] in legal:
                return ADD[code]
        return SEAL

    def wanted(self, view: dict[str, Any], progress: float) -> list[str]:
        """The whole bid to seal: `wanted_bid`'s, from the cards in hand and bid (the bluff card kept out)."""
        holding = [c for c in view["hand"] + view["my_bid"] if c != BLUFF]
        market = view["market"]
        return list(
            wanted_bid(
                tuple(sorted(holding)), tuple(market["right"]), tuple(market["left"]), progress, self.outlook
            )
        )

    # --- exchanging -----------------------------------------------------------------------------------

    def _best_exchange(
        self, view: dict[str, Any], seat: int, legal: list[MoneyAction], progress: float
    ) -> MoneyAction:
        hand = [c for c in view["hand"] if c != BLUFF]
        seats = view["seats"]
        options: list[tuple[MoneyAction, list[str]]] = [(KEEP, seats[seat]["bid"] or [])]
        options += [(TAKE_GROUP[g], view["market"][name]) for g, name in enumerate(("right", "left"))]
        options += [(TAKE_BID[q], seats[q]["bid"] or []) for q in range(view["players"])]
        best = max(
            (a for a in options if a[0] in legal),
            key=lambda option: self.exchange_worth(hand, option[1], progress),
        )
        return best[0]

    def exchange_worth(self, hand: list[str], cards: list[str], progress: float) -> Any:
        """How good taking `cards` into `hand` is (the larger the better)."""
        return hand_value(hand + cards, progress)
