"""Hints and post-game analysis by the `hard` bot's search, by whole moves, with error bars.

Both judge a seat only by what that seat could know at the time: every search runs on worlds sampled for
that seat (`sample_hidden`), never on the real state, so an analysis tells no one the cards they did not see.

A decision is a move as a person makes it (`State.in_decision`): a whole sealed bid, a whole turn of buys and
sells. The hint proposes a whole move and the analysis judges each decision once. The move the search
prefers is the one the hard bot would play (its plan, searched again where the plan runs out), and both the
hint and the analysis search a position from a random stream that is a function of what the seat knows
there (`position_stream`): at the same settings, a hinted move is the analysis' preferred move.

Chances are measured, not read off the search: the move played and the move preferred are each played out
in the same `WORLDS` worlds sampled for the seat, each world's play-out from one random stream for both
(common random numbers), so their difference is not noise of the worlds drawn. Every chance carries its 95%
interval; the seats' chances at one moment add up to 1 (each play-out shares the win among the winners).

Marks (the loss is how much more the preferred move wins than the move played, in percentage points): an
**inaccuracy** loses 5 or more, a **mistake** 10 or more, a **blunder** 20 or more, and only when the loss is
clearly more than its uncertainty: the low end of its 95% interval is above 0.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from typing import Any

from merchantry import games, records
from merchantry.bots.ismcts import Search, SearchConfig, SearchResult, searcher
from merchantry.bots.levels import recipe
from merchantry.engine import Action, State

MARKS = ((0.20, "blunder"), (0.10, "mistake"), (0.05, "inaccuracy"))
WORLDS = 48  # worlds each whole move is played out in, the same worlds for every move compared
MOVE_STEPS = 100  # a whole move is cut after this many steps (a bid that never ends)
Z95 = 1.96


def mark(loss: float) -> str | None:
    """The mark of a move that lost `loss` (0..1) of the seat's chance to win, or None."""
    for threshold, name in MARKS:
        if loss >= threshold - 1e-9:
            return name
    return None


@dataclass(frozen=True)
class Estimate:
    """A mean over play-outs and its 95% interval (normal approximation, clipped to what can be)."""

    value: float
    low: float
    high: float

    @classmethod
    def of(cls, samples: list[float], floor: float = 0.0, ceiling: float = 1.0) -> Estimate:
        n = len(samples)
        mean = sum(samples) / n
        spread = math.sqrt(sum((x - mean) ** 2 for x in samples) / (n - 1)) if n > 1 else 0.0
        half = Z95 * spread / math.sqrt(n)
        return cls(mean, max(floor, mean - half), min(ceiling, mean + half))


def position_stream(state: State, seat: int) -> random.Random:
    """A random stream that is a function of what `seat` knows here (its view): the hint and the analysis of
    one position search alike, and nothing in it comes from what the seat cannot see."""
    text = json.dumps(state.view(seat), sort_keys=True, default=str)
    return random.Random(hashlib.sha256(text.encode()).digest())


def whole_move(
    state: State, seat: int, search: Search, rng: random.Random
) -> tuple[list[Action], SearchResult]:
    """The whole move the search makes for `seat` from here, as the hard bot plays it: its plan, searched
    again from the position reached where the plan runs out before the decision ends; and the first search.
    A search that leads back to where the seat has already been in this move (a card added, then taken
    back) is going round: the greedy bot finishes the move from there."""
    position = state.clone()
    steps: list[Action] = []
    first: SearchResult | None = None
    seen = {_picture(position, seat)}
    while True:
        result = search.run(position.sample_hidden(seat, rng), seat, rng)
        first = first or result
        for action in result.plan or [result.best]:
            if action not in position.legal_actions(seat):
                if not steps:
                    raise ValueError(f"the search chose {action}, which is not a move here")
                break
            position.apply(seat, action)
            steps.append(action)
            if _decided(position, seat, steps):
                return steps, first
            picture = _picture(position, seat)
            if picture in seen:
                return _finished_by_greedy(position, seat, steps, rng), first
            seen.add(picture)


def _decided(position: State, seat: int, steps: list[Action]) -> bool:
    return (
        position.is_over()
        or seat not in position.to_act()
        or not position.in_decision(seat)
        or len(steps) >= MOVE_STEPS
    )


def _picture(position: State, seat: int) -> str:
    """What `seat` sees of the position, but the log: a move that comes back to it is going round."""
    view = position.view(seat)
    view.pop("log", None)
    return json.dumps(view, sort_keys=True, default=str)


