"""Environment steps per second for each RL adapter beside the raw engine, per game (4 players; 2 for
nothing: every game takes 4). Uniformly random legal actions, one core, CPU time; on the build in use
(`merchantry.build`: `make bench` runs it on the compiled build, and with MERCHANTRY_PURE=1).

    .venv/bin/python benchmarks/bench_rl.py [--seconds 3]

- engine: `state.apply(seat, random legal action)` on the real state (the ceiling);
- pettingzoo: `env.step(random legal id)` with `env.last()` (observation + mask) before every step;
- pettingzoo parallel: `env.step({agent: random legal id})` for every seat that acts (counted per seat);
- gymnasium: `env.step(random legal id)` for the learning seat, bots (`random`) moving the other seats inside
  the step (so one step covers several game actions: the table counts learner steps);
- openspiel: `state.apply_action(random legal id)` with `observation_tensor()` before every action.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np
from rich.console import Console
from rich.table import Table

import merchantry
from merchantry import games

PLAYERS = 4


def timed(step: object, seconds: float) -> float:
    """Steps per second of `step()` (it returns how many steps it made) over about `seconds`."""
    clock = time.process_time  # CPU time: the machines are shared
    count, start = 0, clock()
    while clock() - start < seconds:
        count += step()  # type: ignore[operator]
    return count / (clock() - start)


def engine(name: str, seconds: float) -> float:
    rng = random.Random(1)

    def game() -> int:
        state = games.get(name).new_game(players=PLAYERS, seed=rng.getrandbits(32))
        steps = 0
        while not state.is_over():
            seat = state.to_act()[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
            steps += 1
        return steps

    return timed(game, seconds)


def pettingzoo(name: str, seconds: float) -> float:
    from merchantry.rl import pettingzoo as pz

    env, rng = pz.env(name, players=PLAYERS), np.random.default_rng(1)

    def game() -> int:
        env.reset(seed=int(rng.integers(2**31)))
        steps = 0
        for _agent in env.agent_iter():
            observation, _, termination, truncation, _ = env.last()
            if termination or truncation:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            steps += 1
        return steps

    return timed(game, seconds)


def parallel(name: str, seconds: float) -> float:
    from merchantry.rl import pettingzoo as pz

    env, rng = pz.parallel_env(name, players=PLAYERS), np.random.default_rng(1)

    def game() -> int:
        observations, _ = env.reset(seed=int(rng.integers(2**31)))
        steps = 0
        while env.agents:
            actions = {
                agent: int(rng.choice(np.flatnonzero(seen["action_mask"])))
                for agent, seen in observations.items()
                if seen["action_mask"].any()
            }
            observations, *_ = env.step(actions)
            steps += len(actions)
        return steps

    return timed(game, seconds)


def gymnasium(name: str, seconds: float) -> float:
    import gymnasium as gym

    from merchantry.rl import gymnasium as mg

    env, rng = gym.make(mg.env_id(name), players=PLAYERS, opponents="random"), np.random.default_rng(1)

    def game() -> int:
        _, info = env.reset(seed=int(rng.integers(2**31)))
        steps, done = 0, False
        while not done:
            _, _, done, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            steps += 1
        return steps

    return timed(game, seconds)


def openspiel(name: str, seconds: float) -> float:
    import pyspiel

    from merchantry.rl import openspiel as osp

    osp.register()
    game, rng = pyspiel.load_game(osp.short_name(name), {"players": PLAYERS}), random.Random(1)

    def play() -> int:
        state, steps = game.new_initial_state(), 0
        while not state.is_terminal():
            state.observation_tensor(state.current_player())
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
        return steps

    return timed(play, seconds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    table = Table(
        title=f"Steps per second, {PLAYERS} players, random legal actions, one core, CPU time, "
        f"{merchantry.build}; (n%): of the engine's"
    )
    columns = ("game", "engine", "pettingzoo", "parallel", "gymnasium (learner steps)", "openspiel")
    for column in columns:
        table.add_column(column, justify="right")
    for name in games.names():
        rates = [run(name, args.seconds) for run in (engine, pettingzoo, parallel, gymnasium, openspiel)]
        shares = [f"{rate:,.0f} ({rate / rates[0]:.0%})" for rate in rates[1:]]
        table.add_row(name, f"{rates[0]:,.0f}", *shares)
    Console(width=160).print(table)


if __name__ == "__main__":
    main()
