"""Hints and post-game analysis by the `hard` bot's search, by whole moves, with error bars.

Both judge a seat only by what that seat could know at the time: every search runs on worlds sampled for
that seat (`sample_hidden`), never on the real state, so an analysis tells no one the cards they did not see.

A decision is a move as a person makes it (`State.in_turn`: `in_decision`, and a sale made on one's turn
with the turn's move): a whole sealed bid, a whole turn of buys and sells. The hint proposes a whole move
and the analysis judges each decision once. The move the search prefers is the one the hard bot would play
(its plan, searched again where the plan runs out), and both the hint and the analysis search a position
from a random stream that is a function of what the seat knows there (`position_stream`): at the same
settings, a hinted move is the analysis' preferred move.

Chances are measured, not read off the search: the move played and the move preferred are each played out
in the same `WORLDS` worlds sampled for the seat, each world's play-out from one random stream for both
(common random numbers), so their difference is not noise of the worlds drawn; a preferred move only until
its loss is settled (`FLOOR`, `settled`). A play-out goes to the end of the game, or, where the game declares
a `PlayOutCut` (its play-outs to the end cost too much), as many actions as it says, the world then shared
among the seats by their standing (`cut_shares`). A raw chance (a share of play-outs won) is shown through the
game's calibration map (`calibration`: what such a share has meant in games between bots), intervals too;
every chance carries its 95% interval; the seats' chances at one moment add up to 1 (each play-out shares
the win among the winners; the others' mapped chances share what the deciding seat's leaves).

Marks (the loss is how much more the preferred move wins than the move played, in percentage points of the
chance shown): an **inaccuracy** loses 5 or more, a **mistake** 10 or more, a **blunder** 20 or more, and
only when the loss is clearly more than its uncertainty: the low end of its 95% interval is above 0.

Decisions may be judged in worker processes (`analyze(..., workers=N)`): each is a function of its position
and the settings, so the result is the same. docs/bots.md has what an analysis costs and how calibrated it is.
"""

from __future__ import annotations

import bisect
import functools
import hashlib
import json
import math
import multiprocessing
import random
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from merchantry import games, records
from merchantry.bots.ismcts import Search, SearchConfig, SearchResult, searcher, win_shares
from merchantry.bots.levels import recipe
from merchantry.bots.worlds import sampled_world
from merchantry.engine import Action, State
from merchantry.package import PlayOutCut

MARKS = ((0.20, "blunder"), (0.10, "mistake"), (0.05, "inaccuracy"))
WORLDS = 48  # worlds each whole move is played out in, the same worlds for every move compared
# a preferred move that differs from the move played is played out in at least this many of those worlds,
# then only until its loss is clearly on one side of every mark's threshold (the move played: in all WORLDS)
FLOOR = 16
# a move the first WORLDS would mark is played out, with its preferred move, in new worlds up to this many
# times WORLDS in all before its mark stands: a group choice read as a 33-point blunder on 48 worlds where
# 400 showed the two moves alike (issue 32, ninth and tenth passes: one of a game's many decisions, a fluke)
CONFIRM = 4
# an analysis searches each position with this share of the hard bot's iterations, and no time cap (so it
# is a function of the record alone, in one process or several); the hint searches alike (agreement)
SEARCH_SHARE = 0.25
MIN_ITERATIONS = 20
MAX_DETOURS = 3  # a whole move whose searches come back to where they were more often is finished by greedy
MOVE_STEPS = 100  # a whole move is cut after this many steps (a bid that never ends)
Z95 = 1.96
DECIDED_WORLDS = 4  # worlds sampled to tell whether anything is hidden from a seat (`decided`)


def mark(loss: float) -> str | None:
    """The mark of a move that lost `loss` (0..1) of the seat's chance to win, or None."""
    for threshold, name in MARKS:
        if loss >= threshold - 1e-9:
            return name
    return None


def percent(chance: float) -> int:
    """A chance in whole percent as the page and the terminal show it (halves up, as JavaScript's round)."""
    return math.floor(chance * 100 + 0.5)


def shown_mark(best: float, after: float) -> str | None:
    """The mark of a move whose chance went from `best` (the preferred move's) to `after`, by the whole
    percents shown: "51% → 41%" is a mistake (10 points) whatever the unrounded 9.6 (a newcomer checked the
    marks against the thresholds and found an "inaccuracy" there, issue 32's thirteenth pass)."""
    return mark((percent(best) - percent(after)) / 100)


@dataclass(frozen=True)
class Estimate:
    """A mean over play-outs and its 95% interval (`of`: the normal approximation, clipped to what can be, for
    differences; `of_chance`: Wilson's, for chances)."""

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

    @classmethod
    def of_chance(cls, samples: list[float]) -> Estimate:
        """A chance (each sample one play-out's win share, in [0, 1]) and its 95% interval by Wilson's score
        method, with the samples' own variance in place of p(1 - p) (the same for won-or-lost play-outs,
        narrower where ties are shared): unlike the normal approximation it does not shrink to a point when
        every play-out agrees, for 48 wins in 48 play-outs is not a certainty."""
        n = len(samples)
        mean = sum(samples) / n
        variance = sum((x - mean) ** 2 for x in samples) / n
        return cls(mean, *wilson(mean, variance, n))


DISPERSION_FLOOR = 0.1  # play-outs all agreeing on a share strictly between 0 and 1 count as 10 times as many


