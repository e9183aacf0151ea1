"""Grand Bazaar as numbers for reinforcement learning (merchantry.rl.encoding).

Actions (7, any player count): `buy sapphire`, `buy ruby`, `buy emerald`, `sell sapphire`, `sell ruby`,
`sell emerald`, `done`.

Observation (60 numbers, any player count; seats are relative: slot 0 is the observer, slot 1 the next seat
clockwise, ...; slots past the player count are 0):
- round / 27; 1 if it is the observer's turn;
- the round's opener, one-hot over 7 relative slots;
- each gem's price / 19;
- each gem's stock in the bazaar / 20;
- each gem's mean price change over the unrevealed price cards, and unrevealed cards / 27 (GB-I1: public);
- per relative seat (7 slots): present, its gems of each type / 4, its cash / 100;
- this turn: gems bought (3 flags), gems sold (3 flags).
"""

from __future__ import annotations

from typing import Any

from merchantry.games.grand_bazaar.actions import BUY, DONE, SELL
from merchantry.games.grand_bazaar.components import GEMS, ROUNDS
from merchantry.rl.encoding import one_hot, relative

SLOTS = 7  # the most players


class GrandBazaarEncoding:
    def actions(self, players: int) -> list[str]:
        return [str(a) for a in (*BUY, *SELL, DONE)]

    def observation_size(self, players: int) -> int:
        return 2 + SLOTS + 3 * len(GEMS) + 1 + SLOTS * (1 + len(GEMS) + 1) + 2 * len(GEMS)

    def observe(self, view: dict[str, Any], players: int) -> list[float]:
        me = view["seat"] or 0
        remaining = view["remaining_cards"]
        out = [view["round"] / ROUNDS, 1.0 if view["current"] == me else 0.0]
        out += one_hot(relative(view["opener"], me, players), SLOTS)
        out += [price / 19 for price in view["prices"]]
        out += [stock / 20 for stock in view["stock"]]
        out += [
            sum(card[g] for card in remaining) / len(remaining) if remaining else 0.0
            for g in range(len(GEMS))
        ]
        out.append(len(remaining) / ROUNDS)
        slots = [[0.0] * (2 + len(GEMS)) for _ in range(SLOTS)]
        for row in view["holdings"]:
            slots[relative(row["seat"], me, players)] = [
                1.0,
                *(n / 4 for n in row["gems"]),
                row["cash"] / 100,
            ]
        out += [x for slot in slots for x in slot]
        out += [1.0 if gem in view["turn"]["bought"] else 0.0 for gem in GEMS]
        out += [1.0 if gem in view["turn"]["sold"] else 0.0 for gem in GEMS]
        return out


ENCODING = GrandBazaarEncoding()
