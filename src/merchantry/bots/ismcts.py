"""Information-set Monte Carlo tree search (ISMCTS), generic over the engine contract.

Single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012): one tree for the searching seat, whose every
iteration plays in a fresh world drawn with `sample_hidden(seat, rng)` from the search's own random stream,
so the search never reads what its seat could not know. A node is a sequence of (seat, action) steps from
the root; a child is selected by UCB among the actions legal *in this iteration's world*, its exploration
term counted against how often it was available (not how often its parent was visited).

- Several players: a reward is a vector, one value per seat; every node keeps the reward of the seat whose
  action led to it.
- Simultaneous steps (several seats in `to_act`, e.g. sealed bids): the searching seat decides first, and
  the others' choices there are drawn from the rollout policy instead of being searched, because a seat
  searched after ours would answer a choice it cannot see.
- Rollouts: `random` (uniform) or `greedy` (the game's own greedy bot), up to `rollout_depth` actions.
  Rewards: "win" (a win share; a cut-short rollout's leader by the game's evaluation takes the win) or
  "gain" (each seat's own evaluation gained since the root: blind to the others' sampled hidden cards).
- Anchor: optionally, the greedy move is kept unless the search finds one better by `anchor_margin` (or
  the move of `own_policy`, or of `anchor_policy`, a bot too slow to play rollouts). With a margin of
  `math.inf` the anchor's move is final: a `SearchBot` plays it without searching, its budget the anchor's
  (an anchor bot offering `choose_within(world, seat, rng, deadline)` bounds its own look by it).
- Even: where the tree tells the seat's moves no apart (each has the same mean reward: with the "win"
  reward, a game lost, or won, in every world the search drew), the move is the `even` policy's (the
  game's greedy bot, which plays for points) instead of whichever was visited most by chance. Without it
  a hard seat far behind, in a game whose hard level has no anchor, said `done` at the last sale holding
  a set, and discarded cards it could have sold (issue 32): every move won nothing, so the most visited
  one was noise. A plan stops before such a step (it is searched again, and the even move played): a
  hint "sell a set, done" of a seat that had lost kept the plan's `done` while it held another set.
- Own policy: optionally, a better bot of the game than greedy plays the searching seat's own steps in
  rollouts and gives the anchor's move (a search that improves on that bot rather than on greedy).
- Settle: with `settle` above 0, a search goes on past `iterations` (by up to that share of them, within
  its time) while the seat's most visited move at the root is clearly not its best by mean: another move
  with at least half its visits wins more often by over one standard error of their difference. At a small
  budget the visits are noise: a hint of 150 iterations proposed a move of 46 visits at 85% over one of 36
  visits at 94%, a newcomer followed it and lost a won game (issue 32; docs/bots.md, "Settle"). Searched on,
  UCB gives the better move the visits; ties of visits go to the better mean.
- Budget: `iterations`, or `seconds` of wall time, whichever ends first. For a `SearchBot`, `seconds` is the
  budget of a whole move (ENGINE principle 5: a decision as a person makes it); the steps of one move share
  it (`MoveClock`), so a bot's turn takes as long whatever its number of steps.

`Search.run()` returns the statistics of the root (for hints and analysis); `SearchBot` plays by them, and
plays a multi-step move (building a bid card by card, a whole market turn) from one search: the most
visited line of its own consecutive steps, re-searched when the world turns out different than planned.
A step searched again within the same move starts from the subtree below the step just played, when the
seat has learnt nothing since (its view is the one that step was planned for): every iteration below that
node was played in a world consistent with what the seat knows now, so its statistics still hold.
docs/bots.md has the parameters and the runs that chose them.
"""

from __future__ import annotations

import math
import os
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from merchantry.bots.worlds import sampled_world
from merchantry.engine import Action, State

Evaluation = Callable[[State], list[float]]

# "cpu": search budgets count this process's CPU time, not wall time (benchmarks on a shared machine, where
# wall time measures the neighbours' load; a server keeps wall time, which is what a person waits)
CLOCK_ENV = "MERCHANTRY_SEARCH_CLOCK"
# a step of a move that may go on takes this share of the move's time left: the first choice of a move is the
# one that shapes it, and later steps start from its tree (docs/bots.md, "Pace")
STEP_SHARE = 0.7