def wilson(mean: float, variance: float, n: int) -> tuple[float, float]:
    """Wilson's 95% score interval of a chance `mean` measured on `n` play-outs whose win shares vary by
    `variance` (p(1 - p) for won-or-lost ones), widened to hold the mean.
    Shares that vary less than won-or-lost play-outs of the same mean (ties shared, or a play-out cut short
    and judged by its standing) are as informative as more won-or-lost ones: Wilson's interval is taken on
    that effective number, n * p(1 - p) / variance (the binomial's own n when the variance is p(1 - p)).
    Its pull towards one half (z² / 2n) and its width then shrink together: with the pull of n play-outs
    and the width of the variance, a chance of 9% read "likely between 8% and 16%", the chance always at
    the low end of its own range (issue 32). All won or all lost is read as won-or-lost (0 of 48 is not a
    certainty); every play-out agreeing on a share in between, as `DISPERSION_FLOOR` says."""
    binomial = mean * (1 - mean)
    dispersion = variance / binomial if binomial > 1e-12 else 1.0
    n_effective = n / min(1.0, max(DISPERSION_FLOOR, dispersion))
    z2n = Z95 * Z95 / n_effective
    centre = (mean + z2n / 2) / (1 + z2n)
    half = Z95 * math.sqrt(binomial / n_effective + z2n / (4 * n_effective)) / (1 + z2n)
    return max(0.0, min(mean, centre - half)), min(1.0, max(mean, centre + half))


EDGE = (
    0.01  # a raw chance is taken as at least this and at most 1 - this before it is mapped (0 has no logit)
)


def platt(raw: float, a: float, b: float) -> float:
    """A Platt map of a raw chance: 1 / (1 + exp(-(a * logit(raw) + b))); increasing for a > 0, in (0, 1)."""
    p = min(1 - EDGE, max(EDGE, raw))
    z = min(50.0, max(-50.0, a * math.log(p / (1 - p)) + b))  # exp never overflows
    return 1 / (1 + math.exp(-z))


def through_knots(raw: float, knots: tuple[tuple[float, float], ...]) -> float:
    """A monotone map given by its knots, (raw, calibrated) points with both rising: straight between two
    knots, flat beyond the first and the last (no raw chance means more than the nearest measured one)."""
    if raw <= knots[0][0]:
        return knots[0][1]
    if raw >= knots[-1][0]:
        return knots[-1][1]
    above = bisect.bisect_right([x for x, _ in knots], raw)
    (x0, y0), (x1, y1) = knots[above - 1], knots[above]
    return y0 + (y1 - y0) * (raw - x0) / (x1 - x0)


@dataclass(frozen=True)
class Calibration:
    """What a raw chance (a share of play-outs won) means: the game's map for its number of players, fitted
    by benchmarks/fit_calibration.py on games between bots and shipped as the game's data/calibration.json.
    A map is Platt's (`a`, `b`: one curve per player count), an isotonic one given by its `knots`, or,
    where Platt's curve is too rigid (raw shares that mean the same above some point), both: the knots
    then map what the Platt map shows. A game without that file shows its raw chances."""

    a: float = 1.0
    b: float = 0.0
    fitted: bool = False
    knots: tuple[tuple[float, float], ...] = ()  # (chance in, chance shown), both rising; empty: none
    platt_first: bool = True  # the knots map Platt's output (False: they map the raw chance itself)

    def __call__(self, raw: float) -> float:
        if not self.fitted:
            return raw
        if not self.knots:
            return platt(raw, self.a, self.b)
        return through_knots(platt(raw, self.a, self.b) if self.platt_first else raw, self.knots)

    def interval(self, raw: Estimate, n: int) -> tuple[float, float]:
        """The 95% interval shown around the chance shown (`self(raw.value)`) of a chance measured on `n`
        play-outs: the raw interval's ends, mapped; but an end the map puts on the chance shown itself, where
        a chance could still be higher (or lower), is Wilson's for the chance shown on `n` play-outs. That
        is where the map is flat (beyond its last knot, or on a flat step) or the raw chance is all won (or
        all lost) while the map stops short of 1 (or 0): a hint read "96% (95% interval 57-96%)", the raw
        48 of 48 and its interval's top both beyond the last knot. A chance of 1 or 0 keeps its end."""
        shown = self(raw.value)
        low, high = self(raw.low), self(raw.high)
        if low >= shown or high <= shown:
            wide_low, wide_high = wilson(shown, shown * (1 - shown), n)
            low = min(shown, wide_low) if low >= shown else low
            high = max(shown, wide_high) if high <= shown else high
        return low, high

    def slope(self, low: float, high: float) -> float:
        """How much the map stretches a difference between two raw chances (its slope where they meet)."""
        if not self.fitted:
            return 1.0
        if high - low > 1e-6:
            return (self(high) - self(low)) / (high - low)
        if self.knots:  # the slope of the straight piece the chance is on (averaged at a knot)
            step = 1e-4
            return (self(min(1.0, low + step)) - self(max(0.0, low - step))) / (
                min(1.0, low + step) - max(0.0, low - step)
            )
        p = min(1 - EDGE, max(EDGE, low))
        q = self(p)
        return self.a * q * (1 - q) / (p * (1 - p)) if EDGE < low < 1 - EDGE else 0.0

    def seats(self, raw: list[float], seat: int) -> list[float]:
        """Every seat's chance: `seat`'s mapped, the others' mapped and scaled to share the rest of 1."""
        scale = self._others_scale(raw, seat)
        return [self(c) if q == seat else self(c) * scale for q, c in enumerate(raw)]

    def seat_intervals(self, estimates: list[Estimate], seat: int, n: int) -> list[tuple[float, float]]:
        """Every seat's 95% interval on `n` play-outs, as `interval` shows it, the others' scaled as `seats`
        scales their chances, so a chart can draw each seat's chance with its uncertainty at every seat's
        decision."""
        scale = self._others_scale([e.value for e in estimates], seat)
        mapped = [self.interval(e, n) for e in estimates]
        return [
            (low, high) if q == seat else (low * scale, min(1.0, high * scale))
            for q, (low, high) in enumerate(mapped)
        ]

    def _others_scale(self, raw: list[float], seat: int) -> float:
        """The factor that makes the other seats' mapped chances share what `seat`'s mapped chance leaves."""
        others = sum(self(c) for q, c in enumerate(raw) if q != seat)
        return (1 - self(raw[seat])) / others if others > 0 else 0.0


