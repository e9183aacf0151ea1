"""Environment steps per second for each RL adapter beside the raw engine, per game and player count.
Uniformly random legal actions, one core, CPU time; on the build in use (`merchantry.build`: `make bench`
runs it on the compiled build, and with MERCHANTRY_PURE=1).

    .venv/bin/python benchmarks/bench_rl.py [--seconds 3] [--game NAME] [--players N]

- engine: `state.apply(seat, random legal action)` on the real state, with `to_act()` and
  `legal_actions(seat)` (the ceiling);
- pettingzoo: `env.step(random legal id)` with `env.last()` (observation + mask) before every step;
- pettingzoo parallel: `env.step({agent: random legal id})` for every seat that acts (counted per seat);
- gymnasium: `env.step(random legal id)` for the learning seat, the other seats played inside the step by
  a policy that picks a random legal id from its own observation and mask (self-play's opponents); the
  table counts every seat's actions, as the other columns do (a bot as opponent would add its own cost:
  `sample_hidden` and its choice, for every action);
- openspiel: `state.apply_action(random legal id)` with `observation_tensor()` and `state.legal_actions()`
  before every action.

The agents pick as an RL loop reading the mask must: the legal ids are `nonzero()` of the mask seen as bools
(`mask.view(np.bool_)`, no copy: numpy's `nonzero` on int8 costs twice its cost on bools), as a list, then
`random.Random` picks one (numpy's `Generator.choice` costs some 10 µs a call). The engine's agent picks
from `legal_actions`' list and OpenSpiel's from `legal_actions()`, with `random.Random.choice`.

Two tables. The first, the adapters' own speed (issue 30's measure), leaves each agent's picking out of every
column, the engine's included: every loop keeps what its agent was handed (the masks, the lists; up to
`KEPT` of them), and once the loop is timed the same picks are timed again alone on those and taken off
its CPU time. What is left is the environment's: the engine's `to_act`, `legal_actions` and `apply`, the
adapter's API calls. The second table is the whole loops, agents included: picking from a mask costs 1.5-4 µs
a step (numpy's call overhead: some 2 µs even for Grand Bazaar's 7 actions), about as much as a whole
engine step of the compiled build, against some 0.4 µs for `random.choice` of a list.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from rich.console import Console
from rich.table import Table

import merchantry
from merchantry import games

KEPT = 50_000  # agent inputs kept per loop, to time its picks alone afterwards


def pick(mask: np.ndarray, rng: random.Random) -> int:
    """A uniformly random legal id of `mask` (int8 or bool): what an agent does, at the least cost."""
    legal: list[int] = mask.view(np.bool_).nonzero()[0].tolist()
    return legal[rng.randrange(len(legal))]


class Agent:
    """A loop's agent: its picks (`choose(what it is handed)`), and what it was handed, kept to time the
    picks alone afterwards."""

    def __init__(self, choose: Callable[[Any, random.Random], int], seed: int = 1):
        self.choose, self.rng, self.handed = choose, random.Random(seed), []  # type: list[Any]
        self.picks = 0

    def __call__(self, handed: Any) -> int:
        self.picks += 1
        if len(self.handed) < KEPT:
            self.handed.append(handed)
        return self.choose(handed, self.rng)

    def cost(self) -> float:
        """CPU seconds of this agent's picks, timed alone on what it was handed (scaled to every pick)."""
        if not self.handed:
            return 0.0
        choose, rng, handed = self.choose, random.Random(2), self.handed
        clock = time.process_time
        start = clock()
        for _ in range(3):
            for each in handed:
                choose(each, rng)
        seconds = (clock() - start) / 3
        return seconds * self.picks / len(handed)


def choice(legal: list[Any], rng: random.Random) -> Any:
    return rng.choice(legal)


class Rates:
    """Steps per second of one loop, with and without its agents' picks."""

    def __init__(self, steps: int, seconds: float, agents: float):
        self.whole = steps / seconds
        self.environment = steps / max(seconds - agents, 1e-9)


def timed(step: Callable[[], int], seconds: float, *agents: Agent) -> Rates:
    """Steps per second of `step()` (it returns how many steps it made) over about `seconds`."""
    clock = time.process_time  # CPU time: the machines are shared
    count, start = 0, clock()
    while clock() - start < seconds:
        count += step()
    spent = clock() - start
    return Rates(count, spent, sum(agent.cost() for agent in agents))


def engine(name: str, players: int, seconds: float) -> Rates:
    rng, agent = random.Random(1), Agent(choice)

    def game() -> int:
        state = games.get(name).new_game(players=players, seed=rng.getrandbits(32))
        steps = 0
        while not state.is_over():
            seat = state.to_act()[0]
            state.apply(seat, agent(state.legal_actions(seat)))
            steps += 1
        return steps

    return timed(game, seconds, agent)


