"""Byzanz's actions and their text notation.

Auctions (BZ-A4) are built from small steps: `add wine3` puts a card from hand into your bid, `bid`
confirms it (the total must beat the highest bid), `pass` leaves the auction. The winner of a lot puts one
of its cards into the market with `market wood1`. At the market a player takes a type: `take wood`,
`take merchant`. Any player may `sell cloth4 cloth1 cloth1` at any time (BZ-V3); over the hand limit
a player may `discard wine3` (BZ-H1). In the final selling phase a player ends with `done` (BZ-E1).
"""

from __future__ import annotations

from functools import cache
from typing import Any, Final, NamedTuple

from merchantry.errors import IllegalAction, Reason
from merchantry.games.byzanz.components import (
    CODE_VALUE,
    CODES,
    MERCHANT,
    MERCHANT_NAME,
    NUM_CODES,
    TYPES,
    code_of,
    set_profit,
    type_of,
)


class ByzanzAction(NamedTuple):
    verb: str  # add | bid | pass | market | take | sell | discard | done
    arg: str = ""  # canonical text of the card(s) or type
    codes: tuple[int, ...] = ()  # the card codes (for take: the type index, -1 for merchants)

    def __str__(self) -> str:
        return f"{self.verb} {self.arg}" if self.arg else self.verb


BID: Final = ByzanzAction("bid")
PASS: Final = ByzanzAction("pass")
DONE: Final = ByzanzAction("done")
ADD: Final = tuple(ByzanzAction("add", CODES[c], (c,)) for c in range(NUM_CODES))
DISCARD: Final = tuple(ByzanzAction("discard", CODES[c], (c,)) for c in range(NUM_CODES))
TO_MARKET: Final = tuple(ByzanzAction("market", CODES[c], (c,)) for c in range(NUM_CODES))
TAKE: Final = {
    t: ByzanzAction("take", TYPES[t] if t >= 0 else MERCHANT_NAME, (t,)) for t in range(-1, len(TYPES))
}


def set_order(code: int) -> tuple[bool, int, int]:
    """Goods first, highest value first, merchants last: 'sell cloth4 cloth1 merchant'."""
    return (code == MERCHANT, -CODE_VALUE[code], code)


@cache
def sell(codes: tuple[int, ...]) -> ByzanzAction:
    """The sale of a set, in canonical order (raises IllegalAction if it is not a set)."""
    ordered = tuple(sorted(codes, key=set_order))
    set_profit(list(ordered))
    return ByzanzAction("sell", " ".join(CODES[c] for c in ordered), ordered)


NOTATION_HELP: Final = (
    "moves look like: add wine3, bid, pass, market wood1, take wood, take merchant, "
    "sell cloth4 cloth1 merchant, discard wine3, done"
)
_SINGLE_CARD: Final = {"add": ADD, "discard": DISCARD, "market": TO_MARKET}


def parse(text: Any) -> ByzanzAction:
    if not isinstance(text, str):
        raise IllegalAction(f"a move must be text, not {type(text).__name__}")
    words = text.lower().split()
    if not words:
        raise Reason("empty_move", f"an empty move; {NOTATION_HELP}").error()
    verb, rest = words[0], words[1:]
    if verb in ("bid", "pass", "done") and not rest:
        return {"bid": BID, "pass": PASS, "done": DONE}[verb]
    if verb in _SINGLE_CARD and len(rest) == 1:
        return _SINGLE_CARD[verb][code_of(rest[0])]
    if verb == "take" and len(rest) == 1:
        return TAKE[type_of(rest[0])]
    if verb == "sell" and len(rest) == 3:
        return sell(tuple(code_of(word) for word in rest))
    said = f"{text!r:.60}"
    raise Reason("not_a_move", f"{said} is not a Byzanz move; {NOTATION_HELP}", text=said).error()
