"""Money's actions and their text notation.

Bidding (MO-R1) is built card by card (ENGINE principle 5): `add EUR20` moves one card from hand into
the sealed bid, `remove EUR20` takes one back out before sealing, `bid` seals it. An exchange (MO-R6) is
one of `take right`, `take left`, `take P3` (the bid in front of seat P3) or `keep` (take your own bid
back).
"""

from __future__ import annotations

from typing import Any, Final, NamedTuple

from merchantry.engine import seat_label
from merchantry.errors import IllegalAction, Reason
from merchantry.games.money.components import ALL_CODES, BLUFF

MAX_PLAYERS: Final = 5
RIGHT, LEFT = 0, 1
GROUP_NAMES: Final = ("right", "left")


class MoneyAction(NamedTuple):
    verb: str  # "add" | "remove" | "bid" | "take" | "keep"
    arg: str = ""  # a card code for add; "right", "left" or a seat label for take

    def __str__(self) -> str:
        return f"{self.verb} {self.arg}" if self.arg else self.verb


SEAL: Final = MoneyAction("bid")
KEEP: Final = MoneyAction("keep")
ADD: Final = {code: MoneyAction("add", code) for code in ALL_CODES + (BLUFF,)}
REMOVE: Final = {code: MoneyAction("remove", code) for code in ALL_CODES + (BLUFF,)}
# The same, indexed by display rank (components.CARD_RANK): ADD_BY_RANK[CARD_RANK[card]] adds that card.
ADD_BY_RANK: Final = tuple(ADD[code] for code in ALL_CODES)
REMOVE_BY_RANK: Final = tuple(REMOVE[code] for code in ALL_CODES)
TAKE_GROUP: Final = (MoneyAction("take", "right"), MoneyAction("take", "left"))
TAKE_BID: Final = tuple(MoneyAction("take", seat_label(seat)) for seat in range(MAX_PLAYERS))

# Every action of the game by its canonical text (lower-cased for lookup).
_BY_TEXT: Final = {
    str(a).lower(): a for a in [SEAL, KEEP, *ADD.values(), *REMOVE.values(), *TAKE_GROUP, *TAKE_BID]
}

NOTATION_HELP: Final = (
    "moves look like: add EUR20, add COIN, add BLUFF, remove EUR20, bid, take right, take left, take P2, keep"
)


def parse(text: Any, num_players: int) -> MoneyAction:
    """Text -> action (case and spacing are free); raises IllegalAction for text that is no Money move."""
    if not isinstance(text, str):
        raise IllegalAction(f"a move must be text, not {type(text).__name__}")
    key = " ".join(text.split()).lower()
    action = _BY_TEXT.get(key)
    if action is None:
        said = f"{text!r:.60}"
        raise Reason("not_a_move", f"{said} is not a Money move; {NOTATION_HELP}", text=said).error()
    if action in TAKE_BID and TAKE_BID.index(action) >= num_players:
        said = f"{text!r:.60}"
        message = f"{said}: there is no seat {action.arg} in a {num_players}-player game"
        raise Reason("no_seat_for_players", message, text=said, label=action.arg, players=num_players).error()
    return action
