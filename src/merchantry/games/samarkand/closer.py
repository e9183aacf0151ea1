"""The `closer` Samarkand bot: the investor's game, and near the end a look to the end.

The investor (investor.py) judges a step by one look. Near the end of the game who wins is decided by the
few turns left (SK-E1 ends it at once), and they can be played out cheaply. Where the game looks close to
its end (one greedy play-out of the world the seat sees ends within `HORIZON` actions), the closer plays
each of the investor's best `CANDIDATES` steps out to the end on the same `WORLDS` sampled worlds, each
world with its own random stream shared by every candidate (common random numbers: the futures differ only
by this step), its own later steps by the investor, the others' by greedy; it keeps the step that wins
most often, the investor's on a tie. Given a deadline (`choose_within`, as a level's search gives it), it
plays out fewer worlds where time runs out, every candidate in each, at least one world.
"""

from __future__ import annotations

import random

from merchantry.bots.ismcts import LooksWithin, search_clock
from merchantry.engine import State
from merchantry.games.samarkand.actions import SamarkandAction
from merchantry.games.samarkand.greedy import SamarkandGreedyBot
from merchantry.games.samarkand.investor import SamarkandInvestorBot, invested
from merchantry.games.samarkand.rules import SamarkandState

HORIZON = 60  # actions to the end (by one greedy play-out) within which steps are played out
CANDIDATES = 4  # the investor's best steps played out
WORLDS = 8  # sampled worlds each candidate is played out in (8: 61.1% of 200 games against three greedy)


class SamarkandCloserBot(LooksWithin):
    name = "closer"

    def __init__(self, horizon: int = HORIZON, candidates: int = CANDIDATES, worlds: int = WORLDS) -> None:
        self.horizon = horizon
        self.candidates = candidates
        self.worlds = worlds
        self.investor = SamarkandInvestorBot()
        self.greedy = SamarkandGreedyBot()

    def choose(self, world: State, seat: int, rng: random.Random) -> SamarkandAction:
        assert isinstance(world, SamarkandState)
        legal = world.legal_actions(seat)
        own = self.investor.choose(world, seat, rng)
        if len(legal) == 1 or not self.near_the_end(world, rng):
            return own
        options = [own] + [step for step in ranked(world, seat, legal) if step != own][: self.candidates - 1]
        worlds = [(world.sample_hidden(seat, rng), rng.getrandbits(64)) for _ in range(self.worlds)]
        clock = search_clock()
        wins = [0.0] * len(options)
        for done, (sampled, stream) in enumerate(worlds):  # every candidate in each world, world by world
            if done and clock() >= self.deadline:
                break
            for i, step in enumerate(options):
                wins[i] += self.play_out(sampled, seat, step, stream)
        return options[max(range(len(options)), key=lambda i: (wins[i], -i))]  # the investor's on a tie

    def near_the_end(self, world: SamarkandState, rng: random.Random) -> bool:
        """Whether one greedy play-out of `world` ends within the horizon."""
        trial = world.clone()
        probe = random.Random(rng.getrandbits(64))
        for _ in range(self.horizon):
            if trial.is_over():
                return True
            actor = trial.to_act()[0]
            trial.apply(actor, self.greedy.choose(trial, actor, probe))
        return trial.is_over()

    def play_out(self, world: SamarkandState, seat: int, step: SamarkandAction, stream: int) -> float:
        """`seat`'s win share once it plays `step` and the game is played to the end."""
        trial = world.clone()
        rng = random.Random(stream)
        trial.apply(seat, step)
        while not trial.is_over():
            actor = trial.to_act()[0]
            bot = self.investor if actor == seat else self.greedy
            trial.apply(actor, bot.choose(trial, actor, rng))
        winners = trial.winners()
        return 1 / len(winners) if seat in winners else 0.0


def ranked(world: SamarkandState, seat: int, legal: list[SamarkandAction]) -> list[SamarkandAction]:
    """`legal`, best first by the investor's one look."""

    def worth(step: SamarkandAction) -> float:
        after = world.clone()
        after.apply(seat, step)
        return invested(after, seat)

    return sorted(legal, key=worth, reverse=True)