def pettingzoo(name: str, players: int, seconds: float) -> Rates:
    from merchantry.rl import pettingzoo as pz

    agent = Agent(pick)
    return timed(aec_games(pz.env(name, players=players), agent), seconds, agent)


def aec_games(env: Any, agent: Callable[[np.ndarray], int]) -> Callable[[], int]:
    """One game of a PettingZoo AEC environment per call, `agent` choosing from each mask; its steps."""
    rng = random.Random(1)

    def game() -> int:
        env.reset(seed=rng.getrandbits(31))
        steps = 0
        for _agent in env.agent_iter():
            observation, _, termination, truncation, _ = env.last()
            if termination or truncation:
                env.step(None)
                continue
            env.step(agent(observation["action_mask"]))
            steps += 1
        return steps

    return game


def acting(observations: dict[str, dict[str, np.ndarray]], rng: random.Random) -> dict[str, int]:
    """The parallel agents' actions: a random legal id for every agent whose mask is not empty."""
    return {
        agent: pick(seen["action_mask"], rng)
        for agent, seen in observations.items()
        if seen["action_mask"].any()
    }


def parallel(name: str, players: int, seconds: float) -> Rates:
    from merchantry.rl import pettingzoo as pz

    env, rng = pz.parallel_env(name, players=players), random.Random(1)
    agents = Agent(acting)  # type: ignore[arg-type]

    def game() -> int:
        observations, _ = env.reset(seed=rng.getrandbits(31))
        steps = 0
        while env.agents:
            # the agents see only the masks (kept without the observations, which are not read)
            masks = {agent: {"action_mask": seen["action_mask"]} for agent, seen in observations.items()}
            actions: dict[str, int] = agents(masks)  # type: ignore[assignment]
            observations, *_ = env.step(actions)
            steps += len(actions)
        return steps

    return timed(game, seconds, agents)


def gymnasium(name: str, players: int, seconds: float) -> Rates:
    import gymnasium as gym

    from merchantry.rl import gymnasium as mg

    rng, learner, others = random.Random(1), Agent(pick), Agent(pick, seed=3)

    def opponent(observation: np.ndarray, mask: np.ndarray) -> int:
        return others(mask)

    env = gym.make(mg.env_id(name), players=players, opponents=opponent)

    def game() -> int:
        _, info = env.reset(seed=rng.getrandbits(31))
        done = False
        while not done:
            _, _, done, _, info = env.step(learner(info["action_mask"]))
        return int(env.unwrapped.table.episode.steps)

    return timed(game, seconds, learner, others)


def openspiel(name: str, players: int, seconds: float) -> Rates:
    import pyspiel

    from merchantry.rl import openspiel as osp

    osp.register()
    agent = Agent(choice)
    return timed(
        openspiel_games(pyspiel.load_game(osp.short_name(name), {"players": players}), agent), seconds, agent
    )


def openspiel_games(game: Any, agent: Callable[[list[int]], int]) -> Callable[[], int]:
    """One game of a pyspiel game per call, observed before every action, `agent` choosing from the
    legal actions; its steps."""

    def play() -> int:
        state, steps = game.new_initial_state(), 0
        while not state.is_terminal():
            state.observation_tensor(state.current_player())
            state.apply_action(agent(state.legal_actions()))
            steps += 1
        return steps

    return play


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--game", action="append", help="only these games")
    parser.add_argument("--players", type=int, action="append", help="only these player counts")
    args = parser.parse_args()
    titles = (
        "environments only (each agent's picks timed apart and left out)",
        "whole loops (the agents' picks included)",
    )
    tables = [
        Table(
            title=f"Steps per second, random legal actions, one core, CPU time, {merchantry.build}: {title}; "
            "(n%): of the engine's"
        )
        for title in titles
    ]
    columns = ("game", "players", "engine", "pettingzoo", "parallel", "gymnasium", "openspiel")
    for table in tables:
        for column in columns:
            table.add_column(column, justify="right")
    for name in args.game or games.names():
        game = games.get(name)
        for players in range(game.min_players, game.max_players + 1):
            if args.players and players not in args.players:
                continue
            runs = (engine, pettingzoo, parallel, gymnasium, openspiel)
            rates = [run(name, players, args.seconds) for run in runs]
            for table, numbers in zip(
                tables, ([r.environment for r in rates], [r.whole for r in rates]), strict=True
            ):
                shares = [f"{rate:,.0f} ({rate / numbers[0]:.0%})" for rate in numbers[1:]]
                table.add_row(name, str(players), f"{numbers[0]:,.0f}", *shares)
    console = Console(width=160)
    for table in tables:
        console.print(table)


if __name__ == "__main__":
    main()
