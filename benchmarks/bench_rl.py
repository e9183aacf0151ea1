"""Environment steps per second for each RL adapter beside the raw engine, per game and player count.
Uniformly random legal actions, one core, CPU time; on the build in use (`merchantry.build`: `make bench`
runs it on the compiled build, and with MERCHANTRY_PURE=1).

    .venv/bin/python benchmarks/bench_rl.py [--seconds 3] [--game NAME] [--players N]

- engine: `state.apply(seat, random legal action)` on the real state (the ceiling);
- pettingzoo: `env.step(random legal id)` with `env.last()` (observation + mask) before every step;
- pettingzoo parallel: `env.step({agent: random legal id})` for every seat that acts (counted per seat);
- gymnasium: `env.step(random legal id)` for the learning seat, the other seats played inside the step by
  a policy that picks a random legal id from its own observation and mask (self-play's opponents); the
  table counts every seat's actions, as the other columns do (a bot as opponent would add its own cost:
  `sample_hidden` and its choice, for every action);
- openspiel: `state.apply_action(random legal id)` with `observation_tensor()` before every action.

The agents pick from the mask as cheaply as Python allows: the legal ids are `nonzero()` of the mask seen as
bools (`mask.view(np.bool_)`, no copy: numpy's `nonzero` on int8 costs twice its cost on bools, some 3 µs
against 1.5 for a thousand actions), as a list, then `random.Random` picks one, as an agent reading the mask
must do each step. numpy's `Generator.choice` costs some 10 µs a call, more than a whole engine step, and
would measure the agent rather than the environment. (OpenSpiel's agent takes `state.legal_actions()`, a
list, as OpenSpiel's own loops do.)
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


def pick(mask: np.ndarray, rng: random.Random) -> int:
    """A uniformly random legal id of `mask` (int8 or bool): what an agent does, at the least cost."""
    legal: list[int] = mask.view(np.bool_).nonzero()[0].tolist()
    return legal[rng.randrange(len(legal))]


def timed(step: object, seconds: float) -> float:
    """Steps per second of `step()` (it returns how many steps it made) over about `seconds`."""
    clock = time.process_time  # CPU time: the machines are shared
    count, start = 0, clock()
    while clock() - start < seconds:
        count += step()  # type: ignore[operator]
    return count / (clock() - start)


def engine(name: str, players: int, seconds: float) -> float:
    rng = random.Random(1)

    def game() -> int:
        state = games.get(name).new_game(players=players, seed=rng.getrandbits(32))
        steps = 0
        while not state.is_over():
            seat = state.to_act()[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
            steps += 1
        return steps

    return timed(game, seconds)


def pettingzoo(name: str, players: int, seconds: float) -> float:
    from merchantry.rl import pettingzoo as pz

    env, rng = pz.env(name, players=players), random.Random(1)

    def game() -> int:
        env.reset(seed=rng.getrandbits(31))
        steps = 0
        for _agent in env.agent_iter():
            observation, _, termination, truncation, _ = env.last()
            if termination or truncation:
                env.step(None)
                continue
            env.step(pick(observation["action_mask"], rng))
            steps += 1
        return steps

    return timed(game, seconds)


def parallel(name: str, players: int, seconds: float) -> float:
    from merchantry.rl import pettingzoo as pz

    env, rng = pz.parallel_env(name, players=players), random.Random(1)

    def game() -> int:
        observations, _ = env.reset(seed=rng.getrandbits(31))
        steps = 0
        while env.agents:
            actions = {
                agent: pick(seen["action_mask"], rng)
                for agent, seen in observations.items()
                if seen["action_mask"].any()
            }
            observations, *_ = env.step(actions)
            steps += len(actions)
        return steps

    return timed(game, seconds)


def gymnasium(name: str, players: int, seconds: float) -> float:
    import gymnasium as gym

    from merchantry.rl import gymnasium as mg

    rng = random.Random(1)

    def opponent(observation: np.ndarray, mask: np.ndarray) -> int:
        return pick(mask, rng)

    env = gym.make(mg.env_id(name), players=players, opponents=opponent)

    def game() -> int:
        _, info = env.reset(seed=rng.getrandbits(31))
        done = False
        while not done:
            _, _, done, _, info = env.step(pick(info["action_mask"], rng))
        return int(env.unwrapped.table.episode.steps)

    return timed(game, seconds)


def openspiel(name: str, players: int, seconds: float) -> float:
    import pyspiel

    from merchantry.rl import openspiel as osp

    osp.register()
    game, rng = pyspiel.load_game(osp.short_name(name), {"players": players}), random.Random(1)

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
    parser.add_argument("--game", action="append", help="only these games")
    parser.add_argument("--players", type=int, action="append", help="only these player counts")
    args = parser.parse_args()
    table = Table(
        title=f"Steps per second, random legal actions, one core, CPU time, {merchantry.build}; "
        "(n%): of the engine's"
    )
    columns = (
        "game",
        "players",
        "engine",
        "pettingzoo",
        "parallel",
        "gymnasium",
        "openspiel",
    )
    for column in columns:
        table.add_column(column, justify="right")
    for name in args.game or games.names():
        game = games.get(name)
        for players in range(game.min_players, game.max_players + 1):
            if args.players and players not in args.players:
                continue
            runs = (engine, pettingzoo, parallel, gymnasium, openspiel)
            rates = [run(name, players, args.seconds) for run in runs]
            shares = [f"{rate:,.0f} ({rate / rates[0]:.0%})" for rate in rates[1:]]
            table.add_row(name, str(players), f"{rates[0]:,.0f}", *shares)
    Console(width=160).print(table)


if __name__ == "__main__":
    main()