def calibration(game_name: str, players: int) -> Calibration:
    """The game's calibration map for `players` seats (its pooled map where that count has none)."""
    maps = _calibration_file(game_name)
    chosen = maps.get("players", {}).get(str(players)) or maps.get("pooled")
    if not chosen:
        return Calibration()
    knots = tuple((float(x), float(y)) for x, y in chosen.get("knots", ()))
    return Calibration(chosen.get("a", 1.0), chosen.get("b", 0.0), True, knots, "a" in chosen)


@functools.cache
def _calibration_file(game_name: str) -> dict[str, Any]:
    path = games.package(game_name).file("data", "calibration.json")
    return json.loads(path.read_text(encoding="utf-8")) if path else {}


def analysis_recipe(game_name: str, share: float = SEARCH_SHARE) -> SearchConfig:
    """The search of hints and analyses: the hard bot's recipe with a quarter of its iterations and no time
    cap; its anchor, rollouts and policy unchanged (docs/bots.md, "Analysis": its cost, what it finds)."""
    hard = recipe(game_name, "hard")
    return replace(
        hard,
        iterations=max(MIN_ITERATIONS, round(hard.iterations * share)),
        seconds=None,
        # a plan's next step needs the same share of the visits: the whole move from one search where the
        # hard bot's would have planned it, not one search per card of a bid
        plan_visits=max(1, round(hard.plan_visits * share)),
    )


def position_key(state: State, seat: int) -> str:
    """What `seat` knows here (its view), as a digest: two positions with one key are one decision to the
    seat, and a position whose key changed (another seat sealed its bid) is a new one, even where no log
    line or legal move changed. Nothing in it comes from what the seat cannot see."""
    return view_key(state.view(seat))


def view_key(view: dict[str, Any]) -> str:
    """`position_key` of the position a seat's `view` shows."""
    return hashlib.sha256(json.dumps(view, sort_keys=True, default=str).encode()).hexdigest()


def position_stream(state: State, seat: int) -> random.Random:
    """A random stream that is a function of what `seat` knows here (`position_key`): the hint and the
    analysis of one position search alike."""
    return random.Random(bytes.fromhex(position_key(state, seat)))


def whole_move(
    state: State, seat: int, search: Search, rng: random.Random, options: bool = True
) -> tuple[list[Action], SearchResult | None]:
    """The whole move the search makes for `seat` from here, as the hard bot plays it: its plan, searched
    again from the position reached where the plan runs out before the decision ends; and the first search.
    A plan that comes back to where the seat has already been in this move (a card added, then taken back)
    made a detour: the detour is cut out, so a hint never adds a card and takes it back. A search that keeps
    going round is finished by the greedy bot.
    Where the search's anchor is final (no tree can overrule it), each step is the anchor's move, as the hard
    bot plays it, with no tree searched: the first step's tree is searched only for its statistics (the
    hint's `options`; None without `options`), from a copy of the stream, so that the move is the same
    either way (a hint's is the analysis' preferred move) and costs no tree where nothing reads one."""
    position = state.clone()
    steps: list[Action] = []
    first: SearchResult | None = None
    seen = {_picture(position, seat): 0}  # what the seat saw -> the steps taken when it saw it
    detours = 0
    final = search.anchor_is_final()
    while True:
        world = sampled_world(position, seat, rng)
        if final:
            if options and not steps and first is None:
                first = search.run(world, seat, _copy_of(rng))  # its move is the anchor's, drawn alike
            plan = [search.anchored_move(world, seat, rng)]
        else:
            result = search.run(world, seat, rng)
            first = first or result
            plan = result.plan or [result.best]
        for action in plan:
            if action not in position.legal_actions(seat):
                if not steps:
                    raise ValueError(f"the search chose {action}, which is not a move here")
                break
            position.apply(seat, action)
            steps.append(action)
            picture = _picture(position, seat)
            if picture in seen:
                detours += 1
                steps = steps[: seen[picture]]
                position = _after(state, seat, steps)
                seen = {p: n for p, n in seen.items() if n <= len(steps)}
                if detours > MAX_DETOURS:
                    steps = _finished_by_greedy(position, seat, steps, rng)
                    return _move_made(state, seat, steps, rng), first
                continue
            if _decided(position, seat, steps):
                return _move_made(state, seat, steps, rng), first
            seen[picture] = len(steps)


def _copy_of(rng: random.Random) -> random.Random:
    """A stream that draws what `rng` would, leaving `rng` where it is."""
    copy = random.Random()
    copy.setstate(rng.getstate())
    return copy


def without_idle_steps(state: State, seat: int, steps: list[Action]) -> list[Action]:
    """The move without the steps that change nothing but the log and what others have learnt: "add a card,
    pass", where passing hands the bid back, is the pass alone (which shows no card), so a hint never asks
    for a card that does nothing. The last step, which ends the decision, always stays."""
    if len(steps) < 2:  # (every bot move is checked: a one-step move needs no replay)
        return steps
    goal = _outcome(_after(state, seat, steps))
    index = 0
    while index < len(steps) - 1:
        shorter = steps[:index] + steps[index + 1 :]
        trial = _legal_after(state, seat, shorter)
        if trial is not None and _decided(trial, seat, shorter) and _outcome(trial) == goal:
            steps = shorter
        else:
            index += 1
    return steps


def _legal_after(state: State, seat: int, steps: list[Action]) -> State | None:
    position = state.clone()
    for action in steps:
        if seat not in position.to_act() or action not in position.legal_actions(seat):
            return None
        position.apply(seat, action)
    return position


