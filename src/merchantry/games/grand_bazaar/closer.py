"""The `closer` Grand Bazaar bot: the speculator's game, and in the last rounds a look to the end.

The speculator (speculator.py) judges a holding by the next price card alone. Near the end that is not enough:
who wins is decided over the few cards left, and they can be played out. In the last `ENDGAME_ROUNDS` rounds
the closer judges each of the speculator's best `CANDIDATES` holdings for this turn (and greedy's) by playing
the game out to the end on the same `WORLDS` orders of the price cards left (GB-I1: their order is the only
secret), its own later turns by the speculator, the others' by greedy; it keeps the holding that wins most
often (the speculator's on a tie). Comparing holdings on the same orders (common random numbers) is what
lets playouts tell them apart: they differ only by this turn. More orders tell them apart better (24 orders
and 6 candidates before; 96 and 10 won 3-6 points more on the same deals: docs/bots.md), so the orders are
spread over the next card (`sample_orders`; every order once in the last rounds) and a greedy seat's turn,
the same on one order for most candidates, is looked up rather than played again (`TurnMemo`). A level's
deadline (`choose_within`) cuts the look order by order.

A turn is then played towards that holding as the speculator plays towards its own (sales first, then buys).
"""

from __future__ import annotations

import itertools
import math
import random

from merchantry.bots.ismcts import LooksWithin, search_clock
from merchantry.engine import State
from merchantry.games.grand_bazaar.actions import BazaarAction
from merchantry.games.grand_bazaar.components import GEM_LIMIT, ROUNDS
from merchantry.games.grand_bazaar.greedy import GrandBazaarGreedyBot
from merchantry.games.grand_bazaar.rules import BazaarState
from merchantry.games.grand_bazaar.speculator import (
    LEAD,
    GrandBazaarSpeculatorBot,
    Holding,
    best_holding,
    merit_of,
    merits,
    next_card_statistics,
    reachable,
    rival_holding,
    step_towards,
)
from merchantry.games.grand_bazaar.trader import ahead

ENDGAME_ROUNDS = 12  # rounds from the end in which holdings are played out (6 before: docs/bots.md)
CANDIDATES = 10  # the speculator's best holdings played out (and greedy's, if it is not among them; 6 before)
WORLDS = 160  # orders of the price cards left each candidate is played out on (24 before: docs/bots.md)
MARGIN_WEIGHT = 0.0  # weight beside the win of the final margin over the best other seat
MARGIN_SCALE = 10.0  # grands of margin that count as one unit, the margin clipped to -1..1
PREDICT = False  # the leader judged by the holding it will carry into the next card (rival_holding)
STRATIFY = True  # orders spread evenly over the next card, every order once near the end (sample_orders)
DENY = False  # also play out, for each gem, the best holding that buys the most of it (the stock others want)


class GrandBazaarCloserBot(LooksWithin):
    name = "closer"

    def __init__(
        self,
        rounds: int = ENDGAME_ROUNDS,
        candidates: int = CANDIDATES,
        worlds: int = WORLDS,
        margin_weight: float = MARGIN_WEIGHT,
        deny: bool = DENY,
        predict: bool = PREDICT,
        stratify: bool = STRATIFY,
    ) -> None:
        self.stratify = stratify
        self.rounds = rounds
        self.predict = predict
        self.deny = deny
        self.candidates = candidates
        self.worlds = worlds
        self.margin_weight = margin_weight
        self.speculator = GrandBazaarSpeculatorBot(predict=predict)
        self.greedy = GrandBazaarGreedyBot()
        self._target: tuple[tuple[object, ...], Holding] | None = None  # this turn's holding, by position

    def choose(self, world: State, seat: int, rng: random.Random) -> BazaarAction:
        assert isinstance(world, BazaarState)
        if world.round <= ROUNDS - self.rounds:
            return self.speculator.choose(world, seat, rng)
        statistics = next_card_statistics(frozenset(world.deck))
        return step_towards(world, seat, self.target(world, seat, rng), statistics[0])

    def target(self, world: BazaarState, seat: int, rng: random.Random) -> Holding:
        """The holding this turn goes to, chosen at its first step and kept while it can still be reached."""
        turn = (world.round, world.turn, seat, world.revealed)
        if self._target is not None and self._target[0] == turn:
            holding = self._target[1]
            if any(holding == option for option, _, _ in reachable(world, seat)):
                return holding
        holding = best_played_out(
            world,
            seat,
            rng,
            self.speculator,
            self.greedy,
            self.candidates,
            self.worlds,
            self.deadline,
            self.margin_weight,
            self.deny,
            self.predict,
            self.stratify,
        )
        self._target = (turn, holding)
        return holding


