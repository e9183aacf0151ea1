"""Samarkand's actions and their text notation. A turn is a short sequence of small actions (ENGINE
principle 5): `marry levant`, then `discard 12` (0-2 times) and `done`; or `expand levant c3r4`, then
`camel c4r4` or `done`; a goods-sale offer is answered `sell 12` or `keep`; `pass` when nothing is possible.
"""

from __future__ import annotations

from typing import NamedTuple

from merchantry.errors import IllegalAction
from merchantry.games.samarkand.components import MAP, NUM_GOODS


class SamarkandAction(NamedTuple):
    verb: str  # marry | expand | camel | discard | done | sell | keep | pass
    family: int = -1  # marry, expand
    space: int = -1  # expand, camel
    good: int = 0  # discard, sell: 1..33

    def __str__(self) -> str:
        parts = [self.verb]
        if self.family >= 0:
            parts.append(FAMILY_WORDS[self.family])
        if self.space >= 0:
            parts.append(MAP.spaces[self.space].id)
        if self.good:
            parts.append(str(self.good))
        return " ".join(parts)


FAMILY_WORDS = tuple(family.name.lower() for family in MAP.families)
FAMILY_BY_WORD = {word: index for index, word in enumerate(FAMILY_WORDS)}
SPACE_BY_ID = {space.id.lower(): space.index for space in MAP.spaces}

MARRY = tuple(SamarkandAction("marry", family=f) for f in range(len(FAMILY_WORDS)))
EXPAND = tuple(
    tuple(SamarkandAction("expand", family=f, space=s) for s in range(len(MAP.spaces)))
    for f in range(len(FAMILY_WORDS))
)
CAMEL = tuple(SamarkandAction("camel", space=s) for s in range(len(MAP.spaces)))
DISCARD = {g: SamarkandAction("discard", good=g) for g in range(1, NUM_GOODS + 1)}
SELL = {g: SamarkandAction("sell", good=g) for g in range(1, NUM_GOODS + 1)}
DONE = SamarkandAction("done")
KEEP = SamarkandAction("keep")
PASS = SamarkandAction("pass")

NOTATION_HELP = (
    "moves look like: marry levant, discard 12, done, expand levant c3r4, camel c4r4, sell 12, keep, pass"
    f" (families: {', '.join(FAMILY_WORDS)})"
)


def parse(text: str) -> SamarkandAction:
    if not isinstance(text, str):
        raise IllegalAction(f"a move must be text, not {type(text).__name__}")
    words = text.lower().split()
    verb, args = (words[0], words[1:]) if words else ("", [])
    try:
        if verb in ("done", "keep", "pass") and not args:
            return SamarkandAction(verb)
        if verb == "marry" and len(args) == 1:
            return MARRY[_family(args[0])]
        if verb == "expand" and len(args) == 2:
            return EXPAND[_family(args[0])][_space(args[1])]
        if verb == "camel" and len(args) == 1:
            return CAMEL[_space(args[0])]
        if verb in ("discard", "sell") and len(args) == 1:
            return (DISCARD if verb == "discard" else SELL)[_good(args[0])]
    except IllegalAction as reason:
        raise IllegalAction(f"{text!r:.60}: {reason}; {NOTATION_HELP}") from None
    raise IllegalAction(f"{text!r:.60} is not a Samarkand move; {NOTATION_HELP}")


def _family(word: str) -> int:
    if word not in FAMILY_BY_WORD:
        raise IllegalAction(f"there is no family {word!r}")
    return FAMILY_BY_WORD[word]


def _space(word: str) -> int:
    if word not in SPACE_BY_ID:
        raise IllegalAction(f"there is no space {word!r} on the map")
    return SPACE_BY_ID[word]


def _good(word: str) -> int:
    if not word.isdigit() or not 1 <= int(word) <= NUM_GOODS:
        raise IllegalAction(f"goods are numbered 1..{NUM_GOODS}, not {word!r}")
    return int(word)