def _outcome(position: State) -> str:
    """The whole position but its log and the game's record of what seats have learnt."""
    facts = position.to_dict()
    for learnt in ("log", *games.package(position.game.name).knowledge):
        facts.pop(learnt, None)
    return json.dumps(facts, sort_keys=True, default=str)


def _after(state: State, seat: int, steps: list[Action]) -> State:
    position = state.clone()
    for action in steps:
        position.apply(seat, action)
    return position


def _move_made(state: State, seat: int, steps: list[Action], rng: random.Random) -> list[Action]:
    """`steps` as a move: without its idle steps and its take-backs (`net_move`: a detour the picture cannot
    see, as a note taken back goes to the end of the hand). Where that leaves the decision open (steps that
    went round by ever new orders of the hand until MOVE_STEPS cut them, then netted to nothing: a hint
    crashed on its empty move), greedy ends it from there."""
    move = state.net_move(seat, without_idle_steps(state, seat, steps))
    position = _after(state, seat, move)
    if move and _decision_over(position, seat):
        return move
    return _finished_by_greedy(position, seat, move, rng, cap=False)


def _decided(position: State, seat: int, steps: list[Action]) -> bool:
    return _decision_over(position, seat) or len(steps) >= MOVE_STEPS


def _decision_over(position: State, seat: int) -> bool:
    return position.is_over() or seat not in position.to_act() or not position.in_turn(seat)


def _picture(position: State, seat: int) -> str:
    """What `seat` sees of the position, but the log: a move that comes back to it is going round."""
    view = position.view(seat)
    view.pop("log", None)
    return json.dumps(view, sort_keys=True, default=str)


def _finished_by_greedy(
    position: State, seat: int, steps: list[Action], rng: random.Random, cap: bool = True
) -> list[Action]:
    """`steps` played on by greedy until the decision ends (or, with `cap`, MOVE_STEPS are taken), with a
    step at least: before its first step a seat is not yet in its decision (`in_turn`): that is no end."""
    from merchantry import bots

    game = position.game
    greedy = bots.get("greedy" if "greedy" in bots.names(game) else "random", game)
    while not steps or not (_decided(position, seat, steps) if cap else _decision_over(position, seat)):
        action = greedy.choose(sampled_world(position, seat, rng), seat, rng)
        position.apply(seat, action)
        steps.append(action)
    return steps


def shares_after(world: State, seat: int, search: Search, rng: random.Random) -> list[float]:
    """Each seat's share of the win once `world` is played on by the search's rollout policies (`seat`'s own
    steps by its own policy): to the end, or, where the game declares a `PlayOutCut`, for its actions and
    then judged by the game's evaluation (`cut_shares`)."""
    cut = play_out_cut(world.game.name)
    if cut is None:
        return search.win_shares_after(world, seat, rng)
    search.play_on(world, seat, rng, actions=cut.actions)
    if world.is_over():
        return win_shares(world.winners(), world.num_players)
    return cut_shares(search.judge(world), cut.spread)


def cut_shares(standing: list[float], spread: float) -> list[float]:
    """Each seat's share of a world cut short, by its standing: exp(standing / spread), normalised (the
    leader's share grows with its lead; shares add up to 1; equal standings share equally)."""
    top = max(standing)
    weights = [math.exp((value - top) / spread) for value in standing]
    total = sum(weights)
    return [w / total for w in weights]


@functools.cache
def play_out_cut(game_name: str) -> PlayOutCut | None:
    return games.package(game_name).analysis_cut


def play_outs(
    state: State,
    seat: int,
    moves: list[list[Action]],
    search: Search,
    rng: random.Random,
    worlds: int,
    floor: int | None = None,
    calibrate: Calibration | None = None,
    confirm: int = 1,
) -> list[list[list[float]]]:
    """Each whole move played in the same `worlds` worlds sampled for `seat`, then played out by the search's
    rollout from one random stream per world for every move (`shares_after`): per move, per world, each
    seat's win share.
    With a `floor`, the moves after the first (the one played) stop being played out once they have been in
    `floor` worlds and their loss against the first is `settled` (as `calibrate` shows it): the worlds
    drawn, and so the first move's play-outs, are the same either way (each world's play-outs have a stream
    of their own). With `confirm` above 1, a loss that `worlds` would mark goes on in more worlds, up to
    `confirm` times as many, while it would: a mark stands on all of them."""
    outcomes: list[list[list[float]]] = [[] for _ in moves]
    playing = len(moves)
    done = 0
    while done < worlds or (done < worlds * confirm and playing > 1 and markable(outcomes, seat, calibrate)):
        done += 1
        world = sampled_world(state, seat, rng)
        stream = rng.getrandbits(64)
        for outcome, steps in zip(outcomes[:playing], moves[:playing], strict=True):
            trial = world.clone()
            for action in steps:
                trial.apply(seat, action)
            outcome.append(shares_after(trial, seat, search, random.Random(stream)))
        if floor is not None and playing > 1 and done >= floor and settled(outcomes, seat, calibrate):
            playing = 1
    return outcomes


def loss_of(outcomes: list[list[list[float]]], seat: int) -> Estimate:
    """How much more the last move wins for `seat` than the first, on the worlds both were played in."""
    first, last = outcomes[0], outcomes[-1]
    return Estimate.of([b[seat] - a[seat] for a, b in zip(first, last, strict=False)], floor=-1.0)


def played_and_best(outcomes: list[list[list[float]]], seat: int) -> tuple[float, float, Estimate]:
    """The move played's raw chance for `seat`, the preferred move's (the played one's plus the difference
    measured on the same worlds: the preferred move may have been played out in fewer of them), and that
    difference, the loss, with its interval. What `markable`, `settled` and `_decision` each judge."""
    loss = loss_of(outcomes, seat)
    played = sum(shares[seat] for shares in outcomes[0]) / len(outcomes[0])
    return played, min(1.0, max(0.0, played + loss.value)), loss


