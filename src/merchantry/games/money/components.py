"""Money's cards, loaded once from data files and shared by every state (ENGINE principle 4 and 6).

A valued card (banknote or coin) is identified by its index in the serial table: card id 0 is serial
FRED 001 (MO-C4), so comparing ids compares serial numbers. Bluff cards (MO-C3) carry no serial and are
tracked apart, one per player.
"""

from __future__ import annotations

from collections import Counter
from typing import Final

from merchantry.engine import load_data

BLUFF: Final = "BLUFF"
COIN: Final = "COIN"


_CARDS: Final = load_data(__package__, "cards.json")
_SERIALS: Final = load_data(__package__, "serials.json")

CURRENCY_NAMES: Final[dict[str, str]] = dict(_CARDS["currencies"])
CURRENCIES: Final[tuple[str, ...]] = tuple(sorted(CURRENCY_NAMES))
NOTE_VALUES: Final[tuple[int, ...]] = tuple(_CARDS["note_values"])
COIN_COUNT: Final[int] = _CARDS["coins"]
COIN_VALUE: Final[int] = _CARDS["coin_value"]
BLUFF_CARDS: Final[int] = _CARDS["bluff_cards"]  # one per player at most (MO-S2)
TRIO_VALUES: Final = (20, 30)  # MO-E4: the values printed on three notes of every currency


def _code_value(code: str) -> int:
    return COIN_VALUE if code == COIN else int(code[3:])


def _code_currency(code: str) -> str | None:
    return None if code == COIN else code[:3]


# Per card id (serial order): code, face value, currency (None for coins).
CARD_CODES: Final[tuple[str, ...]] = tuple(_SERIALS["serials"])
CARD_VALUES: Final[tuple[int, ...]] = tuple(_code_value(code) for code in CARD_CODES)
CARD_CURRENCY: Final[tuple[str | None, ...]] = tuple(_code_currency(code) for code in CARD_CODES)
NUM_CARDS: Final = len(CARD_CODES)

# How many copies of each code exist (three EUR20, one EUR60, six COIN, ...).
COPIES: Final[Counter[str]] = Counter(CARD_CODES)

# Every code a valued card can have, in display order: by currency, then value; coins last.
ALL_CODES: Final[tuple[str, ...]] = tuple(
    [f"{cur}{value}" for cur in CURRENCIES for value in sorted(set(NOTE_VALUES))] + [COIN]
)
_DISPLAY_RANK: Final = {code: rank for rank, code in enumerate(ALL_CODES + (BLUFF,))}


def display_key(code: str) -> int:
    """Sort key that groups a hand by currency, then value, coins and bluff last."""
    return _DISPLAY_RANK[code]


# Each card id's display rank: sorting ranks as plain ints sorts cards as display_key does, much faster.
CARD_RANK: Final[tuple[int, ...]] = tuple(_DISPLAY_RANK[code] for code in CARD_CODES)


def serial_of(card: int) -> str:
    """The printed-style serial of a card id: FRED 001 for id 0."""
    return f"FRED {card + 1:03d}"


def check_tables() -> None:
    """The serial table holds exactly the banknotes of MO-C1 and the coins of MO-C2."""
    expected = Counter({f"{cur}{v}": NOTE_VALUES.count(v) for cur in CURRENCIES for v in set(NOTE_VALUES)})
    expected[COIN] = COIN_COUNT
    if expected != COPIES:
        raise RuntimeError("money serials.json does not match cards.json")


check_tables()
