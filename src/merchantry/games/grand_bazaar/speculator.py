"""The `speculator` Grand Bazaar bot: while behind, it takes the risk it needs to catch the leader; while
ahead, it trades as the others do. It is the policy the levels' search starts from (levels.py).

Greedy players read the price cards the same way, hold about the same gems, and their fortunes move
together; the game between them is decided by a couple of grands. A player who holds what the leader holds
keeps their distance whatever the next price card says, so a player behind must hold something else, and
how much else is a matter of risk:
- **Ahead** by at least `LEAD` grands of every other seat (cash plus 10 per gem, as at the end: GB-E1), it
  plays greedy's moves, so that the prices move its worth as they move the others' and the lead holds.
- **Otherwise** it chooses the whole holding it will carry into the next price card (at most 4 gems, what
  the bazaar has, what its cash and this turn's sales pay for, GB-R4..GB-R6, and at least one buy, GB-R3)
  to maximise its expected gain on that card plus `RISK` times the standard deviation of its gain *against
  the leader's holding*. Both come from the price cards left, which are public (GB-I1 hides only their
  order): the next card is any of them with equal chance. Greedy instead sells only what it expects to
  fall and, once full, never swaps a gem that will rise a little for one that will rise more.
It then sells (worst prospect first) and buys (best prospect first) its way to that holding, one step per
call, and ends the turn there.

Against three greedy bots (4 players, seats rotated) it wins about 44% of games, where greedy wins 26% and
the `trader` 38% (3,000 games on each of two seeds; docs/bots.md), though its mean score is a little lower
than theirs: it trades points for the chance to overtake.
"""

from __future__ import annotations

import functools
import itertools
import math
import random
from collections.abc import Sequence

from merchantry.engine import State
from merchantry.games.grand_bazaar.actions import BUY, DONE, SELL, BazaarAction
from merchantry.games.grand_bazaar.components import GEM_LIMIT, GEMS, PRICE_CARDS
from merchantry.games.grand_bazaar.greedy import GrandBazaarGreedyBot, make_room_or_end
from merchantry.games.grand_bazaar.rules import GEM_RANGE, NO_FLAGS, BazaarState
from merchantry.games.grand_bazaar.trader import ahead

RISK = 0.12  # grands of expected gain given up for one grand of standard deviation against the leader
LEAD = 1  # grands ahead of every other seat from which it plays as the others do

Holding = tuple[int, ...]  # gems per type
HOLDINGS: tuple[Holding, ...] = tuple(
    counts for counts in itertools.product(range(GEM_LIMIT + 1), repeat=len(GEMS)) if sum(counts) <= GEM_LIMIT
)


class GrandBazaarSpeculatorBot:
    name = "speculator"

    def __init__(self, predict: bool = False) -> None:
        self.greedy = GrandBazaarGreedyBot()
        self.predict = predict  # judge against the leader's holding after its turn (rival_holding)

    def choose(self, world: State, seat: int, rng: random.Random) -> BazaarAction:
        assert isinstance(world, BazaarState)
        if ahead(world, seat, LEAD):
            return self.greedy.choose(world, seat, rng)
        statistics = next_card_statistics(frozenset(world.deck))
        return step_towards(world, seat, best_holding(world, seat, statistics, self.predict), statistics[0])


Statistics = tuple[list[float], list[list[float]]]  # each gem's mean change on the next card; covariance


def best_holding(world: BazaarState, seat: int, statistics: Statistics, predict: bool = False) -> Holding:
    """The holding this turn can still reach that is best by expected gain plus `RISK` × spread against the
    leader; one with a buy whenever one can buy (GB-R3); the fewest trades among equals. `statistics`:
    `next_card_statistics` of the cards left; `predict`: the leader's holding as `rival_holding` has it."""
    worth = merits(statistics, rival_holding(world, seat, predict))
    bought_any = world.bought_any
    best, best_merit = world.gems[seat], (False, -math.inf, 0)
    for holding, buys, trades in reachable(world, seat):  # in the order of HOLDINGS: the first of equals wins
        value = worth.get(holding)
        if value is None:
            value = worth[holding] = merit_of(holding, statistics, worth.rival)
        merit = (buys or bought_any, value, -trades)
        if merit > best_merit:
            best, best_merit = holding, merit
    return best


