"""Byzanz's cards, loaded once from data and shared by every state.

Identical cards are interchangeable (no serials), so a card is its code index: goods type t and value v
is `t * 4 + (v - 1)` ("cloth1" .. "olive4"), and the merchant is the last code. Hands, bids and the market
are counts per code, which keeps states flat and cheap to copy.
"""

from __future__ import annotations

from typing import Any, Final

from merchantry.engine import load_data
from merchantry.errors import Reason

_DATA: Final = load_data(__package__, "cards.json")

TYPES: Final[tuple[str, ...]] = tuple(_DATA["types"])
VALUES: Final[tuple[int, ...]] = tuple(sorted(int(v) for v in _DATA["cards_per_value"]))
COPIES_PER_VALUE: Final[dict[int, int]] = {int(v): n for v, n in _DATA["cards_per_value"].items()}
MERCHANT_COUNT: Final[int] = _DATA["merchants"]
MERCHANT_PROFIT: Final[int] = _DATA["merchant_profit"]
STARTING_HAND: Final[int] = _DATA["starting_hand"]
HAND_LIMIT: Final[int] = _DATA["hand_limit"]
SETUP: Final[dict[int, dict[str, Any]]] = {int(n): row for n, row in _DATA["setup"].items()}
MERCHANT_NAME: Final = "merchant"

# code index -> text, type index (-1 for the merchant), face value (0 for the merchant)
CODES: Final[tuple[str, ...]] = tuple(f"{t}{v}" for t in TYPES for v in VALUES) + (MERCHANT_NAME,)
MERCHANT: Final = len(CODES) - 1
CODE_TYPE: Final[tuple[int, ...]] = tuple(i // len(VALUES) for i in range(MERCHANT)) + (-1,)
CODE_VALUE: Final[tuple[int, ...]] = tuple(VALUES[i % len(VALUES)] for i in range(MERCHANT)) + (0,)
CODE_INDEX: Final[dict[str, int]] = {code: i for i, code in enumerate(CODES)}
NUM_CODES: Final = len(CODES)
COPIES: Final[tuple[int, ...]] = tuple(COPIES_PER_VALUE[CODE_VALUE[i]] for i in range(MERCHANT)) + (
    MERCHANT_COUNT,
)


def full_deck() -> list[int]:
    """BZ-C1, BZ-C2: every goods card and merchant, as code indices."""
    return [code for code in range(NUM_CODES) for _ in range(COPIES[code])]


def code_of(text: str) -> int:
    try:
        return CODE_INDEX[text.strip().lower()]
    except KeyError:
        said = f"{text!r:.60}"
        message = f"{said} is not a Byzanz card (cards look like wine3, cloth1, merchant)"
        raise Reason("not_a_card", message, text=said).error() from None


def type_of(text: str) -> int:
    """A market pick names a goods type, or merchants as a type of their own (BZ-M1)."""
    name = text.strip().lower()
    if name == MERCHANT_NAME:
        return -1
    if name in TYPES:
        return TYPES.index(name)
    said, types = f"{text!r:.60}", ", ".join(TYPES)
    raise Reason(
        "not_a_type", f"{said} is not a goods type: {types} or merchant", text=said, types=types
    ).error()


def profit_points(code: int) -> int:
    """BZ-E2: a goods profit card scores its value, a merchant profit card 5."""
    return MERCHANT_PROFIT if code == MERCHANT else CODE_VALUE[code]


def set_profit(codes: list[int]) -> int:
    """BZ-V1, BZ-V2: the profit card a set of three keeps; raises IllegalAction for anything else."""
    if len(codes) != 3:
        size = len(codes)
        raise Reason("set_size", f"a set is exactly three cards, not {size}", number=size).error()
    goods = [c for c in codes if c != MERCHANT]
    if not goods:
        return MERCHANT  # three merchants keep one merchant
    if len({CODE_TYPE[c] for c in goods}) != 1:
        cards = [CODES[c] for c in codes]
        message = f"{' '.join(cards)} is not a set: three cards of one goods type, merchants as jokers"
        raise Reason("not_a_set", message, cards=cards).error()
    return max(goods, key=lambda c: CODE_VALUE[c])


def sale_profit(cards: list[str]) -> int:
    """The points a set of three cards sells for: ["cloth4","cloth1","cloth1"] -> 4, three merchants -> 5."""
    return profit_points(set_profit([code_of(c) for c in cards]))