def _finished_by_greedy(position: State, seat: int, steps: list[Action], rng: random.Random) -> list[Action]:
    from merchantry import bots

    game = position.game
    greedy = bots.get("greedy" if "greedy" in bots.names(game) else "random", game)
    while not _decided(position, seat, steps):
        action = greedy.choose(position.sample_hidden(seat, rng), seat, rng)
        position.apply(seat, action)
        steps.append(action)
    return steps


def play_outs(
    state: State, seat: int, moves: list[list[Action]], search: Search, rng: random.Random, worlds: int
) -> list[list[list[float]]]:
    """Each whole move played in the same `worlds` worlds sampled for `seat`, then played out by the search's
    rollout from one random stream per world for every move: per move, per world, each seat's win share."""
    outcomes: list[list[list[float]]] = [[] for _ in moves]
    for _ in range(worlds):
        world = state.sample_hidden(seat, rng)
        stream = rng.getrandbits(64)
        for outcome, steps in zip(outcomes, moves, strict=True):
            trial = world.clone()
            for action in steps:
                trial.apply(seat, action)
            outcome.append(search.win_shares_after(trial, seat, random.Random(stream)))
    return outcomes


def chances(outcome: list[list[float]]) -> list[float]:
    """Each seat's mean win share over the play-outs of one move (they add up to 1)."""
    return [sum(shares[p] for shares in outcome) / len(outcome) for p in range(len(outcome[0]))]


@dataclass(frozen=True)
class Hint:
    seat: int
    best: str  # the first step of the move the search prefers
    plan: list[str]  # the whole move, step by step (a bid card by card, a market turn)
    chance: float  # the seat's chance to win, playing that move
    low: float  # its 95% interval
    high: float
    chances: list[float]  # every seat's chance after that move (they add up to 1)
    options: list[
        dict[str, Any]
    ]  # each first step tried: action, visits, chance after it; most visited first

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def hint(
    state: State,
    seat: int,
    game_name: str,
    rng: random.Random | None = None,
    config: SearchConfig | None = None,
    worlds: int = WORLDS,
) -> Hint:
    """The whole move `hard` (or `config`) would play for `seat` here, searched on the seat's sampled worlds
    only, with its chance measured. The search's stream is `position_stream` (`rng` is not used: the hint
    must be the move the analysis of this position prefers)."""
    search = searcher(game_name, config or recipe(game_name, "hard"))
    stream = position_stream(state, seat)
    steps, first = whole_move(state, seat, search, stream)
    outcome = play_outs(state, seat, [steps], search, stream, worlds)[0]
    chance = Estimate.of([shares[seat] for shares in outcome])
    return Hint(
        seat=seat,
        best=str(steps[0]),
        plan=[str(a) for a in steps],
        chance=round(chance.value, 3),
        low=round(chance.low, 3),
        high=round(chance.high, 3),
        chances=[round(c, 3) for c in chances(outcome)],
        options=[
            {"action": str(a.action), "visits": a.visits, "chance": round(a.value, 3)} for a in first.actions
        ],
    )


@dataclass(frozen=True)
class Decision:
    move: int  # 1-based number in the record of the move's last step (when the decision is complete)
    moves: list[int]  # the numbers of all its steps
    seat: int
    played: str  # the whole move, its steps separated by ", "
    preferred: str
    before: float  # the seat's chance to win here, playing the preferred move
    after: float  # its chance after the move played
    best: float  # its chance after the move preferred (= before)
    mark: str | None
    after_interval: tuple[float, float]  # 95% intervals
    best_interval: tuple[float, float]
    loss_interval: tuple[float, float]  # of best - after, measured on the same worlds
    chances: list[float]  # every seat's chance after the move played (they add up to 1)
    round: int = 0  # the round it was made in (the newest "new_round" of the log before it; 0: none yet)

    @property
    def loss(self) -> float:
        return max(0.0, self.best - self.after)


KEY_MOMENTS = 3  # per seat


def key_moments(decisions: list[Decision], players: int) -> list[list[dict[str, Any]]]:
    """Per seat, its (at most) three costliest moves, biggest first: the marked ones, which lost clearly
    more than their uncertainty; what was played, what was preferred, the round and the points lost."""
    moments = []
    for seat in range(players):
        mine = sorted((d for d in decisions if d.seat == seat and d.mark), key=lambda d: -d.loss)
        moments.append(
            [
                {
                    "move": d.moves[0],
                    "round": d.round,
                    "played": d.played,
                    "preferred": d.preferred,
                    "points": round(d.loss * 100),
                    "mark": d.mark,
                }
                for d in mine[:KEY_MOMENTS]
            ]
        )
    return moments