def candidates(
    world: BazaarState, seat: int, count: int = CANDIDATES, deny: bool = DENY, predict: bool = PREDICT
) -> list[Holding]:
    """The speculator's best holdings this turn can reach, best first, then greedy's if not among them; with
    `deny`, then for each gem the speculator's best among the holdings that buy the most of it (GB-R5: the
    bazaar has 10 of each, and greedy players after this seat all want the same gem), if not among them."""
    statistics = next_card_statistics(frozenset(world.deck))
    worth = merits(statistics, rival_holding(world, seat, predict))
    options = reachable(world, seat)

    def merit(option: tuple[Holding, bool, int]) -> tuple[bool, float, int]:
        holding, buys, trades = option  # as the speculator ranks them (best_holding)
        value = worth.get(holding)
        if value is None:
            value = worth[holding] = merit_of(holding, statistics, worth.rival)
        return (buys or world.bought_any, value, -trades)

    ranked = [holding for holding, _, _ in sorted(options, key=merit, reverse=True)]
    chosen = ranked[:count]
    greedy_holding = holding_after(world, seat, GrandBazaarGreedyBot(), random.Random(0))
    if greedy_holding not in chosen and greedy_holding in ranked:
        chosen.append(greedy_holding)
    if deny:
        hand = world.gems[seat]
        for gem in range(len(hand)):
            most = max(holding[gem] for holding in ranked) - hand[gem]
            if most <= 0:
                continue
            # the first in `ranked` is the best by the speculator's merit
            buyer = next(holding for holding in ranked if holding[gem] - hand[gem] == most)
            if buyer not in chosen:
                chosen.append(buyer)
    return chosen


def holding_after(world: BazaarState, seat: int, bot: GrandBazaarGreedyBot, rng: random.Random) -> Holding:
    """The holding `bot` ends this turn with."""
    trial = world.clone()
    round_, turn = trial.round, trial.turn
    while not trial.is_over() and trial.round == round_ and trial.turn == turn:
        trial.apply(seat, bot.choose(trial, seat, rng))
    return tuple(trial.gems[seat])


def best_played_out(
    world: BazaarState,
    seat: int,
    rng: random.Random,
    speculator: GrandBazaarSpeculatorBot,
    greedy: GrandBazaarGreedyBot,
    count: int = CANDIDATES,
    worlds: int = WORLDS,
    deadline: float = math.inf,
    margin_weight: float = MARGIN_WEIGHT,
    deny: bool = DENY,
    predict: bool = PREDICT,
    stratify: bool = STRATIFY,
) -> Holding:
    """The candidate holding that wins most often played out to the end on the same `worlds` orders (fewer
    where the `deadline` comes first: every candidate on each order, order after order, at least one).
    With a `margin_weight`, each play-out also counts that weight times its final margin over the best other
    seat (`MARGIN_SCALE` grands a unit, clipped to -1..1): a margin tells holdings apart on orders where
    both win or both lose, which a few dozen win shares alone often cannot."""
    options = candidates(world, seat, count, deny, predict)
    if len(options) == 1:
        return options[0]
    orders = sample_orders(world, seat, rng, worlds, stratify)
    clock = search_clock()
    wins = [0.0] * len(options)
    for done, order in enumerate(orders):
        if done and clock() >= deadline:
            break
        memo: TurnMemo = {}
        for i, holding in enumerate(options):
            wins[i] += play_out(order, seat, holding, speculator, greedy, margin_weight, memo)
    best = max(range(len(options)), key=lambda i: (wins[i], -i))  # the first of equals: the speculator's
    return options[best]


def sample_orders(
    world: BazaarState, seat: int, rng: random.Random, count: int, stratify: bool = STRATIFY
) -> list[BazaarState]:
    """`count` worlds with orders of the price cards left drawn from `rng` (GB-I1: their order is the only
    secret). With `stratify`: every order once where there are no more than `count` of them (the last
    rounds: the exact chance rather than a sample), else each card left comes next (the card the next round
    opens with, which moves the prices most surely) as nearly equally often as `count` allows, the cards
    after it shuffled; in the order they are played out, so that a look cut short by its deadline is still
    spread over the next cards."""
    if not stratify:
        return [world.sample_hidden(seat, rng) for _ in range(count)]
    cards = sorted(world.deck)
    if math.factorial(len(cards)) <= count:
        orders = [tuple(order) for order in itertools.permutations(cards)]
        rng.shuffle(orders)
    else:
        orders = []
        while len(orders) < count:
            nexts = cards.copy()
            rng.shuffle(nexts)
            for card in nexts[: count - len(orders)]:
                rest = [other for other in cards if other != card]
                rng.shuffle(rest)
                orders.append((*rest, card))  # the top card last (rules.BazaarState.deck)
    worlds = []
    for order in orders:
        sampled = world.sample_hidden(seat, rng)
        sampled.deck = order
        worlds.append(sampled)
    return worlds