def time_for_another(now: float, begun: float, done: int, deadline: float) -> bool:
    """Whether one more iteration, taking as long as the `done` ones since `begun` took on average, ends by
    the `deadline`: a search ends close to its deadline, not one long iteration past it (the server's pause
    before publishing a move must outlast its thinking; docs/web.md, "Timing")."""
    mean = (now - begun) / done if done else 0.0
    return now + mean <= deadline


def search_clock() -> Callable[[], float]:
    """The clock search budgets are counted on (CLOCK_ENV)."""
    return time.process_time if os.environ.get(CLOCK_ENV) == "cpu" else time.perf_counter


@dataclass(frozen=True)
class SearchConfig:
    """A search recipe; see docs/bots.md for the runs that chose each default."""

    # iterations per search, at most (a search continued from a subtree counts the visits it starts with)
    iterations: int = 1000
    # wall-time budget per search; a SearchBot's whole move shares it, step by step (None: iterations only)
    seconds: float | None = None
    exploration: float = 0.7  # UCB's constant c in mean + c * sqrt(ln(available) / visits)
    rollout: str = "random"  # "random" or "greedy": the policy that plays a rollout out
    rollout_depth: int | None = (
        None  # actions a rollout plays before the evaluation judges it (None: to the end)
    )
    plan_visits: int = 20  # a planned next step needs this many visits, else the bot searches again
    # the game's greedy move is played unless the search finds a move better by this much (None: pure search;
    # math.inf: always the anchor's move, so a SearchBot plays it without searching, while hints and analyses
    # still search the position for its chances)
    anchor_margin: float | None = None
    # a bot of the game (by name) that plays the searching seat's own steps in rollouts and gives the move the
    # anchor keeps; the other seats play by `rollout` (None: the searching seat plays by `rollout` too, and
    # the anchor is greedy)
    own_policy: str | None = None
    # a bot of the game (by name) that gives the move the anchor keeps, when it is not `own_policy` (a bot
    # that looks further ahead than a rollout can afford to, e.g. one that plays its own endgame out)
    anchor_policy: str | None = None
    # "win": a rollout's reward is who wins (or leads, cut short); "gain": each seat's own evaluation gained
    # since the root, `gain_scale` points = a reward of 1 (blind to the others: see docs/bots.md)
    reward: str = "win"
    gain_scale: float = 20.0
    # "search": every seat's decisions are searched, each maximising its own reward; "policy": only the
    # searching seat's are, the others play by the rollout policy inside the tree too (an opponent model:
    # the tree spends every iteration on the seat's own choices; see docs/bots.md)
    opponents: str = "search"
    # the search goes on, by up to this share of `iterations` more (within its deadline), while the most
    # visited move of the seat is not its best by mean: another move with at least half its visits wins
    # more often by over one standard error (the module's "Settle"; 0: the most visited move as it stands)
    settle: float = 0.0
    # "tree": ISMCTS as above; "flat": every legal move judged on the same `iterations` sampled worlds,
    # each played out by the rollout policy from the same random stream (common random numbers: two moves
    # are compared on identical futures, so a small real difference is not lost in the noise)
    method: str = "tree"


@dataclass
class Node:
    """One sequence of (seat, action) steps from the root. Children are keyed by who acts as well as by
    the action: who acts next may depend on hidden cards (a sale offer only if someone holds the card), so
    one node may see different seats act in different worlds, and their statistics must not mix."""

    mover: int = -1  # the seat whose action led here; the node's reward is that seat's
    visits: int = 0
    available: int = 0
    reward: float = 0.0
    won: float = 0.0  # the searching seat's summed win share (what it reports; `reward` is what it learns)
    children: dict[tuple[int, Action], Node] = field(default_factory=dict)

    def mean(self) -> float:
        return self.reward / self.visits if self.visits else 0.0

    def chance(self) -> float:
        return self.won / self.visits if self.visits else 0.0


@dataclass(frozen=True)
class ActionValue:
    action: Action
    visits: int
    value: float  # the searching seat's chance to win after this action (its mean win share)


