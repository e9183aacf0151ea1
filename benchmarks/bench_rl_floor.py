"""How near the RL adapters can come to the engine: each framework's own cost per step, measured on an
environment whose rules do nothing, beside the engine's steps/s and the adapters' in the same run.

    .venv/bin/python benchmarks/bench_rl_floor.py [--seconds 2] [--game NAME] [--players N]

An adapter's step is at least the engine's step plus what its framework costs around any step: PettingZoo's
`agent_iter`, `last()` and `step()`; OpenSpiel's C++ round trips (`apply_action` through pybind11 into the
Python state, `current_player`, `legal_actions`) and the observation as the list its API returns. The floor
environments do only that, with an observation and a mask of the game's own sizes (PettingZoo: the same
arrays handed back each step, no encoding at all; OpenSpiel: a list copy of the game's observation size, as
pyspiel's `observation_tensor` is a new list) and a fixed action (no pick to take off). So, whatever the
observers, masks and episode bookkeeping cost, an adapter's share of the engine's steps/s is at most
floor ÷ (floor + engine): the "ceiling" columns. The "measured" columns are `bench_rl.py`'s environment-only
shares of the same run. CPU time, one core, the build in use (`merchantry.build`).
"""

from __future__ import annotations

import argparse
import platform
import sys
from pathlib import Path
from typing import Any

import numpy as np
from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_rl  # noqa: E402  (this folder's adapters' benchmark: the same loops and agents)
import merchantry  # noqa: E402
from merchantry import games  # noqa: E402

FLOOR_GAME_STEPS = 100  # steps of one floor game (resets are counted, as the adapters' are)


def sizes(name: str, players: int) -> tuple[int, int]:
    """The game's observation length and number of action ids, as its PettingZoo environment declares."""
    from merchantry.rl import pettingzoo as pz

    env = pz.env(name, players=players)
    space = env.observation_space(env.possible_agents[0])
    return int(space["observation"].shape[0]), int(space["action_mask"].shape[0])


def pettingzoo_floor(players: int, observation: int, actions: int, seconds: float) -> float:
    from pettingzoo import AECEnv

    class Floor(AECEnv):  # type: ignore[misc]
        metadata = {"name": "floor_v0"}

        def __init__(self) -> None:
            super().__init__()
            self.possible_agents = [f"player_{i}" for i in range(players)]
            mask = np.zeros(actions, np.int8)
            mask[:3] = 1
            self.handed = {"observation": np.zeros(observation, np.float32), "action_mask": mask}
            self.steps = 0

        def reset(self, seed: Any = None, options: Any = None) -> None:
            self.agents = list(self.possible_agents)
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
            self.terminations = dict.fromkeys(self.agents, False)
            self.truncations = dict.fromkeys(self.agents, False)
            self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
            self.agent_selection, self.steps = self.agents[0], 0

        def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
            agent = self.agent_selection  # as the adapter's `last`: the selected agent, observed once
            return (
                self.handed if observe else None,
                self._cumulative_rewards[agent],
                self.terminations[agent],
                self.truncations[agent],
                self.infos[agent],
            )

        def step(self, action: int | None) -> None:
            agent = self.agent_selection
            if self.terminations[agent] or self.truncations[agent]:
                self._was_dead_step(action)
                return
            self.steps += 1
            self._cumulative_rewards[agent] = 0.0
            if self.steps < FLOOR_GAME_STEPS:
                self.agent_selection = self.possible_agents[self.steps % players]
                return
            for other in self.agents:
                self.terminations[other] = True
            self._accumulate_rewards()

    first = bench_rl.aec_games(Floor(), lambda mask: 0)  # a fixed action: no pick to take off
    return bench_rl.timed(first, seconds).environment


def openspiel_floor(players: int, observation: int, actions: int, seconds: float) -> float:
    import pyspiel

    kind = pyspiel.GameType(
        short_name=f"python_merchantry_floor_{players}_{observation}_{actions}",
        long_name="a game whose rules do nothing",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players,
        min_num_players=players,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=False,
        provides_observation_tensor=True,
        parameter_specification={},
    )
    info = pyspiel.GameInfo(
        num_distinct_actions=actions,
        max_chance_outcomes=0,
        num_players=players,
        min_utility=-1.0,
        max_utility=1.0,
        utility_sum=None,
        max_game_length=FLOOR_GAME_STEPS,
    )
    numbers = [0.0] * observation
    terminal = pyspiel.PlayerId.TERMINAL

    class FloorState(pyspiel.State):  # type: ignore[misc]
        def __init__(self, game: Any) -> None:
            super().__init__(game)
            self.steps = 0

        def current_player(self) -> int:
            return terminal if self.steps >= FLOOR_GAME_STEPS else self.steps % players

        def _legal_actions(self, player: int) -> list[int]:
            return [0, 1, 2]

        def legal_actions(self, player: int | None = None) -> list[int]:
            return [0, 1, 2]

        def _apply_action(self, action: int) -> None:
            self.steps += 1

        def is_terminal(self) -> bool:
            return self.steps >= FLOOR_GAME_STEPS

        def returns(self) -> list[float]:
            return [0.0] * players

        def observation_tensor(self, player: int | None = None) -> list[float]:
            return list(numbers)

    class FloorGame(pyspiel.Game):  # type: ignore[misc]
        def __init__(self, params: Any = None) -> None:
            super().__init__(kind, info, params or {})

        def new_initial_state(self) -> FloorState:
            return FloorState(self)

    pyspiel.register_game(kind, FloorGame)
    game = pyspiel.load_game(kind.short_name)

    first = bench_rl.openspiel_games(game, lambda legal: legal[0])
    return bench_rl.timed(first, seconds).environment


def ceiling(floor: float, engine: float) -> float:
    """The largest share of the engine's steps/s an adapter can have: its step is the engine's plus the
    floor's."""
    return floor / (floor + engine)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--game", action="append", help="only these games")
    parser.add_argument("--players", type=int, action="append", help="only these player counts")
    args = parser.parse_args()
    console = Console(width=200)
    machine = platform.processor() or platform.machine()
    console.print(f"{machine}, Python {platform.python_version()}, {merchantry.build}")
    table = Table(
        title="Steps/s, one core, CPU time: the engine, each framework's floor, and the adapters' share of"
        " the engine's steps/s, at most (ceiling) and as measured"
    )
    for column in (
        "game", "players", "engine", "pettingzoo floor", "pettingzoo ceiling", "pettingzoo measured",
        "openspiel floor", "openspiel ceiling", "openspiel measured",
    ):  # fmt: skip
        table.add_column(column, justify="right")
    for name in args.game or games.names():
        low, high = games.get(name).min_players, games.get(name).max_players
        for players in args.players or range(low, high + 1):
            if not low <= players <= high:
                continue
            observation, actions = sizes(name, players)
            engine = bench_rl.engine(name, players, args.seconds).environment
            zoo_floor = pettingzoo_floor(players, observation, actions, args.seconds)
            spiel_floor = openspiel_floor(players, observation, actions, args.seconds)
            zoo = bench_rl.pettingzoo(name, players, args.seconds).environment
            spiel = bench_rl.openspiel(name, players, args.seconds).environment
            table.add_row(
                name, str(players), f"{engine:,.0f}",
                f"{zoo_floor:,.0f}", f"{ceiling(zoo_floor, engine):.0%}", f"{zoo / engine:.0%}",
                f"{spiel_floor:,.0f}", f"{ceiling(spiel_floor, engine):.0%}", f"{spiel / engine:.0%}",
            )  # fmt: skip
    console.print(table)


if __name__ == "__main__":
    main()