def markable(outcomes: list[list[list[float]]], seat: int, calibrate: Calibration | None = None) -> bool:
    """Whether the play-outs so far would mark the move played (as `_decision` marks it): its loss through
    the calibration map at a mark's threshold, and above 0 beyond its 95% interval."""
    played, best, loss = played_and_best(outcomes, seat)
    if loss.low <= 0:
        return False
    shown = calibrate or Calibration()
    return shown_mark(shown(best), shown(played)) is not None


def settled(outcomes: list[list[list[float]]], seat: int, calibrate: Calibration | None = None) -> bool:
    """Whether more worlds could no longer give the move played a mark: the loss's 95% interval (stretched
    as the calibration map shows it) lies below the smallest mark's threshold. A loss that may be a mark is
    played out in every world: a 16-world sample, its 0-or-1 outcomes lumpy and the map steep near the top,
    read as a 65-point blunder where 200 worlds show the two moves alike (issue 32, ninth pass)."""
    played, best, loss = played_and_best(outcomes, seat)
    ends = sorted((played, best))
    stretch = (calibrate or Calibration()).slope(*ends)
    return loss.high * stretch < min(threshold for threshold, _ in MARKS)


def decided(state: State, seat: int, outcomes: list[list[list[float]]]) -> bool:
    """Whether the play-outs measured a certainty: nothing is hidden from `seat` (the worlds sampled for it
    are one world) and every play-out of every move ended alike. Its chance is then shown as measured, not
    through the calibration map, which reads the play-outs' raw shares as the games fitted on meant them: a
    tie settled once the last hidden card was known read 39% where the tie's share is 50%, and a won game
    95% (issue 32, the twelfth pass). With something hidden, worlds that agree are still guesses (a
    game-ending move that lost read 100% on its worlds: the tenth pass), so the map stays."""
    first = outcomes[0][0]
    if any(shares != first for outcome in outcomes for shares in outcome):
        return False
    probe = random.Random(0)  # (which worlds are drawn does not matter: only whether they differ)
    world = state.sample_hidden(seat, probe).to_dict()
    return all(state.sample_hidden(seat, probe).to_dict() == world for _ in range(DECIDED_WORLDS - 1))


def chances(outcome: list[list[float]]) -> list[float]:
    """Each seat's mean win share over the play-outs of one move (they add up to 1)."""
    return [sum(shares[p] for shares in outcome) / len(outcome) for p in range(len(outcome[0]))]


def seat_estimates(outcome: list[list[float]]) -> list[Estimate]:
    """Each seat's chance over the play-outs of one move, with its 95% interval."""
    return [Estimate.of_chance([shares[p] for shares in outcome]) for p in range(len(outcome[0]))]


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
    position: str = ""  # the `position_key` of the position it was worked out for
    certain: bool = False  # nothing hidden from the seat and every play-out alike (`decided`): no guess
    taught: bool = False  # the moves a guided first game's step asks for (`hint`'s `taught`), not searched

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def hint(
    state: State,
    seat: int,
    game_name: str,
    rng: random.Random | None = None,
    config: SearchConfig | None = None,
    worlds: int = WORLDS,
    taught: list[str] | None = None,
) -> Hint:
    """The whole move `hard` (or `config`) would play for `seat` here, searched on the seat's sampled worlds
    only, with its chance measured. The search's stream is `position_stream` (`rng` is not used: the hint
    must be the move the analysis of this position prefers).
    `taught`: the moves a guided first game's step asks for here (server/tutorials.py `asked_next`): the
    hint proposes them, with their chance measured the same way, and no other option (a lesson's step and
    the Hint button must not contradict each other; the lesson's fixed deal is taught by its moves)."""
    search = searcher(game_name, config or analysis_recipe(game_name))
    stream = position_stream(state, seat)
    if taught:
        steps, after = [], state.clone()
        for text in taught:
            steps.append(after.game.parse_action(after, seat, text))
            after.apply(seat, steps[-1])
        first = None
    else:
        steps, first = whole_move(state, seat, search, stream)
        assert first is not None  # a whole move with its options searched
    outcome = play_outs(state, seat, [steps], search, stream, worlds)[0]
    raw = Estimate.of_chance([shares[seat] for shares in outcome])
    certain = decided(state, seat, [outcome])
    calibrate = Calibration() if certain else calibration(game_name, state.num_players)
    low, high = (raw.value, raw.value) if certain else calibrate.interval(raw, len(outcome))
    return Hint(
        seat=seat,
        best=str(steps[0]),
        plan=[str(a) for a in steps],
        chance=round(calibrate(raw.value), 3),
        low=round(low, 3),
        high=round(high, 3),
        chances=[round(c, 3) for c in calibrate.seats(chances(outcome), seat)],
        options=[
            {"action": str(a.action), "visits": a.visits, "chance": round(calibrate(a.value), 3)}
            for a in (first.actions if first else [])
        ],
        position=position_key(state, seat),
        certain=certain,
        taught=bool(taught),
    )


