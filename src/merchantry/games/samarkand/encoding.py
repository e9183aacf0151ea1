"""Samarkand as numbers for reinforcement learning (merchantry.rl.encoding).

Actions (926, any player count), by notation: `marry F` (10 families), `expand F S` (10 x 77 spaces),
`camel S` (77), `discard G` (33 goods), `sell G` (33), `done`, `keep`, `pass`.

Observation (1,085 numbers; seats are relative: slot 0 is the observer, slot 1 the next seat clockwise, ...;
slots past the player count are 0):
- the phase, one-hot (act, discard, offer, second, over); 1 if it is the observer's turn; 1 if the observer
  must answer a sale offer;
- the first player and the current player, one-hot over 5 relative slots; turn / 100;
- the map: for every space and family, 1 if a camel of that family stands there (77 x 10);
- per family (10 x 7): cost / 6, treasury / 10, camels left / 11, tiles on its domain / 2, relationship
  markers left / 5, families met / 9, tiles of it the observer holds / 2;
- per relative seat (5 x 16): present, dirhams / 50, cards in hand / 10, sold cards / 10, goods markers / 10,
  relationship markers / 10, and its tiles per family (10);
- the observer's hand: per good, 1 if held (33), and the card's worth now / 8 (33);
- sold cards, face up: per good, 1 if sold by anyone (33);
- the good on sale, one-hot (33); the expanding family, one-hot (10); camels placed this turn / 2;
  cards discarded this turn / 2;
- deck / 33, discard pile / 33, tiles in the bag / 10.
Only `view(seat)` is read: other seats' hands appear only as their sizes.
"""

from __future__ import annotations

from typing import Any

from merchantry.games.samarkand.actions import CAMEL, DISCARD, DONE, EXPAND, KEEP, MARRY, PASS, SELL
from merchantry.games.samarkand.components import MAP, NUM_GOODS
from merchantry.games.samarkand.rules import PHASES
from merchantry.rl.encoding import one_hot, relative

SLOTS = 5  # the most players
FAMILY_INDEX = {family.name: family.index for family in MAP.families}
FAMILIES, SPACES = len(MAP.families), len(MAP.spaces)


class SamarkandEncoding:
    def actions(self, players: int) -> list[str]:
        every = [*MARRY, *(a for row in EXPAND for a in row), *CAMEL, *DISCARD.values(), *SELL.values()]
        return [str(a) for a in (*every, DONE, KEEP, PASS)]

    def observation_size(self, players: int) -> int:
        return len(self.observe(_empty_view(), SLOTS))

    def observe(self, view: dict[str, Any], players: int) -> list[float]:
        me = view["seat"] or 0
        offer = view["offer"]
        out = one_hot(PHASES.index(view["phase"]), len(PHASES))
        out += [float(view["current"] == me), float(bool(offer) and not offer["answered"])]
        out += one_hot(relative(view["first_player"], me, players), SLOTS)
        current = view["current"]
        out += one_hot(None if current is None else relative(current, me, players), SLOTS)
        out.append(view["turn"] / 100)
        for present in view["camels"]:
            out += [1.0 if f in present else 0.0 for f in range(FAMILIES)]
        for family in view["families"]:
            mine = sum(1 for seat in family["held_by"] if seat == me)
            out += [
                family["cost"] / 6,
                family["treasury"] / 10,
                family["camels_left"] / 11,
                family["domain_tiles"] / 2,
                family["markers_left"] / 5,
                len(family["met"]) / 9,
                mine / 2,
            ]
        slots = [[0.0] * (6 + FAMILIES) for _ in range(SLOTS)]
        for row in view["seats"]:
            tiles = [0.0] * FAMILIES
            for name in row["tiles"]:
                tiles[FAMILY_INDEX[name]] += 1.0
            slots[relative(row["seat"], me, players)] = [
                1.0,
                row["money"] / 50,
                row["hand_size"] / 10,
                len(row["sold"]) / 10,
                row["goods_markers"] / 10,
                row["relation_markers"] / 10,
                *tiles,
            ]
        out += [x for slot in slots for x in slot]
        held, worth = [0.0] * NUM_GOODS, [0.0] * NUM_GOODS
        for card in view["hand"] or []:
            held[card["good"] - 1] = 1.0
            worth[card["good"] - 1] = card["points"] / 8
        sold = [0.0] * NUM_GOODS
        for row in view["seats"]:
            for good in row["sold"]:
                sold[good - 1] = 1.0
        out += held + worth + sold
        out += one_hot(offer["good"] - 1 if offer else None, NUM_GOODS)
        expanding = view["expanding"]
        out += one_hot(FAMILY_INDEX[expanding] if expanding else None, FAMILIES)
        out += [view["camels_placed"] / 2, view["discarded"] / 2]
        out += [view["deck_size"] / NUM_GOODS, view["discard_size"] / NUM_GOODS, view["bag_size"] / 10]
        return out


def _empty_view() -> dict[str, Any]:
    """A view of the right shape, for counting the observation's numbers."""
    family = {
        "cost": 0,
        "treasury": 0,
        "camels_left": 0,
        "domain_tiles": 0,
        "markers_left": 0,
        "met": [],
        "held_by": [],
    }
    return {
        "seat": 0,
        "phase": "act",
        "current": 0,
        "offer": None,
        "first_player": 0,
        "turn": 1,
        "camels": [[] for _ in range(SPACES)],
        "families": [family] * FAMILIES,
        "seats": [],
        "hand": [],
        "expanding": None,
        "camels_placed": 0,
        "discarded": 0,
        "deck_size": 0,
        "discard_size": 0,
        "bag_size": 0,
    }


ENCODING = SamarkandEncoding()
