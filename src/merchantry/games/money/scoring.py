"""Final scoring of a Money hand (MO-E3..MO-E5)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from merchantry.errors import IllegalAction
from merchantry.games.money.components import (
    BLUFF,
    COIN,
    COIN_VALUE,
    COPIES,
    CURRENCIES,
    TRIO_VALUES,
)

THRESHOLD = 200  # MO-E3: a currency below this loses PENALTY points
PENALTY = 100
TRIO_BONUS = 100  # MO-E4


@dataclass(frozen=True)
class CurrencyScore:
    currency: str
    total: int  # face value of the notes held
    trios: int  # complete sets of the three 20s / three 30s
    score: int  # after the MO-E3 penalty and the MO-E4 bonus


@dataclass(frozen=True)
class HandScore:
    currencies: tuple[CurrencyScore, ...]  # only currencies the hand holds
    coins: int
    total: int


def currency_score(total: int, trios: int, penalty: int = PENALTY, trio_bonus: int = TRIO_BONUS) -> int:
    """MO-E3 then MO-E4: below 200 subtract 100 (never below 0), then add 100 per trio. `penalty` and
    `trio_bonus` are the designers' variants of those 100s (the game's options of the same names)."""
    base = total if total >= THRESHOLD else max(0, total - penalty)
    return base + trio_bonus * trios


def _count_codes(cards: Iterable[str]) -> dict[str, int]:
    # a plain dict, not a Counter: a Counter's missing key is a Python-level __missing__ call, and compiled,
    # its item access and update were generic calls
    counts: dict[str, int] = {}
    for code in cards:
        if code == BLUFF:
            continue  # MO-E5: bluff cards score 0
        copies = COPIES.get(code, 0)
        if not copies:
            raise IllegalAction(f"{code!r} is not a Money card (cards look like EUR20, JPY60, COIN, BLUFF)")
        held = counts.get(code, 0) + 1
        if held > copies:
            raise IllegalAction(f"a hand cannot hold {held} {code}: only {copies} exist")
        counts[code] = held
    return counts


def score_breakdown(cards: Iterable[str], penalty: int = PENALTY, trio_bonus: int = TRIO_BONUS) -> HandScore:
    """Score a final hand given as card codes, per currency (by the rulebook unless a variant's
    `penalty` or `trio_bonus` is given)."""
    counts = _count_codes(cards)
    # the notes held of each currency (a note's code is its currency's three letters and its value), in one
    # pass over the hand rather than one per currency
    held_of: dict[str, dict[str, int]] = {}
    for code, n in counts.items():
        if code != COIN:
            held_of.setdefault(code[:3], {})[code] = n
    per_currency = []
    for cur in CURRENCIES:
        held = held_of.get(cur)
        if held is None:
            continue
        total = 0
        for code, n in held.items():
            total += int(code[3:]) * n
        trios = 0
        for value in TRIO_VALUES:
            if held.get(f"{cur}{value}", 0) == 3:
                trios += 1
        per_currency.append(
            CurrencyScore(cur, total, trios, currency_score(total, trios, penalty, trio_bonus))
        )
    coins = counts.get(COIN, 0) * COIN_VALUE  # MO-E5: coins always count, and are no currency
    total = coins
    for currency in per_currency:
        total += currency.score
    return HandScore(tuple(per_currency), coins, total)


def score_hand(cards: list[str]) -> int:
    """The final score of a hand of card codes, e.g. the MO-X1 hand scores 450."""
    return score_breakdown(cards).total