class FollowedHints:
    """The hint last given to each asker (a table's seat), with the number of moves the game had then: asked
    again once the seat has played the first steps of the hinted move, and while that move goes on
    (`State.in_turn`), the answer is the rest of the same move with the same chance, whatever other seats
    did meanwhile (sealed their bids). A new search half-way could change its mind: issue 32's thirteenth
    pass had "H5, then G6" at 50%, after H5 "I3" at 37%, and the player, following every hint, ended on a
    move neither hint had proposed, which the analysis marked against the first hint's; the fourteenth had a
    sealed bid's rest searched again after the other seats sealed theirs, at another chance than the
    analysis'. The analysis judges a decision from the position before its first step, where the first hint
    was worked out, so the rest of that hint is the move it prefers. Kept for the `most` latest askers."""

    def __init__(self, most: int = 1000) -> None:
        self.most = most
        self._kept: dict[Any, tuple[Hint, int]] = {}

    def next_of(self, asker: Any, position: State, seat: int, moves: list[Any]) -> Hint | None:
        """The rest of the move last hinted to `asker`, where `moves` (the game's, each `(seat, notation)`)
        show that `seat` has played its first steps since, and nothing else, and `position` continues it."""
        kept = self._kept.get(asker)
        if kept is None:
            return None
        advice, since = kept
        mine = [str(text) for mover, text in moves[since:] if mover == seat]
        done = len(mine)
        if not 0 < done < len(advice.plan) or mine != advice.plan[:done]:
            return None
        if position.is_over() or seat not in position.to_act() or not position.in_turn(seat):
            return None
        if advice.plan[done] not in {str(a) for a in position.legal_actions(seat)}:
            return None
        rest = advice.plan[done:]
        return replace(advice, best=rest[0], plan=rest, options=[], position=position_key(position, seat))

    def remember(self, asker: Any, advice: Hint, moves_so_far: int) -> None:
        """`advice`, just given to `asker`, when the game had `moves_so_far` moves."""
        self._kept.pop(asker, None)
        self._kept[asker] = (advice, moves_so_far)
        while len(self._kept) > self.most:  # the oldest asker first (a dict keeps insertion order)
            del self._kept[next(iter(self._kept))]


@dataclass(frozen=True)
class Decision:
    move: int  # 1-based number in the record of the move's last step (when the decision is complete)
    moves: list[int]  # the numbers of all its steps
    seat: int
    played: str  # the whole move, its steps separated by ", "
    preferred: str
    before: float  # its chance here: with the preferred move, or the played one where it measured higher
    after: float  # its chance after the move played
    best: float  # its chance after the move preferred (= before)
    mark: str | None
    after_interval: tuple[float, float]  # 95% intervals
    best_interval: tuple[float, float]
    loss_interval: tuple[float, float]  # of best - after, measured on the same worlds
    chances: list[float]  # every seat's chance after the move played (they add up to 1)
    round: int = 0  # the round it was made in (the newest "new_round" of the log before it; 0: none yet)
    chance_intervals: list[tuple[float, float]] = field(default_factory=list)  # every seat's, as `chances`
    taught: bool = False  # a guided first game's move that its lesson asked for: shown, never marked

    @property
    def before_interval(self) -> tuple[float, float]:
        """`before`'s 95% interval: the move played's where it measured higher than the preferred one."""
        return self.after_interval if self.after > self.best else self.best_interval

    @property
    def loss(self) -> float:
        return max(0.0, self.best - self.after)


KEY_MOMENTS = 3  # per seat


def key_moments(decisions: list[Decision], players: int) -> list[list[dict[str, Any]]]:
    """Per seat, its (at most) three costliest moves, listed in the order they were played (a newcomer
    reads a game from its start: round 2 before round 7, whichever cost more): the marked ones, which lost
    clearly more than their uncertainty; what was played, what was preferred, the round, the points lost."""
    moments = []
    for seat in range(players):
        costliest = sorted((d for d in decisions if d.seat == seat and d.mark), key=lambda d: -d.loss)
        mine = sorted(costliest[:KEY_MOMENTS], key=lambda d: d.moves[0])
        moments.append(
            [
                {
                    "move": d.moves[0],
                    "round": d.round,
                    "played": d.played,
                    "preferred": d.preferred,
                    # as the marks table shows it, before → after in whole percent (a rounded loss of 8.8
                    # read "about 9 points" beside "35% → 27%")
                    "points": percent(d.before) - percent(d.after),
                    "mark": d.mark,
                }
                for d in mine
            ]
        )
    return moments


def moments(
    decisions: list[Decision], players: int, result: list[float] | None = None
) -> list[list[dict[str, Any]]]:
    """Per seat, what the page and the terminal say above the move list, in the order of the game (a
    newcomer reads a game from its start): its `key_moments` ("kind": "key") and its turning point
    ("kind": "turning"; `result`: see `turning_points`)."""
    keys, falls = key_moments(decisions, players), turning_points(decisions, players, result)
    return [
        sorted(
            [{"kind": "key", **m} for m in keys[seat]] + [{"kind": "turning", **f} for f in falls[seat]],
            key=lambda moment: moment["move"],
        )
        for seat in range(players)
    ]


FALL = 0.10  # a seat's chance falling at least this much between its moves is a turning point for it


def turning_points(
    decisions: list[Decision], players: int, result: list[float] | None = None
) -> list[list[dict[str, Any]]]:
    """Per seat, where its chance fell most between two of its own decisions while other seats played
    (with whatever the deal brought meanwhile), when the fall is at least `FALL` and clearly more than its
    uncertainty (the 95% intervals of the two do not meet). It tells a seat that played every move well
    why it lost all the same: its own marked moves (`key_moments`) are then none.
    Both chances are the seat's own, each from what it knew at its decision (after its move, then before
    its next): a chance from another seat's decision is worked out from that seat's knowledge (its own
    hand), and a fall between the two would be their difference of knowledge, not anything played.
    `result`: each seat's share of the win at the end (a finished game's), the last "chance" of every seat,
    known exactly: a fall from after a seat's last decision to the end, while others played, is a turning
    point too ("end": true). A game lost by the others' last moves said nothing of them (issue 32: a seat at
    78% after its last move lost, and the analysis named no moment)."""
    biggest: list[tuple[float, dict[str, Any]] | None] = [None] * players
    for seat in range(players):
        mine = [n for n, d in enumerate(decisions) if d.seat == seat]
        falls = [
            (decisions[earlier], decisions[later].before, decisions[later].before_interval[1], earlier, later)
            for earlier, later in zip(mine, mine[1:], strict=False)
        ]
        if result is not None and mine:
            falls.append((decisions[mine[-1]], result[seat], result[seat], mine[-1], len(decisions)))
        for earlier, to, to_high, start, stop in falls:
            between = decisions[start + 1 : stop]
            fall = earlier.after - to
            kept = biggest[seat]
            if between and clear_fall(earlier, to, to_high) and (kept is None or fall > kept[0]):
                biggest[seat] = (fall, turning_point(earlier, to, between, end=stop == len(decisions)))
    return [[] if kept is None else [kept[1]] for kept in biggest]