@dataclass(frozen=True)
class SearchResult:
    seat: int
    iterations: int
    value: float  # the searching seat's estimated chance to win (mean win share over all iterations)
    actions: list[ActionValue]  # every root action tried, most visited first
    plan: list[Action]  # the most visited line of the seat's own consecutive steps, first step included
    root: Node | None = field(default=None, repr=False, compare=False)  # the tree searched (None: flat)

    @property
    def best(self) -> Action:
        return self.actions[0].action


def win_shares(winners: list[int], players: int) -> list[float]:
    shares = [0.0] * players
    for seat in winners:
        shares[seat] = 1.0 / len(winners)
    return shares


def leader_shares(values: list[float]) -> list[float]:
    """An unfinished world judged by its evaluation: the leader(s) take the win."""
    best = max(values)
    return win_shares([seat for seat, value in enumerate(values) if value == best], len(values))


def unsettled(root: Node, seat: int) -> bool:
    """Whether the seat's most visited move at the root is not its best by mean: a move with at least half
    its visits wins more often by over one standard error of the difference (module's "Settle")."""
    mine = [child for (actor, _), child in root.children.items() if actor == seat]
    if len(mine) < 2:
        return False
    top = max(mine, key=lambda child: (child.visits, child.mean()))
    return any(
        child is not top
        and 2 * child.visits >= top.visits
        and child.mean() - top.mean() > math.hypot(standard_error(top), standard_error(child))
        for child in mine
    )


def standard_error(node: Node) -> float:
    """The standard error of a node's mean reward, at most: a reward within [0, 1] with mean p varies by
    no more than p(1 - p), which a win share of 0 or 1 reaches."""
    p = node.mean()
    return math.sqrt(max(0.0, p * (1 - p)) / node.visits) if node.visits else math.inf


def acting_seat(state: State, seat: int) -> int:
    """Who decides next in the search: the searching seat first in a simultaneous step."""
    to_act = state.to_act()
    return seat if seat in to_act else to_act[0]


