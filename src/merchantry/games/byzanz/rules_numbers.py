"""Byzanz's numbers for its rules page, from data/cards.json (BZ-C1..BZ-C3, BZ-S1, BZ-S2)."""

from __future__ import annotations

from merchantry.games.byzanz.components import (
    COPIES_PER_VALUE,
    MERCHANT_COUNT,
    MERCHANT_PROFIT,
    SETUP,
    TYPES,
    VALUES,
)
from merchantry.i18n import Translator
from merchantry.rules_page import table


def numbers(language: str) -> dict[str, str]:
    tr = Translator("byzanz", language)
    return {"offer-cards": offer_cards(tr), "cards": cards(tr)}


def offer_cards(tr: Translator) -> str:
    header = [tr.rules("players"), tr.rules("offerCards"), tr.rules("removed"), tr.rules("rounds")]
    rows = [
        [players, " ".join(str(o) for o in row["offers"]), row["removed"], row["rounds"]]
        for players, row in sorted(SETUP.items())
    ]
    return table(tr.rules("offerCaption"), header, rows, "byzanz-offers")


def cards(tr: Translator) -> str:
    per_type = sum(COPIES_PER_VALUE.values())
    header = [tr.rules("card"), *(str(v) for v in VALUES), tr.rules("cardsEach")]
    rows: list[list[object]] = [[tr.term(t), *(COPIES_PER_VALUE[v] for v in VALUES), per_type] for t in TYPES]
    rows.append([tr.term("merchant"), *("" for _ in VALUES), MERCHANT_COUNT])
    caption = tr.rules("cardsCaption", profit=MERCHANT_PROFIT)
    return table(caption, header, rows, "byzanz-cards")