def turning_point(earlier: Decision, to: float, between: list[Decision], end: bool) -> dict[str, Any]:
    """The fall of `earlier.seat`'s chance from after its move `earlier` to `to` (before its next move, or
    its share of the win at the `end`), and the other seats' moves in between (those that had a choice),
    the first of them where it is shown; at the end, "shared" where the result is a shared win (a fall "to
    50%" of a seat that won with another)."""
    point = {
        "move": between[0].moves[0],
        "round": between[0].round,
        "by": sorted({d.seat for d in between}),
        "moves": [{"seat": d.seat, "played": d.played} for d in between],
        "from": percent(earlier.after),
        "to": percent(to),
    }
    if not end:
        return point
    # a share of the win between 0 and 1 is a shared win: the seat won, with others (the fall is its share)
    return {**point, "end": True, "shared": True} if 0 < to < 1 else {**point, "end": True}


def clear_fall(earlier: Decision, to: float, to_high: float) -> bool:
    """Whether a seat's chance fell by `FALL` or more from after its move `earlier` to `to` (whose 95%
    interval ends at `to_high`), beyond both intervals."""
    return earlier.after - to >= FALL and earlier.after_interval[0] > to_high


def round_of(state: State) -> int:
    """The round a decision is made in: the public view's round where it has one, else the log's newest
    "new_round" marker. A log may open a round only at its first public event (sealed bids are revealed
    after they are made): labelled by the log, a round's bids read as the round before."""
    view = state.view(None)
    if isinstance(view.get("round"), int):
        return int(view["round"])
    rounds = [event["new_round"] for event in view["log"] if "new_round" in event]
    return int(rounds[-1]) if rounds else 0


def decisions_in(record: dict[str, Any]) -> Iterator[tuple[State, int, list[tuple[int, Action]]]]:
    """Each decision of a record as it completes: the position before its first step, the seat, and its steps
    (number in the record, action). A seat's decision goes on while the seat is `in_turn` and to act, even
    while others take steps of their own (sealed bids are built side by side); a sale made on one's turn
    goes with the turn's move (`State.in_turn`), so that the preferred move, searched as a whole move from
    the same position, is a move of the same decision point."""
    game = games.get(record["game"])
    state = game.new_game(players=record["players"], seed=record["seed"], **record["options"])
    started: dict[int, tuple[State, list[tuple[int, Action]]]] = {}
    for number, (seat, text) in enumerate(record["moves"], start=1):
        action = game.parse_action(state, seat, text)
        if seat not in started:
            started[seat] = (state.clone(), [])
        started[seat][1].append((number, action))
        state.apply(seat, action)
        if state.is_over() or not state.in_turn(seat) or seat not in state.to_act():
            before, steps = started[seat]
            still_to_decide = not state.is_over() and seat in state.to_act()
            if still_to_decide and made_no_move(before, seat, [step for _, step in steps]):
                continue  # steps that undid themselves (a card put into a bid, taken out): still deciding
            del started[seat]
            yield before, seat, steps
    for seat, (before, steps) in started.items():
        yield before, seat, steps


def made_no_move(before: State, seat: int, steps: list[Action]) -> bool:
    """Whether `seat`'s `steps` from `before` come to no move at all as a person would say it (a card put
    into a sealed bid and taken out again: `State.net_move`), so that its decision is still to make."""
    return not before.net_move(seat, steps)


def judge(
    before: State,
    seat: int,
    played: list[Action],
    search: Search,
    worlds: int = WORLDS,
    floor: int | None = FLOOR,
    calibrate: Calibration | None = None,
) -> tuple[list[Action], list[list[list[float]]]]:
    """The preferred whole move at `before` and the play-outs of [played, preferred] on the same worlds
    (only [played] when they are the same move; the preferred one until its loss is settled)."""
    stream = position_stream(before, seat)
    preferred, _ = whole_move(before, seat, search, stream, options=False)
    moves = [played] if preferred == played else [played, preferred]
    confirm = CONFIRM if floor is not None else 1
    return preferred, play_outs(before, seat, moves, search, stream, worlds, floor, calibrate, confirm)


def analyze(
    record: dict[str, Any],
    config: SearchConfig | None = None,
    progress: Callable[[int, int], None] | None = None,
    worlds: int = WORLDS,
    workers: int = 1,
    floor: int | None = FLOOR,
) -> Iterator[Decision]:
    """Judge every decision of a game record that had a choice, each by its own seat's sampled worlds.
    A malformed record or a refused move raises InvalidRecord before anything is searched. With `workers`
    above 1 the decisions are judged in that many worker processes, and yielded in order as each is ready:
    the same Decisions as in one process (each is a function of its position and the settings), so long as
    `config` has no time cap. `floor`: see `play_outs` (None: every move in all `worlds`)."""
    if workers < 1:
        raise ValueError(f"workers must be at least 1, not {workers}")
    records.replay(record)  # the whole record is checked first
    game = record["game"]
    config = config or analysis_recipe(game)
    total = len(record["moves"])
    work = [
        (before, seat, [n for n, _ in steps], [a for _, a in steps])
        for before, seat, steps in decisions_in(record)
    ]
    judged = [had_a_choice(before, seat, played) for before, seat, _, played in work]
    if workers <= 1:
        results: Iterator[Decision | None] = (
            _decision(game, config, *item, worlds, floor) if choice else None
            for item, choice in zip(work, judged, strict=True)
        )
    else:
        results = _in_workers(game, config, work, judged, worlds, floor, workers)
    for (_, _, numbers, _), decision in zip(work, results, strict=True):
        if decision is not None:
            yield decision
        if progress:
            progress(numbers[-1], total)


