"""A search bot's time budget per whole move (issue 32, item 4): the steps of a move share it, and a step
searched again in the same move goes on from the tree below the step before it.

Time here is a fake clock that moves on by a fixed amount per search iteration, so what is checked is what
each search is told (its deadline) and how many iterations fit, never how fast this machine is."""

from __future__ import annotations

import random
from typing import Any

import pytest

from merchantry import games
from merchantry.bots import ismcts
from merchantry.bots.ismcts import MoveClock, Node, Search, SearchBot, SearchConfig
from merchantry.bots.levels import HARD_SECONDS, LEVELS, recipe
from merchantry.engine import State

TICK = 0.01  # fake seconds one iteration takes


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> FakeClock:
    """Every search clock is the fake one, which one iteration moves on by TICK."""
    fake = FakeClock()
    monkeypatch.setattr(ismcts, "search_clock", lambda: fake)
    iterate = Search.iterate

    def ticking(self: Search, *args: Any) -> float:
        fake.now += TICK
        return iterate(self, *args)

    monkeypatch.setattr(Search, "iterate", ticking)
    return fake


def spy_searches(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """Each search a bot runs: its world, seat, deadline, the tree it went on from and the result."""
    calls: list[dict[str, Any]] = []
    run = Search.run

    def spying(self: Search, world: State, seat: int, rng: random.Random, deadline=None, root=None):
        call = {"world": world.clone(), "seat": seat, "deadline": deadline, "root": root}
        call["reused_visits"] = root.visits if root is not None else 0
        call["result"] = run(self, world, seat, rng, deadline, root)
        calls.append(call)
        return call["result"]

    monkeypatch.setattr(Search, "run", spying)
    return calls


def play_moves(
    game: str, bot: SearchBot, clock: FakeClock, moves: int, searches: list[Any] | None = None, seed: int = 3
) -> list[dict[str, Any]]:
    """Seat 0 played by `bot`, the others at random, for `moves` whole moves of seat 0; for each: when it
    began and ended on the fake clock, its steps and (given the spied `searches`) its searches."""
    searches = [] if searches is None else searches
    state = games.get(game).new_game(players=3, seed=seed)
    rng = random.Random(seed)
    played: list[dict[str, Any]] = []
    current: dict[str, Any] | None = None
    while not state.is_over() and len(played) < moves:
        seat = state.to_act()[0]
        if seat != 0:
            state.apply(seat, rng.choice(state.legal_actions(seat)))
            continue
        if current is None:
            current = {"start": clock.now, "steps": [], "first": len(searches)}
        action = bot.choose(state.sample_hidden(0, rng), 0, rng)
        assert action in state.legal_actions(0)
        state.apply(0, action)
        current["steps"].append(action)
        if state.is_over() or 0 not in state.to_act() or not state.in_decision(0):
            current["end"] = clock.now
            current["searches"] = searches[current["first"] :]
            played.append(current)
            current = None
    return played


def test_the_steps_of_a_move_share_one_budget(clock, monkeypatch):
    """A Grand Bazaar turn of several buys and sells: every step's search is told a deadline within the
    move's budget from its first step, and the whole move's iterations end within it (each step searches
    at least one iteration, the only overshoot); the next move has a budget of its own."""
    searches = spy_searches(monkeypatch)
    config = SearchConfig(iterations=100_000, seconds=0.5, rollout="random", rollout_depth=4)
    bot = SearchBot("test", "grand_bazaar", config)
    played = play_moves("grand_bazaar", bot, clock, moves=6, searches=searches)
    assert max(len(move["steps"]) for move in played) > 2, "some moves had several steps"
    for move in played:
        own = move["searches"]
        assert own, "the move was searched"
        assert all(s["deadline"] <= move["start"] + config.seconds + 1e-9 for s in own)
        assert move["end"] - move["start"] <= config.seconds + TICK * len(own) + 1e-9
    budgets = [move["end"] - move["start"] for move in played]
    assert max(budgets) > config.seconds / 2, "a move used its budget: it was the time that ended it"


def test_a_step_that_may_continue_the_move_leaves_time_for_the_rest(clock):
    """MoveClock: a step after which the move may go on takes STEP_SHARE of what is left, one that surely
    ends it (no legal action continues it) takes all that is left."""
    state = games.get("grand_bazaar").new_game(players=3, seed=3)
    rng = random.Random(4)
    seat = state.to_act()[0]
    legal = state.legal_actions(seat)
    move = MoveClock(1.0)
    move.start()
    assert all(ismcts.continues_the_move(state, seat, action) for action in legal), "a turn's first step"
    assert move.step_deadline(state, seat, legal) == pytest.approx(clock.now + ismcts.STEP_SHARE)
    ending: list[Any] = []
    while not ending:  # on to a step some of whose actions end the turn (its "done")
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        seat = state.to_act()[0]
        ending = [a for a in state.legal_actions(seat) if not ismcts.continues_the_move(state, seat, a)]
    clock.now += 0.5
    assert move.step_deadline(state, seat, ending) == pytest.approx(clock.now + 0.5)
    clock.now += 2.0
    assert move.step_deadline(state, seat, ending) == pytest.approx(clock.now), "nothing left: no more time"
    move.start()
    assert move.step_deadline(state, seat, ending) == pytest.approx(clock.now + 1.0), (
        "a new move, a new budget"
    )


def test_a_later_step_goes_on_from_the_tree_of_the_step_before_with_legal_own_continuations(
    clock, monkeypatch
):
    """Tree reuse: a step of the same move searched again starts from the node below the step just played,
    which holds visits already; its children for the seat are actions legal in the world the seat now
    sees (the seat learnt nothing since), so the search goes on with what it knew."""
    searches = spy_searches(monkeypatch)
    config = SearchConfig(iterations=60, seconds=None, rollout="random", rollout_depth=4, plan_visits=10**9)
    bot = SearchBot("test", "grand_bazaar", config)
    play_moves("grand_bazaar", bot, clock, moves=8)
    reused = [s for s in searches if s["root"] is not None and s["reused_visits"]]
    assert reused, "some step went on from the tree of the step before it"
    for search in reused:
        root: Node = search["root"]
        world, seat = search["world"], search["seat"]
        assert root.mover == seat, "the node below the seat's own step"
        legal = world.legal_actions(seat)
        own = [action for actor, action in root.children if actor == seat]
        assert own and all(action in legal for action in own)
        assert search["result"].iterations >= search["reused_visits"]
        assert (
            search["result"].iterations <= config.iterations or search["reused_visits"] >= config.iterations
        )


def test_a_new_move_never_goes_on_from_an_old_tree(clock, monkeypatch):
    """The first step of a move starts a fresh tree: a tree from an earlier move was searched in worlds
    the seat has since learnt more about; and a finished move keeps none."""
    searches = spy_searches(monkeypatch)
    config = SearchConfig(iterations=40, seconds=None, rollout="random", rollout_depth=4, plan_visits=10**9)
    bot = SearchBot("test", "grand_bazaar", config)
    play_moves("grand_bazaar", bot, clock, moves=5)
    firsts = [s for s in searches if not s["world"].in_decision(s["seat"])]
    assert firsts and all(s["root"] is None for s in firsts)
    assert bot._tree is None and not bot._plan, "a finished move's tree is dropped (a server ships the bot)"


def test_every_level_s_budget_keeps_a_whole_hard_turn_within_two_seconds():
    """The budgets are per whole move; hard's is the longest, and the pause the server adds to it (its bot
    delay, tables.publishing_pause) keeps the median turn under 2 s (benchmarks/bot_pace.py)."""
    from merchantry.server.tables import BOT_DELAY, PAUSE_STRETCH, THINKING_MARGIN, publishing_pause

    for game in games.names():
        budgets = {level: recipe(game, level).seconds or 0.0 for level in LEVELS}
        assert budgets["hard"] == HARD_SECONDS
        assert max(budgets.values()) == HARD_SECONDS
    # a machine that thinks out every move in its whole budget: the floor is 1.5 times that
    median_stretch = (1 + PAUSE_STRETCH) / 2
    assert publishing_pause(BOT_DELAY, HARD_SECONDS, HARD_SECONDS, median_stretch) < 2.0
    assert THINKING_MARGIN * HARD_SECONDS * median_stretch < 2.0


def test_budgets_count_cpu_time_where_a_benchmark_asks(monkeypatch):
    """MERCHANTRY_SEARCH_CLOCK=cpu: a shared machine's benchmark counts budgets in CPU time; else wall."""
    import time

    assert ismcts.search_clock() is time.perf_counter
    monkeypatch.setenv(ismcts.CLOCK_ENV, "cpu")
    assert ismcts.search_clock() is time.process_time
    assert MoveClock(1.0).clock is time.process_time
