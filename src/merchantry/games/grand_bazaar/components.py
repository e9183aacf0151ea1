"""Grand Bazaar's components, loaded once from data files and shared by every state."""

from __future__ import annotations

from typing import Final

from merchantry.engine import load_data

_CARDS: Final = load_data(__package__, "price_cards.json")
_SETUP: Final = load_data(__package__, "setup.json")

GEMS: Final[tuple[str, ...]] = tuple(_CARDS["gems"])  # sapphire, ruby, emerald: the order of a card's changes
PRICE_CARDS: Final[tuple[tuple[int, int, int], ...]] = tuple(tuple(card) for card in _CARDS["cards"])  # GB-C3
GEM_CARDS_PER_TYPE: Final[int] = _SETUP["gem_cards_per_type"]  # GB-C1
START_PRICE: Final[int] = _SETUP["start_price"]  # GB-C2
START_CASH: Final[int] = _SETUP["start_cash"]  # GB-S1
GEM_LIMIT: Final[int] = _SETUP["gem_limit"]  # GB-R4
FINAL_GEM_VALUE: Final[int] = _SETUP["final_gem_value"]  # GB-E1
ROUNDS: Final = len(PRICE_CARDS)  # one price card per round


def card_text(card: int) -> str:
    """A price card as people read it: '+1 -1 0' in gem order."""
    return " ".join(f"{change:+d}" if change else "0" for change in PRICE_CARDS[card])


# Each card's text, made once: every round's log event names its card, and a playout opens 27 rounds
CARD_TEXTS: Final[tuple[str, ...]] = tuple(card_text(card) for card in range(len(PRICE_CARDS)))