def reachable(world: BazaarState, seat: int) -> list[tuple[Holding, bool, int]]:
    """The holdings this turn can still end with, in the order of HOLDINGS, each with whether it buys and
    how many gems it trades: what `can_reach` allows, built gem by gem (a type is only bought or only sold,
    GB-R6; a buy needs stock, GB-R5; the sales pay for the buys, GB-R5; at most GEM_LIMIT gems, GB-R4)."""
    hand = world.gems[seat]
    # the cash this turn can spend on the holding: all of it, and what the gems in hand sell for
    spare = world.cash[seat] + sum(have * price for have, price in zip(hand, world.prices, strict=True))
    # partial holdings: (counts so far, gems, cost at today's prices, buys, trades)
    partial: list[tuple[Holding, int, int, bool, int]] = [((), 0, 0, False, 0)]
    for gem, have in enumerate(hand):
        low = have if world.bought[gem] else 0
        high = have if world.sold[gem] else have + world.stock[gem]
        price = world.prices[gem]
        partial = [
            (
                counts + (want,),
                gems + want,
                cost + want * price,
                buys or want > have,
                trades + abs(want - have),
            )
            for counts, gems, cost, buys, trades in partial
            for want in range(low, min(high, GEM_LIMIT - gems) + 1)
            if cost + want * price <= spare
        ]
    return [(counts, buys, trades) for counts, _, _, buys, trades in partial]


class Merits(dict[Holding, float]):
    """Holdings' merits for one `next_card_statistics` and one rival's holding, filled as they are asked
    for (a turn reaches few of HOLDINGS)."""

    def __init__(self, statistics: Statistics, rival: Holding) -> None:
        super().__init__()
        self.statistics = statistics  # kept alive, so that its id names it while this entry lives
        self.rival = rival


_MERITS: dict[tuple[int, Holding], Merits] = {}
_MERITS_KEPT = 4096  # entries kept before the cache starts afresh


def merits(statistics: Statistics, rival: Holding) -> Merits:
    """The merits of holdings against `rival` for these statistics, remembered: a search meets the same
    cards left and the same leader's gems again and again (`next_card_statistics` returns one object per
    set of cards left, so its id names it while it is kept alive here)."""
    key = (id(statistics), rival)
    found = _MERITS.get(key)
    if found is None or found.statistics is not statistics:
        if len(_MERITS) >= _MERITS_KEPT:
            _MERITS.clear()
        found = _MERITS[key] = Merits(statistics, rival)
    return found


def merit_of(holding: Holding, statistics: Statistics, rival: Holding) -> float:
    """Expected gain of `holding` on the next card plus `RISK` × the standard deviation of its gain against
    `rival`'s holding. The sums leave out the terms multiplied by zero (adding a zero changes no sum) and
    keep the order of the rest: the same number to the last bit as summing every term."""
    moves, covariance = statistics
    apart = [
        (g, mine - theirs)
        for g, (mine, theirs) in enumerate(zip(holding, rival, strict=True))
        if mine != theirs
    ]
    variance = 0.0
    for g, a in apart:
        row = covariance[g]
        for h, b in apart:
            variance += a * b * row[h]
    gain = 0.0
    for count, move in zip(holding, moves, strict=True):
        if count:
            gain += count * move
    return gain + RISK * math.sqrt(max(variance, 0.0))


def can_reach(world: BazaarState, seat: int, holding: Holding) -> bool:
    """Whether this turn can still end with `holding`: a type is only bought or only sold (GB-R6), a buy
    needs stock (GB-R5), and the sales pay for the buys (GB-R5; selling first)."""
    cash = world.cash[seat]
    for gem, (want, have) in enumerate(zip(holding, world.gems[seat], strict=True)):
        if want > have and (world.sold[gem] or want - have > world.stock[gem]):
            return False
        if want < have and world.bought[gem]:
            return False
        cash -= (want - have) * world.prices[gem]
    return cash >= 0