def round_of(state: State) -> int:
    """The round a position is in, as the public log tells it (its newest "new_round" marker)."""
    rounds = [event["new_round"] for event in state.view(None)["log"] if "new_round" in event]
    return int(rounds[-1]) if rounds else 0


def decisions_in(record: dict[str, Any]) -> Iterator[tuple[State, int, list[tuple[int, Action]]]]:
    """Each decision of a record as it completes: the position before its first step, the seat, and its steps
    (number in the record, action). A seat's decision goes on while the seat is `in_decision` and to act,
    even while others take steps of their own (sealed bids are built side by side)."""
    game = games.get(record["game"])
    state = game.new_game(players=record["players"], seed=record["seed"], **record["options"])
    started: dict[int, tuple[State, list[tuple[int, Action]]]] = {}
    for number, (seat, text) in enumerate(record["moves"], start=1):
        action = game.parse_action(state, seat, text)
        if seat not in started:
            started[seat] = (state.clone(), [])
        started[seat][1].append((number, action))
        state.apply(seat, action)
        if state.is_over() or not state.in_decision(seat) or seat not in state.to_act():
            before, steps = started.pop(seat)
            yield before, seat, steps
    for seat, (before, steps) in started.items():
        yield before, seat, steps


def judge(
    before: State, seat: int, played: list[Action], search: Search, worlds: int = WORLDS
) -> tuple[list[Action], list[list[list[float]]]]:
    """The preferred whole move at `before` and the play-outs of [played, preferred] on the same worlds
    (only [played] when they are the same move)."""
    stream = position_stream(before, seat)
    preferred, _ = whole_move(before, seat, search, stream)
    moves = [played] if preferred == played else [played, preferred]
    return preferred, play_outs(before, seat, moves, search, stream, worlds)


def analyze(
    record: dict[str, Any],
    config: SearchConfig | None = None,
    progress: Callable[[int, int], None] | None = None,
    worlds: int = WORLDS,
) -> Iterator[Decision]:
    """Judge every decision of a game record that had a choice, each by its own seat's sampled worlds.
    A malformed record or a refused move raises InvalidRecord before anything is searched."""
    records.replay(record)  # the whole record is checked first
    search = searcher(record["game"], config or recipe(record["game"], "hard"))
    total = len(record["moves"])
    for before, seat, steps in decisions_in(record):
        numbers, played = [n for n, _ in steps], [a for _, a in steps]
        if len(played) > 1 or len(before.legal_actions(seat)) > 1:
            yield _decision(before, seat, numbers, played, search, worlds)
        if progress:
            progress(numbers[-1], total)


def _decision(
    before: State, seat: int, numbers: list[int], played: list[Action], search: Search, worlds: int
) -> Decision:
    preferred, outcomes = judge(before, seat, played, search, worlds)
    mine = [[shares[seat] for shares in outcome] for outcome in outcomes]
    after, best = Estimate.of(mine[0]), Estimate.of(mine[-1])
    loss = Estimate.of([b - a for a, b in zip(mine[0], mine[-1], strict=True)], floor=-1.0)
    significant = loss.low > 0
    return Decision(
        move=numbers[-1],
        moves=numbers,
        seat=seat,
        played=", ".join(str(a) for a in played),
        preferred=", ".join(str(a) for a in preferred),
        before=best.value,
        after=after.value,
        best=best.value,
        mark=mark(loss.value) if significant else None,
        after_interval=(after.low, after.high),
        best_interval=(best.low, best.high),
        loss_interval=(loss.low, loss.high),
        chances=chances(outcomes[0]),
        round=round_of(before),
    )


def summary(decisions: list[Decision], players: int) -> list[dict[str, Any]]:
    """Per seat: decisions judged, how many of each mark, and the mean loss of chance per decision."""
    rows = []
    for seat in range(players):
        mine = [d for d in decisions if d.seat == seat]
        row: dict[str, Any] = {"seat": seat, "decisions": len(mine)}
        for _, name in MARKS:
            row[name] = sum(1 for d in mine if d.mark == name)
        row["mean_loss"] = sum(d.loss for d in mine) / len(mine) if mine else 0.0
        rows.append(row)
    return rows
