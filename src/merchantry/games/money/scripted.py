"""Scripted Money strategies: what a clever newcomer tries in a few lines, to test that the levels have no
cheap exploit (issue 29; hard's results against each are in docs/bots.md).

Each plays like `greedy` but for the habit that names it:
- `minimum`: always bids a single card, its lowest note or coin (MO-R1: any number of cards).
- `highroller`: tops greedy's bid up with its lowest cards until it is worth `HIGH_BID`, to act first
  (MO-R4) every round.
- `hoarder`: collects the currency it holds most of: never bids that currency's notes, and takes whatever
  adds most of it (greedy's judgement between equals).
"""

from __future__ import annotations

from typing import Any

from merchantry.games.money.components import BLUFF, COIN, COIN_VALUE
from merchantry.games.money.greedy import NOTE_INFO, SURE_BID, MoneyGreedyBot, bid_worth, remove

HIGH_BID = SURE_BID  # a bid this large usually acts first


def face_value(code: str) -> int:
    return COIN_VALUE if code == COIN else NOTE_INFO[code][1]


def favourite(cards: list[str]) -> str | None:
    """The currency with the most face value among `cards` (ties: the first by name)."""
    totals: dict[str, int] = {}
    for code in cards:
        if code in NOTE_INFO:
            currency, value = NOTE_INFO[code]
            totals[currency] = totals.get(currency, 0) + value
    return min(totals, key=lambda c: (-totals[c], c)) if totals else None


class MoneyMinimumBot(MoneyGreedyBot):
    name = "minimum"

    def wanted(self, view: dict[str, Any], progress: float) -> list[str]:
        holding = [c for c in view["hand"] + view["my_bid"] if c != BLUFF]
        return [min(holding, key=lambda c: (face_value(c), c))] if holding else []


class MoneyHighrollerBot(MoneyGreedyBot):
    name = "highroller"

    def wanted(self, view: dict[str, Any], progress: float) -> list[str]:
        bid = super().wanted(view, progress)
        rest = remove([c for c in view["hand"] + view["my_bid"] if c != BLUFF], bid)
        for code in sorted(rest, key=lambda c: (face_value(c), c)):
            if bid_worth(bid) >= HIGH_BID:
                break
            bid.append(code)
        return bid


class MoneyHoarderBot(MoneyGreedyBot):
    name = "hoarder"

    def wanted(self, view: dict[str, Any], progress: float) -> list[str]:
        kept = favourite([c for c in view["hand"] + view["my_bid"] if c != BLUFF])
        return [c for c in super().wanted(view, progress) if c not in NOTE_INFO or NOTE_INFO[c][0] != kept]

    def exchange_worth(self, hand: list[str], cards: list[str], progress: float) -> Any:
        kept = favourite(hand)
        gained = sum(NOTE_INFO[c][1] for c in cards if c in NOTE_INFO and NOTE_INFO[c][0] == kept)
        return (gained, super().exchange_worth(hand, cards, progress))


SCRIPTED = {bot.name: bot for bot in (MoneyMinimumBot, MoneyHighrollerBot, MoneyHoarderBot)}