class Search:
    """One search from `world` (a world already sampled for `seat`)."""

    def __init__(
        self,
        config: SearchConfig,
        policy: Callable[[State, int, random.Random], Action],
        evaluate: Evaluation | None,
        anchor: Callable[[State, int, random.Random], Action] | None = None,
        own_policy: Callable[[State, int, random.Random], Action] | None = None,
        even: Callable[[State, int, random.Random], Action] | None = None,
        greedy_ending: Callable[[State], bool] | None = None,
    ) -> None:
        self.config = config
        self.even = even  # the move where the search tells the moves no apart (see the module's "Even")
        # where a chance's play-out goes on by `even` (greedy) for every seat (the package's `greedy_ending`)
        self.greedy_ending = greedy_ending
        self.policy = policy
        self.own_policy = own_policy or policy  # the searching seat's own steps in rollouts
        self.evaluate = evaluate
        self.anchor = anchor  # the move kept unless the search clearly beats it (see anchor_margin)
        self.base: list[float] = []  # each seat's standing at the root, for the "gain" reward
        if config.opponents not in ("search", "policy"):
            raise ValueError(f"unknown opponents {config.opponents!r}: search or policy")
        self.modelled = config.opponents == "policy"

    def run(
        self,
        world: State,
        seat: int,
        rng: random.Random,
        deadline: float | None = None,
        root: Node | None = None,
    ) -> SearchResult:
        """Search `world` for `seat` until `iterations` or the `deadline` (on `search_clock()`; default: now
        plus `seconds`), whichever comes first, always until the tree holds a move of the seat's own.
        `root`: a subtree of an earlier search of the same seat to go on from (SearchBot's next step of a
        move); its reward's baseline is then kept, so that old and new iterations are judged alike."""
        config = self.config
        clock = search_clock()
        if deadline is None:
            deadline = clock() + config.seconds if config.seconds else math.inf
        if root is None or not root.visits:
            root = Node()
            self.base = self.judge(world) if config.reward == "gain" else []
        acting = seat in world.to_act() and bool(world.legal_actions(seat))
        anchored = None
        # an anchor only where the seat has a choice (an analysis also searches a seat that waits); chosen
        # first, so that its time counts within the budget
        if self.anchor is not None and config.anchor_margin is not None and acting:
            anchored = self.anchored_move(world, seat, rng, deadline)
        begun, done = clock(), 0
        while not self.has_answer(root, seat, acting) or (
            root.visits < config.iterations and time_for_another(clock(), begun, done, deadline)
        ):
            self.iterate(root, sampled_world(world, seat, rng), seat, rng)
            done += 1
        settled_by = config.iterations + round(config.settle * config.iterations)
        while (
            acting
            and root.visits < settled_by
            and unsettled(root, seat)
            and time_for_another(clock(), begun, done, deadline)
        ):
            self.iterate(root, sampled_world(world, seat, rng), seat, rng)
            done += 1
        if anchored is None and acting and self.all_even(root, seat):
            anchored = self.even_move(world, seat, rng)
            return self.result(root, seat, root.visits, root.chance(), anchored, margin=math.inf)
        return self.result(root, seat, root.visits, root.chance(), anchored)

    def all_even(self, root: Node, seat: int) -> bool:
        """Whether the tree tells none of the seat's moves at the root apart: each tried one has the same
        mean reward (a game lost or won in every world drawn), so its visits are noise (module's "Even")."""
        if self.even is None:
            return False
        means = {child.mean() for (actor, _), child in root.children.items() if actor == seat}
        return len(means) == 1

    def even_move(self, world: State, seat: int, rng: random.Random) -> Action:
        assert self.even is not None
        return self.even(world.clone(), seat, random.Random(rng.random()))

    def anchor_is_final(self) -> bool:
        """Whether the anchor's move is kept whatever the search finds (a margin no estimate can exceed)."""
        return self.anchor is not None and self.config.anchor_margin == math.inf

    def anchored_move(
        self, world: State, seat: int, rng: random.Random, deadline: float = math.inf
    ) -> Action:
        """The anchor's move for `seat` in `world`, as `run` chooses it (from a stream drawn from `rng`). An
        anchor bot that looks ahead may bound its look by the `deadline` (on `search_clock()`): it offers
        `choose_within(world, seat, rng, deadline)`, so a move's budget holds whatever the machine's load."""
        assert self.anchor is not None
        stream = random.Random(rng.random())
        within = getattr(getattr(self.anchor, "__self__", None), "choose_within", None)
        if within is not None and deadline < math.inf:
            action: Action = within(world.clone(), seat, stream, deadline)
            return action
        return self.anchor(world.clone(), seat, stream)

    @staticmethod
    def has_answer(root: Node, seat: int, acting: bool) -> bool:
        """The tree has iterations and, if `seat` is `acting`, a move of its own (a subtree gone on from may
        have neither: an iteration that expanded it ended there). The first iteration gives both."""
        return root.visits > 0 and (not acting or any(actor == seat for actor, _ in root.children))

    def iterate(self, root: Node, world: State, seat: int, rng: random.Random) -> float:
        """Select and expand in `world`, roll out, back the reward up; returns the searching seat's reward."""
        path = [root]
        node = root
        expanded = False
        while not world.is_over() and not expanded:
            actor = acting_seat(world, seat)
            searched = actor == seat or not (self.modelled or len(world.to_act()) > 1)
            if searched:
                action = self.select(node, actor, world.legal_actions(actor), rng)
            else:  # another seat's choice by the opponent model, or a simultaneous one we cannot see
                action = self.policy(world, actor, rng)
            child = node.children.get((actor, action))
            if child is None:
                child = node.children[actor, action] = Node(mover=actor)
                # with an opponent model, a modelled step costs no expansion: descend to the next choice
                expanded = searched or not self.modelled
            world.apply(actor, action)
            path.append(child)
            node = child
        rewards, won = self.rollout(world, seat, rng)
        for child in path[1:]:
            child.visits += 1
            child.reward += rewards[child.mover]
            child.won += won[seat]
        root.visits += 1
        root.won += won[seat]
        return won[seat]

    def select(self, node: Node, actor: int, legal: list[Action], rng: random.Random) -> Action:
        children = node.children
        untried = [action for action in legal if (actor, action) not in children]
        for action in legal:
            child = children.get((actor, action))
            if child is not None:
                child.available += 1
        if untried:
            return rng.choice(untried)
        c = self.config.exploration
        best, best_score = legal[0], -math.inf
        for action in legal:
            child = children[actor, action]
            score = child.mean() + c * math.sqrt(math.log(child.available) / child.visits)
            if score > best_score:
                best, best_score = action, score
        return best

    def rollout(self, world: State, seat: int, rng: random.Random) -> tuple[list[float], list[float]]:
        """Play on (`seat`, the searching seat, by its own policy); returns the rewards the tree learns from
        and each seat's win share (the chance to win that hints and analyses report, whatever the reward)."""
        self.play_on(world, seat, rng)
        standing = self.judge(world)
        won = win_shares(world.winners(), world.num_players) if world.is_over() else leader_shares(standing)
        if self.config.reward == "gain":
            scale = self.config.gain_scale
            gains = [
                min(1.0, max(0.0, 0.5 + (now - then) / (2 * scale)))
                for now, then in zip(standing, self.base, strict=True)
            ]
            return gains, won
        return won, won

    def play_on(
        self,
        world: State,
        seat: int,
        rng: random.Random,
        to_the_end: bool = False,
        actions: int | None = None,
    ) -> None:
        """Play `world` on as a rollout does: to the end, or for `rollout_depth` actions (unless told to go
        `to_the_end`, or to stop after `actions` actions, as an analysis' cut play-out does)."""
        depth = actions if actions is not None else None if to_the_end else self.config.rollout_depth
        # (a chance's play-out only: the search's own rollouts, and so the bot's moves, stay as measured)
        ending, even = (self.greedy_ending if to_the_end else None), self.even
        steps = 0
        while not world.is_over() and (depth is None or steps < depth):
            actor = world.to_act()[0]
            policy = self.own_policy if actor == seat else self.policy
            if ending is not None and even is not None and ending(world):
                policy = even
            world.apply(actor, policy(world, actor, rng))
            steps += 1

    def win_shares_after(self, world: State, seat: int, rng: random.Random) -> list[float]:
        """Each seat's win share once `world` is played on by the rollout's policies to the end: the chance
        that hints and analyses report, needing no search before it. Always to the end, even where the
        search's own rollouts are cut short: a world cut short goes to its current leader, and a chance read
        from who leads a few steps on is far surer than the game (measured: in a game whose search cuts its
        rollouts at 8 actions, positions called 80-90% were won 35% of the time)."""
        self.play_on(world, seat, rng, to_the_end=True)
        return win_shares(world.winners(), world.num_players)

    def judge(self, world: State) -> list[float]:
        """Each seat's standing: its final score once over, else the game's evaluation (or its scores)."""
        if world.is_over() or self.evaluate is None:
            return world.scores()
        return self.evaluate(world)

    def result(
        self,
        root: Node,
        seat: int,
        iterations: int,
        value: float,
        anchored: Action | None = None,
        margin: float | None = None,
    ) -> SearchResult:
        """The root's statistics, the anchor's move kept unless beaten by `margin` (default: the recipe's)."""
        mine = [(action, child) for (actor, action), child in root.children.items() if actor == seat]
        ranked = sorted(mine, key=lambda item: (-item[1].visits, -item[1].mean()))
        if not ranked:  # the seat does not act here (a search for its chances only, as the analysis makes)
            return SearchResult(seat, iterations, value, [], [])
        if margin is None:
            margin = self.config.anchor_margin
        if anchored is not None and margin is not None:
            kept = root.children.get((seat, anchored))
            if kept is None:  # the search never tried it (a step left a few iterations): nothing beat it
                ranked.insert(0, (anchored, Node(mover=seat)))  # (not in the tree: unvisited)
            elif ranked[0][1].mean() < kept.mean() + margin:  # not clearly better: keep the anchor's move
                ranked.sort(key=lambda item: item[0] != anchored)
        actions = [ActionValue(action, child.visits, child.chance()) for action, child in ranked]
        plan: list[Action] = [ranked[0][0]]
        node = ranked[0][1]
        while node.children:  # the seat's own next steps, while they are well explored
            (actor, action), child = max(node.children.items(), key=lambda item: item[1].visits)
            if actor != seat or child.visits < self.config.plan_visits:
                break
            # steps the tree tells no apart are searched again, where the `even` move is played: a plan
            # "sell a set, done" of a seat that loses whatever it does said `done` holding another set
            if self.all_even(node, seat):
                break
            plan.append(action)
            node = child
        return SearchResult(seat, iterations, value, actions, plan, root)


