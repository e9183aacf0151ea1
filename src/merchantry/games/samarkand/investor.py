"""The `investor` Samarkand bot: greedy's judgement plus what the family tiles it holds may still earn. It is
the policy the `medium` and `hard` levels' searches start from (levels.py).

Greedy values a marriage by the goods cards it may score and pays its cost with regret; it sees nothing of
what the tile earns later. Yet every first meeting of a family pays each holder of its tile: 3 dirhams when
that family's camel arrives, 1 when another's arrives on it (SK-R2), whoever expands. A family can still
have as many first meetings as it has families it has not met, and no more than the relationship markers
left on its domain (its fifth ends the game, SK-E1). The investor counts each of those meetings at
`MEETING_WORTH` points for each family whose tile it holds, so it marries earlier and more often, keeps
its families' meetings for later where greedy spends them at once, and leaves alone families whose
meetings are used up.

Against three greedy bots (4 players, seats rotated) it wins about half the games where greedy wins 26%,
with a higher mean score (1,000 games on each of two seeds; docs/bots.md): `MEETING_WORTH` was chosen on such
runs (0.5: 37%, 0.8: 44%, 1.0: 50-51%, 1.2: 48%, 1.5: 34%, 2: 9%).
"""

from __future__ import annotations

import random

from merchantry.engine import State
from merchantry.games.samarkand.actions import SamarkandAction
from merchantry.games.samarkand.greedy import best_by_one_look, judge
from merchantry.games.samarkand.rules import FAMILIES, SamarkandState

MEETING_WORTH = 1.0  # points per first meeting still possible for a family whose tile the seat holds
ALL_FAMILIES = (1 << len(FAMILIES)) - 1


def meetings_ahead(state: SamarkandState, family: int) -> int:
    """First meetings `family` may still have: families it has not met, at most its markers left."""
    unmet = ALL_FAMILIES & ~state.met[family] & ~(1 << family)
    return min(state.stack[family], unmet.bit_count())


def invested(state: SamarkandState, seat: int) -> float:
    """Greedy's judgement of the seat plus the meetings still ahead of the families it holds."""
    held = state.tiles_held[seat]
    ahead = sum(meetings_ahead(state, family) for family in FAMILIES if held[family])
    return judge(state, seat) + MEETING_WORTH * ahead


class SamarkandInvestorBot:
    name = "investor"

    def choose(self, world: State, seat: int, rng: random.Random) -> SamarkandAction:
        assert isinstance(world, SamarkandState)
        return best_by_one_look(world, seat, rng, invested)
