"""Money as numbers for reinforcement learning (merchantry.rl.encoding).

Actions (76 + players): `add CODE` and `remove CODE` for each of the 36 card codes and BLUFF, `bid`
(seal), `keep`, `take right`, `take left`, and `take P1` .. `take Pn` (seats by their absolute label: the
observation says which seat the observer is).

Observation (571 numbers; other seats are relative: slot 0 is the observer, slot 1 the next seat clockwise,
...; slots past the player count are 0). A "card vector" counts each of the 37 codes (36 + BLUFF), / 4:
- the phase, one-hot (bidding, exchange, over); round / 20; 1 in the final round; deck / 50;
- the currencies left out (MO-S1), a flag per currency; the observer's seat, one-hot over 5;
- card vectors of the observer's hand, the observer's sealed bid (while bidding), the right and the left
  market group;
- per relative seat (5 x 81): present, cards in hand / 15, bid sealed, acted in the exchange, is acting now,
  place in the exchange order / 5, its revealed bid (card vector) and bid value / 500, and its public cards
  (card vector). A sealed bid is never shown before all are revealed (MO-R1): `view(seat)` hides it.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from merchantry.engine import seat_label
from merchantry.games.money.actions import ADD, KEEP, REMOVE, SEAL, TAKE_GROUP
from merchantry.games.money.components import ALL_CODES, BLUFF, CURRENCIES
from merchantry.games.money.rules import PHASE_NAMES
from merchantry.rl.encoding import one_hot, relative

SLOTS = 5
CODES = (*ALL_CODES, BLUFF)
PER_SEAT = 6 + len(CODES) + 1 + len(CODES)


def cards(codes: list[str] | None) -> list[float]:
    counts = Counter(codes or [])
    return [counts[code] / 4 for code in CODES]


class MoneyEncoding:
    def actions(self, players: int) -> list[str]:
        takes = [f"take {seat_label(seat)}" for seat in range(players)]
        return [
            *(str(ADD[code]) for code in CODES),
            *(str(REMOVE[code]) for code in CODES),
            str(SEAL),
            str(KEEP),
            *(str(a) for a in TAKE_GROUP),
            *takes,
        ]

    def observation_size(self, players: int) -> int:
        return len(PHASE_NAMES) + 3 + len(CURRENCIES) + SLOTS + 4 * len(CODES) + SLOTS * PER_SEAT

    def observe(self, view: dict[str, Any], players: int) -> list[float]:
        me = view["seat"] or 0
        out = one_hot(PHASE_NAMES.index(view["phase"]), len(PHASE_NAMES))
        out += [view["round"] / 20, float(view["final_round"]), view["deck"] / 50]
        out += [1.0 if currency in view["removed_currencies"] else 0.0 for currency in CURRENCIES]
        out += one_hot(me, SLOTS)
        out += cards(view.get("hand")) + cards(view.get("my_bid"))
        out += cards(view["market"]["right"]) + cards(view["market"]["left"])
        order = view["order"]
        slots = [[0.0] * PER_SEAT for _ in range(SLOTS)]
        for row in view["seats"]:
            seat = row["seat"]
            slots[relative(seat, me, players)] = [
                1.0,
                row["hand_size"] / 15,
                float(bool(row.get("sealed"))),
                float(bool(row.get("acted"))),
                float(view["current"] == seat),
                (order.index(seat) + 1) / SLOTS if seat in order else 0.0,
                *cards(row.get("bid")),
                (row.get("bid_value") or 0) / 500,
                *cards(row["known"]),
            ]
        out += [x for slot in slots for x in slot]
        return out


ENCODING = MoneyEncoding()