def _bot_policy(game_name: str, name: str) -> Callable[[State, int, random.Random], Action]:
    from merchantry import bots

    return bots.get(name, game_name).choose


class FlatSearch(Search):
    """Flat Monte Carlo with common random numbers: no tree; each world is played out once per legal move
    of the searching seat, from the same random stream, and the move with the best mean reward is played.
    Where the game's greedy bot is already good, this is policy improvement over it (the rollout policy)
    that a tree search, with every world different, cannot measure within its budget (docs/bots.md)."""

    def run(
        self,
        world: State,
        seat: int,
        rng: random.Random,
        deadline: float | None = None,
        root: Node | None = None,
    ) -> SearchResult:
        """As `Search.run`; there is no tree to go on from (`root` is ignored)."""
        legal = world.legal_actions(seat)
        if seat not in world.to_act() or not legal:
            return super().run(world, seat, rng, deadline)  # nothing to choose: the tree search's estimate
        config = self.config
        clock = search_clock()
        if deadline is None:
            deadline = clock() + config.seconds if config.seconds else math.inf
        self.base = self.judge(world) if config.reward == "gain" else []
        rewards = [0.0] * len(legal)
        wins = [0.0] * len(legal)
        begun, done = clock(), 0
        while done < config.iterations and (done == 0 or time_for_another(clock(), begun, done, deadline)):
            sampled = sampled_world(world, seat, rng)
            stream = rng.getrandbits(64)
            for i, action in enumerate(legal):
                trial = sampled.clone()
                trial.apply(seat, action)
                reward, won = self.rollout(trial, seat, random.Random(stream))
                rewards[i] += reward[seat]
                wins[i] += won[seat]
            done += 1
        order = sorted(range(len(legal)), key=lambda i: -rewards[i])
        if self.even is not None and len(set(rewards)) == 1:  # nothing told apart: the even move first
            even = self.even_move(world, seat, rng)
            order.sort(key=lambda i: legal[i] != even)
        actions = [ActionValue(legal[i], done, wins[i] / done) for i in order]
        return SearchResult(seat, done, max(wins) / done, actions, [legal[order[0]]])


