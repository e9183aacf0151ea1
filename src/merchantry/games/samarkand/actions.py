"""Samarkand's actions and their text notation. A turn is a short sequence of small actions (ENGINE
principle 5): `marry levant`, then `discard 12` (0-2 times) and `done`; or `expand levant D5`, then
`camel E5` or `done`; a goods-sale offer is answered `sell 12` or `keep`; `pass` when nothing is possible.
A space is named by its column's letter and its row's number, as drawn on the map's edges (D5); the names
records used before (c3r4: column and row from 0) are still read. A good is its number or its name
(`discard 9` or `discard cinnamon`); the notation writes the number.
"""

from __future__ import annotations

from typing import Any, Final, NamedTuple

from merchantry.errors import IllegalAction, Reason
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


FAMILY_WORDS: Final = tuple(family.name.lower() for family in MAP.families)
FAMILY_BY_WORD: Final = {word: index for index, word in enumerate(FAMILY_WORDS)}
# a space by its name (C5) or by what older records call it (c2r4), in any case
SPACE_BY_ID: Final = {
    name.lower(): space.index for space in MAP.spaces for name in (space.id, *space.aliases)
}

MARRY: Final = tuple(SamarkandAction("marry", family=f) for f in range(len(FAMILY_WORDS)))
EXPAND: Final = tuple(
    tuple(SamarkandAction("expand", family=f, space=s) for s in range(len(MAP.spaces)))
    for f in range(len(FAMILY_WORDS))
)
CAMEL: Final = tuple(SamarkandAction("camel", space=s) for s in range(len(MAP.spaces)))
DISCARD: Final = {g: SamarkandAction("discard", good=g) for g in range(1, NUM_GOODS + 1)}
SELL: Final = {g: SamarkandAction("sell", good=g) for g in range(1, NUM_GOODS + 1)}
DONE: Final = SamarkandAction("done")
KEEP: Final = SamarkandAction("keep")
PASS: Final = SamarkandAction("pass")

# Every action the rules can offer: apply's check refuses anything else at once (a hand-made tuple included,
# whose family, space or good might point nowhere), before reading any of its fields.
EVERY_ACTION: Final = frozenset(
    (*MARRY, *(a for row in EXPAND for a in row), *CAMEL, *DISCARD.values(), *SELL.values(), DONE, KEEP, PASS)
)

GOOD_BY_NAME: Final = {name.lower(): number for number, name in enumerate(MAP.goods, 1)}
FAMILIES_SAID: Final = ", ".join(FAMILY_WORDS)
NOTATION_HELP: Final = (
    "moves look like: marry levant, discard 12 (or discard salt), done, expand levant D5, camel E5,"
    f" sell 12, keep, pass (families: {FAMILIES_SAID}; spaces: column letter and row number)"
)


def parse(text: Any) -> SamarkandAction:
    if not isinstance(text, str):
        raise IllegalAction(f"a move must be text, not {type(text).__name__}")
    words = text.lower().split()
    verb, args = (words[0], words[1:]) if words else ("", [])
    if verb in ("done", "keep", "pass") and not args:
        return SamarkandAction(verb)
    if verb == "marry" and len(args) == 1:
        return MARRY[_family(args[0], text)]
    if verb == "expand" and len(args) == 2:
        return EXPAND[_family(args[0], text)][_space(args[1], text)]
    if verb == "camel" and len(args) == 1:
        return CAMEL[_space(args[0], text)]
    if verb in ("discard", "sell") and len(args) == 1:
        return (DISCARD if verb == "discard" else SELL)[_good(args[0], text)]
    said = f"{text!r:.60}"
    message = f"{said} is not a Samarkand move; {NOTATION_HELP}"
    raise Reason("not_a_move", message, text=said, families=FAMILIES_SAID).error()


def _family(word: str, text: str) -> int:
    if word not in FAMILY_BY_WORD:
        said, name = f"{text!r:.60}", repr(word)
        message = f"{said}: there is no family {name}; {NOTATION_HELP}"
        raise Reason("no_family", message, text=said, word=name, families=FAMILIES_SAID).error()
    return FAMILY_BY_WORD[word]


def _space(word: str, text: str) -> int:
    if word not in SPACE_BY_ID:
        said, name = f"{text!r:.60}", repr(word)
        message = f"{said}: there is no space {name} on the map; {NOTATION_HELP}"
        raise Reason("no_space", message, text=said, word=name, families=FAMILIES_SAID).error()
    return SPACE_BY_ID[word]


def _good(word: str, text: str) -> int:
    if word in GOOD_BY_NAME:
        return GOOD_BY_NAME[word]
    if not word.isdigit() or not 1 <= int(word) <= NUM_GOODS:
        said, name = f"{text!r:.60}", repr(word)
        what = f"a good is its number 1..{NUM_GOODS} or its name (salt, silk...), not {name}"
        message = f"{said}: {what}; {NOTATION_HELP}"
        raise Reason(
            "no_good", message, text=said, word=name, goods=NUM_GOODS, families=FAMILIES_SAID
        ).error()
    return int(word)
