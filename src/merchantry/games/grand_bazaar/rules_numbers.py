"""Grand Bazaar's numbers for its rules page, from data/setup.json and data/price_cards.json (GB-C1..C3)."""

from __future__ import annotations

from merchantry.games.grand_bazaar.components import (
    FINAL_GEM_VALUE,
    GEM_CARDS_PER_TYPE,
    GEM_LIMIT,
    GEMS,
    PRICE_CARDS,
    START_CASH,
    START_PRICE,
)
from merchantry.i18n import Translator
from merchantry.rules_page import table


def numbers(language: str) -> dict[str, str]:
    tr = Translator("grand_bazaar", language)
    return {"setup": setup(tr), "price-cards": price_cards(tr)}


def setup(tr: Translator) -> str:
    rows = [
        [tr.rules("gemCards"), GEM_CARDS_PER_TYPE],
        [tr.rules("startPrice"), START_PRICE],
        [tr.rules("startCash"), START_CASH],
        [tr.rules("gemLimit"), GEM_LIMIT],
        [tr.rules("finalValue"), FINAL_GEM_VALUE],
        [tr.rules("rounds"), len(PRICE_CARDS)],
    ]
    return table(tr.rules("setupCaption"), [tr.rules("what"), tr.rules("number")], rows, "gb-setup")


def price_cards(tr: Translator) -> str:
    header = ["#", *(tr.term(g) for g in GEMS)]
    rows = [[i, *(signed(change) for change in card)] for i, card in enumerate(PRICE_CARDS, 1)]
    return table(tr.rules("priceCaption", count=len(PRICE_CARDS)), header, rows, "gb-price-cards")


def signed(change: int) -> str:
    """+1, 0 or −1 with the minus sign the rules' text uses (a hyphen read as a dash beside it)."""
    return f"{change:+d}".replace("-", "\N{MINUS SIGN}") if change else "0"
