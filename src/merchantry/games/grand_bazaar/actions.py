"""Grand Bazaar's actions: `buy ruby`, `sell emerald`, `done` (GB-R7: a turn is a sequence of these)."""

from __future__ import annotations

from typing import Any, Final, NamedTuple

from merchantry.errors import IllegalAction, Reason
from merchantry.games.grand_bazaar.components import GEMS


class BazaarAction(NamedTuple):
    verb: str  # "buy" | "sell" | "done"
    gem: int = -1  # index into GEMS

    def __str__(self) -> str:
        return f"{self.verb} {GEMS[self.gem]}" if self.gem >= 0 else self.verb


BUY: Final = tuple(BazaarAction("buy", g) for g in range(len(GEMS)))
SELL: Final = tuple(BazaarAction("sell", g) for g in range(len(GEMS)))
DONE: Final = BazaarAction("done")
_BY_TEXT: Final = {str(a): a for a in (*BUY, *SELL, DONE)}
NOTATION_HELP: Final = f"moves look like: buy ruby, sell emerald, done (gems: {', '.join(GEMS)})"


def parse(text: Any) -> BazaarAction:
    if not isinstance(text, str):
        raise IllegalAction(f"a move must be text, not {type(text).__name__}")
    action = _BY_TEXT.get(" ".join(text.split()).lower())
    if action is None:
        said = f"{text!r:.60}"
        message = f"{said} is not a Grand Bazaar move; {NOTATION_HELP}"
        raise Reason("not_a_move", message, text=said, gems=", ".join(GEMS)).error()
    return action