def searcher(game_name: str, config: SearchConfig) -> Search:
    """A search for `game_name` with its package's evaluation and the rollout policy `config` names."""
    from merchantry import games

    if config.rollout == "greedy":
        policy = _bot_policy(game_name, "greedy")
    elif config.rollout == "random":
        from merchantry.bots.random_bot import RandomBot

        policy = RandomBot().choose
    else:
        raise ValueError(f"unknown rollout policy {config.rollout!r}: random or greedy")
    own = _bot_policy(game_name, config.own_policy) if config.own_policy else None
    anchor = None
    if config.anchor_margin is not None:
        if config.anchor_policy:
            anchor = _bot_policy(game_name, config.anchor_policy)
        else:
            anchor = own or _bot_policy(game_name, "greedy")
    if config.method not in ("tree", "flat"):
        raise ValueError(f"unknown search method {config.method!r}: tree or flat")
    kind = FlatSearch if config.method == "flat" else Search
    package = games.package(game_name)
    even = _bot_policy(game_name, "greedy") if "greedy" in package.bots else None
    return kind(config, policy, package.evaluate, anchor, own, even, package.greedy_ending)


def private_picture(world: State, seat: int) -> Any:
    """What `seat` sees of a world, without the log: equal pictures mean the plan still fits."""
    view = world.view(seat)
    view.pop("log", None)
    return view