def play_out(
    world: BazaarState,
    seat: int,
    holding: Holding,
    speculator: GrandBazaarSpeculatorBot,
    greedy: GrandBazaarGreedyBot,
    margin_weight: float = MARGIN_WEIGHT,
    memo: TurnMemo | None = None,
) -> float:
    """`seat`'s win share once it ends this turn with `holding` and the game is played to the end, plus
    `margin_weight` times its clipped margin over the best other seat (best_played_out). With a `memo`
    (one per order of the cards, shared by the candidates played out on it), a greedy seat's turn is
    looked up where it was played before from the same position as that seat sees it (turn_key): the
    same play-out, found faster (the candidates differ only in the seat's own holding)."""
    trial = world.clone()
    rng = random.Random(0)  # neither bot draws from it: both are deterministic
    round_, turn = trial.round, trial.turn
    moves = next_card_statistics(frozenset(trial.deck))[0]
    while trial.round == round_ and trial.turn == turn and not trial.is_over():
        trial.apply(seat, step_towards(trial, seat, holding, moves))
    while not trial.is_over():
        actor = trial.current
        if actor == seat:
            if memo is None:
                trial.apply(actor, speculator.choose(trial, actor, rng))
            else:
                speculator_turn(trial, actor, speculator, greedy, rng)
            continue
        if memo is None:
            trial.apply(actor, greedy.choose(trial, actor, rng))
            continue
        key = turn_key(trial, actor)
        steps = memo.get(key)
        if steps is None:
            steps = memo[key] = greedy_turn_steps(trial, actor, greedy, rng)
        else:
            for action in steps:
                trial.apply(actor, action)
    winners = trial.winners()
    share = 1 / len(winners) if seat in winners else 0.0
    if not margin_weight:
        return share
    cash = trial.cash
    margin = cash[seat] - max(c for p, c in enumerate(cash) if p != seat)
    return share + margin_weight * max(-1.0, min(1.0, margin / MARGIN_SCALE))


TurnMemo = dict[tuple[object, ...], list[BazaarAction]]


def turn_key(world: BazaarState, seat: int) -> tuple[object, ...]:
    """What a greedy turn of `seat` starting here depends on, within one order of the price cards: the
    round (which, on one order, names the cards left and so the prices and the expected moves), its hand,
    its cash, and the bazaar's stock of each gem up to GEM_LIMIT (a turn buys at most that many gems,
    GB-R4, and a buy asks only whether one is left, GB-R5)."""
    stock = tuple([min(count, GEM_LIMIT) for count in world.stock])
    return (world.round, world.gems[seat], world.cash[seat], stock)


def speculator_turn(
    world: BazaarState,
    seat: int,
    speculator: GrandBazaarSpeculatorBot,
    greedy: GrandBazaarGreedyBot,
    rng: random.Random,
) -> None:
    """Plays `seat`'s whole turn on `world` as the speculator plays it, its holding chosen once at the turn's
    start rather than at every step (the holdings still reachable after a step towards it are among those
    it was chosen from)."""
    round_, turn = world.round, world.turn
    statistics = next_card_statistics(frozenset(world.deck))
    holding: Holding | None = None
    while world.round == round_ and world.turn == turn and not world.is_over():
        if ahead(world, seat, LEAD):
            world.apply(seat, greedy.choose(world, seat, rng))
            holding = None
            continue
        if holding is None:
            holding = best_holding(world, seat, statistics, speculator.predict)
        world.apply(seat, step_towards(world, seat, holding, statistics[0]))


def greedy_turn_steps(
    world: BazaarState, seat: int, greedy: GrandBazaarGreedyBot, rng: random.Random
) -> list[BazaarAction]:
    """Plays `seat`'s whole turn by greedy on `world` and returns its steps."""
    steps: list[BazaarAction] = []
    round_, turn = world.round, world.turn
    while world.round == round_ and world.turn == turn and not world.is_over():
        action = greedy.choose(world, seat, rng)
        steps.append(action)
        world.apply(seat, action)
    return steps