def had_a_choice(before: State, seat: int, played: list[Action]) -> bool:
    """Whether a decision is judged: the seat was to act and had more than one move. A move made out of
    turn (a sale while others bid) is not: the search plans for a seat to act, and "sell now" has no
    whole move of the search to compare with (waiting is no move); searching it found no move at all."""
    if seat not in before.to_act():
        return False
    return len(played) > 1 or len(before.legal_actions(seat)) > 1


def _in_workers(
    game: str,
    config: SearchConfig,
    work: list[tuple[State, int, list[int], list[Action]]],
    judged: list[bool],
    worlds: int,
    floor: int | None,
    workers: int,
) -> Iterator[Decision | None]:
    """Each decision judged in a pool of `workers` processes, yielded in the record's order; a consumer that
    stops early cancels what has not started."""
    # spawned, not forked: the caller may run threads (a progress bar, a server) a fork would copy mid-step
    pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"))
    try:
        futures: list[Future[Decision] | None] = [
            pool.submit(_decision, game, config, *item, worlds, floor) if choice else None
            for item, choice in zip(work, judged, strict=True)
        ]
        for future in futures:
            yield future.result() if future is not None else None
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


_searches: dict[tuple[str, SearchConfig], Search] = {}  # per process: a worker builds each search once


def _search_for(game: str, config: SearchConfig) -> Search:
    if (game, config) not in _searches:
        _searches[game, config] = searcher(game, config)
    return _searches[game, config]


def _decision(
    game: str,
    config: SearchConfig,
    before: State,
    seat: int,
    numbers: list[int],
    played: list[Action],
    worlds: int,
    floor: int | None,
) -> Decision:
    # the move as its player would say it (a bid without the cards taken back out): the same position, so
    # the same judgement, and equal to the preferred move where it is the same bid
    played = before.net_move(seat, played)
    # (a move that ends the game is shown through the map too, as its hint showed it: its worlds' results
    # are still the seat's knowledge, the others' hidden cards sampled; shown raw, a game-ending move that
    # lost read 100% where its hint had said 78%. The chart's line then ends at the result: issue 32)
    calibrate = calibration(game, before.num_players)
    preferred, outcomes = judge(before, seat, played, _search_for(game, config), worlds, floor, calibrate)
    certain = decided(before, seat, outcomes)
    if certain:
        calibrate = Calibration()  # a certainty is shown as measured, with no interval around it
    mine = [[shares[seat] for shares in outcome] for outcome in outcomes]
    after = Estimate.of_chance(mine[0])
    _, best_value, loss = played_and_best(outcomes, seat)
    spread = Estimate.of_chance(mine[-1])  # the preferred move's interval: the spread of its own play-outs
    best = Estimate(
        best_value,
        max(0.0, best_value - (spread.value - spread.low)),
        min(1.0, best_value + (spread.high - spread.value)),
    )
    stretch = calibrate.slope(min(after.value, best.value), max(after.value, best.value))
    shown_after, shown_best = calibrate(after.value), calibrate(best.value)
    return Decision(
        move=numbers[-1],
        moves=numbers,
        seat=seat,
        played=", ".join(str(a) for a in played),
        preferred=", ".join(str(a) for a in preferred),
        # its chance before the move is its best known move's: the move played, where the same worlds measured
        # it above the search's preferred one (else a seat's own move seemed to raise its chance)
        before=max(shown_best, shown_after),
        after=shown_after,
        best=shown_best,
        mark=shown_mark(shown_best, shown_after) if loss.low > 0 else None,
        after_interval=(after.value, after.value) if certain else calibrate.interval(after, len(mine[0])),
        best_interval=(best.value, best.value) if certain else calibrate.interval(best, len(mine[-1])),
        # (a difference of two chances: within -1 and 1, however steep the map; it read 0.35-1.10)
        loss_interval=(max(-1.0, loss.low * stretch), min(1.0, loss.high * stretch)),
        chances=calibrate.seats(chances(outcomes[0]), seat),
        round=round_of(before),
        chance_intervals=calibrate.seat_intervals(seat_estimates(outcomes[0]), seat, len(outcomes[0])),
    )


def mean_loss_interval(mine: list[Decision]) -> tuple[float, float]:
    """The 95% interval of a seat's mean loss, from its decisions' own: each decision's loss was measured
    on its own worlds, so their errors are independent and the mean's standard error is the root of the
    sum of their squares over the count (each read off its interval's width, the normal approximation the
    intervals were made with); clipped to what a mean loss can be, [0, 1]. (0, 0) without decisions."""
    if not mine:
        return (0.0, 0.0)
    mean = sum(d.loss for d in mine) / len(mine)
    errors = [(d.loss_interval[1] - d.loss_interval[0]) / (2 * Z95) for d in mine]
    half = Z95 * math.sqrt(sum(e * e for e in errors)) / len(mine)
    return (max(0.0, mean - half), min(1.0, mean + half))


def summary(decisions: list[Decision], players: int) -> list[dict[str, Any]]:
    """Per seat: decisions judged, how many of each mark, and the mean loss of chance per decision with
    its 95% interval (every number shown carries its uncertainty)."""
    rows = []
    for seat in range(players):
        mine = [d for d in decisions if d.seat == seat]
        row: dict[str, Any] = {"seat": seat, "decisions": len(mine)}
        for _, name in MARKS:
            row[name] = sum(1 for d in mine if d.mark == name)
        row["mean_loss"] = sum(d.loss for d in mine) / len(mine) if mine else 0.0
        row["mean_loss_interval"] = mean_loss_interval(mine)
        rows.append(row)
    return rows