class MoveClock:
    """The time budget of one whole move, shared by its steps: the move's deadline is its first step's start
    plus the budget. A step after which the move may go on takes `STEP_SHARE` of what is left (the first
    choice shapes the move, and later steps start from its tree); a step that surely ends the move (no legal
    action continues it: a move of one step, say) takes all that is left."""

    def __init__(self, seconds: float | None) -> None:
        self.seconds = seconds
        self.clock = search_clock()
        self.deadline = math.inf

    def start(self) -> None:
        self.deadline = self.clock() + self.seconds if self.seconds else math.inf

    def step_deadline(self, world: State, seat: int, legal: list[Action]) -> float:
        """When the search of the step about to be chosen in `world` must end."""
        if self.deadline == math.inf:
            return math.inf
        share = STEP_SHARE if any(continues_the_move(world, seat, action) for action in legal) else 1.0
        now = self.clock()
        return now + max(0.0, self.deadline - now) * share


def continues_the_move(world: State, seat: int, action: Action) -> bool:
    """Whether `seat` goes on with the same move after `action` (ENGINE principle 5)."""
    after = world.clone()
    after.apply(seat, action)
    return still_in_the_move(after, seat)


def still_in_the_move(world: State, seat: int) -> bool:
    return not world.is_over() and seat in world.to_act() and world.in_decision(seat)


class LooksWithin:
    """A bot that looks ahead and bounds its look by a deadline when a search anchors on it
    (`Search.anchored_move`): its `choose` reads `self.deadline` (on `search_clock()`), which is `math.inf`
    except during `choose_within`."""

    deadline: float = math.inf

    def choose(self, world: State, seat: int, rng: random.Random) -> Action:
        raise NotImplementedError

    def choose_within(self, world: State, seat: int, rng: random.Random, deadline: float) -> Action:
        """As `choose`, its look ending by `deadline` (a level's budget for the move)."""
        self.deadline = deadline
        try:
            return self.choose(world, seat, rng)
        finally:
            self.deadline = math.inf


class SearchBot:
    """A bot that plays by ISMCTS: one search per decision, or per multi-step move while its plan holds; the
    steps of a move share the recipe's `seconds` (MoveClock), and a step searched again in the same move
    goes on from the tree below the step before it while the seat has learnt nothing new."""

    def __init__(self, name: str, game_name: str, config: SearchConfig) -> None:
        self.name = name
        self.config = config
        self.search = searcher(game_name, config)
        self.move = MoveClock(config.seconds)
        self._plan: list[Action] = []
        self._expected: Any = None  # the picture the seat's next step was planned for
        self._tree: Node | None = None  # the searched tree below the step just played (this move's)
        self._seat: int | None = None  # the seat whose move is under way (None: none)

    def choose(self, world: State, seat: int, rng: random.Random) -> Action:
        if not (self._seat == seat and world.in_decision(seat)):
            self._start_move(seat)  # a new move (ENGINE principle 5): a new budget, no plan, no tree
        legal = world.legal_actions(seat)
        picture = private_picture(world, seat) if self._plan or self._tree else None
        as_planned = picture is not None and picture == self._expected
        node = self._tree if as_planned else None
        if len(legal) == 1:
            self._plan = []
            action = legal[0]  # nothing to think about
        elif self._plan and as_planned and self._plan[0] in legal:
            action = self._plan.pop(0)
        elif self.search.anchor_is_final():
            # no search could change the move: the anchor's move, and the whole budget is the anchor's own
            self._plan, node = [], None
            deadline = self.move.step_deadline(world, seat, legal)
            action = self.search.anchored_move(world, seat, rng, deadline)
        else:
            result = self.search.run(world, seat, rng, self.move.step_deadline(world, seat, legal), node)
            action, self._plan, node = result.plan[0], result.plan[1:], result.root
        after = world.clone()
        after.apply(seat, action)
        if still_in_the_move(after, seat):
            self._tree = node.children.get((seat, action)) if node is not None else None
            self._expected = private_picture(after, seat) if self._plan or self._tree else None
        else:  # nothing of a finished move is kept (nor shipped with the bot to a server's worker process)
            self._plan, self._tree, self._expected = [], None, None
        return action

    def _start_move(self, seat: int) -> None:
        self._seat = seat
        self._plan, self._tree, self._expected = [], None, None
        self.move.start()
