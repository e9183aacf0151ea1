"""Money's numbers for its rules page, from data/cards.json and data/serials.json (MO-C1..MO-C4)."""

from __future__ import annotations

from merchantry.games.money.components import (
    BLUFF_CARDS,
    CARD_CODES,
    COIN_COUNT,
    COIN_VALUE,
    CURRENCIES,
    NOTE_VALUES,
)
from merchantry.i18n import Translator
from merchantry.rules_page import in_columns, table

SERIAL_COLUMNS = 3


def numbers(language: str) -> dict[str, str]:
    tr = Translator("money", language)
    return {"distribution": distribution(tr), "serials": serials(tr)}


def distribution(tr: Translator) -> str:
    notes = " ".join(str(v) for v in NOTE_VALUES)
    rows: list[list[object]] = [[cur, notes, sum(NOTE_VALUES)] for cur in CURRENCIES]
    rows.append([tr.rules("coins"), f"{COIN_COUNT} × {COIN_VALUE}", COIN_COUNT * COIN_VALUE])
    rows.append([tr.rules("bluffs"), tr.rules("bluffCount", count=BLUFF_CARDS), 0])
    header = [tr.rules("currency"), tr.rules("notes"), tr.rules("sum")]
    return table(tr.rules("distributionCaption"), header, rows, "money-distribution")


def serials(tr: Translator) -> str:
    pairs = [[f"FRED {number:03d}", code] for number, code in enumerate(CARD_CODES, 1)]
    header = [tr.rules("serial"), tr.rules("card")] * SERIAL_COLUMNS
    return table(tr.rules("serialsCaption"), header, in_columns(pairs, SERIAL_COLUMNS), "money-serials")