def step_towards(world: BazaarState, seat: int, holding: Holding, moves: Sequence[float]) -> BazaarAction:
    """The next step to `holding`: sales first (they pay for the buys), then buys, then the end of the
    turn. `moves`: each gem's expected change on the next card (the same as `world.expected_moves()`)."""
    legal = set(world.legal_actions(seat))
    hand = world.gems[seat]
    for gem in sorted(GEM_RANGE, key=lambda g: moves[g]):
        if holding[gem] < hand[gem] and SELL[gem] in legal:
            return SELL[gem]
    for gem in sorted(GEM_RANGE, key=lambda g: -moves[g]):
        if holding[gem] > hand[gem] and BUY[gem] in legal:
            return BUY[gem]
    return make_room_or_end(legal, moves, not world.bought_any)


def rival_holding(world: BazaarState, seat: int, predict: bool = False) -> Holding:
    """The leader's holding (`leader`); with `predict`, the one it will carry into the next price card:
    where it is still to play this round, the holding greedy would end its turn with (its hand, its cash,
    the prices, the bazaar's stock and the cards left: all public, GB-I1). The speculator judged against
    the hand the leader holds now, which it changes before the next card when it plays after this seat
    (docs/bots.md: 46.1% against 43.6% of 1,000 games, 44.5% against 43.8% of 1,500)."""
    rival = leader(world, seat)
    hand = tuple(world.gems[rival])
    if not predict:
        return hand
    n = world.num_players
    if (rival - world.opener()) % n <= world.turn:
        return hand  # it has played this round (the seat playing now is never the leader: `leader`)
    key = (hand, world.cash[rival], world.prices, world.stock, frozenset(world.deck))
    found = _GREEDY_TURNS.get(key)
    if found is None:
        if len(_GREEDY_TURNS) >= _MERITS_KEPT:
            _GREEDY_TURNS.clear()
        found = _GREEDY_TURNS[key] = greedy_turn(world, rival)
    return found


_GREEDY_TURNS: dict[tuple[object, ...], Holding] = {}


_GREEDY = GrandBazaarGreedyBot()
_RNG = random.Random(0)


def greedy_turn(world: BazaarState, seat: int) -> Holding:
    """The holding greedy would end a turn with, played from this position as if it were `seat`'s turn
    (a copy of the position, its turn's flags cleared; greedy never draws from its rng)."""
    trial = world.clone()
    trial.current = seat
    trial.bought = trial.sold = NO_FLAGS
    trial.bought_any = False
    trial.position_changed()
    for _ in range(16):
        action = _GREEDY.choose(trial, seat, _RNG)
        if action == DONE:
            break
        trial._apply(seat, action)
    return tuple(trial.gems[seat])


def leader(world: BazaarState, seat: int) -> int:
    """The other seat worth most, each gem counted at what it fetches at the end (GB-E1)."""
    worth = world.worth_at_end()
    return max((p for p in range(world.num_players) if p != seat), key=worth.__getitem__)


@functools.lru_cache(maxsize=4096)
def next_card_statistics(deck: frozenset[int]) -> Statistics:
    """Mean and covariance of each gem's change on the next price card, any card left being equally likely
    (GB-C3, GB-I1); zero once none are left. Cached: the cards left, not their order, decide it (do not
    change the lists it returns)."""
    if not deck:
        return [0.0] * len(GEMS), [[0.0] * len(GEMS) for _ in GEMS]
    cards = [PRICE_CARDS[card] for card in deck]
    mean = [sum(card[g] for card in cards) / len(cards) for g in GEM_RANGE]
    covariance = [
        [sum(card[g] * card[h] for card in cards) / len(cards) - mean[g] * mean[h] for h in GEM_RANGE]
        for g in GEM_RANGE
    ]
    return mean, covariance
